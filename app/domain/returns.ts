/**
 * The return of a case and its signatures (docs/product/return-and-signature.md): the forms, the
 * kinds of record, the input rules and what a refusal says. Pure: the records live in
 * app/server/returns.
 */

import { addDays, daysBetween } from "./business-days";
import { REJECT_CODE_FORMAT_MESSAGE, RESUBMIT_WITHIN_DAYS } from "./reject-codes";

/** The returns the firm prepares, and the authorisation form each is e-signed on (domain/e-signature.ts). */
export { isReturnForm, RETURN_FORMS } from "./e-signature";
export type { AuthorizationForm, ReturnForm } from "./e-signature";

export type ReviewDecision = "approved" | "changes-requested";
export type SignerRole = "taxpayer" | "spouse";
export type SignatureMethod = "e-signature" | "handwritten";
export type SignatureRequestEventKind = "voided" | "within-tolerance" | "cancelled" | "authorised";
export type EfileEventKind = "transmitted" | "accepted" | "rejected";

export const JURISDICTIONS = ["federal", "state"] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export const ID_DOCUMENT_TYPES = ["passport", "visa", "ead", "drivers-licence", "national-id"] as const;
export type IdDocumentType = (typeof ID_DOCUMENT_TYPES)[number];

export const ID_CHECK_METHODS = ["in-person", "live-video"] as const;
export type IdCheckMethod = (typeof ID_CHECK_METHODS)[number];

/** Why a document of a case is a record of its return (documents.return_record). */
export type ReturnRecordKind = "return-version" | "authorization-form" | "handwritten-signature" | "signed-authorization" | "final-copy";

/** The longest note staff send with a version, and the longest comment a client sends back. */
export const MAX_RETURN_NOTE_LENGTH = 2_000;


/** A one-time signing code: 6 digits, 10 minutes, 5 tries. */
export const SIGNING_CODE_MINUTES = 10;
export const SIGNING_CODE_TRIES = 5;

/** How long a spouse's signing link works. */
export const SPOUSE_LINK_DAYS = 14;

/** ISO 3166-1 alpha-2 shape (two capital letters). */
export const COUNTRY_CODE_SHAPE = /^[A-Z]{2}$/;

/** What each refusal says: the change was not made. */
export const RETURN_MESSAGES = {
  noSuchCase: "There is no such case.",
  badForm: "Choose the return's form: 1040, 1040-NR, 1040-SR, 1040-X or 4868.",
  noteTooLong: `The note can be at most ${MAX_RETURN_NOTE_LENGTH} characters.`,
  notPdf: "The draft return must be a PDF file.",
  formNotPdf: "The authorisation form must be a PDF file.",
  noSuchVersion: "There is no such version of the return.",
  superseded: "This version has been replaced by a newer one: review the current version.",
  alreadyApproved: "You have already approved this version.",
  commentRequired: "Tell us what should change.",
  commentTooLong: `The comment can be at most ${MAX_RETURN_NOTE_LENGTH} characters.`,
  declarationRequired: "The approval declaration's version is missing.",
  badDocumentType: "Choose the ID's type: passport, visa, EAD, driver's licence or national ID.",
  badCountry: "Enter the issuing country as its two-letter code (for example IN or US).",
  badExpiry: "The ID must not have expired: enter an expiry date in the future.",
  badLast4: "Enter the last 4 letters or digits of the ID's number.",
  badMethod: "Say how the ID was checked: in person or by live video.",
  spouseRequired: "A joint return needs the spouse's name and e-mail address.",
  spouseEmail: "Enter the spouse's e-mail address.",
  notApproved: "The client has not approved this version yet: a signature is requested on an approved version.",
  approvalWithdrawn: "The client asked for changes to this version after approving it: a signature is requested once they approve it again, or on a new version.",
  formRequired: "Attach the authorisation form as a PDF file.",
  cancelReasonRequired: "Say why the signature request is cancelled.",
  noSuchRequestForStaff: "There is no such signature request.",
  alreadyVoid: "This signature request is already void or cancelled.",
  cannotCancelSigned: "Every signer has signed this request: it cannot be cancelled. A new version of the return voids it.",
  changesAfterSigning: "You have signed the e-file authorisation of this return. To change it now, send us a message.",
  notCurrent: "A newer version of the return exists: request the signature on the current version.",
  openRequest: "A signature request for this return is already open.",
  badLink: "This signing link is not valid or has expired.",
  noSuchRequest: "There is no signature request waiting for you.",
  alreadySigned: "You have already signed this form.",
  requestVoid: "This signature request is no longer valid: the return changed after it was made.",
  tooManyCodes: "Too many codes were asked for: wait a while before asking again.",
  tooManyMessages: "Too many messages were sent from this page: wait a while before sending another.",
  noIdCheck:
    "An e-signature needs an identity check recorded by our staff (your ID seen in person or by live video). Without one, sign the form by hand and upload it.",
  nameMismatch: "The name you typed does not match the name on the return.",
  badTimeZone: "The time zone is not one we know.",
  consentRequired: "The e-signature consent's version is missing.",
  consentOutdated: "The consent to sign electronically has changed since this page was opened. Nothing was signed: reload the page, read the consent and sign again.",
  declarationOutdated: "The declaration of the form has changed since this page was opened. Nothing was signed: reload the page, read the declaration and sign again.",
  codeWrong: "That code is not right. Check the e-mail and try again.",
  codeExpired: "That code has expired or was already used: ask for a new one.",
  codeTooManyTries: "Too many wrong tries: ask for a new code.",
  notScan: "Upload the signed form as a PDF, JPEG or PNG file.",
  noSuchUpload: "There is no such signed form waiting for a decision.",
  reasonRequired: "Say why the signed form is sent back.",
  notVoided: "This version did not void a signature request: there is nothing to keep.",
  notSigned: "The return was not signed yet: request a signature for the new version instead.",
  badCents: "Enter each difference as a whole number of cents.",
  badDate: "Enter a real date, not in the future.",
  badSubmissionId: "Enter the submission id the tax software gave (letters and digits).",
  badJurisdiction: "Choose federal or state.",
  notAuthorised: "The return is not authorised: every signer must sign before it is transmitted.",
  stillWaiting: "The last transmission of this return has no answer yet.",
  alreadyAccepted: "This return was already accepted.",
  noSuchTransmission: "There is no such transmission waiting for an answer.",
  codesRequired: "Enter at least one reject code.",
  badRejectCode: `${REJECT_CODE_FORMAT_MESSAGE}.`,
  badFinalCopy: "Choose a document of this case or upload a PDF file for each final copy.",
  supersededFinalCopy: "This version has been replaced by a newer one: the filed return is the current version.",
} as const;

/**
 * The names the client's copies of the return are given, whatever staff's file was called (as the
 * signed copy is "Form 8879 2025 signed.pdf"): the draft served for review, and the filed return.
 */
export const RETURN_FILE_NAMES = {
  draft: (form: string, taxYear: number, number: number) => `Form ${form} ${taxYear} draft version ${number}.pdf`,
  filed: (form: string, taxYear: number) => `Form ${form} ${taxYear} filed return.pdf`,
} as const;

/** Whether `timeZone` is an IANA time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone === "" || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The last day a rejected return may be sent again (RESUBMIT_WITHIN_DAYS calendar days after the rejection), as YYYY-MM-DD. */
export function resendBy(rejectedOn: string): string {
  return addDays(rejectedOn, RESUBMIT_WITHIN_DAYS);
}

/**
 * Calendar days left to send a return rejected on `rejectedOn` again, on New York's day `today`
 * (the firm's, business-days.ts): 5 on the day of the rejection, 0 on the last day, negative once
 * passed (resendDaysText says which).
 */
export function resendDaysLeft(rejectedOn: string, today: string): number {
  return daysBetween(today, resendBy(rejectedOn));
}

/** The staff list's return filters (server/returns/timeline.server.ts returnFilterCondition). */
export const RETURN_FILTERS = ["awaiting-approval", "awaiting-signature", "rejected"] as const;
export type ReturnFilter = (typeof RETURN_FILTERS)[number];

/** The filters as the staff list names them. */
export const RETURN_FILTER_LABELS: Record<ReturnFilter, string> = {
  "awaiting-approval": "Waiting for approval",
  "awaiting-signature": "Waiting for a signature",
  rejected: "Rejected",
};

export function isReturnFilter(value: unknown): value is ReturnFilter {
  return typeof value === "string" && (RETURN_FILTERS as readonly string[]).includes(value);
}

/** A rejected return still to be sent again, as the dashboard lists it (server/returns/efile.server.ts listRejectedReturns). */
export type RejectedReturn = {
  clientId: string;
  /** "TB-00042 Alice Aardvark". */
  clientLabel: string;
  taxYear: number;
  jurisdiction: Jurisdiction;
  transmissionId: string;
  /** YYYY-MM-DD. */
  rejectedOn: string;
  codes: string[];
  /** The last day to send it again (`resendBy`). */
  resendBy: string;
  /** Days from New York's today to resendBy (`resendDaysLeft`): 0 on the last day, negative once passed. */
  daysLeft: number;
};

/** How long staff have left to send a rejected return again, from the days left to its resend day. */
export function resendDaysText(daysLeft: number): string {
  if (daysLeft < 0) return `Past the ${RESUBMIT_WITHIN_DAYS}-day period`;
  if (daysLeft === 0) return "Last day today";
  return `${daysLeft} ${daysLeft === 1 ? "day" : "days"} left to send again`;
}
