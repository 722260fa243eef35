import { createHash } from "node:crypto";
import { and, desc, eq, not, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { business } from "~/content/business";
import { newYorkDay } from "~/domain/business-days";
import {
  CONSENT_KINDS,
  CONSENT_MESSAGES,
  CONSENT_PAGE,
  CONSENT_TEXT_VERSION,
  consentInForce,
  consentPurpose,
  consentRecipient,
  consentRetainUntil,
  consentText,
  inForceThrough,
  isConsentMonths,
  signedAs,
} from "~/domain/consents";
import type { ConsentKind, ConsentRecord } from "~/domain/consents";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Transaction } from "~/server/db/client.server";
import { clientCases, consentWithdrawals, consents, user } from "~/server/db/schema";
import type { ScheduledJob } from "~/server/platform/scheduler.server";

// The client's consents under section 7216 (docs/product/engagement.md#consents-under-section-7216):
// the texts their pages show, their answers and withdrawals (append-only records, migration
// 0028), and which consent is in force. Nothing here is kept between requests: a withdrawal or
// the end of a consent counts from the next query.

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The firm as the texts name it (content/business.ts). */
function firm() {
  return { firmName: business.name, firmAddress: business.address.lines.join(", ") };
}

/**
 * The condition "the client `clientId` (a column or value) has a consent of `kind` in force on
 * New York's day `today`": their latest answer of that kind gave consent, was not withdrawn, and
 * `today` is not past its last day. The same rule as domain/consents.ts consentInForce.
 */
export function consentInForceSql(clientId: SQL | AnyPgColumn | string, kind: ConsentKind, today: string = newYorkDay()): SQL {
  return sql`exists (
    select 1 from consents ci
    where ci.client_id = ${clientId} and ci.kind = ${kind} and ci.decision = 'given' and ci.in_force_through >= ${today}::date
      and not exists (select 1 from consent_withdrawals cw where cw.consent_id = ci.id)
      and not exists (
        select 1 from consents cl
        where cl.client_id = ci.client_id and cl.kind = ci.kind
          and (cl.decided_at > ci.decided_at or (cl.decided_at = ci.decided_at and cl.id > ci.id))
      )
  )`;
}

/** Every answer of a client, with its withdrawal's time, newest first (in `db`: a transaction's, or the pool). */
async function recordsOf(clientId: string, db: Pick<Transaction, "select"> = getDb()) {
  return db
    .select({
      id: consents.id,
      kind: consents.kind,
      decision: consents.decision,
      decidedAt: consents.decidedAt,
      inForceThrough: consents.inForceThrough,
      withdrawnAt: consentWithdrawals.withdrawnAt,
    })
    .from(consents)
    .leftJoin(consentWithdrawals, eq(consentWithdrawals.consentId, consents.id))
    .where(eq(consents.clientId, clientId))
    .orderBy(desc(consents.decidedAt), desc(consents.id));
}

/** Whether the client's consent of `kind` is in force now (for the server's gates). */
export async function hasConsentInForce(clientId: string, kind: ConsentKind, now: Date = new Date()): Promise<boolean> {
  return consentInForce(await recordsOf(clientId), kind, newYorkDay(now)) !== null;
}

/**
 * Whether the firm may mail this client its offers of other services: only while their consent
 * to use is in force. The one gate every mailing of offers goes through (none is sent yet).
 */
export function mayMailOffers(clientId: string, now: Date = new Date()): Promise<boolean> {
  return hasConsentInForce(clientId, "use", now);
}

/** Where a client's consent of one kind stands, as /my-consents shows it. */
export type ConsentStanding = {
  kind: ConsentKind;
  title: string;
  summary: string;
  inForce: boolean;
  /** The last day it is in force (in force), or the sentence about the last answer. */
  through: string | null;
  note: string;
};

function standingOf(records: ConsentRecord[], kind: ConsentKind, today: string): ConsentStanding {
  const base = { kind, title: CONSENT_PAGE.kindTitle[kind], summary: CONSENT_PAGE.kindSummary[kind] };
  const current = consentInForce(records, kind, today);
  if (current) return { ...base, inForce: true, through: current.inForceThrough, note: CONSENT_PAGE.inForce(current.inForceThrough!) };
  const latest = records.find((r) => r.kind === kind);
  const note = !latest
    ? CONSENT_PAGE.neverAnswered
    : latest.decision === "refused"
      ? CONSENT_PAGE.refusedOn(newYorkDay(latest.decidedAt))
      : latest.withdrawnAt
        ? CONSENT_PAGE.withdrawnOn(newYorkDay(latest.withdrawnAt))
        : CONSENT_PAGE.expiredOn(latest.inForceThrough!);
  return { ...base, inForce: false, through: null, note };
}

/** The signed-in client's two consents, each with whether it is in force and until when. */
export function ownConsents(client: SessionUser, now: Date = new Date()): Promise<ConsentStanding[]> {
  return consentStandings(client.id, now);
}

/**
 * A client's two consents as they stand now: the client's own list, and the case overview staff
 * read (whether the firm may mail them offers: the consent to use, mayMailOffers). Callers are the
 * client themself or staff under the admin layout.
 */
export async function consentStandings(clientId: string, now: Date = new Date()): Promise<ConsentStanding[]> {
  const records = await recordsOf(clientId);
  return CONSENT_KINDS.map((kind) => standingOf(records, kind, newYorkDay(now)));
}

/** The client's name as their account has it now (the name the text and the signature use). */
async function clientName(clientId: string): Promise<string | null> {
  const [row] = await getDb().select({ name: user.name }).from(user).where(and(eq(user.id, clientId), eq(user.role, "user")));
  return row?.name ?? null;
}

/** What a consent's page shows: its text (exact), the text's SHA-256 and version, and the client's name. */
export type ConsentPage = { kind: ConsentKind; title: string; text: string; sha256: string; version: string; clientName: string };

export async function consentPage(client: SessionUser, kind: ConsentKind): Promise<ConsentPage | null> {
  const name = await clientName(client.id);
  if (name === null) return null;
  const text = consentText(CONSENT_TEXT_VERSION, kind, { ...firm(), clientName: name });
  return { kind, title: CONSENT_PAGE.kindTitle[kind], text, sha256: sha256(text), version: CONSENT_TEXT_VERSION, clientName: name };
}

export type ConsentAnswer = {
  kind: ConsentKind;
  decision: "given" | "refused";
  typedName: string;
  months: number | null;
  /** The SHA-256 of the text the page showed. */
  shownSha256: string;
};

export type AnswerOutcome =
  | { ok: true; message: string }
  | { ok: false; field?: "typedName" | "months"; message: string; status: number };

/**
 * Records the client's answer to a consent's page: the exact text shown (it must be the text the
 * page shows now: the client's name may have changed meanwhile), its SHA-256 and version, when,
 * from which IP and browser; given, with the typed legal name and the months chosen. Audited in
 * the same transaction. Nothing is recorded when a field is wrong.
 */
export async function answerConsent(client: SessionUser, answer: ConsentAnswer, ip: string, userAgent: string | null, now: Date = new Date()): Promise<AnswerOutcome> {
  const page = await consentPage(client, answer.kind);
  if (!page) return { ok: false, message: CONSENT_MESSAGES.unknownKind, status: 404 };
  if (answer.shownSha256 !== page.sha256) return { ok: false, message: CONSENT_MESSAGES.textChanged, status: 409 };
  const given = answer.decision === "given";
  if (given) {
    if (answer.typedName.trim() === "") return { ok: false, field: "typedName", message: CONSENT_MESSAGES.nameRequired, status: 400 };
    if (!signedAs(answer.typedName, page.clientName)) return { ok: false, field: "typedName", message: CONSENT_MESSAGES.nameMismatch, status: 400 };
    if (answer.months === null || !isConsentMonths(answer.months)) return { ok: false, field: "months", message: CONSENT_MESSAGES.chooseMonths, status: 400 };
  }
  const lastDay = given ? inForceThrough(newYorkDay(now), answer.months!) : null;
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(consents)
      .values({
        clientId: client.id,
        kind: answer.kind,
        decision: answer.decision,
        text: page.text,
        textSha256: page.sha256,
        textVersion: page.version,
        purpose: consentPurpose(answer.kind, business.name),
        recipient: consentRecipient(answer.kind, business.name),
        typedName: given ? answer.typedName.trim().replace(/\s+/g, " ") : null,
        months: given ? answer.months : null,
        inForceThrough: lastDay,
        decidedAt: now,
        ipAddress: ip,
        userAgent,
        retainUntil: consentRetainUntil(now, lastDay),
      })
      .returning({ id: consents.id });
    await recordAudit(
      {
        actor: client,
        action: given ? "consent-given" : "consent-refused",
        clientId: client.id,
        detail: `${answer.kind}, text ${page.version}, SHA-256 ${page.sha256.slice(0, 12)}…${lastDay ? `, in force through ${lastDay}` : ""} (record ${row!.id.slice(0, 8)})`,
        ip,
      },
      tx,
    );
    // A refusal ends an earlier consent at once, as a withdrawal does.
    if (!given && answer.kind === "disclose") await unassignOutsideUs(tx, client, ip);
  });
  return given ? { ok: true, message: CONSENT_MESSAGES.given(page.title, lastDay!) } : { ok: true, message: CONSENT_MESSAGES.refused(page.title) };
}

/**
 * Withdraws the client's consent of `kind` in force: a withdrawal record (when, IP, browser) in
 * the same transaction as its audit entry; the consent ends at that moment. A consent to disclose
 * withdrawn also takes the client's cases from the staff who work outside the United States.
 */
export async function withdrawConsent(
  client: SessionUser,
  kind: ConsentKind,
  ip: string,
  userAgent: string | null,
  now: Date = new Date(),
): Promise<AnswerOutcome> {
  return getDb().transaction(async (tx) => {
    // The client's answers read under a lock on their account: two withdrawals at once record one.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, client.id)).for("update");
    const records = await recordsOf(client.id, tx);
    const current = consentInForce(records, kind, newYorkDay(now));
    if (!current) return { ok: false as const, message: CONSENT_MESSAGES.nothingToWithdraw, status: 409 };
    await tx.insert(consentWithdrawals).values({
      consentId: current.id,
      clientId: client.id,
      withdrawnAt: now,
      ipAddress: ip,
      userAgent,
      retainUntil: consentRetainUntil(now, current.inForceThrough),
    });
    await recordAudit({ actor: client, action: "consent-withdrawn", clientId: client.id, detail: `${kind} (record ${current.id.slice(0, 8)})`, ip }, tx);
    if (kind === "disclose") await unassignOutsideUs(tx, client, ip);
    return { ok: true as const, message: CONSENT_MESSAGES.withdrawn(CONSENT_PAGE.kindTitle[kind]) };
  });
}

/** The client's cases assigned to staff who work outside the United States go back to nobody, each audited. */
async function unassignOutsideUs(tx: Transaction, client: SessionUser, ip: string): Promise<void> {
  const taken = await tx
    .update(clientCases)
    .set({ assigneeId: null, updatedAt: new Date() })
    .where(
      and(
        eq(clientCases.userId, client.id),
        sql`${clientCases.assigneeId} in (select s.id from "user" s where s.works_outside_us)`,
      ),
    )
    .returning({ taxYear: clientCases.taxYear });
  for (const { taxYear } of taken)
    await recordAudit(
      { actor: client, action: "case-assigned", clientId: client.id, taxYear, detail: "assignee: none (consent to disclose ended)", ip },
      tx,
    );
}

/**
 * The cases still assigned to staff who work outside the United States whose client's consent to
 * disclose is no longer in force on New York's day of `now` (it reached its last day: a
 * withdrawal or a refusal unassigns at once) go back to nobody, each audited. Answers how many.
 * Their pages were closed to those staff from the consent's last day on (staffSeesClientSql).
 */
export async function unassignLapsedDisclosures(now: Date = new Date()): Promise<number> {
  return getDb().transaction(async (tx) => {
    const taken = await tx
      .update(clientCases)
      .set({ assigneeId: null, updatedAt: new Date() })
      .where(
        and(
          sql`${clientCases.assigneeId} in (select s.id from "user" s where s.works_outside_us)`,
          not(consentInForceSql(clientCases.userId, "disclose", newYorkDay(now))),
        ),
      )
      .returning({ clientId: clientCases.userId, taxYear: clientCases.taxYear });
    for (const { clientId, taxYear } of taken)
      await recordAudit({ actor: null, action: "case-assigned", clientId, taxYear, detail: "assignee: none (consent to disclose expired)" }, tx);
    return taken.length;
  });
}

/** The job name of unassignLapsedDisclosures in `scheduled_jobs`. */
export const CONSENT_LAPSE_JOB = "consent-lapse";

/** unassignLapsedDisclosures as the scheduler runs it: every hour (a consent ends at a New York day's end). */
export function consentLapseJob(): ScheduledJob {
  return {
    name: CONSENT_LAPSE_JOB,
    intervalMs: 60 * 60_000,
    firstRunMs: 60_000,
    leaseMs: 5 * 60_000,
    async run() {
      const taken = await unassignLapsedDisclosures();
      if (taken > 0) console.info(`[consents] ${taken} cases unassigned from staff outside the US: consent to disclose expired`);
    },
  };
}
