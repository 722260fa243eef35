import { and, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { newYorkDay } from "~/domain/business-days";
import { isStaffRole } from "~/domain/policy";
import { parseConfirmation, RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
import type { FieldErrorMap } from "~/domain/residency/forms";
import type { Household, IsoDay, PersonHistory, StaffFindings } from "~/domain/residency/history";
import type { ReturnForm } from "~/domain/e-signature";
import { residencyReturnForm } from "~/domain/residency/return-form";
import { decideHousehold } from "~/domain/residency/rules";
import type { ResidencyOutcome, ResidencyStatus } from "~/domain/residency/rules";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Database, Transaction } from "~/server/db/client.server";
import { clientCases, residencyFindings, residencyPeople, residencyPeriods, residencyStays, user } from "~/server/db/schema";

// The residency of a client's cases (docs/product/residency.md), stored on each case: computed
// from the client's immigration history by the pure rules (decideHousehold) whenever the history,
// staff's findings or the case's facts change, in the transaction of that change, and never when
// a page or a list is read. Staff confirm the client's status, with a reason when it is not the
// computed one.

const M = RESIDENCY_FORM_MESSAGES;

/** What a change of the history, the findings, the facts or the confirmation answers: done, or the message of each field (`form`: the whole). */
export type ResidencyResult = { ok: true } | { ok: false; errors: FieldErrorMap; status?: 403 | 404 };

export function refusedWith(message: string, status?: 403 | 404, field = "form"): ResidencyResult {
  return status === undefined ? { ok: false, errors: { [field]: message } } : { ok: false, errors: { [field]: message }, status };
}

/** Staff act on any client; a client only on their own history and cases. */
export function mayActFor(actor: SessionUser, clientId: string): boolean {
  return isStaffRole(actor.role) || (actor.role === "user" && actor.id === clientId);
}

/**
 * Locks the client's account row for the rest of the transaction (changes of one client's history
 * and its residency wait for each other), and answers its name; null when there is no such client.
 */
export async function lockClient(tx: Transaction, clientId: string): Promise<{ name: string } | null> {
  const [row] = await tx
    .select({ name: user.name })
    .from(user)
    .where(and(eq(user.id, clientId), eq(user.role, "user")))
    .for("no key update");
  return row ?? null;
}

/* ------------------------------------------------------------------ the household from the rows */

type PersonRow = typeof residencyPeople.$inferSelect;
type PeriodRow = typeof residencyPeriods.$inferSelect;
type StayRow = typeof residencyStays.$inferSelect;
type FindingsRow = typeof residencyFindings.$inferSelect;

/** The key the rules and pages know a person by: "client", "spouse", or a dependant's id. */
export function personKey(row: Pick<PersonRow, "id" | "role">): string {
  return row.role === "dependant" ? row.id : row.role;
}

/**
 * The people of a household as the rules read them: each with their own periods, their own stays
 * (or the client's, for a spouse or dependant who travels with the client) and staff's findings by
 * tax year. A history without its client row gets an empty client named after the account.
 */
export function householdPeople(
  accountName: string,
  people: readonly PersonRow[],
  periods: readonly PeriodRow[],
  stays: readonly StayRow[],
  findings: readonly FindingsRow[],
): PersonHistory[] {
  const staysOf = (personId: string) =>
    stays
      .filter((s) => s.personId === personId)
      .map((s) => ({ arrival: s.arrival, departure: s.departure, transit: s.transit }))
      .sort((a, b) => (a.arrival < b.arrival ? -1 : a.arrival > b.arrival ? 1 : 0));
  const client = people.find((p) => p.role === "client");
  const clientStays = client ? staysOf(client.id) : [];
  const ordered = [...people].sort((a, b) => a.position - b.position);
  const out: PersonHistory[] = ordered.map((p) => ({
    key: personKey(p),
    role: p.role,
    name: p.name,
    periods: periods
      .filter((r) => r.personId === p.id)
      .map((r) => ({ status: r.status, category: r.category, from: r.fromDay, to: r.toDay }))
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0)),
    stays: p.role === "client" || p.ownStays ? staysOf(p.id) : clientStays,
    citizenship: p.citizenship,
    greenCardSteps: p.greenCardSteps,
    itin: p.itinIssuedYear === null ? null : { issuedYear: p.itinIssuedYear, lastUsedYear: p.itinLastUsedYear },
    ficaWithheld: p.ficaWithheld,
    findings: Object.fromEntries(
      findings
        .filter((f) => f.personId === p.id)
        .map((f): [number, StaffFindings] => [f.taxYear, { studentException: f.studentException, deMinimis: f.deMinimis, abroadAfterLeaving: f.abroadAfterLeaving }]),
    ),
  }));
  if (!client)
    out.unshift({
      key: "client",
      role: "client",
      name: accountName,
      periods: [],
      stays: [],
      citizenship: null,
      greenCardSteps: false,
      itin: null,
      ficaWithheld: null,
      findings: {},
    });
  return out;
}

/**
 * A client's stored history: their people in order, and every period, stay and finding of them,
 * each read by the client's id. One query at a time: a transaction's connection runs one.
 */
export async function historyRows(db: Pick<Database, "select">, clientId: string) {
  const ofClient = eq(residencyPeople.clientId, clientId);
  const people = await db.select().from(residencyPeople).where(ofClient).orderBy(asc(residencyPeople.position));
  const periods = await db
    .select({ r: residencyPeriods })
    .from(residencyPeriods)
    .innerJoin(residencyPeople, eq(residencyPeople.id, residencyPeriods.personId))
    .where(ofClient)
    .orderBy(asc(residencyPeriods.fromDay), asc(residencyPeriods.id));
  const stays = await db
    .select({ r: residencyStays })
    .from(residencyStays)
    .innerJoin(residencyPeople, eq(residencyPeople.id, residencyStays.personId))
    .where(ofClient)
    .orderBy(asc(residencyStays.arrival), asc(residencyStays.id));
  const findings = await db
    .select({ r: residencyFindings })
    .from(residencyFindings)
    .innerJoin(residencyPeople, eq(residencyPeople.id, residencyFindings.personId))
    .where(ofClient)
    .orderBy(asc(residencyFindings.taxYear));
  return { people, periods: periods.map((x) => x.r), stays: stays.map((x) => x.r), findings: findings.map((x) => x.r) };
}

/** The columns the staff list reads, from a year's outcomes. */
export function residencySummary(outcomes: readonly ResidencyOutcome[]) {
  return {
    residencyStatus: outcomes.find((o) => o.role === "client")?.status ?? null,
    residencyFirstYearOpen: outcomes.some((o) => o.choices.some((c) => c.kind === "first-year-choice")),
    residencyMissing: outcomes.some((o) => o.missing.length > 0),
    residencyFlagged: outcomes.some((o) => o.flags.length > 0),
  };
}

/**
 * Computes the residency of every case of the client again from the stored history, and stores
 * each year's outcomes and summary on its case. A case whose stored outcome changes loses staff's
 * confirmation (it confirmed other facts). Call it inside the transaction of the change, after it.
 * `today` is New York's day (a stay still open counts up to it); `onlyYear` limits it to one case
 * (a change of that case's own facts).
 */
export async function recomputeResidency(tx: Transaction, clientId: string, options: { today?: IsoDay; onlyYear?: number } = {}): Promise<void> {
  const today = options.today ?? newYorkDay();
  const cases = await tx
    .select({ taxYear: clientCases.taxYear, foreign: clientCases.foreignAccountsHighestCents, jointly: clientCases.filesJointly })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), options.onlyYear === undefined ? undefined : eq(clientCases.taxYear, options.onlyYear)))
    .orderBy(asc(clientCases.taxYear));
  if (cases.length === 0) return;
  const [account] = await tx.select({ name: user.name }).from(user).where(eq(user.id, clientId));
  const rows = await historyRows(tx, clientId);
  if (rows.people.length === 0) {
    // No history told yet: nothing to decide, and the whole history is missing.
    await tx
      .update(clientCases)
      .set({ residencyOutcome: null, residencyStatus: null, residencyFirstYearOpen: false, residencyMissing: true, residencyFlagged: false, residencyComputedAt: null })
      .where(and(eq(clientCases.userId, clientId), options.onlyYear === undefined ? undefined : eq(clientCases.taxYear, options.onlyYear)));
    return;
  }
  const household = householdPeople(account?.name ?? "", rows.people, rows.periods, rows.stays, rows.findings);
  for (const theCase of cases) {
    const facts: Household = { people: household, foreignAccountsHighestCents: theCase.foreign, filesJointly: theCase.jointly };
    const outcomes = decideHousehold(facts, theCase.taxYear, today);
    const changed = sql`${clientCases.residencyOutcome} is distinct from ${JSON.stringify(outcomes)}::jsonb`;
    await tx
      .update(clientCases)
      .set({
        residencyOutcome: outcomes,
        ...residencySummary(outcomes),
        residencyComputedAt: sql`now()`,
        residencyConfirmedStatus: sql`case when ${changed} then null else ${clientCases.residencyConfirmedStatus} end`,
        residencyConfirmedBy: sql`case when ${changed} then null else ${clientCases.residencyConfirmedBy} end`,
        residencyConfirmedAt: sql`case when ${changed} then null else ${clientCases.residencyConfirmedAt} end`,
        residencyConfirmReason: sql`case when ${changed} then null else ${clientCases.residencyConfirmReason} end`,
      })
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, theCase.taxYear)));
  }
}

/* ------------------------------------------------------------------ confirmation */

/**
 * Staff confirm the client's residency status of a tax year. A status other than the computed
 * one needs a reason (refused at `reason` otherwise). Audited ("residency-confirmed"; the reason
 * itself is not copied into the trail).
 */
export async function confirmResidency(
  staff: SessionUser,
  clientId: string,
  taxYear: number,
  status: ResidencyStatus | string,
  reason: string | null,
  ip: string,
): Promise<ResidencyResult> {
  if (!isStaffRole(staff.role)) return refusedWith(M.staffOnly, 403);
  const parsed = parseConfirmation({ status, reason });
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const confirmed = parsed.value;
  return getDb().transaction(async (tx) => {
    const [theCase] = await tx
      .select({ computed: clientCases.residencyStatus })
      .from(clientCases)
      .innerJoin(user, and(eq(user.id, clientCases.userId), eq(user.role, "user")))
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)))
      .for("update", { of: clientCases });
    if (!theCase) return refusedWith(M.noSuchCase, 404);
    if (theCase.computed === null) return refusedWith(M.notComputed);
    const differs = confirmed.status !== theCase.computed;
    if (differs && confirmed.reason === null) return refusedWith(M.reasonRequired, undefined, "reason");
    await tx
      .update(clientCases)
      .set({
        residencyConfirmedStatus: confirmed.status,
        residencyConfirmedBy: staff.id,
        residencyConfirmedAt: sql`now()`,
        residencyConfirmReason: confirmed.reason,
      })
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
    await recordAudit(
      {
        actor: staff,
        action: "residency-confirmed",
        clientId,
        taxYear,
        detail: differs ? `${confirmed.status} (computed: ${theCase.computed}), with a reason` : `${confirmed.status}, as computed`,
        ip,
      },
      tx,
    );
    return { ok: true as const };
  });
}

/* ------------------------------------------------------------------ reading */

export type ResidencyConfirmation = {
  status: ResidencyStatus;
  at: string;
  /** Staff only: who confirmed it (their current name; null for a client reader or an account that is gone) and the reason given. */
  by: string | null;
  reason: string | null;
};

export type CaseResidencyView = {
  taxYear: number;
  /** Every person's outcome, the client first; null until the residency has been computed. */
  outcome: ResidencyOutcome[] | null;
  /** The client's own status as computed. */
  status: ResidencyStatus | null;
  firstYearOpen: boolean;
  missing: boolean;
  flagged: boolean;
  computedAt: string | null;
  foreignAccountsHighestCents: number | null;
  filesJointly: boolean;
  confirmation: ResidencyConfirmation | null;
};

const confirmer = alias(user, "confirmer");

/**
 * The stored residency of a case for a page: the client's own, or any client's for staff. Null
 * when the case does not exist or is not the actor's to see.
 */
export async function caseResidency(actor: SessionUser, clientId: string, taxYear: number): Promise<CaseResidencyView | null> {
  if (!mayActFor(actor, clientId)) return null;
  const staff = isStaffRole(actor.role);
  const [row] = await getDb()
    .select({ c: clientCases, confirmerName: confirmer.name })
    .from(clientCases)
    .innerJoin(user, and(eq(user.id, clientCases.userId), eq(user.role, "user")))
    .leftJoin(confirmer, eq(confirmer.id, clientCases.residencyConfirmedBy))
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  if (!row) return null;
  const { c } = row;
  return {
    taxYear: c.taxYear,
    outcome: c.residencyOutcome,
    status: c.residencyStatus,
    firstYearOpen: c.residencyFirstYearOpen,
    missing: c.residencyMissing,
    flagged: c.residencyFlagged,
    computedAt: c.residencyComputedAt?.toISOString() ?? null,
    foreignAccountsHighestCents: c.foreignAccountsHighestCents,
    filesJointly: c.filesJointly,
    confirmation:
      c.residencyConfirmedStatus !== null && c.residencyConfirmedAt !== null
        ? {
            status: c.residencyConfirmedStatus,
            at: c.residencyConfirmedAt.toISOString(),
            by: staff ? row.confirmerName : null,
            reason: staff ? c.residencyConfirmReason : null,
          }
        : null,
  };
}

/** A case's stored outcome and confirmed status (staff's pages and forms; callers under the admin layout). */
export async function storedResidency(clientId: string, taxYear: number): Promise<{ outcome: ResidencyOutcome[] | null; confirmed: ResidencyStatus | null }> {
  const [row] = await getDb()
    .select({ outcome: clientCases.residencyOutcome, confirmed: clientCases.residencyConfirmedStatus })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  return row ?? { outcome: null, confirmed: null };
}

/** The return's form the case's residency calls for (its confirmed status first); null before there is one. */
export async function residencyFormOf(clientId: string, taxYear: number): Promise<ReturnForm | null> {
  const { outcome, confirmed } = await storedResidency(clientId, taxYear);
  return residencyReturnForm(outcome, confirmed);
}
