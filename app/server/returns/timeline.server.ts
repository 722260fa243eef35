import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
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
  const db = getDb();
  const ofCase = (t: { clientId: AnyPgColumn; taxYear: AnyPgColumn }) => and(eq(t.clientId, ref.clientId), eq(t.taxYear, ref.taxYear));
  const [versions, reviews, checks, requests, signed, requestEvents, efile, released] = await Promise.all([
    db.select().from(returnVersions).where(ofCase(returnVersions)),
    db
      .select({ at: returnReviews.createdAt, decision: returnReviews.decision, number: returnVersions.number })
      .from(returnReviews)
      .innerJoin(returnVersions, eq(returnVersions.id, returnReviews.versionId))
      .where(ofCase(returnReviews)),
    db.select({ at: idChecks.checkedAt, role: idChecks.signerRole }).from(idChecks).where(ofCase(idChecks)),
    db.select({ at: signatureRequests.createdAt, form: signatureRequests.authorizationForm }).from(signatureRequests).where(ofCase(signatureRequests)),
    db
      .select({ at: signatures.signedAt, role: signatures.signerRole, name: signatures.signerName, method: signatures.method })
      .from(signatures)
      .where(ofCase(signatures)),
    db
      .select({
        at: signatureRequestEvents.createdAt,
        kind: signatureRequestEvents.kind,
        number: returnVersions.number,
        requestId: signatureRequestEvents.requestId,
        versionId: signatureRequestEvents.versionId,
      })
      .from(signatureRequestEvents)
      .innerJoin(signatureRequests, eq(signatureRequests.id, signatureRequestEvents.requestId))
      .leftJoin(returnVersions, eq(returnVersions.id, signatureRequestEvents.versionId))
      .where(ofCase(signatureRequests)),
    db.select().from(efileEvents).where(ofCase(efileEvents)),
    db.select({ at: finalCopies.releasedAt }).from(finalCopies).where(ofCase(finalCopies)),
  ]);
  // A voiding is kept when a later declaration within the tolerances holds its request for the
  // same version: the client reads that the signature stands, not that it must be signed again.
  // (Versions uploaded meanwhile void nothing more: the declaration may name a later version.)
  const byTime = [...requestEvents].sort((x, y) => x.at.getTime() - y.at.getTime());
  const kept = (e: (typeof requestEvents)[number]) =>
    e.kind === "voided" && byTime.find((t) => t.requestId === e.requestId && t !== e && t.at >= e.at && t.kind !== "authorised")?.kind === "within-tolerance";
  const events: ReturnEvent[] = [
    ...versions.map((v) => ({ kind: "version-uploaded" as const, at: v.createdAt, versionNumber: v.number, form: v.form })),
    ...reviews.map((r) => ({ kind: r.decision === "approved" ? ("approved" as const) : ("changes-requested" as const), at: r.at, versionNumber: r.number })),
    ...checks.map((c) => ({ kind: "id-checked" as const, at: c.at, role: c.role })),
    ...requests.map((r) => ({ kind: "signature-requested" as const, at: r.at, form: r.form })),
    ...signed.map((s) => ({ kind: "signed" as const, at: s.at, role: s.role, signerName: s.name, method: s.method })),
    ...requestEvents.map((e) => ({ kind: e.kind, at: e.at, ...(e.number === null ? {} : { versionNumber: e.number }), ...(kept(e) ? { kept: true } : {}) })),
    ...efile.map((e) => ({
      kind: e.kind,
      at: e.createdAt,
      jurisdiction: e.jurisdiction,
      date: e.eventDate,
      ...(e.kind === "rejected" ? { codes: e.rejectCodes ?? [], resendBy: resendBy(e.eventDate) } : {}),
    })),
    ...released.map((f) => ({ kind: "final-copies-released" as const, at: f.at })),
  ]
    .filter((e) => staff || !STAFF_ONLY.has(e.kind))
    .sort((x, y) => x.at.getTime() - y.at.getTime())
    .map((e) => ({ ...e, at: e.at.toISOString() }));
  return events;
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
