import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import { clientCode } from "~/domain/admin";
import type { AdminClientRow, AdminQuery, ExportedCase, StaffMember } from "~/domain/admin";
import { letterMarkOf } from "~/domain/engagement";
import type { LetterState } from "~/domain/engagement";
import type { ResidencyFilter } from "~/domain/residency/filters";
import type { ResidencyStatus } from "~/domain/residency/rules";
import { currentFilingYear, FIRST_TAX_YEAR } from "~/domain/tax-year";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { caseKey, outstandingRequestCounts, unreadMessageCounts } from "~/server/cases/case-counts.server";
import { letterRequired, letterStates } from "~/server/engagement/letters.server";
import type { CaseRef } from "~/server/cases/case-counts.server";
import { stageFlagColumns } from "~/server/cases/progress.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, taxpayerRecords, user } from "~/server/db/schema";
import { returnFilterCondition } from "~/server/returns/timeline.server";
import { staffSeesClientSql } from "~/server/consents/outside-us.server";
import { listStaff } from "~/server/team/active-staff.server";

// The admin panel's list of cases: one tax year's cases, filtered, searched and paged, and the
// one case a page of the panel opens. Staff only: callers sit under the admin layout.

const clientColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  createdAt: user.createdAt,
  number: clientCases.number,
  currentStage: clientCases.currentStage,
  ...stageFlagColumns,
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
 * Which cases a list shows: HOME lists every case of the year, any other section those whose
 * stage equals it; the search (name, e-mail, client id such as TB-00042 or 42, account id,
 * assignee), the stage filter, the return filter (waiting for approval, for a signature, rejected:
 * server/returns/timeline.server.ts) and the residency filter (the residency the case stores:
 * residencyFilterCondition) apply on top. Each search arm is answered by an index (trigram on name and e-mail, the
 * case number, the primary key, the assignee), so the list stays fast with many clients.
 */
export type ClientFilter = Pick<AdminQuery, "year" | "section" | "q" | "stage"> & {
  returnFilter?: AdminQuery["returnFilter"];
  residencyFilter?: AdminQuery["residencyFilter"];
  /**
   * The acting staff member: one who works outside the United States is shown only the clients
   * whose consent to disclose is in force (server/consents/outside-us.server.ts).
   */
  viewer?: string;
};

/**
 * The cases a residency filter keeps, as a condition on the residency each case stores (computed
 * whenever the client's history changes, server/residency/outcome.server.ts; never per request):
 * - resident, nonresident, dual-status: the client's own status of the year (residency_status);
 * - first-year-choice: a first-year choice is open to someone of the household;
 * - history-missing: something the decision needs is missing, or no history was told at all;
 * - flagged: a flag is raised for someone of the household (ITIN, FBAR, treaty...).
 */
export function residencyFilterCondition(filter: ResidencyFilter): SQL {
  switch (filter) {
    case "resident":
    case "nonresident":
    case "dual-status":
      return eq(clientCases.residencyStatus, filter);
    case "first-year-choice":
      return eq(clientCases.residencyFirstYearOpen, true);
    case "history-missing":
      return eq(clientCases.residencyMissing, true);
    case "flagged":
      return eq(clientCases.residencyFlagged, true);
  }
}

export function clientConditions(q: Omit<ClientFilter, "year"> & { year: number | null }): SQL {
  // Only client accounts have a case (migration 0006), so no condition on the account's role.
  const conditions: SQL[] = [];
  if (q.year !== null) conditions.push(eq(clientCases.taxYear, q.year));
  if (q.section !== "home") conditions.push(eq(clientCases.currentStage, q.section));
  if (q.stage !== "all") conditions.push(eq(clientCases.currentStage, q.stage));
  if (q.returnFilter !== undefined && q.returnFilter !== "all") conditions.push(returnFilterCondition(q.returnFilter));
  if (q.residencyFilter !== undefined && q.residencyFilter !== "all") conditions.push(residencyFilterCondition(q.residencyFilter));
  if (q.viewer) conditions.push(staffSeesClientSql(q.viewer, clientCases.userId));
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

type CaseCounts = {
  outstandingRequests: ReadonlyMap<string, number>;
  unreadMessages: ReadonlyMap<string, number>;
  letters: ReadonlyMap<string, LetterState>;
  letterRequired: boolean;
};

/** For the cases listed: the items the client still owes, their messages no staff member has read, and where each engagement letter stands. */
async function caseCounts(cases: readonly CaseRef[]): Promise<CaseCounts> {
  const [outstandingRequests, unreadMessages, letters, required] = await Promise.all([
    outstandingRequestCounts(cases),
    unreadMessageCounts(cases),
    letterStates(cases),
    letterRequired(),
  ]);
  return { outstandingRequests, unreadMessages, letters, letterRequired: required };
}

function toAdminRow(r: ClientRowData, staff: Map<string, StaffMember>, counts: CaseCounts): AdminClientRow {
  return {
    ...caseFields(r, staff),
    newUploads: Number(r.newUploads ?? 0),
    outstandingRequests: counts.outstandingRequests.get(caseKey({ clientId: r.id, taxYear: r.taxYear })) ?? 0,
    unreadMessages: counts.unreadMessages.get(caseKey({ clientId: r.id, taxYear: r.taxYear })) ?? 0,
    letter: letterMarkOf(counts.letters.get(caseKey({ clientId: r.id, taxYear: r.taxYear })) ?? "none", counts.letterRequired),
  };
}

/** A case's row as the export reads it (exportColumns): the list's columns and the stored residency. */
type ExportedRowData = Omit<ClientRowData, "newUploads"> & { residencyStatus: ResidencyStatus | null; residencyConfirmed: ResidencyStatus | null };

export function toExportedCase(r: ExportedRowData, staff: Map<string, StaffMember>): ExportedCase {
  return { ...caseFields(r, staff), residency: { status: r.residencyStatus, confirmed: r.residencyConfirmed } };
}

/** What the list and the export both show of a case. */
function caseFields(r: Omit<ClientRowData, "newUploads">, staff: Map<string, StaffMember>): Omit<ExportedCase, "residency"> {
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
export function caseColumns() {
  return {
    ...clientColumns,
    taxYear: clientCases.taxYear,
    documentCount: sql<number>`(select count(*) from documents d where d.client_id = ${clientCases.userId} and d.tax_year = ${clientCases.taxYear})`.mapWith(Number),
    taxInfoSubmittedAt: sql<Date | null>`(select t.created_at from taxpayer_records t where t.user_id = ${clientCases.userId} and t.tax_year = ${clientCases.taxYear})`.mapWith(taxpayerRecords.createdAt),
    taxInfoUpdatedAt: sql<Date | null>`(select t.updated_at from taxpayer_records t where t.user_id = ${clientCases.userId} and t.tax_year = ${clientCases.taxYear})`.mapWith(taxpayerRecords.updatedAt),
  };
}

/**
 * The columns of an exported case: the list's, and the client's residency as the case stores it
 * (computed, and as staff confirmed it): two columns of the same row.
 */
export function exportColumns() {
  return { ...caseColumns(), residencyStatus: clientCases.residencyStatus, residencyConfirmed: clientCases.residencyConfirmedStatus };
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
 * The cases of one tax year matching the panel's section, search, stage, return and residency filters, newest
 * client first: one page (`page` given) or all of them, with how many match. `viewer` is the
 * acting staff member (for the uploads new to them). Staff only: callers sit under the admin layout.
 */
export async function findCases(
  q: ClientFilter,
  page?: { number: number; size: number },
  known: { staff?: StaffMember[]; total?: number; viewer?: string } = {},
): Promise<{ rows: AdminClientRow[]; matching: number }> {
  const search = q.q.trim() !== "";
  const unfiltered =
    q.section === "home" && !search && q.stage === "all" && (q.returnFilter ?? "all") === "all" && (q.residencyFilter ?? "all") === "all";
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

/** How many cases the list on screen holds (its tax year, section, search, stage, return and residency filters). */
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

/** A case's residency at a glance (the case page's overview): the client's status as computed and as staff confirmed it (null: not computed, not confirmed). */
export type CaseResidencyGlance = { status: ResidencyStatus | null; confirmed: ResidencyStatus | null };

/**
 * One client's case of a tax year as the panel lists it, or null when there is no such case (or
 * the `viewer`, working outside the United States, may not see its client); with
 * the case's stored residency status and its confirmation (two columns of the same row).
 */
export async function findCase(clientId: string, year: number, viewer = ""): Promise<(AdminClientRow & { residency: CaseResidencyGlance }) | null> {
  const [row] = await getDb()
    .select({ ...listColumns(viewer), residencyStatus: clientCases.residencyStatus, residencyConfirmed: clientCases.residencyConfirmedStatus })
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(
      and(
        eq(user.role, "user"),
        eq(clientCases.userId, clientId),
        eq(clientCases.taxYear, year),
        viewer ? staffSeesClientSql(viewer, clientCases.userId) : undefined,
      ),
    );
  if (!row) return null;
  const [staff, counts] = await Promise.all([listStaff(), caseCounts([{ clientId: row.id, taxYear: row.taxYear }])]);
  const { residencyStatus, residencyConfirmed, ...rest } = row;
  return { ...toAdminRow(rest, new Map(staff.map((s) => [s.id, s])), counts), residency: { status: residencyStatus, confirmed: residencyConfirmed } };
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
