import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { SEASON_MESSAGES as M } from "~/domain/season";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, engagementLetters, mailOutbox, seasonStartClients, seasonStarts, user } from "~/server/db/schema";
import { countSeason, SEASON_BATCH, seasonRuns, startSeason, workSeasonStarts } from "~/server/engagement/season.server";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { sentInvoice } from "../helpers/fees";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { account, IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { withCookie } from "./helpers";

// The season's start (docs/product/engagement.md#the-seasons-start): an admin opens the new tax
// year for last year's clients (all, those who paid, those e-filed); each gets the year's case, its
// engagement letter and one e-mail through the outbox; a client who already has the year is left
// alone; a run stopped half way goes on, and nobody is sent anything twice; one run at a time; the
// page refuses everyone but admins.

const Y = currentFilingYear();
const LAST = Y - 1;
const page = routeModule("routes/admin/season.tsx");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

/** `n` clients with a case of last year only (made in SQL: no sessions), named in order. */
async function lastYearClients(n: number, tag: string): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `season-${tag}-${String(i).padStart(5, "0")}`);
  const db = getDb();
  for (let start = 0; start < n; start += 500) {
    const part = ids.slice(start, start + 500);
    await db.insert(user).values(part.map((id, k) => ({ id, name: `Client ${tag} ${start + k}`, email: `${id}@example.com`, emailVerified: true })));
    // The database gives a new account the season's case: it becomes last year's.
    await db.update(clientCases).set({ taxYear: LAST }).where(inArray(clientCases.userId, part));
    await db.insert(clientCases).values(part.map((id) => ({ userId: id, taxYear: LAST }))).onConflictDoNothing();
  }
  return ids;
}

const mails = () => getDb().select({ to: mailOutbox.recipient, kind: mailOutbox.kind, payload: mailOutbox.payload }).from(mailOutbox).where(eq(mailOutbox.kind, "engagement-letter"));
const casesOf = (year: number) => getDb().select({ id: clientCases.userId }).from(clientCases).where(eq(clientCases.taxYear, year));

beforeEach(async () => {
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  a = await account("alice@example.com", "Alice Aardvark");
  b = await account("bob@example.com", "Bob Bobolink");
  // Both signed up this season: move their case to last year.
  await getDb().update(clientCases).set({ taxYear: LAST }).where(sql`${clientCases.userId} in (${a.id}, ${b.id})`);
});

describe("choosing last year's clients", () => {
  it("counts every client of last year, those who paid last year's invoice, those e-filed, and those who have the year already", async () => {
    await sentInvoice(a.id, LAST, 30_000, "paid");
    await sentInvoice(b.id, LAST, 30_000, "sent");
    await getDb().update(clientCases).set({ efiling: true }).where(and(eq(clientCases.userId, b.id), eq(clientCases.taxYear, LAST)));
    expect(await countSeason(Y, "all")).toEqual({ taxYear: Y, filter: "all", chosen: 2, hadYear: 0 });
    expect(await countSeason(Y, "paid")).toMatchObject({ chosen: 1, hadYear: 0 });
    expect(await countSeason(Y, "filed")).toMatchObject({ chosen: 1, hadYear: 0 });
    // Bob opens the year himself: still chosen, counted as having it.
    await getDb().insert(clientCases).values({ userId: b.id, taxYear: Y });
    expect(await countSeason(Y, "all")).toMatchObject({ chosen: 2, hadYear: 1 });
    // Staff are never chosen; a deactivated client is not either.
    await getDb().update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, a.id));
    expect(await countSeason(Y, "all")).toMatchObject({ chosen: 1, hadYear: 1 });
  });
});

describe("a run", () => {
  it("opens the year with its letter and one e-mail (a link, no tax details) for each client, leaves alone who has it, and is audited", async () => {
    await getDb().insert(clientCases).values({ userId: b.id, taxYear: Y });
    // Alice told last year's taxpayer information: the letter gives her legal name from it.
    expect(await saveTaxpayerRecord(a.id, sampleTaxpayer, LAST)).toBe("created");
    const started = await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP);
    expect(started.ok).toBe(true);
    expect(await workSeasonStarts()).toEqual({ runs: 1, clients: 2, stopped: false });

    const letters = await getDb().select().from(engagementLetters);
    expect(letters.map((l) => [l.clientId, l.taxYear, l.service])).toEqual([[a.id, Y, "1040-nr"]]);
    expect(letters[0]!.text).toContain("Dear Ravi Kumar,");
    const sent = await mails();
    expect(sent).toEqual([{ to: "alice@example.com", kind: "engagement-letter", payload: { name: "Alice Aardvark", taxYear: Y, url: expect.stringMatching(new RegExp(`/my-tax-filing/${Y}/engagement$`)) } }]);
    const [run] = await seasonRuns();
    expect(run).toMatchObject({ taxYear: Y, filter: "all", startedBy: "Sam Admin", progress: { total: 2, opened: 1, hadYear: 1, gone: 0, failed: 0 } });
    expect(run!.finishedAt).not.toBeNull();
    const audit = await getDb().select({ action: auditLog.action, detail: auditLog.detail, actor: auditLog.actorEmail, client: auditLog.clientId }).from(auditLog).where(sql`${auditLog.action} in ('season-started', 'case-opened')`);
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "season-started", detail: `tax year ${Y}: every client with a case last year, 2 clients`, actor: "sam.admin@example.com", client: null },
        { action: "case-opened", detail: `tax year ${Y}, by the season's start`, actor: "sam.admin@example.com", client: a.id },
      ]),
    );
    expect(audit).toHaveLength(2);

    // Run again for the same clients: everybody has the year, nothing is sent.
    expect((await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP)).ok).toBe(true);
    await workSeasonStarts();
    expect(await mails()).toHaveLength(1);
    expect(await getDb().select().from(engagementLetters)).toHaveLength(1);
    expect((await seasonRuns())[0]!.progress).toEqual({ total: 2, opened: 0, hadYear: 2, gone: 0, failed: 0 });
  });

  it("stopped half way, goes on where it stopped: every client one case, one letter, one e-mail", async () => {
    const n = SEASON_BATCH * 3 + 7;
    const ids = await lastYearClients(n, "half");
    const total = n + 2;
    expect((await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: String(total) }, IP)).ok).toBe(true);
    // The process stops after the first batch.
    expect(await workSeasonStarts({ batches: 1 })).toEqual({ runs: 0, clients: SEASON_BATCH, stopped: true });
    const half = (await seasonRuns())[0]!;
    expect([half.finishedAt, half.progress]).toEqual([null, { total, opened: SEASON_BATCH, hadYear: 0, gone: 0, failed: 0 }]);
    // Another process (or the same, restarted) goes on.
    expect(await workSeasonStarts()).toEqual({ runs: 1, clients: total - SEASON_BATCH, stopped: false });
    const sent = await mails();
    expect(sent).toHaveLength(total);
    expect(new Set(sent.map((m) => m.to)).size).toBe(total);
    expect(await getDb().select().from(engagementLetters)).toHaveLength(total);
    expect((await casesOf(Y)).map((c) => c.id).sort()).toEqual([...ids, a.id, b.id].sort());
    expect((await seasonRuns())[0]!.progress).toEqual({ total, opened: total, hadYear: 0, gone: 0, failed: 0 });
    // A second pass finds nothing to do.
    expect(await workSeasonStarts()).toEqual({ runs: 0, clients: 0, stopped: false });
  });

  it("a client whose opening fails leaves nothing of theirs, stops no one else, and is counted; the run finishes", async () => {
    // Bob's new case cannot be stored: a check the database refuses for him alone.
    await getDb().execute(sql.raw(`alter table client_cases add constraint season_test_refuses check (user_id <> '${b.id}' or tax_year <> ${Y})`));
    try {
      expect((await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP)).ok).toBe(true);
      expect(await workSeasonStarts()).toEqual({ runs: 1, clients: 2, stopped: false });
    } finally {
      await getDb().execute(sql.raw("alter table client_cases drop constraint season_test_refuses"));
    }
    const [run] = await seasonRuns();
    expect([run!.finishedAt !== null, run!.progress]).toEqual([true, { total: 2, opened: 1, hadYear: 0, gone: 0, failed: 1 }]);
    expect((await casesOf(Y)).map((c) => c.id)).toEqual([a.id]);
    expect((await mails()).map((m) => m.to)).toEqual(["alice@example.com"]);
    // A new run opens the one that failed.
    expect((await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP)).ok).toBe(true);
    await workSeasonStarts();
    expect((await seasonRuns())[0]!.progress).toEqual({ total: 2, opened: 1, hadYear: 1, gone: 0, failed: 0 });
    expect((await mails()).map((m) => m.to).sort()).toEqual(["alice@example.com", "bob@example.com"]);
  });

  it("opens only the filter's clients", async () => {
    await sentInvoice(a.id, LAST, 30_000, "paid");
    expect((await startSeason(admin.actor, { year: String(Y), filter: "paid", confirmed: "1" }, IP)).ok).toBe(true);
    await workSeasonStarts();
    expect((await casesOf(Y)).map((c) => c.id)).toEqual([a.id]);
    expect((await mails()).map((m) => m.to)).toEqual(["alice@example.com"]);
  });

  it("refuses a bad year or filter, a count that changed, a set of nobody, a second run while one is under way, and a preparer, starting nothing", async () => {
    const refusals: [Parameters<typeof startSeason>[1], unknown][] = [
      [{ year: String(Y + 1), filter: "all", confirmed: "2" }, { ok: false, status: 400, errors: { year: M.badYear } }],
      [{ year: "20x5", filter: "everyone", confirmed: "2" }, { ok: false, status: 400, errors: { year: M.badYear, filter: M.badFilter } }],
      [{ year: String(Y), filter: "all", confirmed: "3" }, { ok: false, status: 409, errors: { confirmed: M.changed } }],
      [{ year: String(Y), filter: "paid", confirmed: "0" }, { ok: false, status: 400, errors: { form: M.nobody } }],
    ];
    for (const [input, answer] of refusals) expect(await startSeason(admin.actor, input, IP)).toEqual(answer);
    expect((await startSeason(preparer.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP)).ok).toBe(false);
    expect(await getDb().select().from(seasonStarts)).toEqual([]);
    expect(await getDb().select().from(seasonStartClients)).toEqual([]);

    expect((await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP)).ok).toBe(true);
    expect(await startSeason(admin.actor, { year: String(Y), filter: "all", confirmed: "2" }, IP)).toEqual({ ok: false, status: 409, errors: { form: M.running } });
    expect(await getDb().select().from(seasonStarts)).toHaveLength(1);
    // Nothing opened until the job works the run.
    expect(await casesOf(Y)).toEqual([]);
  });
});

describe("/admin/season", () => {
  const req = (cookie: string, init: RequestInit = {}, search = "") =>
    withCookie(`/admin/season${search}`, cookie, init);
  const start = (fields: Record<string, string>) => ({
    method: "POST",
    body: new URLSearchParams({ intent: "start", ...fields }),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

  it("is an admin's: a visitor signs in, each client is sent away, a preparer gets 403, an offshore preparer too; none of them starts a run", async () => {
    const { loader, action } = await page;
    const load = (cookie: string, search = "") => routeOutcome<{ count: { chosen: number; hadYear: number } | null }>(() => loader({ ...routeArgs(req(cookie, {}, search)), params: {} } as never));
    const post = (cookie: string) => routeOutcome(() => action({ ...routeArgs(req(cookie, start({ year: String(Y), filter: "all", confirmed: "2" }))), params: {} } as never));
    expect((await load("")).status).toBe(302);
    for (const who of [a, b]) {
      expect((await load(who.cookie)).status).toBe(302);
      expect((await post(who.cookie)).status).toBe(302);
    }
    expect((await load(preparer.cookie)).status).toBe(403);
    expect((await post(preparer.cookie)).status).toBe(403);
    await getDb().update(user).set({ worksOutsideUs: true }).where(eq(user.id, preparer.id));
    expect((await load(preparer.cookie)).status).toBe(403);
    expect(await getDb().select().from(seasonStarts)).toEqual([]);

    const counted = await load(admin.cookie, `?year=${Y}&filter=all`);
    expect([counted.status, counted.body.count]).toEqual([200, expect.objectContaining({ chosen: 2, hadYear: 0 })]);
    const started = await post(admin.cookie);
    expect([started.status, started.location]).toEqual([302, "/admin/season?started=1"]);
    expect(await getDb().select().from(seasonStarts)).toHaveLength(1);
  });
});
