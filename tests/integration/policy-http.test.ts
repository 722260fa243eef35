// The staff policy as an attacker meets it: the built server (`node server.js`) on this run's
// database (PGlite in a folder of its own, or PostgreSQL when DATABASE_URL is set), an admin and a
// preparer whose sessions have passed the second factor, and every admin-only route asked for by
// addresses the router reaches the same page with: other letter cases, percent-encoded letters,
// a trailing slash, and each one's .data address, as pages and as actions. The admin is answered
// by the page on each (so each address does reach it), the preparer is refused (403) on each, and
// no refused action changes anything.
//
// It needs the production build: it builds when the build is missing or older than the sources
// (`npm test` builds first, so it finds the build fresh).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildIfStale } from "../../scripts/build-if-stale.js";
import { freshSecrets, runFixtureDb } from "../../scripts/lib/server-process";
import { freePort, startServerOnFreePort } from "../helpers/server-port";
import type { RunningServer, ServerConfig } from "../../scripts/lib/server-process";
import type { SeedFile } from "../../scripts/lib/fixtures";
import { NOT_FOR_YOUR_ROLE, STAFF_POLICY, STAFF_ROUTES } from "~/domain/policy";
import { currentFilingYear } from "~/domain/tax-year";
import { readOutbox } from "../helpers/outbox";

/** The routes of the panel that the policy keeps for admins. */
const ADMIN_ONLY = Object.entries(STAFF_ROUTES)
  .filter(([, area]) => !STAFF_POLICY[area].includes("preparer"))
  .map(([pattern]) => pattern);

/** `text` with every character percent-encoded (upper-case hex), or only the one at `at` (lower-case). */
function percentEncoded(text: string, at?: number): string {
  return [...text]
    .map((c, i) => {
      if (at !== undefined && i !== at) return c;
      const hex = c.charCodeAt(0).toString(16);
      return `%${at === undefined ? hex.toUpperCase() : hex}`;
    })
    .join("");
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The addresses of the page at `pattern` (/admin/<name>) that the router answers with that page,
 * the canonical one first.
 */
function addressesOf(pattern: string): string[] {
  const name = pattern.slice("/admin/".length);
  return [
    pattern,
    `/admin/${capitalised(name)}`,
    `/admin/${name.toUpperCase()}`,
    `/ADMIN/${name}`,
    `/Admin/${capitalised(name)}`,
    `/admin/${percentEncoded(name, 2)}`,
    `/admin/${percentEncoded(name)}`,
    `/%61dmin/${name}`,
    `/%41DMIN/${percentEncoded(name.toUpperCase(), 1)}`,
    `${pattern}/`,
    `/admin/${capitalised(name)}/`,
  ];
}

/** A page's address and its data address (what the browser fetches when it moves to the page). */
function requestsOf(pattern: string): string[] {
  return addressesOf(pattern).flatMap((address) =>
    address.endsWith("/") ? [address] : [address, `${address}.data`],
  );
}

let server: RunningServer | undefined;
const root = mkdtempSync(path.join(os.tmpdir(), "taxbridge-policy-"));

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function send(
  address: string,
  cookie: string,
  form?: Record<string, string>,
): Promise<{ status: number; text: string }> {
  try {
    const response = await fetch(`${server!.url}${address}`, {
      method: form ? "POST" : "GET",
      headers: { cookie, origin: server!.url },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    // A connection that failed says what the server was doing: whether it had exited, and its last words.
    const log = readFileSync(path.join(root, "server.log"), "utf8").slice(-3000);
    const { exitCode, signalCode } = server!.child;
    throw new Error(`${form ? "POST" : "GET"} ${address} failed (server exit code ${exitCode}, signal ${signalCode}); the server's log ends:\n${log}`, { cause: error });
  }
}

describe("the staff policy over HTTP, whatever the address's case or encoding", () => {
  it("answers admins and refuses preparers every admin-only page, data request and action", { timeout: 600_000 }, async () => {
    expect(ADMIN_ONLY.sort()).toEqual(["/admin/audit", "/admin/clients.csv", "/admin/engagement", "/admin/messages", "/admin/notices", "/admin/payments", "/admin/payments.csv", "/admin/season", "/admin/team"]);
    buildIfStale();
    const config: Omit<ServerConfig, "port"> = {
      dataDir: path.join(root, "data"),
      databaseUrl: process.env.DATABASE_URL?.trim() ?? "",
      secrets: freshSecrets(),
      logFile: path.join(root, "server.log"),
      env: { RATE_LIMIT_SCALE: "1000", ADMIN_EMAIL: "", STAFF_EMAIL: "staff@taxbridge.test" },
    };
    mkdirSync(config.dataDir, { recursive: true });
    const seedFile = path.join(root, "seed.json");
    // The seeding script runs with the server's settings; nothing listens on its port.
    await runFixtureDb({ ...config, port: await freePort() }, ["seed", "--out", seedFile, "--admin", "--preparer", "--signed-in", "1"]);
    const seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
    const admin = seeded.admin!;
    const preparer = seeded.preparer!;
    ({ server } = await startServerOnFreePort(config));

    // A preparer works on cases by any address; the refusals below are the policy's, not the router's.
    expect((await send("/admin/DASHBOARD", preparer.cookie)).status).toBe(200);

    const wrong: string[] = [];
    let asked = 0;
    for (const pattern of ADMIN_ONLY) {
      for (const address of requestsOf(pattern)) {
        asked += 1;
        const asAdmin = await send(address, admin.cookie);
        if (asAdmin.status !== 200) wrong.push(`admin GET ${address}: ${asAdmin.status}`);
        const asPreparer = await send(address, preparer.cookie);
        if (asPreparer.status !== 403 || !asPreparer.text.includes(NOT_FOR_YOUR_ROLE))
          wrong.push(`preparer GET ${address}: ${asPreparer.status}`);
        const posted = await send(address, preparer.cookie, { intent: "mark-handled", messageId: "x" });
        if (posted.status !== 403) wrong.push(`preparer POST ${address}: ${posted.status}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(asked).toBe(ADMIN_ONLY.length * 20);

    // A case and its sections (preparers' part of the panel) by every address: a preparer reaches
    // each, a client is sent to their own home from each, page or data request or post (a data
    // request's redirect is a 202 whose body names the place), and a client's post changes nothing.
    const client = seeded.clients[0]!;
    const year = currentFilingYear();
    const caseRoutes = Object.keys(STAFF_ROUTES).filter((p) => p.startsWith("/admin/clients/:clientId/:year"));
    expect(caseRoutes.length).toBe(12);
    const caseWrong: string[] = [];
    for (const pattern of caseRoutes) {
      const path = pattern.replace(":clientId", client.id).replace(":year", String(year));
      const last = path.split("/").at(-1)!;
      const head = path.slice(0, -last.length);
      const addresses = [
        path,
        `${head}${last.toUpperCase()}`,
        `${head}${percentEncoded(last, 1)}`,
        path.replace("/admin/clients/", "/ADMIN/Clients/"),
        `${path}/`,
        `${path}.data`,
      ];
      for (const address of addresses) {
        const asPreparer = await send(address, preparer.cookie);
        if (asPreparer.status !== 200) caseWrong.push(`preparer GET ${address}: ${asPreparer.status}`);
        const asClient = await send(address, client.cookie);
        const redirected = address.endsWith(".data") ? [202] : [302];
        if (!redirected.includes(asClient.status) || asClient.text.includes(client.email))
          caseWrong.push(`client GET ${address}: ${asClient.status}`);
        const posted = await send(address, client.cookie, { intent: "add-note", body: "A client's note" });
        if (!redirected.includes(posted.status)) caseWrong.push(`client POST ${address}: ${posted.status}`);
      }
    }
    expect(caseWrong).toEqual([]);
    const notes = await send(`/admin/clients/${client.id}/${year}/notes`, admin.cookie);
    expect(notes.status).toBe(200);
    expect(notes.text).not.toContain("A client&#x27;s note");
    expect(notes.text).not.toContain("A client's note");

    // The team page's actions by every address: no invitation goes out, no admin is deactivated.
    const invited = "preparer.wants.admin@example.com";
    for (const address of requestsOf("/admin/team")) {
      const invite = await send(address, preparer.cookie, { intent: "invite", fullName: "Me Again", email: invited, role: "admin" });
      const deactivate = await send(address, preparer.cookie, { intent: "deactivate", userId: admin.id });
      expect([address, invite.status, deactivate.status]).toEqual([address, 403, 403]);
    }
    expect(readOutbox(config.dataDir).filter((mail) => mail.to.includes(invited))).toEqual([]);
    const team = await send("/admin/team", admin.cookie);
    expect(team.status).toBe(200);
    expect(team.text).not.toContain(invited);
  });
});
