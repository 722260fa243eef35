/**
 * The client's consents under section 7216 (docs/product/engagement.md#consents-under-section-7216):
 * a consent to use their tax return information and a consent to disclose it, each its own
 * document on its own page, optional, kept by version.
 *
 * Every text is kept by version and a version's text never changes: a consent's record stores
 * the version and the text it showed, so the words agreed to can always be shown again. A new
 * wording is a new version added to the map, never an edit of an old one.
 *
 * Pure rules shared by the browser and the server.
 */
import { addDays, calendarDay, isRealDay, newYorkDay } from "./business-days";
import { formField } from "./auth";
import { namesMatch } from "./e-signature";
import { formatUsDate } from "./taxpayer";
import { z } from "./zod";

/** The two consents: to use the information (the firm's other services), to disclose it (the firm's preparers outside the United States). */
export const CONSENT_KINDS = ["use", "disclose"] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** The client's answer on a consent's page. */
export type ConsentDecision = "given" | "refused";

export function isConsentKind(value: unknown): value is ConsentKind {
  return typeof value === "string" && (CONSENT_KINDS as readonly string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------
// The mandatory statements of Rev. Proc. 2013-14 (Form 1040 series), word for word: never edit
// one; docs/product/engagement.md#the-mandatory-statements names where each comes from.

export const MANDATORY = Object.freeze({
  /** Consent to use: the first statement. */
  useIntro:
    "Federal law requires this consent form be provided to you. Unless authorized by law, we cannot use your tax return information for purposes other than the preparation and filing of your tax return without your consent.",
  /** Consent to use: the second statement. */
  useVoluntary:
    "You are not required to complete this form to engage our tax return preparation services. If we obtain your signature on this form by conditioning our tax return preparation services on your consent, your consent will not be valid. Your consent is valid for the amount of time that you specify. If you do not specify the duration of your consent, your consent is valid for one year from the date of signature.",
  /** Consent to disclose: the first statement. */
  discloseIntro:
    "Federal law requires this consent form be provided to you. Unless authorized by law, we cannot disclose your tax return information to third parties for purposes other than the preparation and filing of your tax return without your consent. If you consent to the disclosure of your tax return information, Federal law may not protect your tax return information from further use or distribution.",
  /** Consent to disclose: the second statement (the firm never makes its services wait on a consent). */
  discloseVoluntary:
    "You are not required to complete this form to engage our tax return preparation services. If we obtain your signature on this form by conditioning our tax return preparation services on your consent, your consent will not be valid. If you agree to the disclosure of your tax return information, your consent is valid for the amount of time that you specify. If you do not specify the duration of your consent, your consent is valid for one year from the date of signature.",
  /**
   * Consent to disclose to a tax return preparer located outside the United States, without the
   * SSN: the product never shows such a preparer a full SSN or ITIN, so the variant that tells of
   * an SSN disclosed (and of its data protection safeguard) does not apply.
   */
  discloseOutsideUs: "This consent to disclose may result in your tax return information being disclosed to a tax return preparer located outside the United States.",
  /** Both kinds: where to turn. */
  tigta:
    "If you believe your tax return information has been disclosed or used improperly in a manner unauthorized by law or without your permission, you may contact the Treasury Inspector General for Tax Administration (TIGTA) by telephone at 1-800-366-4484, or by email at complaints@tigta.treas.gov.",
});

// ---------------------------------------------------------------------------------------------
// The texts

/** The version of each consent's text given to clients now (the date it was written). */
export const CONSENT_TEXT_VERSION = "section-7216-2026-11-29";

/** What fills a text: the firm (name and address) and the client (their name as the account has it). */
export type ConsentTextContext = { firmName: string; firmAddress: string; clientName: string };

/** The purpose and the recipient each consent names (stored with each record, as the text says them). */
export function consentPurpose(kind: ConsentKind, firmName: string): string {
  return kind === "use"
    ? `To tell you about other services of ${firmName} that may suit you, such as tax planning, ITIN applications, FBAR and FATCA filings, and your next year's return.`
    : `So that tax return preparers of ${firmName} who work outside the United States can help prepare and review your tax returns with us.`;
}

export function consentRecipient(kind: ConsentKind, firmName: string): string {
  return kind === "use"
    ? `${firmName} only. This consent lets nobody else have your information.`
    : `The tax return preparers of ${firmName} who work outside the United States, and no one else.`;
}

const INFORMATION: Record<ConsentKind, string> = {
  use: "Your name, e-mail address, phone numbers and mailing address, your visa type and residency status, your filing status, and which services and forms we prepared for you. Not your SSN or ITIN, and not the amounts on your returns.",
  disclose:
    "The information and documents of your cases with us: your taxpayer information, your visa and travel history, the documents you upload and the ones we prepare, our messages with you, your draft and filed returns, and your invoices. Not your full SSN or ITIN: these preparers see only its last four digits.",
};

const TEXTS: Readonly<Record<string, (kind: ConsentKind, c: ConsentTextContext) => string>> = Object.freeze({
  "section-7216-2026-11-29": (kind: ConsentKind, c: ConsentTextContext) =>
    [
      kind === "use" ? "Consent to use your tax return information" : "Consent to disclose your tax return information",
      "",
      `Tax return preparer: ${c.firmName}, ${c.firmAddress}.`,
      `Taxpayer: ${c.clientName}.`,
      "",
      ...(kind === "use" ? [MANDATORY.useIntro, "", MANDATORY.useVoluntary] : [MANDATORY.discloseIntro, "", MANDATORY.discloseVoluntary, "", MANDATORY.discloseOutsideUs]),
      "",
      `Purpose: ${consentPurpose(kind, c.firmName)}`,
      "",
      `${kind === "use" ? "Information we would use" : "Information we would disclose"}: ${INFORMATION[kind]}`,
      "",
      `${kind === "use" ? "Who would use it" : "To whom"}: ${consentRecipient(kind, c.firmName)}`,
      "",
      "How long: from the day you sign it, for the time you choose below: one year unless you choose another. You may withdraw this consent at any time on the My consents page of your account; it ends at that moment.",
      "",
      "Whatever you answer, we prepare and file your tax returns in the same way, at the same price, and nothing waits for your answer.",
      "",
      MANDATORY.tigta,
      "",
      `To consent, type your legal name (${c.clientName}) as your electronic signature and choose "I consent". To refuse, choose "I do not consent".`,
    ].join("\n"),
});

/** The text of `kind` at `version`, filled for the firm and the client. */
export function consentText(version: string, kind: ConsentKind, context: ConsentTextContext): string {
  const template = Object.hasOwn(TEXTS, version) ? TEXTS[version] : undefined;
  if (template === undefined) throw new RangeError(`No consent text has the version ${JSON.stringify(version)}`);
  return template(kind, context);
}

// ---------------------------------------------------------------------------------------------
// How long a consent lasts, and when it is in force

/** The periods a client may choose, in months; one year unless they choose another. */
export const CONSENT_MONTHS = [3, 6, 12, 24, 36] as const;
export const DEFAULT_CONSENT_MONTHS = 12;

export function isConsentMonths(value: number): boolean {
  return (CONSENT_MONTHS as readonly number[]).includes(value);
}

export function monthsLabel(months: number): string {
  if (months % 12 === 0) return months === 12 ? "1 year" : `${months / 12} years`;
  return `${months} months`;
}

/**
 * The last New York day a consent signed on `day` is in force for `months` months: the day before
 * the same date `months` later (signed March 10, 2026 for a year: through March 9, 2027). A date
 * the later month lacks counts as its last day (signed January 31 for 3 months: through April 29).
 */
export function inForceThrough(day: string, months: number): string {
  if (!isRealDay(day)) throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${JSON.stringify(day)}`);
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7)) - 1 + months;
  const d = Number(day.slice(8, 10));
  const year = y + Math.floor(m / 12);
  const month = (m % 12) + 1;
  const lastOfMonth = Number(calendarDay(year, month + 1, 0).slice(8, 10));
  return addDays(calendarDay(year, month, Math.min(d, lastOfMonth)), -1);
}

/**
 * Until when a consent's record and its withdrawal are kept: three years after the consent's
 * last day in force, and never less than three years from when it was decided (a refusal).
 */
export function consentRetainUntil(decidedAt: Date, lastDay: string | null): Date {
  const base = lastDay !== null && lastDay > newYorkDay(decidedAt) ? new Date(`${lastDay}T23:59:59.999Z`) : decidedAt;
  const kept = new Date(base);
  kept.setUTCFullYear(kept.getUTCFullYear() + 3);
  return kept;
}

/** A consent's record as the in-force rule reads it. */
export type ConsentRecord = {
  id: string;
  kind: ConsentKind;
  decision: ConsentDecision;
  decidedAt: Date;
  inForceThrough: string | null;
  withdrawnAt: Date | null;
};

/** Later first: by the time decided, then by id (two answers of one moment). */
function later(a: ConsentRecord, b: ConsentRecord): number {
  return b.decidedAt.getTime() - a.decidedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * The consent of `kind` in force on New York's day `today`, or null: the client's latest answer of
 * that kind, when it gave consent, was not withdrawn, and `today` is not past its last day. A
 * later "I do not consent" ends an earlier consent. The same rule as the database's
 * (app/server/consents/consents.server.ts consentInForceSql).
 */
export function consentInForce<R extends ConsentRecord>(records: readonly R[], kind: ConsentKind, today: string): R | null {
  const latest = records.filter((r) => r.kind === kind).sort(later)[0];
  if (!latest || latest.decision !== "given" || latest.withdrawnAt !== null) return null;
  if (latest.inForceThrough === null || latest.inForceThrough < today) return null;
  return latest;
}

// ---------------------------------------------------------------------------------------------
// The pages' words

/** The client's list's and pages' words (/my-consents, /my-consents/use, /my-consents/disclose). */
export const CONSENT_PAGE = Object.freeze({
  title: "My consents",
  lead: "Two permissions you may give us under US tax law (section 7216 of the Internal Revenue Code), each on its own page. Both are optional: we prepare and file your returns the same way whatever you answer, and you may withdraw a consent at any time.",
  kindTitle: { use: "Consent to use your tax return information", disclose: "Consent to disclose your tax return information" } satisfies Record<ConsentKind, string>,
  kindSummary: {
    use: "Lets us use your information to tell you about our other services.",
    disclose: "Lets our tax return preparers who work outside the United States help with your returns.",
  } satisfies Record<ConsentKind, string>,
  inForce: (through: string) => `In force through ${formatDay(through)}.`,
  notInForce: "Not in force.",
  withdrawnOn: (day: string) => `You withdrew it on ${formatDay(day)}.`,
  expiredOn: (day: string) => `It ended on ${formatDay(day)}.`,
  refusedOn: (day: string) => `You chose not to consent on ${formatDay(day)}.`,
  neverAnswered: "You have not answered.",
  read: "Read and answer",
  readAgain: "Read it again",
  withdraw: "Withdraw",
  typedName: "Your legal name, as your signature",
  period: "How long",
  consent: "I consent",
  refuse: "I do not consent",
});

/** The answers to the pages' forms. */
export const CONSENT_MESSAGES = Object.freeze({
  given: (title: string, through: string) => `Thank you. Your ${title.toLowerCase()} is in force through ${formatDay(through)}.`,
  refused: (title: string) => `You did not consent. We recorded your answer: ${title.toLowerCase()} is not in force.`,
  withdrawn: (title: string) => `You withdrew your ${title.toLowerCase()}. It ended now.`,
  nameRequired: "Type your legal name to consent.",
  nameMismatch: "The name you typed is not the name on your account. Type your legal name as it appears above.",
  chooseMonths: "Choose how long your consent lasts.",
  unknownKind: "There is no such consent. Choose one from My consents.",
  unknownAnswer: "Choose I consent or I do not consent.",
  textChanged: "The consent's text changed since you opened this page. Read it again below, then answer.",
  nothingToWithdraw: "That consent is not in force: there is nothing to withdraw.",
});

/** "March 9, 2027" for "2027-03-09". */
export function formatDay(day: string): string {
  return formatUsDate(day);
}

/** Whether the name typed to consent is the client's name (case, spaces, accents and punctuation aside). */
export function signedAs(typed: string, clientName: string): boolean {
  return namesMatch(typed, clientName);
}

// ---------------------------------------------------------------------------------------------
// The forms (read as text; the server checks each field and answers in CONSENT_MESSAGES' words)

/** A consent's page: which button ("given" or "refused"), the typed name, the months, the text's SHA-256 as shown. */
export const ConsentAnswerForm = z.object({ decision: formField, typedName: formField, months: formField, sha256: formField });

/** /my-consents: withdraw the consent of `kind`. */
export const WithdrawConsentForm = z.object({ intent: formField, kind: formField });
