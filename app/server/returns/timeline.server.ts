import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { isStaffRole } from "~/domain/policy";
import { resendBy, RETURN_FILTERS } from "~/domain/returns";
import type { Jurisdiction, ReturnFilter, ReturnForm, SignatureMethod, SignerRole } from "~/domain/returns";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import {
  clientCases,
  efileEvents,
  finalCopies,
  idChecks,
  returnReviews,
  returnVersions,
  signatureRequestEvents,
  signatureRequests,
  signatures,
  user,
} from "~/server/db/schema";
import { openRejection } from "./efile.server";
import { requestStandingSql } from "./records.server";
import type { CaseRef } from "./records.server";

// What the pages show of a case's return: its events in order (the client's page and staff's),
// and the staff list's filters (cases waiting for the client's approval, for a signature, or
// rejected and not sent again), as SQL conditions on client_cases like the list's own
// (clients/list.server.ts clientConditions).

export type ReturnEventKind =
  | "version-uploaded"
  | "approved"
  | "changes-requested"
  | "id-checked"
  | "signature-requested"
  | "signed"
  | "voided"
  | "within-tolerance"
  | "cancelled"
  | "authorised"
  | "transmitted"
  | "accepted"
  | "rejected"
  | "final-copies-released";

/** One event of the return; `at` is when it was recorded (ISO), `date` the day staff entered for an e-file event. */
export type ReturnEvent = {
  kind: ReturnEventKind;
  at: string;
  versionNumber?: number;
  form?: ReturnForm | string;
  role?: SignerRole;
  signerName?: string;
  method?: SignatureMethod;
  jurisdiction?: Jurisdiction;
  date?: string;
  codes?: string[];
  /** Rejections: the last day to send the return again. */
  resendBy?: string;
  /** A voiding that staff's declaration within the IRS tolerances later undid: the signature stands. */
  kept?: boolean;
};

/** The events only staff see: identity checks and tolerance declarations. */
const STAFF_ONLY: ReadonlySet<ReturnEventKind> = new Set<ReturnEventKind>(["id-checked", "within-tolerance"]);

/**
 * The return's events of a case, oldest first: for staff, or for the case's own client (null for
 * anyone else). The client's list leaves out what is staff's business (identity checks,
 * tolerance declarations).
 */
export async function caseReturnTimeline(actor: SessionUser, ref: CaseRef): Promise<ReturnEvent[] | null> {
  const staff = isStaffRole(actor.role);
  if (!staff && (actor.role !== "user" || actor.id !== ref.clientId)) return null;
  const rows = await timelineRows(ref);
  // A voiding is kept when a later declaration within the tolerances holds its request for the
  // same version: the client reads that the signature stands, not that it must be signed again.
  // (Versions uploaded meanwhile void nothing more: the declaration may name a later version.)
  const requestEvents = rows.filter((r) => r.source === "request-event").sort((x, y) => x.at - y.at);
  const kept = (e: TimelineRow) =>
    e.kind === "voided" && requestEvents.find((t) => t.requestId === e.requestId && t !== e && t.at >= e.at && t.kind !== "authorised")?.kind === "within-tolerance";
  const events = rows.map((r): Omit<ReturnEvent, "at"> & { at: number } => {
    const at = r.at;
    switch (r.source) {
      case "version":
        return { kind: "version-uploaded", at, versionNumber: r.number!, form: r.form! };
      case "review":
        return { kind: r.kind === "approved" ? "approved" : "changes-requested", at, versionNumber: r.number! };
      case "id-check":
        return { kind: "id-checked", at, role: r.role as SignerRole };
      case "request":
        return { kind: "signature-requested", at, form: r.form! };
      case "signed":
        return { kind: "signed", at, role: r.role as SignerRole, signerName: r.name!, method: r.method as SignatureMethod };
      case "request-event":
        return { kind: r.kind as ReturnEventKind, at, ...(r.number === null ? {} : { versionNumber: r.number }), ...(kept(r) ? { kept: true } : {}) };
      case "efile":
        return {
          kind: r.kind as ReturnEventKind,
          at,
          jurisdiction: r.jurisdiction as Jurisdiction,
          date: r.date!,
          ...(r.kind === "rejected" ? { codes: r.codes ?? [], resendBy: resendBy(r.date!) } : {}),
        };
      case "released":
        return { kind: "final-copies-released", at };
    }
  });
  return events
    .filter((e) => staff || !STAFF_ONLY.has(e.kind))
    .sort((x, y) => x.at - y.at)
    .map((e) => ({ ...e, at: new Date(e.at).toISOString() }));
}

/** One record of the return, as timelineRows reads it: `at` in milliseconds, the other columns as its source has them. */
type TimelineRow = {
  source: "version" | "review" | "id-check" | "request" | "signed" | "request-event" | "efile" | "released";
  kind: string | null;
  at: number;
  number: number | null;
  form: string | null;
  role: string | null;
  name: string | null;
  method: string | null;
  requestId: string | null;
  jurisdiction: string | null;
  date: string | null;
  codes: string[] | null;
};

/**
 * Every record of the case's return in one query (the pages read it on each visit): versions,
 * reviews, identity checks, signature requests and their events, signatures, e-file events and
 * the release of final copies, in the order of the sources (caseReturnTimeline sorts them by time).
 */
async function timelineRows(ref: CaseRef): Promise<TimelineRow[]> {
  const ofCase = (t: string) => sql`${sql.raw(t)}.client_id = ${ref.clientId} and ${sql.raw(t)}.tax_year = ${ref.taxYear}`;
  // Milliseconds since the epoch, exactly (extract gives a numeric), as a JavaScript Date keeps them.
  const ms = (column: string) => sql.raw(`floor(extract(epoch from ${column}) * 1000)::float8`);
  const result = await getDb().execute(sql`
    select 'version' as source, null as kind, ${ms("v.created_at")} as at, v.number, v.form, null as role, null as name,
      null as method, null::uuid as request_id, null as jurisdiction, null as date, null::json as codes
      from ${returnVersions} v where ${ofCase("v")}
    union all
    select 'review', r.decision, ${ms("r.created_at")}, v.number, null, null, null, null, null, null, null, null
      from ${returnReviews} r join ${returnVersions} v on v.id = r.version_id where ${ofCase("r")}
    union all
    select 'id-check', null, ${ms("c.checked_at")}, null, null, c.signer_role, null, null, null, null, null, null
      from ${idChecks} c where ${ofCase("c")}
    union all
    select 'request', null, ${ms("q.created_at")}, null, q.authorization_form, null, null, null, null, null, null, null
      from ${signatureRequests} q where ${ofCase("q")}
    union all
    select 'signed', null, ${ms("s.signed_at")}, null, null, s.signer_role, s.signer_name, s.method, null, null, null, null
      from ${signatures} s where ${ofCase("s")}
    union all
    select 'request-event', e.kind, ${ms("e.created_at")}, v.number, null, null, null, null, e.request_id, null, null, null
      from ${signatureRequestEvents} e join ${signatureRequests} q on q.id = e.request_id
      left join ${returnVersions} v on v.id = e.version_id where ${ofCase("q")}
    union all
    select 'efile', f.kind, ${ms("f.created_at")}, null, null, null, null, null, null, f.jurisdiction, f.event_date::text,
      to_json(f.reject_codes)
      from ${efileEvents} f where ${ofCase("f")}
    union all
    select 'released', null, ${ms("r.released_at")}, null, null, null, null, null, null, null, null, null
      from ${finalCopies} r where ${ofCase("r")}
  `);
  // node-postgres and PGlite both answer raw queries with { rows }.
  const rows = (result as unknown as { rows: Array<Omit<TimelineRow, "requestId" | "at"> & { request_id: string | null; at: number | string }> }).rows;
  return rows.map(({ request_id, at, ...row }) => ({ ...row, at: Number(at), requestId: request_id }));
}

// ---------------------------------------------------------------------------------------------
// The staff list's filters.

export { RETURN_FILTERS };
export type { ReturnFilter };

/**
 * The cases a filter keeps, as a condition on client_cases:
 * - awaiting-approval: the current version (the newest) has no review from the client yet;
 * - awaiting-signature: a signature request that is not void is not yet signed by every signer;
 * - rejected: a rejection of the return not followed by a new transmission (same jurisdiction).
 */
export function returnFilterCondition(filter: ReturnFilter): SQL {
  const c = sql`${clientCases.userId}`;
  const y = sql`${clientCases.taxYear}`;
  switch (filter) {
    case "awaiting-approval":
      return sql`exists (select 1 from return_versions v where v.client_id = ${c} and v.tax_year = ${y}
        and v.number = (select max(w.number) from return_versions w where w.client_id = v.client_id and w.tax_year = v.tax_year)
        and not exists (select 1 from return_reviews r where r.version_id = v.id))`;
    case "awaiting-signature": {
      const standing = requestStandingSql(sql`q.id`);
      return sql`exists (select 1 from signature_requests q where q.client_id = ${c} and q.tax_year = ${y}
        and not ${standing.authorised} and not ${standing.void})`;
    }
    case "rejected":
      return sql`exists (select 1 from efile_events r where r.client_id = ${c} and r.tax_year = ${y} and ${openRejection(sql`r`)})`;
  }
}

/** How many of a tax year's cases each filter keeps (the dashboard's counts). Staff only. */
export async function returnFilterCounts(staff: SessionUser, taxYear: number): Promise<Record<ReturnFilter, number>> {
  assertStaff(staff, "see the case list");
  const counts = await Promise.all(
    RETURN_FILTERS.map(async (filter) => {
      const [row] = await getDb()
        .select({ n: count() })
        .from(clientCases)
        .where(and(eq(clientCases.taxYear, taxYear), returnFilterCondition(filter)));
      return [filter, row?.n ?? 0] as const;
    }),
  );
  return Object.fromEntries(counts) as Record<ReturnFilter, number>;
}

/** A page of a tax year's cases that a filter keeps, newest client first. Staff only. */
export async function listCasesInReturnFilter(
  staff: SessionUser,
  taxYear: number,
  filter: ReturnFilter,
  page: { limit: number; offset: number } = { limit: 10, offset: 0 },
): Promise<Array<{ clientId: string; code: string; name: string; email: string; taxYear: number }>> {
  assertStaff(staff, "see the case list");
  const rows = await getDb()
    .select({ clientId: clientCases.userId, number: clientCases.number, name: user.name, email: user.email, taxYear: clientCases.taxYear })
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(and(eq(clientCases.taxYear, taxYear), returnFilterCondition(filter)))
    .orderBy(desc(clientCases.number), asc(clientCases.userId))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(({ number, ...r }) => ({ ...r, code: clientCode(number) }));
}
