import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { isDocumentId } from "~/domain/documents";
import { normalizeRejectCode } from "~/domain/reject-codes";
import { isRealDay, newYorkDay } from "~/domain/business-days";
import { JURISDICTIONS, resendBy, resendDaysLeft, RETURN_MESSAGES } from "~/domain/returns";
import type { Jurisdiction, RejectedReturn } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { completeStageInTx } from "~/server/cases/workflow.server";
import { getDb } from "~/server/db/client.server";
import { staffSeesClientSql } from "~/server/consents/outside-us.server";
import type { Database, Transaction } from "~/server/db/client.server";
import { clientCases, efileEvents, user } from "~/server/db/schema";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import { clientContact, filingUrl } from "~/server/notices/notices.server";
import type { CaseRef, Refused } from "./records.server";
import { liveRequestsOf, lockCase, refused } from "./records.server";

// The e-file history of a case. The firm files with its own tax software; staff record here what
// was sent and what the IRS (or the state) answered, as events that are never changed:
// transmitted → accepted | rejected → transmitted again. A rejection is told to the client at
// once; an accepted federal return ticks E-FILING.

/** A date staff enter: real, not after New York's today, and not before `notBefore` when given. */
function dateProblem(date: string, notBefore?: string): string | null {
  if (!isRealDay(date) || date > newYorkDay() || (notBefore !== undefined && date < notBefore)) return RETURN_MESSAGES.badDate;
  return null;
}

/** The newest event of a case's return in one jurisdiction. */
async function lastEvent(tx: Pick<Database, "select">, ref: CaseRef, jurisdiction: Jurisdiction) {
  const [row] = await tx
    .select()
    .from(efileEvents)
    .where(and(eq(efileEvents.clientId, ref.clientId), eq(efileEvents.taxYear, ref.taxYear), eq(efileEvents.jurisdiction, jurisdiction)))
    .orderBy(desc(efileEvents.createdAt), desc(efileEvents.id))
    .limit(1);
  return row ?? null;
}

/**
 * Staff record that the return was transmitted (the tax software's submission id and the day).
 * Only once the return is authorised (every signer signed a request that is not void), and not
 * while the last transmission waits for its answer or after an acceptance. Audited.
 */
export async function recordTransmission(
  staff: SessionUser,
  ref: CaseRef,
  input: { date: string; submissionId: string; jurisdiction: string },
  ip: string,
): Promise<{ ok: true; transmissionId: string } | Refused> {
  assertStaff(staff, "record a transmission");
  const submissionId = input.submissionId.trim();
  if (!(JURISDICTIONS as readonly string[]).includes(input.jurisdiction)) return refused(RETURN_MESSAGES.badJurisdiction);
  const jurisdiction = input.jurisdiction as Jurisdiction;
  const problem = dateProblem(input.date) ?? (/^[A-Za-z0-9-]{1,40}$/.test(submissionId) ? null : RETURN_MESSAGES.badSubmissionId);
  if (problem) return refused(problem);
  return getDb().transaction(async (tx) => {
    if (!(await lockCase(tx, ref))) return refused(RETURN_MESSAGES.noSuchCase);
    if (!(await liveRequestsOf(ref, tx)).some((r) => r.standing.authorised)) return refused(RETURN_MESSAGES.notAuthorised);
    const last = await lastEvent(tx, ref, jurisdiction);
    if (last?.kind === "transmitted") return refused(RETURN_MESSAGES.stillWaiting);
    if (last?.kind === "accepted") return refused(RETURN_MESSAGES.alreadyAccepted);
    const [row] = await tx
      .insert(efileEvents)
      .values({ ...ref, kind: "transmitted", jurisdiction, submissionId, eventDate: input.date, recordedBy: staff.id })
      .returning({ id: efileEvents.id });
    if (!row) throw new Error("no event row returned");
    await recordAudit(
      { actor: staff, action: "return-transmitted", clientId: ref.clientId, taxYear: ref.taxYear, detail: `${jurisdiction} return on ${input.date}, submission ${submissionId}`, ip },
      tx,
    );
    return { ok: true as const, transmissionId: row.id };
  });
}

/** The transmission still waiting for its answer, with the case locked; or null. */
async function waitingTransmission(tx: Transaction, transmissionId: string) {
  if (!isDocumentId(transmissionId)) return null;
  const [row] = await tx
    .select()
    .from(efileEvents)
    .where(
      and(
        eq(efileEvents.id, transmissionId),
        eq(efileEvents.kind, "transmitted"),
        sql`not exists (select 1 from ${efileEvents} a where a.transmission_id = ${efileEvents.id})`,
      ),
    );
  if (!row) return null;
  await lockCase(tx, row);
  return row;
}

/** Staff record that the IRS (or the state) accepted a transmission. A federal acceptance ticks E-FILING in the same transaction. Audited. */
export async function recordAccepted(staff: SessionUser, transmissionId: string, date: string, ip: string): Promise<{ ok: true } | Refused> {
  assertStaff(staff, "record an acceptance");
  const outcome = await getDb().transaction(async (tx) => {
    const sent = await waitingTransmission(tx, transmissionId);
    if (!sent) return refused(RETURN_MESSAGES.noSuchTransmission);
    const problem = dateProblem(date, sent.eventDate);
    if (problem) return refused(problem);
    await tx.insert(efileEvents).values({
      clientId: sent.clientId,
      taxYear: sent.taxYear,
      kind: "accepted",
      jurisdiction: sent.jurisdiction,
      transmissionId: sent.id,
      eventDate: date,
      recordedBy: staff.id,
    });
    await recordAudit(
      { actor: staff, action: "return-accepted", clientId: sent.clientId, taxYear: sent.taxYear, detail: `${sent.jurisdiction} return on ${date}, submission ${sent.submissionId ?? ""}`, ip },
      tx,
    );
    const mailId = sent.jurisdiction === "federal" ? await completeStageInTx(tx, staff, sent, "efiling", ip, "the IRS accepted the return") : null;
    return { ok: true as const, mailId };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true };
}

/**
 * Staff record that a transmission was rejected, with the reject codes (written like IND-031-04;
 * one outside the catalogue of domain/reject-codes.ts is kept and explained in general terms) and
 * a note for staff. The
 * client is e-mailed at once (a link only), in the same transaction. Audited.
 */
export async function recordRejected(
  staff: SessionUser,
  transmissionId: string,
  input: { date: string; codes: readonly string[]; note?: string },
  ip: string,
): Promise<{ ok: true } | Refused> {
  assertStaff(staff, "record a rejection");
  const written = input.codes.map((c) => c.trim()).filter(Boolean);
  if (written.length === 0) return refused(RETURN_MESSAGES.codesRequired);
  const normalized = written.map(normalizeRejectCode);
  if (normalized.some((c) => c === null)) return refused(RETURN_MESSAGES.badRejectCode);
  const codes = [...new Set(normalized as string[])];
  const note = (input.note ?? "").trim().slice(0, 2_000);
  const outcome = await getDb().transaction(async (tx) => {
    const sent = await waitingTransmission(tx, transmissionId);
    if (!sent) return refused(RETURN_MESSAGES.noSuchTransmission);
    const problem = dateProblem(input.date, sent.eventDate);
    if (problem) return refused(problem);
    await tx.insert(efileEvents).values({
      clientId: sent.clientId,
      taxYear: sent.taxYear,
      kind: "rejected",
      jurisdiction: sent.jurisdiction,
      transmissionId: sent.id,
      eventDate: input.date,
      rejectCodes: codes,
      note: note || null,
      recordedBy: staff.id,
    });
    await recordAudit(
      { actor: staff, action: "return-rejected", clientId: sent.clientId, taxYear: sent.taxYear, detail: `${sent.jurisdiction} return on ${input.date}: ${codes.join(", ")}`, ip },
      tx,
    );
    const client = await clientContact(sent.clientId, tx);
    const mailId = client
      ? await enqueueMail(
          { kind: "return-rejected", to: client.email, payload: { name: client.name, taxYear: sent.taxYear, jurisdiction: sent.jurisdiction, url: filingUrl(sent.taxYear) } },
          tx,
        )
      : null;
    return { ok: true as const, mailId };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true };
}

/**
 * Whether the e-file event `event` (a table or an alias of efile_events) is a rejection still to
 * be sent again: no transmission of its case and jurisdiction was recorded after it. The one
 * definition, for the dashboard's list, the staff list's "Rejected" filter and the case's Return
 * section.
 */
export function openRejection(event: SQL): SQL {
  return sql`${event}.kind = 'rejected' and not exists (select 1 from efile_events t where t.client_id = ${event}.client_id
    and t.tax_year = ${event}.tax_year and t.jurisdiction = ${event}.jurisdiction and t.kind = 'transmitted' and t.created_at > ${event}.created_at)`;
}

/**
 * The rejections not yet followed by a new transmission (of that case and jurisdiction), most
 * urgent first: the earliest resend day first; for staff who work outside the United States,
 * only those of clients whose consent to disclose is in force. Staff only.
 */
export async function listRejectedReturns(staff: SessionUser, today: string = newYorkDay()): Promise<RejectedReturn[]> {
  assertStaff(staff, "see the rejected returns");
  const rows = await getDb()
    .select({
      clientId: efileEvents.clientId,
      taxYear: efileEvents.taxYear,
      jurisdiction: efileEvents.jurisdiction,
      transmissionId: efileEvents.transmissionId,
      eventDate: efileEvents.eventDate,
      codes: efileEvents.rejectCodes,
      name: user.name,
      number: clientCases.number,
    })
    .from(efileEvents)
    .innerJoin(clientCases, and(eq(clientCases.userId, efileEvents.clientId), eq(clientCases.taxYear, efileEvents.taxYear)))
    .innerJoin(user, eq(user.id, efileEvents.clientId))
    .where(and(openRejection(sql`${efileEvents}`), staffSeesClientSql(staff.id, efileEvents.clientId)))
    .orderBy(asc(efileEvents.eventDate), asc(clientCases.number));
  return rows.map((r) => ({
    clientId: r.clientId,
    clientLabel: `${clientCode(r.number)} ${r.name}`,
    taxYear: r.taxYear,
    jurisdiction: r.jurisdiction,
    transmissionId: r.transmissionId ?? "",
    rejectedOn: r.eventDate,
    codes: r.codes ?? [],
    resendBy: resendBy(r.eventDate),
    daysLeft: resendDaysLeft(r.eventDate, today),
  }));
}
