import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, databaseKind } from "~/server/db/client.server";
import { account, auditLog, clientCases, contactMessages, documents, user } from "~/server/db/schema";
import { getAuth } from "~/server/auth/better-auth.server";
import { atMoment } from "../helpers/clock";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";
import { currentFilingYear } from "~/domain/tax-year";

// The panel's forms name the case's tax year; a new client's case is the filing season's.
const taxYear = String(currentFilingYear());

// Run behind the root's and the admin layouts' middleware, as the server runs them.
const { action: dashboardAction, loader: dashboardLoader } = await routeModule("routes/admin/dashboard.tsx");
const { loader: csvLoader } = await routeModule("routes/admin/clients-csv.ts");
const { action: messagesAction, loader: messagesLoader } = await routeModule("routes/admin/messages.tsx");
const { loader: auditLoader } = await routeModule("routes/admin/audit.tsx");
const { loader: shellLoader } = await routeModule("routes/admin/layout.tsx");

let admin: { id: string; cookie: string };
let client: { id: string; cookie: string };

beforeEach(async () => {
  admin = await signedInClient("staff@example.com");
  await makeStaff(admin);
  client = await signedInClient("client@example.com");
});

const post = (url: string, cookie: string, fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  return withCookie(url, cookie, { method: "POST", body });
};

async function thrown(fn: () => Promise<unknown>): Promise<Response> {
  try {
    await fn();
  } catch (r) {
    if (r instanceof Response) return r;
    throw r;
  }
  throw new Error("expected a redirect");
}

describe("admin access", () => {
  it("refuses every admin loader and action to clients and visitors", async () => {
    const calls: Array<(cookie: string) => Promise<unknown>> = [
      (c) => dashboardLoader(routeArgs(withCookie("/admin/dashboard", c)) as never),
      (c) => dashboardAction(routeArgs(post("/admin/dashboard", c, { intent: "save-workflow", clientId: client.id, completed: ["home"] })) as never),
      (c) => csvLoader(routeArgs(withCookie("/admin/clients.csv", c)) as never),
      (c) => messagesLoader(routeArgs(withCookie("/admin/messages", c)) as never),
      (c) => messagesAction(routeArgs(post("/admin/messages", c, { intent: "mark-handled", messageId: "00000000-0000-0000-0000-000000000000" })) as never),
      (c) => auditLoader(routeArgs(withCookie("/admin/audit", c)) as never),
    ];
    for (const call of calls) {
      expect((await thrown(() => call(client.cookie))).headers.get("location")).toBe("/dashboard");
      expect((await thrown(() => call(""))).headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    }
    const [row] = await getDb().select().from(clientCases).where(eq(clientCases.userId, client.id));
    expect(row?.home ?? false).toBe(false);
  });
});

describe("admin panel", () => {
  it("lists clients with counters, filters by section and search, and pages by 10", async () => {
    for (let i = 0; i < 11; i++) await signedInClient(`bulk${i}@example.com`);
    const load = async (qs: string) =>
      unwrap<{ rows: Array<{ email: string; code: string }>; matching: number; counters: Record<string, number>; pageCount: number }>(
        await dashboardLoader(routeArgs(withCookie(`/admin/dashboard${qs}`, admin.cookie)) as never),
      ).body;
    const home = await load("");
    expect(home.matching).toBe(12);
    expect(home.rows).toHaveLength(10);
    expect(home.pageCount).toBe(2);
    expect(home.counters).toEqual({ total: 12, active: 12, pendingDocuments: 0, completed: 0 });
    expect((await load("?page=2")).rows).toHaveLength(2);
    expect((await load("?q=CLIENT@")).rows.map((r) => r.email)).toEqual(["client@example.com"]);
    expect(home.rows.every((r) => /^TB-\d{5}$/.test(r.code))).toBe(true);
    expect((await load("?section=documents")).matching).toBe(0);
    // A page number past any list, even past what a number can page to, shows the last page.
    for (const page of ["3", "99999999999999999999", "9".repeat(400)]) {
      const past = unwrap<{ rows: unknown[]; query: { page: number } }>(
        await dashboardLoader(routeArgs(withCookie(`/admin/dashboard?page=${page}`, admin.cookie)) as never),
      ).body;
      expect(past.query.page).toBe(2);
      expect(past.rows).toHaveLength(2);
      expect((await load(`?q=bulk&page=${page}`)).rows).toHaveLength(1);
    }
  });

  it("saves workflow flags, recomputes the stage, keeps it across loads, and audits it", async () => {
    const save = await dashboardAction(
      routeArgs(post("/admin/dashboard", admin.cookie, { intent: "save-workflow", clientId: client.id, taxYear, completed: ["home", "taxinfo"], assigneeId: admin.id })) as never,
    );
    expect(unwrap<{ ok: boolean }>(save).body.ok).toBe(true);
    const [row] = await getDb().select().from(clientCases).where(eq(clientCases.userId, client.id));
    expect(row).toMatchObject({ home: true, taxinfo: true, documents: false, currentStage: "documents", assigneeId: admin.id, updatedBy: admin.id });
    const docs = unwrap<{ rows: Array<{ id: string }>; counters: Record<string, number> }>(
      await dashboardLoader(routeArgs(withCookie("/admin/dashboard?section=documents", admin.cookie)) as never),
    ).body;
    expect(docs.rows.map((r) => r.id)).toEqual([client.id]);
    expect(docs.counters.pendingDocuments).toBe(1);
    const audit = await getDb().select().from(auditLog).where(eq(auditLog.action, "workflow-saved"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, clientId: client.id });
  });

  it("opening a client's case is written to the audit trail", async () => {
    const res = unwrap<{ ok: boolean }>(await dashboardAction(routeArgs(post("/admin/dashboard", admin.cookie, { intent: "view-case", clientId: client.id, taxYear })) as never));
    expect(res.body.ok).toBe(true);
    const unknown = unwrap<{ ok: boolean }>(await dashboardAction(routeArgs(post("/admin/dashboard", admin.cookie, { intent: "view-case", clientId: "nope", taxYear })) as never));
    expect(unknown.status).toBe(404);
    const rows = await getDb().select().from(auditLog).where(eq(auditLog.action, "case-viewed"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: admin.id, clientId: client.id });
  });

  it("all flags set means FINAL COPIES and Completed", async () => {
    const all = ["home", "taxinfo", "documents", "preparation", "draft", "payment", "efiling", "finalcopies"];
    await dashboardAction(routeArgs(post("/admin/dashboard", admin.cookie, { intent: "save-workflow", clientId: client.id, taxYear, completed: all })) as never);
    const body = unwrap<{ counters: Record<string, number> }>(await dashboardLoader(routeArgs(withCookie("/admin/dashboard", admin.cookie)) as never)).body;
    expect(body.counters).toMatchObject({ completed: 1, active: 0 });
  });

  it("exports the filtered list as CSV with formulas neutralised", async () => {
    await getDb().update(user).set({ name: "=HYPERLINK(\"http://evil\")" }).where(eq(user.id, client.id));
    const res = (await csvLoader(routeArgs(withCookie("/admin/clients.csv?q=client@", admin.cookie)) as never)) as Response;
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="taxbridge-clients-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = await res.text();
    expect(csv.split("\r\n")[0]).toContain('"Client ID"');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv.trim().split("\r\n")).toHaveLength(2);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"))).toHaveLength(1);
  });

  it("names the exports after New York's day, not UTC's", async () => {
    const { loader: paymentsCsvLoader } = await routeModule("routes/admin/payments-csv.ts");
    // 9:30 pm EST on January 30, 2026: already January 31 in UTC.
    const [clients, payments] = await atMoment("2026-01-31T02:30:00Z", async () => [
      (await csvLoader(routeArgs(withCookie("/admin/clients.csv", admin.cookie)) as never)) as Response,
      (await paymentsCsvLoader(routeArgs(withCookie("/admin/payments.csv", admin.cookie)) as never)) as Response,
    ]);
    expect(clients!.headers.get("content-disposition")).toBe('attachment; filename="taxbridge-clients-2026-01-30.csv"');
    expect(payments!.headers.get("content-disposition")).toBe('attachment; filename="taxbridge-payments-2026-01-30.csv"');
    await clients!.text();
    await payments!.text();
  });

  it("streams the export of a large year a batch at a time: every client once, newest first, audited first", async () => {
    await getDb().execute(sql`
      insert into "user" (id, name, email, email_verified, role)
      select 'many-' || g, 'Many Client ' || g, 'many' || g || '@example.net', true, 'user' from generate_series(1, 2500) g`);
    const res = (await csvLoader(routeArgs(withCookie("/admin/clients.csv", admin.cookie)) as never)) as Response;
    // Recorded before anything is sent, with the count of the list.
    const [entry] = await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"));
    expect(entry?.detail).toBe(`2501 clients of tax year ${taxYear}`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const sizes: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      sizes.push(next.value.byteLength);
      text += decoder.decode(next.value, { stream: true });
    }
    // The header, then the cases in chunks of 200 (3 batches of at most 1,000): none is large.
    expect(sizes).toHaveLength(1 + 5 + 5 + 3);
    expect(Math.max(...sizes)).toBeLessThan(64 * 1024);
    const lines = text.split("\r\n");
    expect(lines.at(-1)).toBe("");
    const rows = lines.slice(1, -1).map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!));
    expect(rows).toHaveLength(2501);
    expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: 2501 }, (_, i) => i + 1));
    const numbers = rows.map((r) => Number(r[1]!.slice(3)));
    expect(numbers.every((n, i) => i === 0 || n < numbers[i - 1]!)).toBe(true);
    expect(rows.filter((r) => r[3] === "client@example.com")).toHaveLength(1);
    expect(rows[0]![2]).toBe("Many Client 2500");
  });

  it("adds a client and e-mails an invitation to set a password", async () => {
    const res = unwrap<{ ok: boolean; email?: string; error?: string }>(
      await dashboardAction(
        routeArgs(post("/admin/dashboard", admin.cookie, { intent: "add-client", name: "Noor Haddad", email: "noor@example.com", phone: "", visaStatus: "J-1" })) as never,
      ),
    );
    expect(res.body).toEqual({ intent: "add-client", ok: true, email: "noor@example.com"});
    const [created] = await getDb().select().from(user).where(eq(user.email, "noor@example.com"));
    expect(created).toMatchObject({ role: "user", emailVerified: true });
    const mail = (await sentMail()).find((m) => m.to === "noor@example.com");
    expect(mail?.text).toMatch(/http:\/\/localhost:3000\/reset-password\?token=\S+/);
    const again = unwrap<{ ok: boolean; error?: string }>(
      await dashboardAction(
        routeArgs(post("/admin/dashboard", admin.cookie, { intent: "add-client", name: "Noor", email: "noor@example.com", phone: "", visaStatus: "J-1" })) as never,
      ),
    );
    expect(again.status).toBe(409);
    const bad = unwrap<{ error?: string }>(
      await dashboardAction(routeArgs(post("/admin/dashboard", admin.cookie, { intent: "add-client", name: "", email: "x@example.com", phone: "", visaStatus: "" })) as never),
    );
    expect(bad.body.error).toBe("Full name is required");
  });

  it("adds a client with no password at all: the client chooses one through the invitation", async () => {
    const sent = { intent: "add-client", name: "Ines Duarte", email: "ines@example.com", phone: "", visaStatus: "F-1", password: "typed by staff 1" };
    const res = unwrap<{ ok: boolean }>(await dashboardAction(routeArgs(post("/admin/dashboard", admin.cookie, sent)) as never));
    expect(res.body).toEqual({ intent: "add-client", ok: true, email: "ines@example.com" });
    const [created] = await getDb().select().from(user).where(eq(user.email, "ines@example.com"));
    expect(await getDb().select().from(account).where(eq(account.userId, created!.id))).toEqual([]);
    for (const password of ["typed by staff 1", "placeholder-not-used"]) {
      await expect(getAuth().api.signInEmail({ body: { email: "ines@example.com", password } })).rejects.toThrow();
    }
  });

  it("lists contact messages newest first and marks one handled", async () => {
    await getDb().insert(contactMessages).values([
      { name: "Old", email: "old@example.com", subject: "First", description: "The first message here." , createdAt: new Date("2026-01-01")},
      { name: "New", email: "new@example.com", subject: "Second", description: "The second message here." },
    ]);
    const list = unwrap<{ messages: Array<{ id: string; subject: string; handledAt: string | null }> }>(
      await messagesLoader(routeArgs(withCookie("/admin/messages", admin.cookie)) as never),
    ).body.messages;
    expect(list.map((m) => m.subject)).toEqual(["Second", "First"]);
    const done = unwrap<{ ok: boolean }>(await messagesAction(routeArgs(post("/admin/messages", admin.cookie, { intent: "mark-handled", messageId: list[0]!.id })) as never));
    expect(done.body.ok).toBe(true);
    const [row] = await getDb().select().from(contactMessages).where(eq(contactMessages.id, list[0]!.id));
    expect(row!.handledAt).not.toBeNull();
  });
});

describe("audit trail", () => {
  it("the database refuses UPDATE and DELETE on it", async () => {
    await getDb().insert(auditLog).values({ action: "sign-in", actorEmail: "x@example.com" });
    await expect(getDb().execute(sql`update audit_log set action = 'changed'`)).rejects.toThrow();
    await expect(getDb().execute(sql`delete from audit_log`)).rejects.toThrow();
    expect(await getDb().select().from(auditLog)).toHaveLength(1);
    expect(["postgres", "pglite"]).toContain(databaseKind());
  });

  it("lists entries newest first, filtered by client", async () => {
    await getDb().insert(auditLog).values([
      { action: "sign-in", clientId: client.id, at: new Date("2026-01-01") },
      { action: "workflow-saved", clientId: client.id },
      { action: "clients-exported" },
    ]);
    const all = unwrap<{ entries: Array<{ action: string }> }>(await auditLoader(routeArgs(withCookie("/admin/audit", admin.cookie)) as never)).body.entries;
    expect(all.map((e) => e.action)).toEqual(["clients-exported", "workflow-saved", "sign-in"]);
    const one = unwrap<{ entries: Array<{ action: string }> }>(await auditLoader(routeArgs(withCookie(`/admin/audit?client=${client.id}`, admin.cookie)) as never)).body.entries;
    expect(one.map((e) => e.action)).toEqual(["workflow-saved", "sign-in"]);
  });
});

describe("audit trail client filter", () => {
  type AuditPage = {
    entries: Array<{ action: string; clientId: string | null; clientLabel: string | null }>;
    query: { client: string };
    matchingClients: number | null;
  };
  const load = async (qs: string) =>
    unwrap<AuditPage>(await auditLoader(routeArgs(withCookie(`/admin/audit${qs}`, admin.cookie)) as never)).body;

  it("finds a client by case number, name or e-mail, and shows no other client's entries", async () => {
    const other = await signedInClient("ottilie.brandt@example.com");
    await getDb().insert(auditLog).values([
      { action: "case-viewed", clientId: client.id },
      { action: "document-uploaded", clientId: other.id },
      { action: "clients-exported" },
    ]);
    const [otherCase] = await getDb().select().from(clientCases).where(eq(clientCases.userId, other.id));
    const code = `TB-${String(otherCase!.number).padStart(5, "0")}`;

    for (const search of [code, "ottilie", "OTTILIE.BRANDT@example.com", other.id]) {
      const page = await load(`?client=${encodeURIComponent(search)}`);
      expect(page.matchingClients).toBe(1);
      expect(page.entries.map((e) => e.action)).toEqual(["document-uploaded"]);
      expect(page.entries[0]!.clientLabel).toBe(`${code} ottilie.brandt`);
    }

    const all = await load("");
    expect(all.matchingClients).toBeNull();
    expect(all.entries.map((e) => e.action)).toEqual(["clients-exported", "document-uploaded", "case-viewed"]);
    // The panel's frame counts the clients; the page carries the entries, not a list of every client.
    expect(unwrap<{ totalClients: number }>(await shellLoader(routeArgs(withCookie("/admin/audit", admin.cookie)))).body).toMatchObject({ totalClients: 2 });
    expect(Object.keys(all).sort()).toEqual(["actors", "entries", "matching", "matchingClients", "more", "pageCount", "problems", "query"]);
  });

  it("a search that finds no client shows no entries and says so; pattern characters are taken literally", async () => {
    await getDb().insert(auditLog).values({ action: "case-viewed", clientId: client.id });
    for (const search of ["nobody-at-all", "%", "_", "' or 1=1 --"]) {
      const page = await load(`?client=${encodeURIComponent(search)}`);
      expect(page.matchingClients).toBe(0);
      expect(page.entries).toEqual([]);
      expect(page.query.client).toBe(search);
    }
    expect((await load(`?client=${"x".repeat(500)}`)).query.client).toHaveLength(100);
  });
});

describe("demo seed", () => {
  it("fills an empty database with clients at every stage, and only once", async () => {
    await getDb().delete(user).where(eq(user.role, "user"));
    const { seedDemo } = await import("../../ops/demo-seed");
    expect(await seedDemo()).toBe(16);
    const cases = await getDb().select().from(clientCases);
    expect(new Set(cases.map((c) => c.currentStage)).size).toBe(8);
    const docs = await getDb().select().from(documents);
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((d) => d.contentType === "application/pdf")).toBe(true);
    expect(await seedDemo()).toBe(0);
  });
});
