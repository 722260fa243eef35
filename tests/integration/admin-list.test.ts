import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { PgDialect } from "drizzle-orm/pg-core";
import { caseYears, caseYearsQuery, clientListQuery, findCase, findCases } from "~/server/clients/list.server";
import { clientCounters, clientCountersQuery } from "~/server/cases/counters.server";
import { exportCases } from "~/server/clients/export.server";
import { databaseKind, getDb } from "~/server/db/client.server";
import { clientCases, user } from "~/server/db/schema";
import type { AdminCounters, AdminQuery } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import type { StageKey } from "~/domain/workflow";

type ListQuery = Pick<AdminQuery, "year" | "section" | "q" | "stage">;
const YEAR = currentFilingYear();
const all: ListQuery = { year: YEAR, section: "home", q: "", stage: "all" };

async function addClient(id: string, name: string, email: string, stage: StageKey = "home", assigneeId: string | null = null) {
  await getDb().insert(user).values({ id, name, email, emailVerified: true, role: "user" });
  const flags = { home: stage !== "home", taxinfo: !["home", "taxinfo"].includes(stage), finalcopies: false };
  await getDb().update(clientCases).set({ ...flags, currentStage: stage, assigneeId }).where(eq(clientCases.userId, id));
}

const ids = async (q: Partial<ListQuery>) => (await findCases({ ...all, ...q })).rows.map((r) => r.id);

describe("the staff panel's client list, in the database", () => {
  beforeEach(async () => {
    await getDb().insert(user).values({ id: "staff-1", name: "Asha Patel", email: "asha@taxbridge.example", emailVerified: true, role: "admin" });
    await addClient("c1", "Maria Gonzalez", "maria@example.com");
    await addClient("c2", "Zhang Wei", "wei@example.com", "documents", "staff-1");
    await addClient("c3", "Olu 100% Ade", "olu_ade@example.com", "documents");
    await addClient("c4", "Priya Raman", "priya@example.org", "preparation");
  });

  it("gives every new client account its case at HOME, and none to staff", async () => {
    const cases = await getDb().select({ userId: clientCases.userId }).from(clientCases);
    expect(cases.map((c) => c.userId).sort()).toEqual(["c1", "c2", "c3", "c4"]);
    await getDb().insert(user).values({ id: "c5", name: "New Client", email: "new@example.com", role: "user" });
    expect(await findCase("c5", YEAR)).toMatchObject({ stage: "home", code: expect.stringMatching(/^TB-\d{5}$/) });
  });

  it("HOME lists everyone newest first; another section only its stage; the stage filter applies on top", async () => {
    expect(await ids({})).toEqual(["c4", "c3", "c2", "c1"]);
    expect(await ids({ section: "documents" })).toEqual(["c3", "c2"]);
    expect(await ids({ stage: "preparation" })).toEqual(["c4"]);
    expect(await ids({ section: "documents", stage: "preparation" })).toEqual([]);
  });

  it("searches name, e-mail, client id and assignee, ignoring case", async () => {
    expect(await ids({ q: "zhang" })).toEqual(["c2"]);
    expect(await ids({ q: "PRIYA@EXAMPLE.ORG" })).toEqual(["c4"]);
    expect(await ids({ q: "asha" })).toEqual(["c2"]);
    const code = (await findCase("c1", YEAR))!.code;
    expect(await ids({ q: code })).toEqual(["c1"]);
    expect(await ids({ q: code.toLowerCase().replace("-", "") })).toEqual(["c1"]);
    expect(await ids({ q: String(Number(code.slice(3))) })).toContain("c1");
    expect(await ids({ q: "c3" })).toEqual(["c3"]);
    expect(await ids({ q: "nobody" })).toEqual([]);
  });

  it("finds a client by the name and address they have now, in each of their years", async () => {
    await getDb().insert(clientCases).values({ userId: "c1", taxYear: YEAR - 1 });
    await getDb().update(user).set({ name: "Maria Okafor", email: "maria.okafor@example.net" }).where(eq(user.id, "c1"));
    expect(await ids({ q: "okafor" })).toEqual(["c1"]);
    expect(await ids({ q: "okafor@example.NET" })).toEqual(["c1"]);
    expect(await ids({ q: "gonzalez" })).toEqual([]);
    expect(await ids({ q: "okafor", year: YEAR - 1 })).toEqual(["c1"]);
    // The other clients' cases keep their own.
    expect(await ids({ q: "zhang" })).toEqual(["c2"]);
  });

  it("takes % and _ in a search literally", async () => {
    expect(await ids({ q: "100%" })).toEqual(["c3"]);
    expect(await ids({ q: "%" })).toEqual(["c3"]);
    expect(await ids({ q: "olu_" })).toEqual(["c3"]);
    expect(await ids({ q: "_" })).toEqual(["c3"]);
  });

  it("pages the matching clients and counts them all", async () => {
    const first = await findCases(all, { number: 1, size: 3 });
    const second = await findCases(all, { number: 2, size: 3 });
    expect(first.matching).toBe(4);
    expect(first.rows.map((r) => r.id)).toEqual(["c4", "c3", "c2"]);
    expect(second.rows.map((r) => r.id)).toEqual(["c1"]);
    expect((await findCases(all)).rows).toHaveLength(4);
    // With the counters' total at hand, an unfiltered list takes it as its count.
    expect((await findCases(all, { number: 1, size: 3 }, { total: 4 })).matching).toBe(4);
  });

  it("counts every match of a search and of a section, on any page, past the end too", async () => {
    const search = { ...all, q: "example.com" };
    const pages = await Promise.all([1, 2, 3].map((n) => findCases(search, { number: n, size: 2 })));
    expect(pages.map((p) => p.matching)).toEqual([3, 3, 3]);
    expect(pages.map((p) => p.rows.map((r) => r.id))).toEqual([["c3", "c2"], ["c1"], []]);
    expect((await findCases({ ...search, section: "documents" }, { number: 1, size: 1 })).matching).toBe(2);
    expect((await findCases({ ...all, q: "nobody" }, { number: 1, size: 2 })).matching).toBe(0);
    expect((await findCases({ ...all, section: "documents" }, { number: 1, size: 1 }, { total: 99 })).matching).toBe(2);
  });

  it("gives every page of a long list the rows of the whole list, walked from either end", async () => {
    await getDb().execute(sql`
      insert into "user" (id, name, email, email_verified, role)
      select 'more-' || g, 'More Client ' || g, 'more' || g || '@example.net', true, 'user' from generate_series(1, 19) g`);
    await getDb().execute(sql`update client_cases set current_stage = 'documents' where user_id like 'more-%' and (number % 2) = 0`);
    for (const q of [all, { ...all, section: "documents" as const }, { ...all, stage: "documents" as const }]) {
      const whole = (await findCases(q)).rows.map((r) => r.id);
      expect(whole.length).toBeGreaterThan(9);
      for (let number = 1; number <= Math.ceil(whole.length / 3) + 1; number++) {
        const expected = whole.slice((number - 1) * 3, number * 3);
        // Counted by the list itself, and (the unfiltered list) with the counters' total at hand.
        const page = await findCases(q, { number, size: 3 });
        expect(page.rows.map((r) => r.id)).toEqual(expected);
        expect(page.matching).toBe(whole.length);
        if (q === all) expect((await findCases(q, { number, size: 3 }, { total: whole.length })).rows.map((r) => r.id)).toEqual(expected);
      }
    }
  });

  it("exports every case of the list a batch at a time, newest first, without the counts of the page", async () => {
    for (const q of [all, { ...all, section: "documents" as const }, { ...all, q: "example.com" }]) {
      const batches: string[][] = [];
      for await (const batch of exportCases(q, 2)) batches.push(batch.map((r) => r.id));
      const listed = (await findCases(q)).rows;
      expect(batches.flat()).toEqual(listed.map((r) => r.id));
      expect(batches.every((b) => b.length === 2 || b === batches.at(-1))).toBe(true);
      const exported: Array<Record<string, unknown>> = [];
      for await (const batch of exportCases(q)) exported.push(...batch);
      // The same cases as the list shows them, but what only the list counts and marks (the
      // engagement letter's mark); with the residency the case stores (none told yet here).
      expect(exported).toEqual(
        listed.map(({ newUploads: _n, outstandingRequests: _o, unreadMessages: _u, letter: _l, ...row }) => ({ ...row, residency: { status: null, confirmed: null } })),
      );
    }
    const none: string[] = [];
    for await (const batch of exportCases({ ...all, q: "nobody" })) none.push(...batch.map((r) => r.id));
    expect(none).toEqual([]);
  });

  it("knows the years that have cases, newest first, with the filing season's always among them", async () => {
    expect(await caseYears()).toEqual([YEAR]);
    await getDb().insert(clientCases).values({ userId: "c1", taxYear: YEAR - 3, number: 1001 });
    await getDb().insert(clientCases).values({ userId: "c2", taxYear: YEAR - 1, number: 1002 });
    await getDb().delete(clientCases).where(eq(clientCases.taxYear, YEAR));
    expect(await caseYears()).toEqual([YEAR, YEAR - 1, YEAR - 3]);
  });

  it("counts active cases, pending documents and completed filings as docs/product/workflow.md#counters says", async () => {
    await getDb()
      .update(clientCases)
      .set({ home: true, taxinfo: true, documents: true, preparation: true, draft: true, payment: true, efiling: true, finalcopies: true, currentStage: "finalcopies" })
      .where(eq(clientCases.userId, "c4"));
    expect(await clientCounters(YEAR)).toEqual({ total: 4, active: 3, pendingDocuments: 2, completed: 1 });
  });

  it("lists, counts and searches one tax year at a time; the client keeps their number in each year", async () => {
    const earlier = YEAR - 1;
    const [c2] = await getDb().select({ number: clientCases.number }).from(clientCases).where(eq(clientCases.userId, "c2"));
    await getDb().insert(clientCases).values({ userId: "c2", taxYear: earlier, number: c2!.number, currentStage: "draft" });
    expect(await ids({ year: earlier })).toEqual(["c2"]);
    expect(await ids({ year: earlier, q: "zhang" })).toEqual(["c2"]);
    expect(await ids({ year: earlier, q: "maria" })).toEqual([]);
    expect((await findCase("c2", earlier))!.code).toBe((await findCase("c2", YEAR))!.code);
    expect(await clientCounters(earlier)).toEqual({ total: 1, active: 1, pendingDocuments: 0, completed: 0 });
    expect((await clientCounters(YEAR)).total).toBe(4);
    expect(await ids({})).toEqual(["c4", "c3", "c2", "c1"]);
  });
});

// On PostgreSQL the planner must answer the list, the search and the counters from indexes once
// there are many clients (docs/product/performance.md#staff-list: 10,000 clients, p99 under 50 ms).
describe.runIf(databaseKind() === "postgres")("query plans with 10,000 clients (PostgreSQL)", () => {
  it("uses the indexes for the list, a section, the search and the counters", async () => {
    const db = getDb();
    await db.execute(sql`
      insert into "user" (id, name, email, email_verified, role)
      select 'bulk-' || g, 'Client ' || md5(g::text), 'client' || g || '@example.com', true, 'user'
      from generate_series(1, 10000) g`);
    await db.execute(
      sql`update client_cases set current_stage = (array['home','taxinfo','documents','preparation','draft','payment','efiling','finalcopies'])[1 + number % 8]`,
    );
    await db.execute(sql`vacuum analyze "user"`);
    await db.execute(sql`vacuum analyze client_cases`);
    const explain = async (text: string, params: unknown[] = []) => {
      const literal = text.replace(/\$(\d+)/g, (_, i: string) => {
        const v = params[Number(i) - 1];
        return typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
      });
      const result = (await db.execute(sql.raw(`explain ${literal}`))) as unknown as { rows: Array<Record<string, string>> };
      return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    };
    const plan = (q: Partial<ListQuery>, number = 1, total?: number) => {
      const { sql: text, params } = clientListQuery({ ...all, ...q }, { number, size: 10 }, "", total).toSQL();
      return explain(text, params);
    };
    const list = await plan({});
    expect(list).toMatch(/Index Only Scan Backward using client_cases_year_number_unique/);
    expect(list).not.toMatch(/Seq Scan/);
    // A deep page finds its case numbers from the index alone: the columns' subqueries run for
    // its 10 rows, not for the 8,990 skipped (17 s for page 50,000 of 1,000,000 cases before).
    const analyzed = async (number: number, total?: number) => {
      const { sql: text, params } = clientListQuery(all, { number, size: 10 }, "", total).toSQL();
      return explain(`(analyze, costs off) ${text}`, params);
    };
    for (const [number, total] of [[900, undefined], [900, 10000], [400, 10000]] as const) {
      const deep = await analyzed(number, total);
      const loops = [...deep.matchAll(/SubPlan[\s\S]*?loops=(\d+)/g)].map((m) => Number(m[1]));
      expect(loops.length).toBeGreaterThan(0);
      expect(Math.max(...loops)).toBeLessThanOrEqual(10);
    }
    // Past the middle, with the count at hand, the list is walked from its oldest case.
    expect(await plan({}, 900, 10000)).toMatch(/Index Only Scan using client_cases_year_number_unique/);
    // A client id is found by one probe of the year's index, not by reading the whole index.
    const byCode = await explain(
      ...(() => {
        const { sql: text, params } = clientListQuery({ ...all, q: "TB-04242" }, { number: 1, size: 10 }).toSQL();
        return [text, params] as const;
      })(),
    );
    expect(byCode).toMatch(/client_cases_year_number_unique on client_cases\S* .*\n\s+Index Cond: \(\(tax_year = \d+\) AND \(number = 4242\)\)/);
    // The years with cases: a few steps down an index, not every case read.
    const yearsQuery = new PgDialect().sqlToQuery(caseYearsQuery());
    const years = await explain(yearsQuery.sql, yearsQuery.params);
    expect(years).not.toMatch(/Seq Scan/);
    expect(await caseYears()).toEqual([YEAR]);
    // A section walks the newest cases by index and stops at a page; it never reads the table.
    expect(await plan({ section: "documents" })).not.toMatch(/Seq Scan/);
    expect(await plan({ section: "documents", stage: "documents" })).not.toMatch(/Seq Scan/);
    // A search of the list reads the cases alone, through the trigrams of the text each case
    // carries (migration 0012): no client is looked up first and then probed for their case.
    const search = await plan({ q: "c0ffee" });
    expect(search).toMatch(/client_cases_search_trgm_idx/);
    expect(search).not.toMatch(/Seq Scan on (client_cases|"?user"?)/);
    // A search that matches every client is still found once as a set, not probed case by case
    // (a nested-loop semi join over 10,000 cases took 1.5 s before the matches became a CTE).
    const broad = await plan({ q: "example.com" });
    expect(broad).toMatch(/CTE hits/);
    expect(broad).not.toMatch(/Nested Loop Semi Join/);
    // The counters read the year's tallies, never the cases, and agree with counting the cases.
    const counters = clientCountersQuery(YEAR).toSQL();
    const countersPlan = await explain(counters.sql, counters.params);
    expect(countersPlan).toMatch(/case_tallies/);
    expect(countersPlan).not.toMatch(/client_cases/);
    const counted = await db.execute(sql`
      select count(*)::int as total,
        (count(*) filter (where not (current_stage = 'finalcopies' and finalcopies)))::int as active,
        (count(*) filter (where current_stage = 'documents'))::int as "pendingDocuments",
        (count(*) filter (where finalcopies))::int as completed
      from client_cases where tax_year = ${YEAR}`);
    const expected = (counted as unknown as { rows: AdminCounters[] }).rows[0]!;
    expect(expected.total).toBeGreaterThanOrEqual(10000);
    expect(expected.pendingDocuments).toBeGreaterThan(1000);
    expect(await clientCounters(YEAR)).toEqual(expected);
  });
});
