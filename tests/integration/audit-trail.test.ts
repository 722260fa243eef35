import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { workflowFrom } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { action as resetAction } from "~/routes/auth/reset-password";
import { assignCases, saveWorkflow } from "~/server/cases/workflow.server";
import { accountMailSent, startPasswordReset } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { auditPageQuery } from "~/server/audit/audit.server";
import { databaseKind, getDb } from "~/server/db/client.server";
import { auditLog, user } from "~/server/db/schema";
import { formRequest, routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// The audit trail (/admin/audit): choosing a password is recorded, the page shows the trail a
// page at a time with filters by client, actor and kind in its URL, and names people by name.

const audit = await routeModule("routes/admin/audit.tsx");
const team = await routeModule("routes/admin/team.tsx");
const dataDir = () => process.env.DATA_DIR!;
const YEAR = currentFilingYear();

type Page = {
  query: { client: string; actor: string; action: string; page: number };
  problems: string[];
  matching: number;
  more: boolean;
  pageCount: number;
  actors: Array<{ value: string; label: string }>;
  entries: Array<{ id: number; action: string; actorId: string | null; actorName: string | null; actorEmail: string | null; detail: string | null; ipAddress: string | null }>;
};

type Account = { id: string; cookie: string; actor: SessionUser };

async function account(email: string, name: string, role?: "admin" | "preparer"): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (role) await makeStaff(signedIn, role);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, actor };
}

let admin: Account;
let client: Account;

beforeEach(async () => {
  admin = await account("olivia@taxbridge.test", "Olivia Owner", "admin");
  client = await account("priya@example.com", "Priya Raman");
});

async function load(qs = "", cookie = admin.cookie): Promise<Page> {
  return unwrap<Page>(await audit.loader(routeArgs(withCookie(`/admin/audit${qs}`, cookie)) as never)).body;
}

/** `n` entries, the i-th newest `detail: entry i` (entry 1 the newest), a second apart. */
async function entries(n: number, values: Partial<typeof auditLog.$inferInsert> = {}) {
  const now = Date.now();
  await getDb()
    .insert(auditLog)
    .values(Array.from({ length: n }, (_, i) => ({ action: "case-viewed" as const, detail: `entry ${i + 1}`, at: new Date(now - (i + 1) * 1000), ...values })));
}

const linkIn = (text: string) => new URL(/http:\/\/localhost:3000\/reset-password\?token=\S+/.exec(text)![0]);

async function choosePassword(link: URL, password: string, ip: string): Promise<Response> {
  const token = link.searchParams.get("token")!;
  return (await resetAction(
    routeArgs(formRequest("/reset-password", { token, password, confirmPassword: password }), { clientIp: ip }) as never,
  ).catch((r: unknown) => r)) as Response;
}

describe("choosing a password is recorded", () => {
  it("through a staff invitation: password-set, by the account, with its IP and time, never the password or token", async () => {
    const invited = unwrap<{ ok: boolean }>(
      await team.action(
        routeArgs(formRequest("/admin/team", { intent: "invite", fullName: "Nina Preparer", email: "nina@taxbridge.test", role: "preparer" }, { cookie: admin.cookie }), { clientIp: "203.0.113.9" }) as never,
      ),
    );
    expect(invited.body.ok).toBe(true);
    const link = linkIn((await sentMail(dataDir())).find((m) => m.to.includes("nina@taxbridge.test"))!.text);
    const before = new Date();
    expect((await choosePassword(link, "nina password 1", "198.51.100.7")).headers.get("location")).toBe("/login?reset=1");

    const [nina] = await getDb().select().from(user).where(eq(user.email, "nina@taxbridge.test"));
    const rows = await getDb().select().from(auditLog).where(eq(auditLog.actorId, nina!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "password-set", actorEmail: "nina@taxbridge.test", clientId: null, detail: null, ipAddress: "198.51.100.7" });
    expect(rows[0]!.at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const stored = JSON.stringify(await getDb().select().from(auditLog));
    expect(stored).not.toContain("nina password 1");
    expect(stored).not.toContain(link.searchParams.get("token"));

    // The page names it, by whom.
    const page = await load("?action=password-set");
    expect(page.entries.map((e) => [e.action, e.actorName, e.actorEmail, e.ipAddress])).toEqual([
      ["password-set", "Nina Preparer", "nina@taxbridge.test", "198.51.100.7"],
    ]);
  });

  it("through a reset link: password-reset, for the client; a used link records nothing more", async () => {
    expect(startPasswordReset("priya@example.com", new Headers())).toBe(true);
    await accountMailSent();
    const link = linkIn((await sentMail(dataDir())).find((m) => m.subject.startsWith("Reset"))!.text);
    expect((await choosePassword(link, "new password 1", "192.0.2.44")).headers.get("location")).toBe("/login?reset=1");
    const used = unwrap<{ linkInvalid: boolean }>(await choosePassword(link, "other password 1", "192.0.2.44"));
    expect(used.body.linkInvalid).toBe(true);

    const rows = await getDb().select().from(auditLog).where(eq(auditLog.actorId, client.id));
    expect(rows.map((r) => [r.action, r.actorEmail, r.clientId, r.detail, r.ipAddress])).toEqual([
      ["password-reset", "priya@example.com", client.id, null, "192.0.2.44"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("new password 1");
  });
});

describe("paging", () => {
  it("50 entries a page, newest first: entry 201 is on page 5, and the links' pages are kept", async () => {
    await entries(230);
    const first = await load();
    expect(first).toMatchObject({ matching: 230, more: false, pageCount: 5, query: { page: 1 } });
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]!.detail).toBe("entry 1");

    const fifth = await load("?page=5");
    expect(fifth.entries.map((e) => e.detail)).toEqual(Array.from({ length: 30 }, (_, i) => `entry ${201 + i}`));
    expect((await load("?page=4")).entries.at(-1)!.detail).toBe("entry 200");
  });

  it("a page past the end shows the last one; a page that is not a number, the first", async () => {
    await entries(60);
    expect((await load("?page=99")).query.page).toBe(2);
    expect((await load("?page=99")).entries.map((e) => e.detail)).toEqual(Array.from({ length: 10 }, (_, i) => `entry ${51 + i}`));
    for (const bad of ["abc", "-3", "0", "1e9", "%00", "99999999999999999999"]) {
      const page = await load(`?page=${bad}`);
      expect(page.query.page, bad).toBe(1);
      expect(page.entries[0]!.detail).toBe("entry 1");
      expect(page.problems).toEqual([]);
    }
  });

  it("counts at most the newest 50,000 entries and says there are more", async () => {
    await getDb().execute(sql`insert into audit_log (action, at) select 'sign-in', now() - make_interval(secs => g) from generate_series(1, 50001) g`);
    const page = await load("?page=1000");
    expect(page).toMatchObject({ matching: 50000, more: true, pageCount: 1000, query: { page: 1000 } });
    expect(page.entries).toHaveLength(50);
    expect((await load("?page=1001")).query.page).toBe(1000);
  });
});

describe("filters", () => {
  let preparer: Account;
  beforeEach(async () => {
    preparer = await account("pat@taxbridge.test", "Pat Preparer", "preparer");
    await entries(3, { actorId: admin.id, actorEmail: admin.actor.email, action: "case-viewed", clientId: client.id });
    await entries(2, { actorId: preparer.id, actorEmail: preparer.actor.email, action: "note-added", clientId: client.id });
    await entries(1, { actorId: preparer.id, actorEmail: preparer.actor.email, action: "case-viewed" });
    await entries(4, { action: "sign-in-failed", detail: "someone@example.com: INVALID_EMAIL_OR_PASSWORD" });
  });

  it("by actor, by kind, by both and with the client search; the choices are the staff by name, and System", async () => {
    const all = await load();
    expect(all.matching).toBe(10);
    expect(all.actors).toEqual([
      { value: admin.id, label: "Olivia Owner" },
      { value: preparer.id, label: "Pat Preparer" },
      { value: "system", label: "System (nobody signed in)" },
    ]);
    const byPreparer = await load(`?actor=${preparer.id}`);
    expect(byPreparer.query.actor).toBe(preparer.id);
    expect(byPreparer.entries.map((e) => e.action).sort()).toEqual(["case-viewed", "note-added", "note-added"]);
    expect((await load("?actor=system")).entries.map((e) => e.action)).toEqual(Array(4).fill("sign-in-failed"));
    expect((await load("?action=case-viewed")).matching).toBe(4);
    const both = await load(`?actor=${preparer.id}&action=case-viewed`);
    expect(both.entries.map((e) => [e.actorName, e.action])).toEqual([["Pat Preparer", "case-viewed"]]);
    const withClient = await load(`?actor=${preparer.id}&action=note-added&client=priya`);
    expect(withClient.matching).toBe(2);
    expect((await load(`?actor=${admin.id}&action=note-added`)).entries).toEqual([]);
  });

  it("an actor who is not staff, or a kind that is not one, is left out and said so; nothing else changes", async () => {
    const notStaff = await load(`?actor=${client.id}`);
    expect(notStaff.problems).toEqual(["The person in this link is not on the staff; entries by anyone are shown."]);
    expect(notStaff).toMatchObject({ matching: 10, query: { actor: "" } });
    const badKind = await load("?action=%3Cscript%3E&actor=%00");
    expect(badKind.problems).toEqual([
      "The kind of entry in this link is not one the trail has; every kind is shown.",
      "The person in this link is not on the staff; entries by anyone are shown.",
    ]);
    expect(badKind.matching).toBe(10);
    const long = await load(`?action=case-viewed&actor=${"x".repeat(5000)}`);
    expect(long).toMatchObject({ matching: 4, query: { action: "case-viewed", actor: "" } });
  });

});

describe("people by name", () => {
  it("workflow and assignment entries name the assignee, with the id only where two staff share the name", async () => {
    const pat = await account("pat@taxbridge.test", "Pat Preparer", "preparer");
    const { flags, stage } = workflowFrom(["home", "taxinfo"]);
    await saveWorkflow(admin.actor, { clientId: client.id, taxYear: YEAR, flags, stage, assigneeId: pat.id }, "203.0.113.1");
    await assignCases(admin.actor, { taxYear: YEAR, clientIds: [client.id], assigneeId: pat.id }, "203.0.113.1");
    const other = await account("other@example.com", "Ravi Client");
    await assignCases(admin.actor, { taxYear: YEAR, clientIds: [client.id, other.id], assigneeId: null }, "203.0.113.1");

    const page = await load();
    const shown = page.entries.filter((e) => e.action === "workflow-saved" || e.action === "case-assigned");
    expect(shown.map((e) => [e.action, e.actorName, e.detail])).toEqual([
      ["case-assigned", "Olivia Owner", "Unassigned the case, one of 2 cases at once"],
      ["case-assigned", "Olivia Owner", "Unassigned the case, one of 2 cases at once"],
      ["case-assigned", "Olivia Owner", "Assigned the case to Pat Preparer"],
      ["workflow-saved", "Olivia Owner", "Workflow saved: stage DOCUMENTS; completed HOME, TAX INFO; assigned to Pat Preparer"],
    ]);
    expect(JSON.stringify(page.entries)).not.toContain(`assignee: ${pat.id}`);

    // A second Pat Preparer: now each is told apart by the account id.
    const twin = await account("pat.two@taxbridge.test", "Pat Preparer", "preparer");
    await assignCases(admin.actor, { taxYear: YEAR, clientIds: [client.id], assigneeId: twin.id }, "203.0.113.1");
    const again = await load("?action=case-assigned");
    expect(again.entries[0]!.detail).toBe(`Assigned the case to Pat Preparer (${twin.id})`);
    expect(again.entries.at(-1)!.detail).toBe(`Assigned the case to Pat Preparer (${pat.id})`);
    expect((await load()).actors.filter((a) => a.label.startsWith("Pat Preparer")).map((a) => a.label).sort()).toEqual([
      "Pat Preparer (pat.two@taxbridge.test)",
      "Pat Preparer (pat@taxbridge.test)",
    ]);
  });
});

// On PostgreSQL a page of the trail, however deep and whichever filter, is read in its order from
// an index (migration 0013): never a sort of every matching entry, never a lookup per skipped row.
describe.runIf(databaseKind() === "postgres")("query plans with 200,000 entries (PostgreSQL)", () => {
  it("reads each filter's page from its index", async () => {
    const db = getDb();
    await db.execute(sql`
      insert into audit_log (actor_id, action, client_id, at)
      select case when g % 50 = 0 then ${admin.id} when g % 7 = 0 then null else 'client-' || (g % 5000) end,
        (array['case-viewed','sign-in','workflow-saved','password-set','note-added'])[1 + g % 5],
        'client-' || (g % 5000), now() - make_interval(secs => g)
      from generate_series(1, 200000) g`);
    await db.execute(sql`vacuum analyze audit_log`);
    const explain = async (query: { sql: string; params: unknown[] }) => {
      const literal = query.sql.replace(/\$(\d+)/g, (_, i: string) => {
        const v = query.params[Number(i) - 1];
        return typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
      });
      const result = (await db.execute(sql.raw(`explain (analyze, costs off) ${literal}`))) as unknown as { rows: Array<Record<string, string>> };
      return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    };
    const cases = [
      [{}, "audit_log_at_idx"],
      [{ actor: admin.id }, "audit_log_actor_idx"],
      [{ actor: "system" }, "audit_log_"],
      [{ action: "password-set" as const }, "audit_log_action_idx"],
    ] as const;
    for (const [filter, index] of cases) {
      // The outer query sorts the page's 50 rows; the page itself (audit_log_1) is never sorted.
      const plan = await explain(auditPageQuery({ filter, limit: 50, offset: 3000 }).toSQL());
      expect(plan, JSON.stringify(filter)).toContain(`using ${index}`);
      expect(plan, JSON.stringify(filter)).not.toMatch(/Sort Key: audit_log_1|Seq Scan on audit_log/);
      const loops = [...plan.matchAll(/SubPlan[\s\S]*?loops=(\d+)/g)].map((m) => Number(m[1]));
      expect(Math.max(0, ...loops), JSON.stringify(filter)).toBeLessThanOrEqual(50);
    }
    // Both at once: the two indexes together, then the entries both find (never the table).
    const both = await explain(auditPageQuery({ filter: { actor: admin.id, action: "case-viewed" }, limit: 50, offset: 3000 }).toSQL());
    expect(both).toMatch(/audit_log_(actor|action)_idx/);
    expect(both).not.toMatch(/Seq Scan on audit_log/);
  });
});
