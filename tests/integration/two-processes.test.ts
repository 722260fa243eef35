// Several app processes behind a load balancer (README, "Deploying on PostgreSQL"): two built
// servers (`node server.js`, production) on one PostgreSQL database and one bucket (s3rver on
// loopback), each with its own DATA_DIR (its outbox). Both start at the same moment on an empty
// database; a session made on one works on the other and, once signed out or revoked, is refused
// by both at once; a document uploaded through one downloads through the other; the sign-in
// limits count the attempts sent to both; the scheduled request reminder goes out once.
//
// PostgreSQL only (the embedded database serves one process): skipped unless DATABASE_URL is set.
// It needs the production build: it builds when the build is missing or older than the sources
// (`npm test` builds before its PostgreSQL run, so it finds the build fresh).
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildIfStale } from "../../scripts/build-if-stale.js";
import { freshSecrets } from "../../scripts/lib/server-process";
import { startServerOnFreePort } from "../helpers/server-port";
import type { RunningServer } from "../../scripts/lib/server-process";
import { AUTH_MESSAGES } from "~/domain/auth";
import { TEAM_MESSAGES } from "~/domain/team";
import { currentFilingYear } from "~/domain/tax-year";
import { createAccount } from "~/server/auth/accounts.server";
import { ACCOUNT_DEACTIVATED, getAuth } from "~/server/auth/better-auth.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, documentRequests, documents, scheduledJobs, session } from "~/server/db/schema";
import { REMINDERS_JOB } from "~/server/requests/reminders.server";
import { readOutbox } from "../helpers/outbox";
import { startS3Server } from "../helpers/s3-server";
import type { TestS3 } from "../helpers/s3-server";
import { makeStaff } from "./helpers";

const POSTGRES = Boolean(process.env.DATABASE_URL?.trim());
const YEAR = currentFilingYear();
const PASSWORD = "two processes, one database";
const DAY_MS = 24 * 60 * 60 * 1000;
/** The reminder job's interval in each process: 3 seconds (REMINDER_INTERVAL_MINUTES=0.05). */
const REMINDER_INTERVAL_MS = 3_000;

type Process = { name: "A" | "B"; server: RunningServer; dataDir: string; logFile: string };

let root = "";
let s3: TestS3 | undefined;
let a: Process;
let b: Process;
const started: Process[] = [];
let failed = false;

/** Kills what is still running when this worker exits without its afterAll (an interrupted run). */
function killLeftovers(): void {
  for (const p of started) if (p.server.child.exitCode === null) p.server.child.kill("SIGKILL");
}

/**
 * Empties the database: no table, no migration applied. What `npm test` runs after this file finds
 * the schema as the two servers' migrations left it (the same migrations setup.ts applies).
 */
async function emptyDatabase(): Promise<void> {
  await getDb().execute(
    sql.raw("drop schema if exists drizzle cascade; drop schema public cascade; create schema public"),
  );
}

async function startProcess(
  name: Process["name"],
  secrets: ReturnType<typeof freshSecrets>,
  bucket: TestS3,
): Promise<Process> {
  const dataDir = path.join(root, `data-${name}`);
  const logFile = path.join(root, `server-${name}.log`);
  const { server } = await startServerOnFreePort({
    dataDir,
    databaseUrl: process.env.DATABASE_URL!.trim(),
    secrets,
    logFile,
    env: {
      ...bucket.env,
      RATE_LIMIT_SCALE: "1",
      TRUST_PROXY: "loopback",
      STAFF_EMAIL: "staff@taxbridge.test",
      ADMIN_EMAIL: "",
      REMINDER_FIRST_RUN_SECONDS: "1",
      REMINDER_INTERVAL_MINUTES: String(REMINDER_INTERVAL_MS / 60_000),
    },
  }).catch((error: unknown) => {
    // Why it did not come up is in its log, which goes with the test's folder.
    throw new Error(`server ${name}: ${(error as Error).message}\n${tail(logFile)}`);
  });
  const running = { name, server, dataDir, logFile };
  started.push(running);
  return running;
}

function logOf(p: Pick<Process, "logFile">): string {
  return existsSync(p.logFile) ? readFileSync(p.logFile, "utf8") : "";
}

/** The last lines a server printed. */
function tail(logFile: string): string {
  return logOf({ logFile }).split("\n").slice(-60).join("\n");
}

// ------------------------------------------------------------------------------------------
// HTTP as a browser without JavaScript sends it: forms, cookies, redirects not followed.

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

async function send(
  p: Process,
  pathname: string,
  options: { cookie?: string; form?: Record<string, string>; body?: FormData; ip?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.ip) headers["x-forwarded-for"] = options.ip;
  const body = options.form ? new URLSearchParams(options.form) : options.body;
  return fetch(`${p.server.url}${pathname}`, {
    method: body ? "POST" : "GET",
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
}

/** The sign-in form's answer. */
function signInForm(email: string, password: string): Record<string, string> {
  return { intent: "signin", email, password, redirectTo: "" };
}

/** Signs in on `p` with the right password: the session's cookie. */
async function signIn(p: Process, email: string, home = "/dashboard"): Promise<string> {
  const response = await send(p, "/login", { form: signInForm(email, PASSWORD) });
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(home);
  const cookie = cookieOf(response);
  expect(cookie).toMatch(/^taxbridge\.session_token=\S+/);
  return cookie;
}

/** Text as React writes it into the page. */
function html(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/** A verified account with a password (made the way the app makes accounts): its id. */
async function account(name: string, email: string): Promise<string> {
  const id = await createAccount({ name, email, role: "user", emailVerified: true });
  const ctx = await getAuth().$context;
  await ctx.internalAdapter.linkAccount({
    userId: id,
    providerId: "credential",
    accountId: id,
    password: await ctx.password.hash(PASSWORD),
  });
  return id;
}

/** A real PDF of about 6 MB (more than one 5 MiB part: the bucket receives a multipart upload). */
function largePdf(): Buffer {
  return Buffer.concat([
    Buffer.from("%PDF-1.4\n%"),
    Buffer.from(randomBytes(4.5 * 1024 * 1024).toString("base64")),
    Buffer.from("\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"),
  ]);
}

describe.skipIf(!POSTGRES)("two server processes on one PostgreSQL and one bucket", () => {
  beforeAll(async () => {
    process.once("exit", killLeftovers);
    // Once per `npm test` at most: it builds before its PostgreSQL run, and this finds it fresh.
    buildIfStale();
    root = mkdtempSync(path.join(os.tmpdir(), "taxbridge-two-processes-"));
    s3 = await startS3Server("taxbridge-two-processes");
    await emptyDatabase();
    // Both at the same moment, as a deployment starts them: both apply (or wait for) the
    // pending migrations and come up; neither fails on the other's tables.
    const secrets = freshSecrets();
    const bucket = s3;
    const [first, second] = await Promise.allSettled([
      startProcess("A", secrets, bucket),
      startProcess("B", secrets, bucket),
    ]);
    if (first.status === "rejected" || second.status === "rejected") {
      failed = true;
      throw first.status === "rejected" ? first.reason : (second as PromiseRejectedResult).reason;
    }
    a = first.value;
    b = second.value;
  }, 600_000);

  afterEach((context) => {
    if (context.task.result?.state === "fail") failed = true;
  });

  afterAll(async () => {
    const codes = await Promise.all(started.map((p) => p.server.stop()));
    process.removeListener("exit", killLeftovers);
    await s3?.close();
    if (failed)
      for (const p of started) console.info(`--- server ${p.name}'s log (the end):\n${tail(p.logFile)}`);
    if (root) rmSync(root, { recursive: true, force: true });
    expect(codes, "both servers shut down cleanly").toEqual(started.map(() => 0));
  }, 60_000);

  it("both came up on the empty database, and its schema is complete", async () => {
    for (const p of [a, b]) expect((await fetch(`${p.server.url}/healthz`)).status).toBe(200);
    const applied = await getDb().execute(
      sql.raw("select count(*)::int as n from drizzle.__drizzle_migrations"),
    );
    const migrations = readdirSync("db/migrations").filter((f) => f.endsWith(".sql"));
    expect((applied as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(migrations.length);
  });

  it("a session made on A works on B; signed out on B, it is refused by both at once; a deactivated member's sessions end on both", async () => {
    await account("Tamsin Twofold", "tamsin@example.com");
    const cookie = await signIn(a, "tamsin@example.com");

    const onB = await send(b, `/my-tax-filing/${YEAR}`, { cookie });
    expect(onB.status).toBe(200);
    const page = await onB.text();
    expect(page).toContain(`${YEAR} tax filing`);
    expect(page).toContain("tamsin@example.com");

    const signedOut = await send(b, "/logout", { cookie, form: {} });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/");
    expect(signedOut.headers.getSetCookie().some((c) => /^taxbridge\.session_token=;/.test(c))).toBe(true);
    for (const p of [a, b]) {
      const refused = await send(p, `/my-tax-filing/${YEAR}`, { cookie });
      expect(refused.status, `server ${p.name}`).toBe(302);
      expect(refused.headers.get("location")).toBe(
        `/login?redirectTo=${encodeURIComponent(`/my-tax-filing/${YEAR}`)}`,
      );
    }

    // Revoked: an admin on B deactivates a preparer signed in on A and on B.
    const adminId = await account("Ada Admin", "ada@taxbridge.test");
    const preparerId = await account("Pat Preparer", "pat@taxbridge.test");
    const adminCookie = await signIn(b, "ada@taxbridge.test");
    const preparerOnA = await signIn(a, "pat@taxbridge.test");
    const preparerOnB = await signIn(b, "pat@taxbridge.test");
    // Staff now, with the second factor passed on these sessions.
    await makeStaff({ id: adminId }, "admin");
    await makeStaff({ id: preparerId }, "preparer");
    for (const [p, cookie] of [
      [a, preparerOnA],
      [b, preparerOnB],
      [a, preparerOnB],
      [b, preparerOnA],
    ] as const)
      expect((await send(p, "/admin/dashboard", { cookie })).status, `server ${p.name}`).toBe(200);

    const deactivated = await send(b, "/admin/team", {
      cookie: adminCookie,
      form: { intent: "deactivate", userId: preparerId },
    });
    expect(deactivated.status).toBe(200);
    expect(await deactivated.text()).toContain(html(TEAM_MESSAGES.deactivated));
    for (const [p, cookie] of [
      [a, preparerOnA],
      [b, preparerOnB],
      [a, preparerOnB],
      [b, preparerOnA],
    ] as const) {
      const refused = await send(p, "/admin/dashboard", { cookie });
      expect(refused.status, `server ${p.name}`).toBe(302);
      expect(refused.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fdashboard");
    }
    expect(await getDb().select().from(session).where(eq(session.userId, preparerId))).toEqual([]);
    // And no new session on either, with the right password.
    for (const p of [a, b]) {
      const again = await send(p, "/login", { form: signInForm("pat@taxbridge.test", PASSWORD) });
      expect(again.status, `server ${p.name}`).toBe(400);
      expect(again.headers.getSetCookie()).toEqual([]);
      expect(await again.text()).toContain(html(ACCOUNT_DEACTIVATED));
    }
    // The admin's own session goes on.
    expect((await send(a, "/admin/dashboard", { cookie: adminCookie })).status).toBe(200);
  });

  it("a document uploaded through A downloads byte for byte through B, from the bucket; another client gets a 404", async () => {
    const owner = await account("Uma Uploader", "uma@example.com");
    await account("Otto Other", "otto@example.com");
    const ownerCookie = await signIn(a, "uma@example.com");
    const pdf = largePdf();
    const form = new FormData();
    form.append("category", "w-2");
    form.append("files", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "w2-scan.pdf");
    const uploaded = await send(a, `/my-tax-filing/${YEAR}/documents`, { cookie: ownerCookie, body: form });
    expect(uploaded.status).toBe(200);
    const answer = (await uploaded.json()) as {
      uploaded: Array<{ id: string; name: string }>;
      refused: unknown[];
    };
    expect(answer.refused).toEqual([]);
    expect(answer.uploaded).toHaveLength(1);
    const [doc] = answer.uploaded;
    expect(doc!.name).toBe("w2-scan.pdf");

    // Stored once, in the bucket, exactly as sent; neither server's folder holds a file.
    const [row] = await getDb().select().from(documents).where(eq(documents.id, doc!.id));
    expect(row).toMatchObject({ clientId: owner, taxYear: YEAR, category: "w-2", size: pdf.length });
    expect(s3!.objectKeys()).toEqual([row!.storageKey]);
    expect(s3!.objectBytes(row!.storageKey).equals(pdf)).toBe(true);
    for (const p of [a, b]) {
      const uploads = path.join(p.dataDir, "uploads");
      expect(existsSync(uploads) ? readdirSync(uploads) : [], `server ${p.name}`).toEqual([]);
    }

    // The same session, on B.
    const download = await send(b, `/documents/${doc!.id}`, { cookie: ownerCookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toContain('filename="w2-scan.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);

    // Another client, on either server: the 404 of a document that does not exist.
    const otherCookie = await signIn(b, "otto@example.com");
    for (const p of [a, b]) {
      const refused = await send(p, `/documents/${doc!.id}`, { cookie: otherCookie });
      expect(refused.status, `server ${p.name}`).toBe(404);
      expect(await refused.text()).toBe("Document not found.");
    }
  });

  it("the sign-in limit counts the wrong passwords sent to A and to B together", async () => {
    await account("Gus Guessed", "gus@example.com");
    const ip = "203.0.113.77";
    // Eight wrong passwords for one address from one IP are allowed: four to each server here,
    // so each saw fewer than the limit on its own.
    for (let i = 0; i < 8; i++) {
      const p = i % 2 === 0 ? a : b;
      const response = await send(p, "/login", { form: signInForm("gus@example.com", `guess ${i}`), ip });
      expect(response.status, `attempt ${i + 1} on ${p.name}`).toBe(401);
      expect(await response.text()).toContain(html(AUTH_MESSAGES.invalidCredentials));
    }
    // The ninth is refused, on either server, even with the right password.
    for (const [p, password] of [
      [a, "guess 8"],
      [b, PASSWORD],
      [a, PASSWORD],
    ] as const) {
      const response = await send(p, "/login", { form: signInForm("gus@example.com", password), ip });
      expect(response.status, `server ${p.name}`).toBe(429);
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await response.text()).toContain(html(AUTH_MESSAGES.rateLimited));
    }
    const counted = await getDb().execute(
      sql`select count from rate_limits where key = ${`sign-in:email-ip:gus@example.com ${ip}`}`,
    );
    expect((counted as unknown as { rows: Array<{ count: number }> }).rows).toEqual([{ count: 11 }]);
    // The owner, from elsewhere, still signs in (on B).
    const owner = await send(b, "/login", {
      form: signInForm("gus@example.com", PASSWORD),
      ip: "198.51.100.4",
    });
    expect(owner.status).toBe(302);
    expect(owner.headers.get("location")).toBe("/dashboard");
  });

  it("the request reminder is sent once while both schedulers run the job", async () => {
    // Every time a process asks for the job (a BEFORE INSERT of its upsert) and every time one
    // takes it (the row written with its name as holder), recorded for this test only.
    await getDb().execute(
      sql.raw(`
        create table two_process_job_log (holder text not null, took boolean not null, at timestamptz not null default clock_timestamp());
        create function two_process_job_seen() returns trigger language plpgsql as $$
        begin
          insert into two_process_job_log (holder, took) values (new.locked_by, tg_when = 'AFTER');
          return new;
        end $$;
        create trigger two_process_job_asked before insert on scheduled_jobs for each row execute function two_process_job_seen();
        create trigger two_process_job_taken after insert or update on scheduled_jobs for each row when (new.locked_by is not null) execute function two_process_job_seen();
      `),
    );
    try {
      const clientId = await account("Rhea Reminded", "rhea@example.com");
      // One item requested eight days ago and still outstanding: a reminder is due.
      await getDb()
        .insert(documentRequests)
        .values({
          clientId,
          taxYear: YEAR,
          position: 1,
          title: "Bank statement for December",
          detail: "The one showing the transfer from Acme",
          state: "requested",
          outstandingSince: new Date(Date.now() - 8 * DAY_MS),
          createdAt: new Date(Date.now() - 8 * DAY_MS),
        });

      const pidOf = (holder: string) => Number(holder.match(/:(\d+):[0-9a-f]{8}$/)?.[1]);
      const log = async () =>
        (
          (await getDb().execute(
            sql.raw("select holder, took from two_process_job_log order by at"),
          )) as unknown as {
            rows: Array<{ holder: string; took: boolean }>;
          }
        ).rows.map((r) => ({ pid: pidOf(r.holder), took: r.took }));
      // Several intervals of both: each process asked at least three times, the job ran at least
      // three times (the first run sends the reminder, the later ones find nothing due).
      const pids = [a.server.child.pid, b.server.child.pid];
      await expect
        .poll(
          async () => {
            const entries = await log();
            return {
              askedByA: entries.filter((e) => !e.took && e.pid === pids[0]).length >= 3,
              askedByB: entries.filter((e) => !e.took && e.pid === pids[1]).length >= 3,
              runs: entries.filter((e) => e.took).length >= 3,
            };
          },
          { timeout: 8 * REMINDER_INTERVAL_MS, interval: 250 },
        )
        .toEqual({ askedByA: true, askedByB: true, runs: true });
      for (const entry of await log()) expect(pids).toContain(entry.pid);

      // One e-mail, in the outbox of the process that sent it, linking to that process's site.
      const reminders = [a, b].flatMap((p) =>
        readOutbox(p.dataDir)
          .filter((m) => m.to === "rhea@example.com")
          .map((m) => ({ process: p, mail: m })),
      );
      expect(reminders).toHaveLength(1);
      const [{ process: sender, mail }] = reminders as [(typeof reminders)[number]];
      expect(mail.subject).toBe(`Reminder: we still need 1 item for your ${YEAR} tax filing`);
      expect(mail.text).toContain(`See what we still need: ${sender.server.url}/my-tax-filing/${YEAR}`);
      expect(mail.raw).not.toContain("Bank statement");
      expect(mail.raw).not.toContain("Acme");
      // Its log says so; the other process's says nothing of it.
      const other = sender === a ? b : a;
      expect(logOf(sender).match(/\[reminders\] 1 reminder e-mail\(s\) sent/g)).toHaveLength(1);
      expect(logOf(other)).not.toContain("[reminders]");

      // The case is marked reminded, and the job's last finished run is recorded.
      const [caseRow] = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientId));
      expect(caseRow!.requestsRemindedAt).not.toBeNull();
      const [job] = await getDb().select().from(scheduledJobs).where(eq(scheduledJobs.name, REMINDERS_JOB));
      expect(job!.lastFinishedAt).not.toBeNull();
    } finally {
      await getDb().execute(
        sql.raw(`
          drop trigger if exists two_process_job_asked on scheduled_jobs;
          drop trigger if exists two_process_job_taken on scheduled_jobs;
          drop function if exists two_process_job_seen();
          drop table if exists two_process_job_log;
        `),
      );
    }
  });
});
