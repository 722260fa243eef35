/**
 * Signing the IRS e-file authorisation (Form 8879 for a return, Form 8878 for an extension) and
 * approving the draft return: the texts the client agrees to, the check of the typed name, the
 * return's due date and how long the signature is kept.
 *
 * Every text the client agrees to is kept by version, and a version's text never changes: a
 * signature record stores the version it was given, so the words it agreed to can always be shown
 * again. A new wording is a new version added to the map, never an edit of an old one.
 *
 * Pure rules shared by the browser and the server.
 */
import { calendarDay, isBusinessDay, isRealDay, newYorkDay } from "./business-days";

/**
 * The returns the firm prepares (docs/product/return-and-signature.md): a return's form is one of
 * them. Form 8879 could also authorise a 1040-SS, a return the firm does not prepare.
 */
export const RETURN_FORMS = ["1040", "1040-NR", "1040-SR", "1040-X", "4868"] as const;
export type ReturnForm = (typeof RETURN_FORMS)[number];

export function isReturnForm(value: unknown): value is ReturnForm {
  return typeof value === "string" && (RETURN_FORMS as readonly string[]).includes(value);
}
export type AuthorizationForm = "8879" | "8878";

/** The IRS form the client signs to let the firm e-file `returnForm`. */
export function authorizationFormFor(returnForm: ReturnForm): AuthorizationForm {
  return returnForm === "4868" ? "8878" : "8879";
}

/** The words filled into a text: the firm, how to reach it, the form and the year. */
export type TextContext = {
  firmName: string;
  firmEmail: string;
  /** The form signed, e.g. "8879". */
  form: AuthorizationForm;
  /** The return it authorises, e.g. "1040-NR". */
  returnForm: ReturnForm;
  taxYear: number;
};

function fill(template: string, context: TextContext): string {
  const values: Record<string, string> = {
    firm: context.firmName,
    email: context.firmEmail,
    form: context.form,
    returnForm: context.returnForm,
    taxYear: String(context.taxYear),
  };
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function versioned(texts: Record<string, string>, kind: string) {
  const frozen = Object.freeze({ ...texts });
  return (version: string, context: TextContext): string => {
    const template = Object.hasOwn(frozen, version) ? frozen[version] : undefined;
    if (template === undefined) throw new RangeError(`No ${kind} text has the version ${JSON.stringify(version)}`);
    return fill(template, context);
  };
}

// ---------------------------------------------------------------------------------------------
// Consent to sign electronically

/** The version of the consent text given to clients now (the date it was written). */
export const CONSENT_VERSION = "esign-consent-2026-11-27";

/** Every consent text ever given, by version. Never edit one: add a new version. */
export const CONSENT_TEXTS: Readonly<Record<string, string>> = Object.freeze({
  "esign-consent-2026-11-27": [
    "Consent to sign electronically",
    "",
    "You can sign Form {form} for your {taxYear} tax return (Form {returnForm}) electronically, on this website. An electronic signature has the same legal effect as a signature on paper. Please read this before you agree.",
    "",
    "1. What you agree to. You agree to sign Form {form} for tax year {taxYear} electronically, and to receive this form and its signed copy from {firm} electronically. This consent covers only this form for this tax year. For another form or another year, we will ask you again.",
    "",
    "2. You may sign on paper instead. You do not have to sign electronically. To sign on paper, do not agree here. Send us a message in your portal, or write to {email}. We will tell you how to print, sign and return the form. Signing on paper costs nothing extra.",
    "",
    "3. You may withdraw this consent. You may withdraw your consent at any time before we send your return to the IRS: send us a message in your portal, or write to {email}. Withdrawing does not cancel a signature you already made. After you withdraw, you sign on paper.",
    "",
    "4. What you need. To open and keep the signed form you need a device with an internet connection and a program that opens PDF files (most web browsers can, and free PDF readers exist). You need space to save the file, or a printer to print it. You can download the signed form from your portal.",
    "",
    "5. A copy on paper. You may ask us for a paper copy of the signed form at any time, by message or at {email}. It costs nothing.",
    "",
    "6. Your details. If your e-mail address changes, update it in your account or tell us, so that we can reach you.",
    "",
    "By agreeing, you confirm that you have read this, that you can open PDF files, and that you agree to sign Form {form} for tax year {taxYear} electronically.",
  ].join("\n"),
});

/** The consent text of a version, for a form and year. Unknown versions are refused. */
export const consentText = versioned(CONSENT_TEXTS, "consent");

// ---------------------------------------------------------------------------------------------
// What the signer declares on Form 8879 and Form 8878 (in our words, following the forms' Part II)

export const DECLARATION_VERSION = "authorization-declaration-2026-11-27";

export const DECLARATION_TEXTS: Readonly<Record<string, Readonly<Record<AuthorizationForm, string>>>> = Object.freeze({
  "authorization-declaration-2026-11-27": Object.freeze({
    "8879": [
      "Under penalties of perjury, I declare that:",
      "- I have examined a copy of my {taxYear} income tax return (Form {returnForm}), with its schedules and statements, that I now authorise for electronic filing.",
      "- To the best of my knowledge and belief, the return is true, correct and complete.",
      "- The amounts shown on Form 8879 are the amounts on that return.",
      "I consent to {firm}, as my electronic return originator (ERO), sending my return to the IRS, and receiving from the IRS: a confirmation that it received the return or the reason it rejected it; the reason for any delay in processing the return or any refund; and the date of any refund.",
      "If I asked for the tax due to be paid from my bank account, I authorise the U.S. Treasury and its financial agent to take that payment from the account on the return, and I understand how to cancel it.",
      "I authorise {firm} to enter or generate my PIN (personal identification number: a 5-digit number that stands for my signature) as my signature on my {taxYear} electronically filed income tax return, and I sign this declaration electronically.",
    ].join("\n"),
    "8878": [
      "Under penalties of perjury, I declare that:",
      "- The information I gave {firm} for my application for an automatic extension of time to file (Form 4868) for tax year {taxYear} is, to the best of my knowledge and belief, true, correct and complete.",
      "- The amounts shown on Form 8878 are the amounts on that application.",
      "I consent to {firm}, as my electronic return originator (ERO), sending my extension application to the IRS, and receiving from the IRS a confirmation that it received the application or the reason it rejected it.",
      "If I asked for a payment to be taken from my bank account, I authorise the U.S. Treasury and its financial agent to take that payment from the account on the application, and I understand how to cancel it.",
      "I authorise {firm} to enter or generate my PIN (personal identification number: a 5-digit number that stands for my signature) as my signature on my {taxYear} electronically filed extension application, and I sign this declaration electronically.",
    ].join("\n"),
  }),
});

/** What the signer declares on `context.form`, in a given version. Unknown versions are refused. */
export function declarationText(version: string, context: TextContext): string {
  const texts = Object.hasOwn(DECLARATION_TEXTS, version) ? DECLARATION_TEXTS[version] : undefined;
  if (texts === undefined) throw new RangeError(`No declaration text has the version ${JSON.stringify(version)}`);
  return fill(texts[context.form], context);
}

// ---------------------------------------------------------------------------------------------
// Approving the draft return

export const APPROVAL_VERSION = "draft-approval-2026-11-27";

/** Every approval text ever given, by version. Never edit one: add a new version. */
export const APPROVAL_TEXTS: Readonly<Record<string, string>> = Object.freeze({
  "draft-approval-2026-11-27": [
    "I have examined this draft of my {taxYear} tax return (Form {returnForm}), with its schedules and statements.",
    "To the best of my knowledge and belief, it is true, correct and complete, and it includes all my income that I know of.",
    "I ask {firm} to prepare the final return from this draft. I understand that I will still sign the IRS e-file authorisation before the return is sent to the IRS.",
  ].join("\n"),
});

/** The approval text of a version. Unknown versions are refused. */
export const approvalText = versioned(APPROVAL_TEXTS, "approval");

// ---------------------------------------------------------------------------------------------
// The typed name

// Latin letters that Unicode does not split into a base letter and an accent.
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/**
 * A name reduced to what identifies it: lower case, accents removed (é → e, ø → o, ß → ss), and
 * only letters and digits kept, in their order.
 */
export function nameKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => LETTER_FOLDS[c] ?? c)
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * Whether the name the signer typed is the name we hold for them. Case, spaces, accents and
 * punctuation do not count: a client abroad may type "Jose Nunez" on a keyboard without accents
 * for "José Núñez", or "OBrien" for "O'Brien", and that is the same name. The letters and their
 * order do count: another spelling, a missing name or names in another order do not match. An
 * empty name never matches.
 */
export function namesMatch(typed: string, recorded: string): boolean {
  const key = nameKey(typed);
  return key !== "" && key === nameKey(recorded);
}

// ---------------------------------------------------------------------------------------------
// Due dates and how long signatures are kept

/** A calendar day, "YYYY-MM-DD". */
export type CalendarDate = string;

function parts(day: CalendarDate): { y: number; m: number; d: number } {
  if (!isRealDay(day)) throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${JSON.stringify(day)}`);
  return { y: Number(day.slice(0, 4)), m: Number(day.slice(5, 7)), d: Number(day.slice(8, 10)) };
}

/**
 * The District of Columbia's Emancipation Day, April 16, as observed: on the Friday before when it
 * falls on a Saturday, on the Monday after when on a Sunday. It is a legal holiday where the IRS
 * is, so a due date does not fall on it.
 */
export function emancipationDayObserved(year: number): CalendarDate {
  const dow = new Date(Date.UTC(year, 3, 16)).getUTCDay();
  return dow === 6 ? calendarDay(year, 4, 15) : dow === 0 ? calendarDay(year, 4, 17) : calendarDay(year, 4, 16);
}

/**
 * The due date of a return for `taxYear`: April 15 of the next year, moved to the next day that is
 * not a Saturday, a Sunday, a federal holiday or Emancipation Day. Form 4868 is due the same day
 * (it must be filed by the return's due date); a 1040-X has no due date of its own, and the
 * original return's is used. A 1040-NR of a nonresident who was not paid wages with US tax
 * withheld is due June 15 instead (`nonresidentWithoutWages`).
 */
export function returnDueDate(
  taxYear: number,
  form: ReturnForm,
  { nonresidentWithoutWages = false }: { nonresidentWithoutWages?: boolean } = {},
): CalendarDate {
  if (!Number.isInteger(taxYear) || taxYear < 1900 || taxYear > 9998)
    throw new RangeError(`Not a tax year: ${String(taxYear)}`);
  const year = taxYear + 1;
  const june = nonresidentWithoutWages && (form === "1040-NR" || form === "4868");
  const holiday = emancipationDayObserved(year);
  let day = june ? calendarDay(year, 6, 15) : calendarDay(year, 4, 15);
  for (let i = 1; !isBusinessDay(day) || day === holiday; i++)
    day = june ? calendarDay(year, 6, 15 + i) : calendarDay(year, 4, 15 + i);
  return day;
}

/**
 * The last day the signed authorisation must be kept: 3 years after the later of the return's due
 * date and the day it was filed (for a moment, New York's calendar day). From February 29, three
 * years later is March 1 (the longer keep).
 */
export function signatureRetainUntil(dueDate: CalendarDate, filedAt: Date | CalendarDate): CalendarDate {
  const filedOn = typeof filedAt === "string" ? filedAt : newYorkDay(filedAt);
  parts(dueDate);
  parts(filedOn);
  const later = parts(dueDate > filedOn ? dueDate : filedOn);
  return calendarDay(later.y + 3, later.m, later.d);
}
