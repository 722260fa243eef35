import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { newYorkDay, newYorkDayStart } from "~/domain/business-days";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { forgetCaseViews } from "~/server/cases/view-cache.server";
import { seedFiling } from "../../scripts/lib/filing-seed";
import { atMoment } from "../helpers/clock";
import { feeCast, sentInvoice } from "../helpers/fees";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";

// The client's filing page keeps what it read while nothing it shows changes
// (docs/decisions/0037-case-views-kept-by-version.md): each case's view version, changed by
// triggers on every table the page reads (migration 0026), the firm settings' and New York's day.

const filingRoute = await routeModule("routes/portal/filing.tsx");
const Y = currentFilingYear();

type Row = Record<string, unknown>;
type FilingBody = { requests: { title: string }[]; documents: { name: string }[]; stageNotices: boolean; unreadMessages: number } & Row;

const rowsOf = async <T = Row>(query: ReturnType<typeof sql>) => (await getDb().execute(query)) as unknown as { rows: T[] };

/**
 * The statements `run` sends to the database (their text): only its own, not those of the
 * outbox's worker, which polls on its timer through the same client.
 */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  // drizzle keeps its driver's client as $client: the PGlite instance, or node-postgres's pool.
  const client = (getDb() as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const own = Object.hasOwn(client, "query");
  const original = client.query;
  const texts: string[] = [];
  const scope = new AsyncLocalStorage<true>();
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    if (scope.getStore()) texts.push(typeof first === "string" ? first : String((first as { text?: unknown }).text ?? ""));
    return original.apply(this, args);
  };
  try {
    await scope.run(true, run);
  } finally {
    if (own) client.query = original;
    else delete (client as { query?: unknown }).query;
  }
  return texts;
}

async function filingOf(who: Account, year = Y): Promise<FilingBody> {
  const request = new Request(`http://localhost:3000/my-tax-filing/${year}`, { headers: { cookie: who.cookie } });
  const page = await routeOutcome<FilingBody>(() => filingRoute.loader({ ...routeArgs(request), params: { year: String(year) } } as never));
  expect(page.status).toBe(200);
  return page.body;
}

async function versionOf(clientId: string, year = Y): Promise<number> {
  const { rows } = await rowsOf<{ version: string }>(sql`select version from case_view_versions where client_id = ${clientId} and tax_year = ${year}`);
  return Number(rows[0]?.version ?? 0);
}

/** Runs `statement` with the triggers off, as a change the view versions never hear of. */
async function behindTheTriggers(statement: ReturnType<typeof sql>): Promise<void> {
  await getDb().transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
}

let cast: Awaited<ReturnType<typeof feeCast>>;
beforeEach(async () => {
  cast = await feeCast();
  await seedFiling(cast.a.actor, cast.admin.actor, Y);
});

describe("the filing page's kept view", () => {
  it("is served again while the case is unchanged, and read again after any change the page shows", async () => {
    const first = await filingOf(cast.a);
    const title = first.requests[0]!.title;
    // Changed behind the triggers' back: the kept view still answers.
    await behindTheTriggers(sql`update document_requests set title = 'Changed unseen' where client_id = ${cast.a.id} and tax_year = ${Y}`);
    expect((await filingOf(cast.a)).requests[0]!.title).toBe(title);
    // Any change the triggers see: read again.
    await getDb().execute(sql`update document_requests set title = 'Your 1099-INT' where client_id = ${cast.a.id} and tax_year = ${Y}`);
    expect((await filingOf(cast.a)).requests.map((r) => r.title)).toContain("Your 1099-INT");
  });

  it("answers a kept view with the queries every signed-in page of the client makes: their session, their cases", async () => {
    forgetCaseViews();
    const cold = await statementsOf(() => filingOf(cast.a));
    const warm = await statementsOf(() => filingOf(cast.a));
    expect(cold.length).toBeGreaterThanOrEqual(9);
    expect(warm).toHaveLength(2);
    expect(warm[0]).toContain('from "session"');
    expect(warm[1]).toContain("case_view_versions");
  });

  it("is read again on New York's next day (the return's history says 'today' and 'yesterday')", async () => {
    await filingOf(cast.a);
    expect(await statementsOf(() => filingOf(cast.a))).toHaveLength(2);
    // A minute into New York's next day.
    const tomorrow = new Date(newYorkDayStart(newYorkDay(), 1).getTime() + 60_000).toISOString();
    expect((await atMoment(tomorrow, () => statementsOf(() => filingOf(cast.a)))).length).toBeGreaterThan(2);
  });

  it("is read again when the firm's settings change (final copies waiting for payment)", async () => {
    await filingOf(cast.a);
    await getDb().execute(sql`insert into firm_settings (id, final_copies_wait_for_payment) values (true, false)
      on conflict (id) do update set final_copies_wait_for_payment = false`);
    expect((await statementsOf(() => filingOf(cast.a))).length).toBeGreaterThan(2);
  });

  it("is each client's own: another client's page of the same year never answers with it", async () => {
    const mine = await filingOf(cast.a);
    const theirs = await filingOf(cast.b);
    expect(mine.documents.length).toBeGreaterThan(0);
    expect(theirs.documents).toEqual([]);
    expect(theirs.requests).toEqual([]);
    // And the first client's still is theirs.
    expect((await filingOf(cast.a)).documents).toEqual(mine.documents);
  });

  it("counts the unread messages afresh on every request", async () => {
    const before = (await filingOf(cast.a)).unreadMessages;
    expect(before).toBeGreaterThan(0);
    await behindTheTriggers(sql`update case_messages set read_at = now() where client_id = ${cast.a.id}`);
    expect((await filingOf(cast.a)).unreadMessages).toBe(0);
  });
});

describe("the view versions (migration 0026)", () => {
  const FOLLOWED = [
    "client_cases",
    "taxpayer_records",
    "documents",
    "document_requests",
    "return_versions",
    "return_reviews",
    "signature_requests",
    "signatures",
    "id_checks",
    "efile_events",
    "final_copies",
    "invoices",
    "signature_signers",
    "signature_request_events",
    "handwritten_uploads",
    "invoice_lines",
    "payments",
    "refunds",
    "profiles",
    "engagement_letters",
    "engagement_responses",
    "firm_settings",
  ];
  // Read by the page but not kept in its view: the session and its account, staff's names on
  // payments (the client's fee shows none), the messages (counted on every request), the versions,
  // and the letters' template versions (append-only: a version never changes).
  const NOT_KEPT = ["session", "user", "staff_second_factor", "case_messages", "case_view_versions", "engagement_template_versions"];

  it("follow every table the filing page reads, on insert, update and delete", async () => {
    forgetCaseViews();
    const texts = await statementsOf(() => filingOf(cast.a));
    const read = new Set(texts.flatMap((t) => [...t.matchAll(/\b(?:from|join)\s+"?([a-z_]+)"?(?![.\w])/gi)].map((m) => m[1]!.toLowerCase())));
    read.delete("select");
    for (const table of read) expect(FOLLOWED.includes(table) || NOT_KEPT.includes(table), `${table} is read by the page`).toBe(true);
    expect(read.has("documents") && read.has("invoices") && read.has("signature_signers")).toBe(true);

    const { rows } = await rowsOf<{ table: string; events: string }>(sql`
      select c.relname as table, string_agg(t.tgname, ' ' order by t.tgname) as events from pg_trigger t
      join pg_class c on c.oid = t.tgrelid where t.tgname ~ '_view_(insert|update|delete)$' or t.tgname = 'firm_settings_view' group by c.relname`);
    const triggers = new Map(rows.map((r) => [r.table, r.events]));
    expect([...triggers.keys()].sort()).toEqual([...FOLLOWED].sort());
    for (const table of FOLLOWED.filter((t) => t !== "firm_settings"))
      expect(triggers.get(table)).toBe(`${table}_view_delete ${table}_view_insert ${table}_view_update`);
  });

  it("change with each kind of row, for its own case only", async () => {
    const a = cast.a.id;
    const b = cast.b.id;
    // A draft invoice, whose lines may still change (a sent invoice's may not: migration 0019).
    await sentInvoice(a, Y, 5_000, "draft");
    const changes: [string, ReturnType<typeof sql>][] = [
      ["the case", sql`update client_cases set documents = documents where user_id = ${a} and tax_year = ${Y}`],
      ["its taxpayer record", sql`update taxpayer_records set city = city where user_id = ${a} and tax_year = ${Y}`],
      ["a document", sql`update documents set original_name = original_name where client_id = ${a} and tax_year = ${Y}`],
      ["a signer (by its request)", sql`update signature_signers set name = name where request_id in (select id from signature_requests where client_id = ${a})`],
      ["an invoice's line (by its invoice)", sql`update invoice_lines set description = description where invoice_id in (select id from invoices where client_id = ${a} and status = 'draft')`],
      ["the stage e-mail setting (every case of the client)", sql`update profiles set stage_notices = not stage_notices where id = ${a}`],
    ];
    for (const [what, change] of changes) {
      const [mine, theirs] = [await versionOf(a), await versionOf(b)];
      await getDb().execute(change);
      const after = await versionOf(a);
      expect(after, what).toBeGreaterThan(mine);
      expect(await versionOf(b), what).toBe(theirs);
    }

    // A payment and its refund (by the invoice, and by the payment), and a hand-signed upload (by its signer).
    const { rows: invoiceRows } = await rowsOf<{ id: string }>(sql`select id from invoices where client_id = ${a} and tax_year = ${Y} limit 1`);
    let before = await versionOf(a);
    const { rows: paid } = await rowsOf<{ id: string }>(sql`insert into payments (invoice_id, method, status, amount_cents, received_on)
      values (${invoiceRows[0]!.id}, 'wire', 'received', 1000, current_date) returning id`);
    expect(await versionOf(a)).toBeGreaterThan(before);
    before = await versionOf(a);
    await getDb().execute(sql`insert into refunds (payment_id, amount_cents, status, requested_by) values (${paid[0]!.id}, 500, 'pending', ${cast.admin.id})`);
    expect(await versionOf(a)).toBeGreaterThan(before);
    before = await versionOf(a);
    const { rows: signer } = await rowsOf<{ id: string }>(sql`select s.id from signature_signers s join signature_requests q on q.id = s.request_id where q.client_id = ${a} limit 1`);
    const { rows: doc } = await rowsOf<{ id: string }>(sql`select id from documents where client_id = ${a} limit 1`);
    await getDb().execute(sql`insert into handwritten_uploads (signer_id, document_id, sha256) values (${signer[0]!.id}, ${doc[0]!.id}, ${"0".repeat(64)})`);
    expect(await versionOf(a)).toBeGreaterThan(before);

    // The firm's settings: the row of client "" and year 0.
    const settings = await versionOf("", 0);
    await getDb().execute(sql`insert into firm_settings (id, final_copies_wait_for_payment) values (true, true)
      on conflict (id) do update set final_copies_wait_for_payment = true`);
    expect(await versionOf("", 0)).toBeGreaterThan(settings);
  });

  it("never give a number twice, even to a case deleted and opened again", async () => {
    const before = await versionOf(cast.b.id);
    await getDb().execute(sql`delete from taxpayer_records where user_id = ${cast.b.id}`);
    await getDb().execute(sql`delete from client_cases where user_id = ${cast.b.id} and tax_year = ${Y}`);
    await getDb().execute(sql`insert into client_cases (user_id, tax_year) values (${cast.b.id}, ${Y})`);
    const { rows } = await rowsOf<{ n: string }>(sql`select count(distinct version) as n from case_view_versions`);
    const { rows: all } = await rowsOf<{ n: string }>(sql`select count(*) as n from case_view_versions`);
    expect(rows[0]!.n).toBe(all[0]!.n);
    expect(await versionOf(cast.b.id)).toBeGreaterThan(before);
  });
});
