import { and, asc, desc, eq, gt, inArray, isNull, like, lt, ne, sql } from "drizzle-orm";
import { STAFF_ROLES } from "~/domain/policy";
import type { SQL } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import { clientCode, MAX_ASSIGN_AT_ONCE } from "~/domain/admin";
import type { AdminClientRow, AdminCounters, AdminQuery, StaffMember } from "~/domain/admin";
import type { VisaStatus } from "~/domain/auth";
import { currentFilingYear, FIRST_TAX_YEAR } from "~/domain/tax-year";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { createAccount } from "~/server/auth/accounts.server";
import { caseKey, outstandingRequestCounts, unreadMessageCounts } from "~/server/cases/case-counts.server";
import type { CaseRef } from "~/server/cases/case-counts.server";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/auth.server";
import { createPasswordLink } from "~/server/auth/auth.server";
import { getDb } from "~/server/db/client.server";
import { account, caseTallies, clientCases, clientTally, contactMessages, taxpayerRecords, user, verification } from "~/server/db/schema";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";

const clientColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  createdAt: user.createdAt,
  number: clientCases.number,
  currentStage: clientCases.currentStage,
  home: clientCases.home,
  taxinfo: clientCases.taxinfo,
  documents: clientCases.documents,
  preparation: clientCases.preparation,
  draft: clientCases.draft,
  payment: clientCases.payment,
  efiling: clientCases.efiling,
  finalcopies: clientCases.finalcopies,
  assigneeId: clientCases.assigneeId,
};

/** Every tax year a case can have: from the firm's first season to the one after the filing season's. */
function knownTaxYears(): number[] {
  const years: number[] = [];
  for (let y = FIRST_TAX_YEAR; y <= currentFilingYear() + 1; y++) years.push(y);
  return years;
}

/** `%needle%` for LIKE, with the pattern characters of the needle taken literally. */
function containsPattern(needle: string): string {
  return `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The panel's sections: HOME lists all clients, any other section those whose stage equals it; the
 * search (name, e-mail, client id such as TB-00042 or 42, account id, assignee) and the stage
 * filter apply on top. Each search arm is answered by an index (trigram on name and e-mail, the
 * case number, the primary key, the assignee), so the list stays fast with many clients.
 */
export type ClientFilter = Pick<AdminQuery, "year" | "section" | "q" | "stage">;

function clientConditions(q: Omit<ClientFilter, "year"> & { year: number | null }): SQL {
  // Only client accounts have a case (migration 0006), so no condition on the account's role.
  const conditions: SQL[] = [];
  if (q.year !== null) conditions.push(eq(clientCases.taxYear, q.year));
  if (q.section !== "home") conditions.push(eq(clientCases.currentStage, q.section));
  if (q.stage !== "all") conditions.push(eq(clientCases.currentStage, q.stage));
  const needle = q.q.trim();
  if (needle) {
    const pattern = containsPattern(needle);
    const code = /^(?:tb-?)?0*(\d{1,9})$/i.exec(needle)?.[1];
    // The client number is found through the (tax_year, number) index, one probe per year: a
    // number with no year would read the whole index (30 ms at 1,000,000 cases).
    const years = q.year !== null ? [q.year] : knownTaxYears();
    const byNumber = code
      ? sql`union all select c.user_id from client_cases c where c.number = ${Number(code)} and c.tax_year in (${sql.join(
          years.map((y) => sql`${y}`),
          sql`, `,
        )})`
      : sql``;
    conditions.push(sql`${clientCases.userId} in (
      select u.id from "user" u where lower(u.name || ' ' || u.email) like ${pattern}
      union all select u.id from "user" u where u.id = ${needle}
      ${byNumber}
      union all select c.user_id from client_cases c where c.assignee_id in (
        select s.id from "user" s where s.role in ('admin', 'preparer') and lower(s.name || ' ' || s.email) like ${pattern}
      )
    )`);
  }
  return conditions.length > 0 ? and(...conditions)! : sql`true`;
}

type ClientRowData = WorkflowFlags & {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
  number: number;
  taxYear: number;
  currentStage: StageKey;
  assigneeId: string | null;
  documentCount: number;
  taxInfoSubmittedAt: Date | null;
  taxInfoUpdatedAt: Date | null;
  newUploads: number;
};

type CaseCounts = { outstandingRequests: ReadonlyMap<string, number>; unreadMessages: ReadonlyMap<string, number> };

/** For the cases listed: the items the client still owes, and their messages no staff member has read. */
async function caseCounts(cases: readonly CaseRef[]): Promise<CaseCounts> {
  const [outstandingRequests, unreadMessages] = await Promise.all([
    outstandingRequestCounts(cases),
    unreadMessageCounts(cases),
  ]);
  return { outstandingRequests, unreadMessages };
}

function toAdminRow(r: ClientRowData, staff: Map<string, StaffMember>, counts: CaseCounts): AdminClientRow {
  return {
    ...toExportedCase(r, staff),
    newUploads: Number(r.newUploads ?? 0),
    outstandingRequests: counts.outstandingRequests.get(caseKey({ clientId: r.id, taxYear: r.taxYear })) ?? 0,
    unreadMessages: counts.unreadMessages.get(caseKey({ clientId: r.id, taxYear: r.taxYear })) ?? 0,
  };
}

function toExportedCase(r: Omit<ClientRowData, "newUploads">, staff: Map<string, StaffMember>): ExportedCase {
  return {
    id: r.id,
    code: clientCode(r.number),
    name: r.name,
    email: r.email,
    assignee: (r.assigneeId && staff.get(r.assigneeId)) || null,
    stage: r.currentStage,
    flags: {
      home: r.home,
      taxinfo: r.taxinfo,
      documents: r.documents,
      preparation: r.preparation,
      draft: r.draft,
      payment: r.payment,
      efiling: r.efiling,
      finalcopies: r.finalcopies,
    },
    documentCount: Number(r.documentCount ?? 0),
    createdAt: r.createdAt.toISOString(),
    taxYear: r.taxYear,
    taxInfo:
      r.taxInfoSubmittedAt && r.taxInfoUpdatedAt
        ? { submittedAt: r.taxInfoSubmittedAt.toISOString(), updatedAt: r.taxInfoUpdatedAt.toISOString() }
        : null,
  };
}

/** The columns of a case as the export has them: the client, the case, its documents and its taxpayer information. */
function caseColumns() {
  return {
    ...clientColumns,
    taxYear: clientCases.taxYear,
    documentCount: sql<number>`(select count(*) from documents d where d.client_id = ${clientCases.userId} and d.tax_year = ${clientCases.taxYear})`.mapWith(Number),
    taxInfoSubmittedAt: sql<Date | null>`(select t.created_at from taxpayer_records t where t.user_id = ${clientCases.userId} and t.tax_year = ${clientCases.taxYear})`.mapWith(taxpayerRecords.createdAt),
    taxInfoUpdatedAt: sql<Date | null>`(select t.updated_at from taxpayer_records t where t.user_id = ${clientCases.userId} and t.tax_year = ${clientCases.taxYear})`.mapWith(taxpayerRecords.updatedAt),
  };
}

/**
 * The columns of a listed case. `viewer` is the acting staff member: the client's uploads since
 * they last opened the case count as new.
 */
function listColumns(viewer: string) {
  return {
    ...caseColumns(),
    newUploads: sql<number>`(select count(*) from documents d where d.client_id = ${clientCases.userId} and d.tax_year = ${clientCases.taxYear} and d.from_client
      and d.created_at > coalesce((select v.viewed_at from case_views v where v.staff_id = ${viewer} and v.client_id = ${clientCases.userId} and v.tax_year = ${clientCases.taxYear}), '-infinity'))`.mapWith(Number),
  };
}

/**
 * The case numbers a search of the list finds, as a union of its arms, each a condition on the
 * cases alone that one index answers: the search text each case carries (trigrams, migration
 * 0012), the account id (primary key), the client number (the year's number index) and the
 * assignee (their index). No client is looked up first and then probed for the year's case
 * (10,000 probes for a last name at 1,000,000 clients); the arms are not OR-ed in one
 * condition, where the planner guessed the assignee arm matched most cases and read them all.
 */
function searchHits(q: ClientFilter) {
  const db = getDb();
  const needle = q.q.trim();
  const pattern = containsPattern(needle);
  const code = /^(?:tb-?)?0*(\d{1,9})$/i.exec(needle)?.[1];
  const listed = clientConditions({ ...q, q: "" });
  const arms: SQL[] = [
    sql`${clientCases.searchText} like ${pattern}`,
    eq(clientCases.userId, needle),
    sql`${clientCases.assigneeId} in (
      select s.id from "user" s where s.role in ('admin', 'preparer') and lower(s.name || ' ' || s.email) like ${pattern}
    )`,
  ];
  if (code) arms.push(eq(clientCases.number, Number(code)));
  const [first, second, ...others] = arms.map((arm) =>
    db.select({ number: clientCases.number }).from(clientCases).where(and(listed, arm)),
  );
  return union(first!, second!, ...others);
}

/**
 * The query behind the list (exported so its plan can be checked). A page of a search also
 * counts every match: the matching cases are found once (the CTE `hits`, computed whole, so the
 * database plans it as the set it is), then counted and paged. Without a search the page's case
 * numbers are found first, from the index alone, and only its rows are read and given their
 * columns (read for every row skipped, the columns' subqueries took 17 s for page 50,000 of
 * 1,000,000 cases); counting there is left to the caller. With `total`, how many cases match
 * (the caller's count), a page past the middle is walked to from the end of the list.
 */
export function clientListQuery(q: ClientFilter, page?: { number: number; size: number }, viewer = "", total?: number) {
  const db = getDb();
  const columns = listColumns(viewer);
  const where = clientConditions(q);
  if (q.q.trim() && page) {
    const hits = db.$with("hits").as(searchHits(q));
    const pageOfHits = db
      .select({ number: hits.number })
      .from(hits)
      .orderBy(desc(hits.number))
      .limit(page.size)
      .offset((page.number - 1) * page.size);
    return db
      .with(hits)
      .select({ ...columns, matching: sql<number | null>`(select count(*) from ${hits})`.mapWith(Number) })
      .from(clientCases)
      .innerJoin(user, eq(user.id, clientCases.userId))
      .where(and(eq(clientCases.taxYear, q.year), inArray(clientCases.number, pageOfHits)))
      .orderBy(desc(clientCases.number));
  }
  const query = db
    .select({ ...columns, matching: sql<number | null>`null` })
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .$dynamic();
  if (!page) return query.where(where).orderBy(desc(clientCases.number));
  const skip = (page.number - 1) * page.size;
  // Newest first, the page holds the cases at positions skip to skip+size-1; counted from the
  // oldest, the same cases are at total-skip-size to total-skip-1 (from 0 on the last page).
  const fromEnd = total !== undefined && skip < total && skip > total / 2;
  const numbers = db
    .select({ number: clientCases.number })
    .from(clientCases)
    .where(where)
    .orderBy(fromEnd ? asc(clientCases.number) : desc(clientCases.number))
    .limit(fromEnd ? Math.min(page.size, total - skip) : page.size)
    .offset(fromEnd ? Math.max(0, total - skip - page.size) : skip);
  return query
    .where(and(eq(clientCases.taxYear, q.year), inArray(clientCases.number, numbers)))
    .orderBy(desc(clientCases.number));
}

/**
 * The cases of one tax year matching the panel's section, search and stage filter, newest
 * client first: one page (`page` given) or all of them, with how many match. `viewer` is the
 * acting staff member (for the uploads new to them). Admin only: callers check the role.
 */
export async function findClients(
  q: ClientFilter,
  page?: { number: number; size: number },
  known: { staff?: StaffMember[]; total?: number; viewer?: string } = {},
): Promise<{ rows: AdminClientRow[]; matching: number }> {
  const search = q.q.trim() !== "";
  const unfiltered = q.section === "home" && !search && q.stage === "all";
  // A page of a list that is not a search is counted first: the count tells which end of the
  // list the page is nearer. Every client matches an unfiltered list: the counters' total
  // (`known.total`) says how many.
  const listed =
    page && !search ? (unfiltered && known.total !== undefined ? known.total : await countMatching(q)) : undefined;
  const [staff, rows] = await Promise.all([known.staff ?? listStaff(), clientListQuery(q, page, known.viewer, listed)]);
  let matching: number;
  if (!page) matching = rows.length;
  else if (listed !== undefined) matching = listed;
  // A search's rows carry the count of all its matches; no row on page 1 means no match.
  else matching = rows[0]?.matching ?? (page.number === 1 ? 0 : await countMatching(q));
  const staffById = new Map(staff.map((s) => [s.id, s]));
  const counts = await caseCounts(rows.map((r) => ({ clientId: r.id, taxYear: r.taxYear })));
  return { rows: rows.map((r) => toAdminRow(r, staffById, counts)), matching };
}

/** One case of the export (Export Data): the list's columns but the counts of requested items, messages and new uploads. */
export type ExportedCase = Omit<AdminClientRow, "outstandingRequests" | "unreadMessages" | "newUploads">;

/** How many cases the export reads at a time. */
const EXPORT_BATCH = 1000;

/**
 * Export Data: the cases of the list on screen (its tax year, section, search and stage filter),
 * newest client first, EXPORT_BATCH at a time: each batch continues below the last client number
 * read, through the index, so that neither the server nor the database ever holds the whole
 * list (a year of 100,000 cases is about 100 MB as rows). The next batch is read when the one
 * before has been used (the answer's reader asks for more). Admin only: callers check the role.
 */
export async function* exportCases(q: ClientFilter, batchSize = EXPORT_BATCH): AsyncGenerator<ExportedCase[]> {
  const staffById = new Map((await listStaff()).map((s) => [s.id, s]));
  const where = clientConditions(q);
  let below: number | null = null;
  for (;;) {
    const rows = await getDb()
      .select(caseColumns())
      .from(clientCases)
      .innerJoin(user, eq(user.id, clientCases.userId))
      .where(below === null ? where : and(where, lt(clientCases.number, below)))
      .orderBy(desc(clientCases.number))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((r) => toExportedCase(r, staffById));
    if (rows.length < batchSize) return;
    below = rows[rows.length - 1]!.number;
  }
}

/** How many cases the list on screen holds (its tax year, section, search and stage filter). */
export function countListed(q: ClientFilter): Promise<number> {
  return countMatching(q);
}

async function countMatching(q: ClientFilter): Promise<number> {
  // The conditions read only the case row (the search is a subquery), so no join to count.
  const [count] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(clientCases)
    .where(clientConditions(q));
  return count?.n ?? 0;
}

/** One client's case of a tax year as the panel lists it, or null when there is no such case. */
export async function findClient(clientId: string, year: number, viewer = ""): Promise<AdminClientRow | null> {
  const [row] = await getDb()
    .select(listColumns(viewer))
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(and(eq(user.role, "user"), eq(clientCases.userId, clientId), eq(clientCases.taxYear, year)));
  if (!row) return null;
  const [staff, counts] = await Promise.all([listStaff(), caseCounts([{ clientId: row.id, taxYear: row.taxYear }])]);
  return toAdminRow(row, new Map(staff.map((s) => [s.id, s])), counts);
}

/**
 * The ids of the clients a search of the panel finds (name, e-mail, client id such as TB-00042,
 * account id, assignee), as a subquery: the audit trail's client filter.
 */
export function clientsMatching(search: string): SQL {
  return sql`(select ${clientCases.userId} from ${clientCases} where ${clientConditions({ year: null, section: "home", stage: "all", q: search })})`;
}

/** How many clients a search of the panel finds (in any tax year). */
export async function countClientsMatching(search: string): Promise<number> {
  const [count] = await getDb()
    .select({ n: sql<number>`count(distinct ${clientCases.userId})`.mapWith(Number) })
    .from(clientCases)
    .where(clientConditions({ year: null, section: "home", stage: "all", q: search }));
  return count?.n ?? 0;
}

/**
 * The panel's counters (the stat cards) for one tax year, from the tallies the database keeps
 * per year, stage and Final Copies flag (migration 0010): a few rows, however many cases.
 * A key's rows add up to its count until they are merged.
 */
export function clientCountersQuery(year: number) {
  const cases = sql`${caseTallies.cases}`;
  return getDb()
    .select({
      total: sql<number>`coalesce(sum(${cases}), 0)`.mapWith(Number),
      active: sql<number>`coalesce(sum(${cases}) filter (where not (${caseTallies.currentStage} = 'finalcopies' and ${caseTallies.finalcopies})), 0)`.mapWith(Number),
      pendingDocuments: sql<number>`coalesce(sum(${cases}) filter (where ${caseTallies.currentStage} = 'documents'), 0)`.mapWith(Number),
      completed: sql<number>`coalesce(sum(${cases}) filter (where ${caseTallies.finalcopies}), 0)`.mapWith(Number),
    })
    .from(caseTallies)
    .where(eq(caseTallies.taxYear, year));
}

export async function clientCounters(year: number): Promise<AdminCounters> {
  const [row] = await clientCountersQuery(year);
  return row ?? { total: 0, active: 0, pendingDocuments: 0, completed: 0 };
}

/** How many client accounts there are, from their tally (migration 0010). */
export async function countClients(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`coalesce(sum(${clientTally.clients}), 0)`.mapWith(Number) })
    .from(clientTally);
  return row?.n ?? 0;
}

export async function listStaff(): Promise<StaffMember[]> {
  // Active staff only: a deactivated member's cases show as unassigned and cannot be given to them.
  return getDb()
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(and(inArray(user.role, [...STAFF_ROLES]), isNull(user.deactivatedAt)))
    .orderBy(user.name);
}

/** The tax years that have cases, newest first (exported so its plan can be checked). */
export function caseYearsQuery(): SQL {
  return sql`
    with recursive years(year) as (
      select max(tax_year) from client_cases
      union all
      select (select max(c.tax_year) from client_cases c where c.tax_year < years.year) from years where years.year is not null
    )
    select year from years where year is not null`;
}

/**
 * The tax years that have cases, newest first, with the filing season's year always among them.
 * Each year is found by one step down an index that starts with the year (a loose index scan):
 * `select distinct` read every case (75 ms at 1,000,000 cases, on every page of the list).
 */
export async function caseYears(): Promise<number[]> {
  const result = await getDb().execute(caseYearsQuery());
  const { rows } = result as unknown as { rows: Array<{ year: number | string }> };
  return [...new Set([currentFilingYear(), ...rows.map((r) => Number(r.year))])].sort((a, b) => b - a);
}

/**
 * Stores a case's flags and assignee; the stage is recomputed from the flags. Answers the
 * stage before and after, so that a move can be told to the client.
 */
export async function saveWorkflow(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; flags: WorkflowFlags; stage: StageKey; assigneeId: string | null },
  ip: string,
  /** Run in the save's transaction with the stage before (the stage notice is queued there). */
  withinSave?: (tx: Transaction, from: StageKey) => Promise<void>,
): Promise<{ outcome: "saved"; from: StageKey; to: StageKey } | { outcome: "no-such-client" | "no-such-staff" }> {
  const db = getDb();
  const [theCase] = await db
    .select({ stage: clientCases.currentStage })
    .from(clientCases)
    .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear)));
  if (!theCase) return { outcome: "no-such-client" };
  const done = Object.entries(input.flags)
    .filter(([, v]) => v)
    .map(([k]) => k);
  const from = await db.transaction(async (tx) => {
    if (input.assigneeId) {
      // Active staff, read under a lock: a deactivation (which unassigns their cases) cannot slip in between.
      const [staff] = await tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.id, input.assigneeId), inArray(user.role, [...STAFF_ROLES]), isNull(user.deactivatedAt)))
        .for("share");
      if (!staff) return null;
    }
    // The stage before, read under the row's lock: two saves at once each see the other's result.
    const [before] = await tx
      .select({ stage: clientCases.currentStage })
      .from(clientCases)
      .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear)))
      .for("update");
    await tx
      .update(clientCases)
      .set({ ...input.flags, currentStage: input.stage, assigneeId: input.assigneeId, updatedBy: actor.id, updatedAt: new Date() })
      .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear)));
    await recordAudit(
      {
        actor,
        action: "workflow-saved",
        clientId: input.clientId,
        taxYear: input.taxYear,
        detail: `stage ${input.stage}; completed: ${done.join(", ") || "none"}; assignee: ${input.assigneeId ?? "none"}`,
        ip,
      },
      tx,
    );
    const from = before?.stage ?? theCase.stage;
    await withinSave?.(tx, from);
    return from;
  });
  if (from === null) return { outcome: "no-such-staff" };
  return { outcome: "saved", from, to: input.stage };
}

/**
 * Assigns cases of one tax year to a staff member (null: to nobody), from the client list: one
 * row or the rows ticked. All or nothing, in one transaction with one audit entry per case:
 * refused when nothing is chosen, when more than MAX_ASSIGN_AT_ONCE are, when the staff member is
 * not active staff (read under a lock, so a deactivation cannot slip in between), or when one of
 * the clients has no case of that year.
 */
export async function assignCases(
  actor: SessionUser,
  input: { taxYear: number; clientIds: readonly string[]; assigneeId: string | null },
  ip: string,
): Promise<
  | { outcome: "assigned"; clients: Array<{ id: string; label: string }>; assignee: StaffMember | null }
  | { outcome: "nothing-selected" | "too-many" | "no-such-staff" | "not-this-year" }
> {
  const ids = [...new Set(input.clientIds)];
  if (ids.length === 0) return { outcome: "nothing-selected" };
  if (ids.length > MAX_ASSIGN_AT_ONCE) return { outcome: "too-many" };
  return getDb().transaction(async (tx) => {
    let assignee: StaffMember | null = null;
    if (input.assigneeId !== null) {
      const [staff] = await tx
        .select({ id: user.id, name: user.name, email: user.email })
        .from(user)
        .where(and(eq(user.id, input.assigneeId), inArray(user.role, [...STAFF_ROLES]), isNull(user.deactivatedAt)))
        .for("share");
      if (!staff) return { outcome: "no-such-staff" as const };
      assignee = staff;
    }
    const cases = await tx
      .select({ clientId: clientCases.userId, number: clientCases.number, name: user.name })
      .from(clientCases)
      .innerJoin(user, eq(user.id, clientCases.userId))
      .where(and(eq(clientCases.taxYear, input.taxYear), inArray(clientCases.userId, ids)))
      .orderBy(desc(clientCases.number))
      .for("update", { of: clientCases });
    if (cases.length !== ids.length) return { outcome: "not-this-year" as const };
    await tx
      .update(clientCases)
      .set({ assigneeId: assignee?.id ?? null, updatedBy: actor.id, updatedAt: new Date() })
      .where(and(eq(clientCases.taxYear, input.taxYear), inArray(clientCases.userId, ids)));
    for (const { clientId } of cases)
      await recordAudit(
        {
          actor,
          action: "case-assigned",
          clientId,
          taxYear: input.taxYear,
          detail: `assignee: ${assignee?.id ?? "none"}${ids.length > 1 ? ` (${ids.length} cases at once)` : ""}`,
          ip,
        },
        tx,
      );
    const clients = cases.map((c) => ({ id: c.clientId, label: `${c.name} (${clientCode(c.number)})` }));
    return { outcome: "assigned" as const, clients, assignee };
  });
}

export type NewClient = { name: string; email: string; phone: string | null; visaStatus: VisaStatus };

/** How long an invitation's link to choose a password works. */
const INVITATION_HOURS = 72;

/**
 * "created": a new client account, invited. "invited-again": the address already had a client
 * account waiting for an invitation (see awaitsInvitation): it went again. "exists": the
 * address belongs to an account in use, to staff, or to a client whose invitation is pending.
 * "not-sent": the account exists but the invitation could not be sent yet: it stays queued in the
 * outbox and goes when the mail server takes it (its link works meanwhile, so adding the client
 * again answers "exists").
 */
export type AddClientOutcome = "created" | "invited-again" | "exists" | "not-sent";

/** The one-time links to choose a password made for this account (createPasswordLink). */
const passwordLinksOf = (userId: string) =>
  and(like(verification.identifier, "reset-password:%"), eq(verification.value, userId));

/**
 * Whether an existing account is a client still waiting for an invitation: a client account
 * with no way to sign in yet (no password chosen, no Google sign-in) and no working link to
 * choose a password (its invitation could not be sent, or its link has expired).
 */
async function awaitsInvitation(userId: string): Promise<boolean> {
  const db = getDb();
  const [[row], [signIn], [link]] = await Promise.all([
    db.select({ role: user.role }).from(user).where(eq(user.id, userId)),
    db.select({ id: account.id }).from(account).where(eq(account.userId, userId)).limit(1),
    db
      .select({ id: verification.id })
      .from(verification)
      .where(and(passwordLinksOf(userId), gt(verification.expiresAt, new Date())))
      .limit(1),
  ]);
  return row?.role === "user" && !signIn && !link;
}

/**
 * E-mails the client a fresh one-time link to choose their password: the link, its e-mail (queued
 * in the outbox, ADR 0023) and the audit entry are stored together, then the e-mail is sent. True
 * when it went: the account's older links then stop working (only the newest invitation opens the
 * account). False when it could not go yet: it stays queued and goes when the mail server takes
 * it, and the links sent before keep working meanwhile.
 */
async function sendInvitation(
  actor: SessionUser,
  client: { id: string; email: string; name: string },
  again: boolean,
  ip: string,
): Promise<boolean> {
  const db = getDb();
  const { link, mailId } = await db.transaction(async (tx) => {
    const made = await createPasswordLink(client.id, INVITATION_HOURS, tx);
    await recordAudit(
      { actor, action: "invitation-sent", clientId: client.id, detail: `invited ${client.email}${again ? " again" : ""}`, ip },
      tx,
    );
    const queued = await enqueueMail(
      { kind: "client-invitation", to: client.email, payload: { name: client.name, link: made, hours: INVITATION_HOURS } },
      tx,
    );
    return { link: made, mailId: queued };
  });
  if ((await deliverMail(mailId)).sent !== 1) return false;
  const sent = linkIdentifier(link);
  await db.delete(verification).where(and(passwordLinksOf(client.id), sent ? ne(verification.identifier, sent) : undefined));
  return true;
}

/** The stored identifier of a link made by createPasswordLink (its token), or null. */
function linkIdentifier(link: string): string | null {
  const token = new URL(link).searchParams.get("token");
  return token ? `reset-password:${token}` : null;
}

/**
 * Add New Client: creates a client account (verified: the invitation goes to that address and
 * only its holder can set the password) with its profile and case, and e-mails the invitation.
 * The account and its audit entry are stored together; the invitation after (sendInvitation),
 * queued in the outbox when the mail server does not take it at once.
 */
export async function createClient(actor: SessionUser, input: NewClient, ip: string): Promise<AddClientOutcome> {
  const db = getDb();
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing && !(await awaitsInvitation(existing.id))) return "exists";
  const id =
    existing?.id ??
    (await db.transaction(async (tx) => {
      const created = await createAccount(
        { name: input.name, email, phone: input.phone, visaStatus: input.visaStatus, role: "user", emailVerified: true },
        tx,
      );
      await recordAudit({ actor, action: "client-created", clientId: created, detail: `account for ${email}`, ip }, tx);
      return created;
    }));
  const sent = await sendInvitation(actor, { id, email, name: input.name }, Boolean(existing), ip);
  if (!sent) return "not-sent";
  return existing ? "invited-again" : "created";
}

/**
 * Where a client's account stands with its invitation: "pending" while it has no way to sign in
 * (no password chosen, no Google sign-in), "has-password" once it has one, "deactivated" when
 * the account is turned off, "no-such-client" when it is not a client account.
 */
export type InvitationStanding = "pending" | "has-password" | "deactivated" | "no-such-client";

export async function invitationStanding(clientId: string): Promise<InvitationStanding> {
  const db = getDb();
  const [[row], [signIn]] = await Promise.all([
    db.select({ role: user.role, deactivatedAt: user.deactivatedAt }).from(user).where(eq(user.id, clientId)),
    db.select({ id: account.id }).from(account).where(eq(account.userId, clientId)).limit(1),
  ]);
  if (!row || row.role !== "user") return "no-such-client";
  if (row.deactivatedAt) return "deactivated";
  return signIn ? "has-password" : "pending";
}

/**
 * "Send invitation again" on a case page: a fresh one-time link to choose a password, for a
 * client whose account still waits for it (invitationStanding "pending"). "sent" with the
 * address it went to; otherwise why not ("not-sent": the e-mail could not go yet and stays queued;
 * the links sent before keep working).
 */
export async function resendInvitation(
  actor: SessionUser,
  clientId: string,
  ip: string,
): Promise<{ outcome: "sent"; email: string } | { outcome: Exclude<InvitationStanding, "pending"> | "not-sent" }> {
  const standing = await invitationStanding(clientId);
  if (standing !== "pending") return { outcome: standing };
  const [client] = await getDb().select({ id: user.id, email: user.email, name: user.name }).from(user).where(eq(user.id, clientId));
  if (!client) return { outcome: "no-such-client" };
  return (await sendInvitation(actor, client, true, ip)) ? { outcome: "sent", email: client.email } : { outcome: "not-sent" };
}

export async function listContactMessages() {
  return getDb().select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(200);
}

export async function markMessageHandled(actor: SessionUser, messageId: string, ip: string): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const updated = await tx
      .update(contactMessages)
      .set({ handledAt: new Date() })
      .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
      .returning({ id: contactMessages.id });
    if (updated.length === 0) return false;
    await recordAudit({ actor, action: "message-handled", detail: `contact message ${messageId}`, ip }, tx);
    return true;
  });
}
