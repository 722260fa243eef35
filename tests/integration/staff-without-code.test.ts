import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { createOrPromoteAdmin } from "../../ops/admin-accounts";
import { getDb } from "~/server/db/client.server";
import { clientCases, contactMessages, documents, staffSecondFactor, user } from "~/server/db/schema";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, signedInClient, withCookie } from "./helpers";

// A staff session that has not given its second-factor code, or staff who have never enrolled
// (an admin made with `npm run admin:create`), reach no client's data through any route of
// app/routes.ts: every loader and every action either sends them to give their code or answers
// with nothing of a client's, and no action changes anything. Each is run as the server runs
// it: behind the middleware of the root and of the layouts app/routes.ts places it under.

type RouteModule = { loader?: unknown; action?: unknown };

const modules = import.meta.glob<RouteModule>("/app/routes/**/*.{ts,tsx}");
const { action: uploadAction } = await routeModule("routes/admin/document-upload.ts");

function configuredRoutes(entries: readonly RouteConfigEntry[] = routeConfig, parent = ""): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    const here = entry.index || entry.path !== undefined ? [{ path: own === "" ? "/" : own, file: entry.file }] : [];
    return [...here, ...configuredRoutes(entry.children ?? [], own)];
  });
}

const VICTIM = { email: "victim.client@example.com", name: "Vera Victimova" };
const DOCUMENT_TEXT = "%PDF-1.4\n% victim-private-content\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";

let victim: { id: string; cookie: string };
let documentId: string;

beforeEach(async () => {
  victim = await signedInClient(VICTIM.email);
  await getDb().update(user).set({ name: VICTIM.name }).where(eq(user.id, victim.id));
  const staff = await signedInClient("passed.staff@example.com");
  await makeStaff(staff);
  const form = new FormData();
  form.append("category", "form-16");
  form.append("files", new Blob([DOCUMENT_TEXT], { type: "application/pdf" }), "victim-passport.pdf");
  const uploaded = (await uploadAction({
    ...routeArgs(withCookie(`/admin/clients/${victim.id}/documents/upload`, staff.cookie, { method: "POST", body: form })),
    params: { clientId: victim.id },
  })) as Response;
  expect(uploaded.status).toBe(200);
  documentId = ((await uploaded.json()) as { uploaded: Array<{ id: string }> }).uploaded[0]!.id;
});

/** Whatever a loader or action gave back (returned or thrown), as the text a browser could read. */
async function outcome(call: () => Promise<unknown> | unknown): Promise<{ status: number; location: string | null; text: string }> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    const location = result.status >= 300 && result.status < 400 ? result.headers.get("location") : null;
    return { status: result.status, location, text: result.body ? await result.text() : "" };
  }
  if (result instanceof Error) return { status: 500, location: null, text: `${result.name}: ${result.message}` };
  const { status, body } = unwrap(result);
  return { status, location: null, text: JSON.stringify(body ?? null) };
}

function urlFor(path: string): string {
  return path
    .replace(":clientId", victim.id)
    .replace(":documentId", documentId)
    .replace("/*", "/get-session")
    .replace(/^\*$/, "/no-such-page");
}

/** A POST that would change the victim's case, documents or messages if it were let through. */
function postFor(url: string, cookie: string): Request {
  if (url.endsWith("/upload")) {
    const form = new FormData();
    form.append("category", "form-16");
    form.append("files", new Blob([DOCUMENT_TEXT], { type: "application/pdf" }), "planted.pdf");
    return withCookie(url, cookie, { method: "POST", body: form });
  }
  const body = new URLSearchParams({ clientId: victim.id, assigneeId: "", documentIds: documentId, messageId: documentId });
  for (const key of ["home", "taxinfo", "documents"]) body.append("completed", key);
  return withCookie(url, cookie, { method: "POST", body });
}

const INTENTS = ["save-workflow", "view-case", "add-client", "remove", "mark-handled", ""];

async function walk(cookie: string): Promise<string[]> {
  const problems: string[] = [];
  const routes = configuredRoutes();
  expect(routes.length).toBeGreaterThan(30);
  for (const route of routes) {
    const load = modules[`/app/${route.file}`];
    if (!load) throw new Error(`no module for ${route.file}`);
    const module = await load();
    const { loader, action } = await routeModule(route.file);
    const url = urlFor(route.path);
    const params = { clientId: victim.id, documentId, "*": "get-session" };
    const calls: Array<{ label: string; call: () => Promise<unknown> | unknown }> = [];
    if (module.loader) {
      calls.push({ label: `GET ${route.path}`, call: () => loader({ ...routeArgs(withCookie(url, cookie)), params }) });
    }
    // Signing out is open to every session, and would end the one under test.
    if (module.action && route.path !== "/logout") {
      for (const intent of INTENTS) {
        const request = postFor(url, cookie);
        const withIntent = url.endsWith("/upload") || intent === "" ? request : withIntentField(request, intent);
        calls.push({ label: `POST ${route.path} ${intent}`, call: async () => action({ ...routeArgs(await withIntent), params }) });
      }
    }
    for (const { label, call } of calls) {
      const { status, location, text } = await outcome(call);
      for (const marker of [VICTIM.email, VICTIM.name, "victim-passport.pdf", "victim-private-content", victim.id, documentId])
        if (text.includes(marker)) problems.push(`${label} answered with the client's ${marker === victim.id ? "id" : marker}`);
      const staffOnly = route.path.startsWith("/admin") || route.path.startsWith("/documents") || ["/dashboard", "/my-tax-filing"].includes(route.path);
      // Answers that carry nothing: the staff pages' security pages themselves, /admin's redirect
      // to the staff list (which sends them on), and the upload address answering a GET with 405.
      const empty =
        route.path.startsWith("/admin/security/") ||
        (label === "GET /admin" && location === "/admin/dashboard") ||
        (label.startsWith("GET ") && route.path.endsWith("/upload") && status === 405);
      if (staffOnly && !empty && !/^\/admin\/security\/(setup|verify)\b/.test(location ?? ""))
        problems.push(`${label} did not send the session to its second factor (${location ?? "no redirect"})`);
    }
  }
  return problems;
}

async function withIntentField(request: Request, intent: string): Promise<Request> {
  const body = new URLSearchParams(await request.text());
  body.set("intent", intent);
  return new Request(request.url, { method: "POST", headers: request.headers, body });
}

async function nothingChanged(): Promise<void> {
  const [theCase] = await getDb().select().from(clientCases).where(eq(clientCases.userId, victim.id));
  expect({ home: theCase?.home, taxinfo: theCase?.taxinfo, documents: theCase?.documents, assignee: theCase?.assigneeId ?? null }).toEqual({
    home: false,
    taxinfo: false,
    documents: false,
    assignee: null,
  });
  expect((await getDb().select().from(documents)).map((d) => d.id)).toEqual([documentId]);
  expect(await getDb().select().from(contactMessages)).toHaveLength(0);
  expect((await getDb().select({ email: user.email }).from(user)).map((u) => u.email).sort()).toEqual(
    ["passed.staff@example.com", VICTIM.email, "waiting.staff@example.com"].sort(),
  );
}

describe("staff without their second factor", () => {
  it("an enrolled staff member's session that has not given its code reaches no client data through any route", async () => {
    const waiting = await signedInClient("waiting.staff@example.com");
    await makeStaff(waiting);
    // A new session: signed in with the password only.
    const { getAuth } = await import("~/server/auth/better-auth.server");
    const { headers } = await getAuth().api.signInEmail({
      body: { email: "waiting.staff@example.com", password: "a good password 1" },
      returnHeaders: true,
    });
    const cookie = headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await walk(cookie)).toEqual([]);
    await nothingChanged();
  });

  it("an admin made by admin:create who has not enrolled reaches no client data through any route", async () => {
    const waiting = await signedInClient("waiting.staff@example.com");
    await createOrPromoteAdmin("waiting.staff@example.com");
    expect(await getDb().select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, waiting.id))).toHaveLength(0);
    expect(await walk(waiting.cookie)).toEqual([]);
    await nothingChanged();
  });
});
