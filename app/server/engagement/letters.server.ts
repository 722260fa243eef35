import { createHash } from "node:crypto";
import { and, desc, eq, inArray, lte, max, sql } from "drizzle-orm";
import { DEFAULT_ENGAGEMENT_TEMPLATES } from "~/content/engagement-templates";
import {
  DECLINE_REASON_MAX,
  ENGAGEMENT_MESSAGES as M,
  ENGAGEMENT_SERVICES,
  ENGAGEMENT_SERVICE_INFO,
  feeOf,
  isEngagementService,
  nameOfLetter,
  renderLetter,
  sameName,
  templateProblem,
} from "~/domain/engagement";
import type { EngagementService, LetterState, SignedLetter } from "~/domain/engagement";
import { letterMarkOf } from "~/domain/engagement";
import { hasControlCharacters } from "~/domain/validation";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Transaction } from "~/server/db/client.server";
import { clientCases, engagementLetters, engagementResponses, engagementTemplateVersions, firmSettings, taxpayerRecords, user } from "~/server/db/schema";
import { caseKey, NAMED_CLIENTS } from "~/server/cases/case-counts.server";
import { deliverMail } from "~/server/mail/outbox.server";
import { noticeEngagementLetter, noticeLetterDeclined } from "~/server/notices/return-notices.server";
import { lockCase } from "~/server/returns/records.server";
import { signedLetterPdf } from "./letter-pdf.server";
import { clientCode } from "~/domain/admin";

// The engagement letter (docs/product/engagement.md): admins write a template per service, each
// save a new version kept for good; a case's letter is made from the service's current version,
// its text and SHA-256 kept; the client accepts it (ticking that they agree and typing their
// legal name as the letter gives it) or declines it with a reason, once per letter, with the time,
// IP address and browser kept. Every record is append-only (migration 0027). While the firm's
// setting is on, the case's draft return waits for an accepted letter.

type Refusal = { ok: false; status: 400 | 404 | 409; errors: Record<string, string> };
const refuse = (errors: Record<string, string>, status: Refusal["status"] = 400): Refusal => ({ ok: false, status, errors });
type CaseRef = { clientId: string; taxYear: number };
type Where = { ip: string; userAgent: string };

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export type TemplateView = { service: EngagementService; label: string; version: number; body: string; savedAt: string | null; savedBy: string | null };

/** Each service's current template: the newest version saved, else the product's first text (version 0, not saved yet). */
export async function currentTemplates(): Promise<TemplateView[]> {
  const rows = await getDb()
    .select({ service: engagementTemplateVersions.service, version: engagementTemplateVersions.version, body: engagementTemplateVersions.body, at: engagementTemplateVersions.createdAt, by: user.name })
    .from(engagementTemplateVersions)
    .leftJoin(user, eq(user.id, engagementTemplateVersions.createdBy))
    .where(
      sql`(${engagementTemplateVersions.service}, ${engagementTemplateVersions.version}) in (select service, max(version) from engagement_template_versions group by service)`,
    );
  return ENGAGEMENT_SERVICES.map((service) => {
    const row = rows.find((r) => r.service === service);
    return row
      ? { service, label: ENGAGEMENT_SERVICE_INFO[service].label, version: row.version, body: row.body, savedAt: row.at.toISOString(), savedBy: row.by }
      : { service, label: ENGAGEMENT_SERVICE_INFO[service].label, version: 0, body: DEFAULT_ENGAGEMENT_TEMPLATES[service], savedAt: null, savedBy: null };
  });
}

/** The number the next version of `service` takes, in `tx`. */
async function nextVersion(tx: Transaction, service: EngagementService): Promise<number> {
  // One writer of a service's versions at a time: the next number is taken under this lock.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`engagement-template:${service}`}))`);
  const [row] = await tx.select({ n: max(engagementTemplateVersions.version) }).from(engagementTemplateVersions).where(eq(engagementTemplateVersions.service, service));
  return (row?.n ?? 0) + 1;
}

/** An admin saves a new version of a service's template. Refused with the field's message when the text is wrong; audited. */
export async function saveTemplate(admin: SessionUser, service: string, body: string, ip: string): Promise<{ ok: true; version: number } | Refusal> {
  if (admin.role !== "admin") return refuse({ form: "Only admins write the engagement letter." }, 404);
  if (!isEngagementService(service)) return refuse({ service: M.unknownService });
  const problem = templateProblem(body);
  if (problem) return refuse({ body: problem });
  const text = body.replace(/\r\n?/g, "\n");
  const version = await getDb().transaction(async (tx) => {
    const next = await nextVersion(tx, service);
    await tx.insert(engagementTemplateVersions).values({ service, version: next, body: text, createdBy: admin.id });
    await recordAudit({ actor: admin, action: "engagement-template-saved", detail: `${ENGAGEMENT_SERVICE_INFO[service].label}: version ${next}`, ip }, tx);
    return next;
  });
  return { ok: true, version };
}

/** The service's current template version, in `tx`: the newest saved, else the product's first text saved as version 1. */
async function templateForUse(tx: Transaction, service: EngagementService): Promise<{ id: string; body: string }> {
  const [latest] = await tx
    .select({ id: engagementTemplateVersions.id, body: engagementTemplateVersions.body })
    .from(engagementTemplateVersions)
    .where(eq(engagementTemplateVersions.service, service))
    .orderBy(desc(engagementTemplateVersions.version))
    .limit(1);
  if (latest) return latest;
  const version = await nextVersion(tx, service);
  const [made] = await tx
    .insert(engagementTemplateVersions)
    .values({ service, version, body: DEFAULT_ENGAGEMENT_TEMPLATES[service], createdBy: null })
    .returning({ id: engagementTemplateVersions.id, body: engagementTemplateVersions.body });
  return made!;
}

/**
 * The client's name as the letter gives it: the taxpayer record's of the year, else of the latest
 * year before it (a returning client has not told the new year's yet), else the account's.
 */
async function clientNameOf(tx: Transaction, ref: CaseRef): Promise<string | null> {
  const [account] = await tx.select({ name: user.name }).from(user).where(and(eq(user.id, ref.clientId), eq(user.role, "user")));
  if (!account) return null;
  const [record] = await tx
    .select({ first: taxpayerRecords.name_as_per_ssn, middle: taxpayerRecords.middle_name, last: taxpayerRecords.last_name })
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, ref.clientId), lte(taxpayerRecords.taxYear, ref.taxYear)))
    .orderBy(desc(taxpayerRecords.taxYear))
    .limit(1);
  const fromRecord = record ? [record.first, record.middle, record.last].map((part) => (part ?? "").trim()).filter(Boolean).join(" ") : "";
  return fromRecord || account.name;
}

/**
 * A new letter for the case from the service's current template, in `tx` (the case locked by the
 * caller): it replaces any earlier letter of the case, which can no longer be answered. The
 * client is e-mailed a link. `actor` null: the season's start made it. Answers the letter and the
 * e-mail's id (to deliver once `tx` commits).
 */
export async function makeLetterInTx(
  tx: Transaction,
  actor: SessionUser | null,
  ref: CaseRef,
  service: EngagementService,
  ip: string | null,
): Promise<{ letterId: string; mailId: string | null } | null> {
  const name = await clientNameOf(tx, ref);
  if (name === null) return null;
  const template = await templateForUse(tx, service);
  const fee = feeOf(service);
  const text = renderLetter(template.body, { clientName: name, taxYear: ref.taxYear, service, feeCents: fee.cents, feeBasis: fee.basis });
  const [letter] = await tx
    .insert(engagementLetters)
    .values({
      clientId: ref.clientId,
      taxYear: ref.taxYear,
      service,
      templateVersionId: template.id,
      feeCents: fee.cents,
      text,
      sha256: sha256(text),
      createdBy: actor?.id ?? null,
      // The clock's time: the newest letter of a case is the one written last.
      createdAt: sql`clock_timestamp()`,
    })
    .returning({ id: engagementLetters.id });
  await recordAudit(
    { actor, action: "engagement-letter-sent", clientId: ref.clientId, taxYear: ref.taxYear, detail: ENGAGEMENT_SERVICE_INFO[service].label, ip: ip ?? undefined },
    tx,
  );
  const mailId = await noticeEngagementLetter(tx, ref);
  return { letterId: letter!.id, mailId };
}

/** Staff send the case a new engagement letter for `service`. */
export async function sendLetter(staff: SessionUser, ref: CaseRef, service: string, ip: string): Promise<{ ok: true; letterId: string } | Refusal> {
  if (staff.role === "user") return refuse({ form: M.noLetter }, 404);
  if (!isEngagementService(service)) return refuse({ service: M.unknownService });
  const outcome = await getDb().transaction(async (tx) => {
    if (!(await lockCase(tx, ref))) return null;
    return makeLetterInTx(tx, staff, ref, service, ip);
  });
  if (!outcome) return refuse({ form: M.noLetter }, 404);
  deliverMail(outcome.mailId);
  return { ok: true, letterId: outcome.letterId };
}

export type LetterView = {
  id: string;
  service: EngagementService;
  serviceLabel: string;
  feeCents: number;
  text: string;
  sha256: string;
  sentAt: string;
  sentBy: string | null;
  templateVersion: number;
  answer: { decision: "accepted" | "declined"; typedName: string | null; reason: string | null; at: string; ip: string | null; userAgent: string | null } | null;
};

/** The case's letters, newest first, each with its answer. */
export async function caseLetters(ref: CaseRef): Promise<LetterView[]> {
  const rows = await getDb()
    .select({ letter: engagementLetters, answer: engagementResponses, version: engagementTemplateVersions.version, by: user.name })
    .from(engagementLetters)
    .innerJoin(engagementTemplateVersions, eq(engagementTemplateVersions.id, engagementLetters.templateVersionId))
    .leftJoin(engagementResponses, eq(engagementResponses.letterId, engagementLetters.id))
    .leftJoin(user, eq(user.id, engagementLetters.createdBy))
    .where(and(eq(engagementLetters.clientId, ref.clientId), eq(engagementLetters.taxYear, ref.taxYear)))
    .orderBy(desc(engagementLetters.createdAt), desc(engagementLetters.id));
  return rows.map(({ letter, answer, version, by }) => ({
    id: letter.id,
    service: letter.service,
    serviceLabel: ENGAGEMENT_SERVICE_INFO[letter.service].label,
    feeCents: letter.feeCents,
    text: letter.text,
    sha256: letter.sha256,
    sentAt: letter.createdAt.toISOString(),
    sentBy: by,
    templateVersion: version,
    answer: answer
      ? { decision: answer.decision, typedName: answer.typedName, reason: answer.reason, at: answer.createdAt.toISOString(), ip: answer.ipAddress, userAgent: answer.userAgent }
      : null,
  }));
}

/** The case's accepted letters, newest first: the signed letters among its documents. */
export function signedLettersOf(letters: readonly LetterView[]): SignedLetter[] {
  return letters.flatMap((l) => (l.answer?.decision === "accepted" ? [{ id: l.id, at: l.answer.at }] : []));
}

/** The case's current letter (its newest) with its answer, or null before any. */
export async function currentLetter(ref: CaseRef): Promise<LetterView | null> {
  return (await caseLetters(ref))[0] ?? null;
}

export type AnswerInput = { letterId: string; decision: "accepted"; agree: boolean; typedName: string } | { letterId: string; decision: "declined"; reason: string };

/**
 * The client answers their case's current letter: accepts it (ticking that they agree, and
 * typing their legal name as the letter gives it) or declines it with a reason. Once per letter;
 * a replaced letter is not answered. A decline is e-mailed to the case's staff member. Audited.
 */
export async function answerLetter(client: SessionUser, taxYear: number, input: AnswerInput, where: Where): Promise<{ ok: true } | Refusal> {
  if (client.role !== "user") return refuse({ form: M.noLetter }, 404);
  const ref = { clientId: client.id, taxYear };
  if (input.decision === "accepted") {
    const errors: Record<string, string> = {};
    if (!input.agree) errors.agree = M.mustAgree;
    if (input.typedName.trim() === "") errors.typedName = M.nameRequired;
    else if (input.typedName.length > 200 || hasControlCharacters(input.typedName)) errors.typedName = M.nameRequired;
    if (Object.keys(errors).length > 0) return refuse(errors);
  } else {
    if (input.reason.trim() === "") return refuse({ reason: M.reasonRequired });
    if (input.reason.length > DECLINE_REASON_MAX) return refuse({ reason: M.reasonTooLong });
    if (hasControlCharacters(input.reason)) return refuse({ reason: M.reasonRequired });
  }
  const outcome = await getDb().transaction(async (tx): Promise<Refusal | { ok: true; mailId: string | null }> => {
    if (!(await lockCase(tx, ref))) return refuse({ form: M.noLetter }, 404);
    const [latest] = await tx
      .select({ id: engagementLetters.id, text: engagementLetters.text, answered: engagementResponses.id })
      .from(engagementLetters)
      .leftJoin(engagementResponses, eq(engagementResponses.letterId, engagementLetters.id))
      .where(and(eq(engagementLetters.clientId, ref.clientId), eq(engagementLetters.taxYear, taxYear)))
      .orderBy(desc(engagementLetters.createdAt), desc(engagementLetters.id))
      .limit(1);
    if (!latest) return refuse({ form: M.noLetter }, 404);
    if (latest.id !== input.letterId) return refuse({ form: M.superseded }, 409);
    if (latest.answered) return refuse({ form: M.alreadyAnswered }, 409);
    if (input.decision === "accepted") {
      const expected = nameOfLetter(latest.text) ?? (await clientNameOf(tx, ref)) ?? "";
      if (!sameName(input.typedName, expected)) return refuse({ typedName: M.nameMismatch(expected) });
    }
    await tx.insert(engagementResponses).values({
      letterId: latest.id,
      clientId: ref.clientId,
      taxYear,
      decision: input.decision,
      typedName: input.decision === "accepted" ? input.typedName.trim() : null,
      reason: input.decision === "declined" ? input.reason.trim() : null,
      ipAddress: where.ip,
      userAgent: where.userAgent.slice(0, 512),
    });
    await recordAudit(
      {
        actor: client,
        action: input.decision === "accepted" ? "engagement-letter-accepted" : "engagement-letter-declined",
        clientId: ref.clientId,
        taxYear,
        detail: `letter ${latest.id.slice(0, 8)}, SHA-256 ${sha256(latest.text).slice(0, 12)}…`,
        ip: where.ip,
      },
      tx,
    );
    const mailId = input.decision === "declined" ? await noticeLetterDeclined(tx, ref) : null;
    return { ok: true, mailId };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true };
}

/** Whether the firm requires an accepted letter before a draft is sent for review (on unless an admin turned it off). */
export async function letterRequired(db: Pick<Transaction, "select"> = getDb()): Promise<boolean> {
  const [row] = await db.select({ on: firmSettings.engagementLetterRequired }).from(firmSettings).limit(1);
  return row?.on ?? true;
}

/** An admin turns the requirement on or off. Audited. */
export async function setLetterRequired(admin: SessionUser, on: boolean, ip: string): Promise<{ ok: true } | Refusal> {
  if (admin.role !== "admin") return refuse({ form: "Only admins change the firm's settings." }, 404);
  await getDb().transaction(async (tx) => {
    await tx
      .insert(firmSettings)
      .values({ id: true, engagementLetterRequired: on, updatedBy: admin.id, updatedAt: new Date() })
      .onConflictDoUpdate({ target: firmSettings.id, set: { engagementLetterRequired: on, updatedBy: admin.id, updatedAt: new Date() } });
    await recordAudit({ actor: admin, action: "engagement-setting-changed", detail: on ? "drafts wait for an accepted engagement letter" : "drafts no longer wait for the engagement letter", ip }, tx);
  });
  return { ok: true };
}

/** The decision on the case's current letter: "none" before any letter, "sent" while unanswered. */
export async function letterState(ref: CaseRef, db: Pick<Transaction, "select"> = getDb()): Promise<LetterState> {
  const [latest] = await db
    .select({ decision: engagementResponses.decision })
    .from(engagementLetters)
    .leftJoin(engagementResponses, eq(engagementResponses.letterId, engagementLetters.id))
    .where(and(eq(engagementLetters.clientId, ref.clientId), eq(engagementLetters.taxYear, ref.taxYear)))
    .orderBy(desc(engagementLetters.createdAt), desc(engagementLetters.id))
    .limit(1);
  return latest ? (latest.decision ?? "sent") : "none";
}

/**
 * Where each case's current letter stands ("none" before any), for a list of cases: one query,
 * keyed as case-counts.server.ts keys its counts. Every case asked for is in the map.
 */
export async function letterStates(cases: readonly CaseRef[]): Promise<Map<string, LetterState>> {
  const states = new Map(cases.map((c) => [caseKey(c), "none" as LetterState]));
  if (cases.length === 0) return states;
  const clientIds = [...new Set(cases.map((c) => c.clientId))];
  const years = [...new Set(cases.map((c) => c.taxYear))];
  const rows = await getDb()
    .selectDistinctOn([engagementLetters.clientId, engagementLetters.taxYear], {
      clientId: engagementLetters.clientId,
      taxYear: engagementLetters.taxYear,
      decision: engagementResponses.decision,
    })
    .from(engagementLetters)
    .leftJoin(engagementResponses, eq(engagementResponses.letterId, engagementLetters.id))
    .where(and(clientIds.length <= NAMED_CLIENTS ? inArray(engagementLetters.clientId, clientIds) : undefined, inArray(engagementLetters.taxYear, years)))
    .orderBy(engagementLetters.clientId, engagementLetters.taxYear, desc(engagementLetters.createdAt), desc(engagementLetters.id));
  for (const r of rows) {
    const key = caseKey(r);
    if (states.has(key)) states.set(key, r.decision ?? "sent");
  }
  return states;
}

/**
 * Whether the case's draft must wait for its letter: the firm requires it, and the case has no
 * accepted letter (none sent yet, waiting, or declined).
 */
export async function draftWaitsForLetter(ref: CaseRef, db: Pick<Transaction, "select"> = getDb()): Promise<boolean> {
  return letterMarkOf(await letterState(ref, db), await letterRequired(db)) !== null;
}

/** The signed letter's PDF of the case's letter `letterId` (accepted), or null (no such letter of this case, or not accepted). */
export async function signedLetterFile(ref: CaseRef, letterId: string): Promise<{ name: string; bytes: Uint8Array } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(letterId)) return null;
  const letter = (await caseLetters(ref)).find((l) => l.id === letterId.toLowerCase());
  if (!letter) return null;
  const [found] = await getDb()
    .select({ number: clientCases.number })
    .from(clientCases)
    .where(and(eq(clientCases.userId, ref.clientId), eq(clientCases.taxYear, ref.taxYear)));
  if (!found) return null;
  const bytes = await signedLetterPdf(letter, { clientCode: clientCode(found.number), taxYear: ref.taxYear });
  return bytes ? { name: `Engagement letter ${ref.taxYear} signed.pdf`, bytes } : null;
}

/** The signed letter as a download (no-store: it names the client), or a 404. */
export function letterPdfResponse(file: { name: string; bytes: Uint8Array } | null): Response {
  if (!file) return new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store", "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(Buffer.from(file.bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.name}"`,
      "Content-Length": String(file.bytes.byteLength),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** For staff: the signed letter's PDF of `letterId`, when it is a letter of `clientId` (its case's year is the letter's). */
export async function staffLetterFile(staff: SessionUser, clientId: string, letterId: string): Promise<{ name: string; bytes: Uint8Array } | null> {
  if (staff.role === "user" || !/^[0-9a-f-]{36}$/i.test(letterId)) return null;
  const [letter] = await getDb()
    .select({ taxYear: engagementLetters.taxYear })
    .from(engagementLetters)
    .where(and(eq(engagementLetters.id, letterId.toLowerCase()), eq(engagementLetters.clientId, clientId)));
  return letter ? signedLetterFile({ clientId, taxYear: letter.taxYear }, letterId) : null;
}
