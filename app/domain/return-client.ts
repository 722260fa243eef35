/**
 * The client's side of the return (docs/product/return-and-signature.md): the forms of the
 * filing page and of the spouse's signing page, what their answers say, and the return's events
 * in the client's words. Pure: shared by the browser and the server.
 */
import { business } from "~/content/business";
import { FIRM_TIME_ZONE, newYorkDay } from "./business-days";
import { authorizationFormFor } from "./e-signature";
import type { AuthorizationForm, ReturnForm, TextContext } from "./e-signature";
import { formField } from "./auth";
import { describeRejectCode, normalizeRejectCode } from "./reject-codes";
import type { RejectCodeDescription } from "./reject-codes";
import { CLIENT_LIMIT_MESSAGES } from "./client-limits";
import { REFUSED_NO_ROOM } from "./documents";
import { FEE_TEXTS } from "./fees";
import { MAX_MESSAGE_LENGTH, messageBody } from "./messages";
import { RETURN_MESSAGES } from "./returns";
import type { Jurisdiction, SignatureMethod, SignerRole } from "./returns";
import { formatUsDate } from "./taxpayer";
import { z } from "./zod";

/** The words filled into the texts the client agrees to. */
export function returnTextContext(returnForm: ReturnForm, taxYear: number, form: AuthorizationForm = authorizationFormFor(returnForm)): TextContext {
  return { firmName: business.name, firmEmail: business.email, form, returnForm, taxYear };
}

/**
 * What a signer's page shows of the form to sign: who signs, the form, whether an e-signature is
 * open to them, the texts they agree to, and where their hand-signed upload stands (waiting for
 * staff, or sent back with staff's reason).
 */
export type SigningView = {
  name: string;
  authorizationForm: string;
  eSignature: boolean;
  consent: string;
  consentVersion: string;
  declaration: string;
  declarationVersion: string;
  waiting: boolean;
  returnedReason: string | null;
};

/** The time zone a signature records when the browser sent none (no JavaScript): the firm's. */
export const FALLBACK_TIME_ZONE = FIRM_TIME_ZONE;

const checkBox = formField.transform((value) => value === "on");

/** Approve the current draft: its version, the declaration's version, and the box ticked. */
export const ApproveDraftForm = z.object({
  intent: z.literal("approve-draft"),
  versionId: formField,
  declarationVersion: formField,
  agree: checkBox,
});

/** Ask for changes to the current draft, with what should change. */
export const AskChangesForm = z.object({
  intent: z.literal("ask-changes"),
  versionId: formField,
  comment: formField,
});

/** Send me a code (an e-signature's one-time code by e-mail). */
export const SendCodeForm = z.object({ intent: z.literal("send-code") });

/** Sign electronically: the consent ticked (and the versions of the consent and declaration shown), the name typed, the code, the browser's time zone. */
export const SignForm = z.object({
  intent: z.literal("sign"),
  consent: checkBox,
  consentVersion: formField,
  declarationVersion: formField,
  typedName: formField,
  code: formField,
  timeZone: formField,
});

/** The spouse writes to the firm from their signing page (they have no account, so no conversation of their own). */
export const SpouseMessageForm = z.object({
  intent: z.literal("message"),
  body: messageBody,
});

/** The longest message the spouse may write (the conversation's). */
export const SPOUSE_MESSAGE_MAX = MAX_MESSAGE_LENGTH;

/** What the return's forms say when they refuse or succeed (the server's refusals keep their own words). */
export const RETURN_CLIENT_MESSAGES = {
  agreeRequired: "Tick the box to confirm the declaration before you approve.",
  approved: "Thank you: you approved the draft. We will prepare the e-file authorisation for you to sign.",
  changesSent: "We received your comments and will send you a new draft.",
  consentRequired: "Tick “I agree to sign electronically” before you sign.",
  nameRequired: "Type your full legal name.",
  codeRequired: "Enter the 6-digit code we e-mailed you.",
  codeSent: (to: string) => `We are e-mailing a 6-digit code to ${to}. It works for 10 minutes.`,
  codeNotSent: (to: string) =>
    `We could not e-mail a code to ${to} yet: our mail server is not answering. We will keep trying while the code works (10 minutes). If it does not arrive, ask for a new code later.`,
  signed: "Thank you: you signed the form.",
  uploaded: "Thank you: we received your signed form. We will check it and let you know.",
  spouseMessageSent: "Thank you: your message was sent to us. We will get back to you.",
  noFile: "Choose the scan or photo of the signed form (PDF, JPEG or PNG).",
  nothingToSign: "There is no form waiting for your signature.",
  noDraft: "There is no draft waiting for your review.",
  failed: "Something went wrong on our side. Nothing was changed: please try again.",
  badLink: "This signing link is not valid or has expired. Ask the firm for a new one.",
} as const;

/** A return form's answer: which form it answers, whether it worked, and the message. */
export type ReturnFormResult = {
  intent: "approve-draft" | "ask-changes" | "send-code" | "sign" | "upload-signed" | "message";
  ok: boolean;
  message: string;
};

/**
 * What the hand-signed form's upload answered. The upload has an address of its own (it may be
 * 20 MB, the page's forms are small), which sends the browser back to the page with one of these
 * keys in `?signed-form=`: the page then says it, with or without JavaScript.
 */
export const SIGNED_FORM_ANSWERS = {
  received: { ok: true, message: RETURN_CLIENT_MESSAGES.uploaded },
  "no-file": { ok: false, message: RETURN_CLIENT_MESSAGES.noFile },
  "not-scan": { ok: false, message: RETURN_MESSAGES.notScan },
  "too-large": { ok: false, message: "The file is larger than 20 MB." },
  "no-room": { ok: false, message: `The file was not kept: ${REFUSED_NO_ROOM}. Send us a message.` },
  "too-many": { ok: false, message: CLIENT_LIMIT_MESSAGES.upload },
  "nothing-to-sign": { ok: false, message: RETURN_CLIENT_MESSAGES.nothingToSign },
  "request-void": { ok: false, message: RETURN_MESSAGES.requestVoid },
  "already-signed": { ok: false, message: RETURN_MESSAGES.alreadySigned },
  "bad-link": { ok: false, message: RETURN_CLIENT_MESSAGES.badLink },
  failed: { ok: false, message: RETURN_CLIENT_MESSAGES.failed },
} as const satisfies Record<string, { ok: boolean; message: string }>;

export type SignedFormAnswer = keyof typeof SIGNED_FORM_ANSWERS;

/** The answer a page was sent back with (`?signed-form=`), or null for none or an unknown key. */
export function signedFormResult(key: string | null): ReturnFormResult | null {
  if (key === null || !Object.hasOwn(SIGNED_FORM_ANSWERS, key)) return null;
  return { intent: "upload-signed", ...SIGNED_FORM_ANSWERS[key as SignedFormAnswer] };
}

/** The key of a refusal's message (the server's words), "failed" for one not listed. */
export function signedFormAnswerOf(message: string): SignedFormAnswer {
  const keys: Record<string, SignedFormAnswer> = {
    [RETURN_MESSAGES.notScan]: "not-scan",
    [REFUSED_NO_ROOM]: "no-room",
    [RETURN_MESSAGES.badLink]: "bad-link",
    [RETURN_MESSAGES.noSuchRequest]: "nothing-to-sign",
    [RETURN_MESSAGES.requestVoid]: "request-void",
    [RETURN_MESSAGES.alreadySigned]: "already-signed",
  };
  return Object.hasOwn(keys, message) ? keys[message]! : "failed";
}

/** The return's event as the timeline server gives it (timeline.server.ts ReturnEvent). */
export type ClientReturnEvent = {
  kind: string;
  at: string;
  form?: string;
  role?: SignerRole;
  method?: SignatureMethod;
  jurisdiction?: Jurisdiction;
  date?: string;
  codes?: string[];
  resendBy?: string;
  /** A voiding the tolerance declaration of staff later undid: the signature stands. */
  kept?: boolean;
};

/** One line of the client's return history: its text, the reject codes explained, a link. */
export type ReturnHistoryLine = {
  at: string;
  text: string;
  codes?: RejectCodeDescription[];
  resendBy?: string;
  link?: { label: string; to: string };
};

/** A moment or a calendar day in the firm's way of writing dates ("January 5, 2027", New York's day). */
export function firmDate(value: string): string {
  return formatUsDate(/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : newYorkDay(new Date(value)));
}

/**
 * The return's events in the client's words, oldest first; events that say nothing to them
 * (an authorisation complete, a version uploaded: the review card says it) are left out.
 * `today` (New York's, YYYY-MM-DD) decides whether a rejection's 5 days have passed. While the
 * fee locks the final copies (`finalCopiesLocked`), their line says so and leads to the fee.
 */
export function clientReturnHistory(
  events: readonly ClientReturnEvent[],
  today: string,
  documentsLink: string,
  finalCopiesLocked = false,
): ReturnHistoryLine[] {
  let form = "8879";
  const lines: ReturnHistoryLine[] = [];
  for (const e of events) {
    const on = firmDate(e.date ?? e.at);
    const which = e.jurisdiction === "state" ? "state" : "federal";
    switch (e.kind) {
      case "version-uploaded":
        lines.push({ at: e.at, text: `We sent you a draft of your return on ${on}.` });
        break;
      case "approved":
        lines.push({ at: e.at, text: `You approved the draft on ${on}.` });
        break;
      case "changes-requested":
        lines.push({ at: e.at, text: `You asked for changes to the draft on ${on}.` });
        break;
      case "signature-requested":
        form = e.form ?? form;
        lines.push({ at: e.at, text: `We asked you to sign Form ${form} on ${on}.` });
        break;
      case "signed":
        lines.push({
          at: e.at,
          text: e.role === "spouse" ? `Your spouse signed Form ${form} on ${on}.` : `You signed Form ${form} on ${on}.`,
        });
        break;
      case "voided":
        lines.push({
          at: e.at,
          text: e.kept
            ? `The return changed on ${on}, within the IRS tolerances: the signed Form ${form} stands and does not need to be signed again.`
            : `The return changed on ${on}, so the earlier Form ${form} must be signed again.`,
        });
        break;
      case "cancelled":
        lines.push({ at: e.at, text: `We cancelled the request to sign Form ${form} on ${on}.` });
        break;
      case "transmitted":
        lines.push({ at: e.at, text: `We sent your ${which} return to the IRS on ${on}.` });
        break;
      case "accepted":
        lines.push({ at: e.at, text: `The IRS accepted your ${which} return on ${on}.` });
        break;
      case "rejected": {
        const deadlinePassed = e.resendBy !== undefined && today > e.resendBy;
        const codes = (e.codes ?? []).flatMap((code) => (normalizeRejectCode(code) === null ? [] : [describeRejectCode(code, { deadlinePassed })]));
        lines.push({ at: e.at, text: `The IRS rejected your ${which} return on ${on}.`, codes, ...(e.resendBy ? { resendBy: e.resendBy } : {}) });
        break;
      }
      case "final-copies-released":
        lines.push(
          finalCopiesLocked
            ? { at: e.at, text: FEE_TEXTS.finalCopiesLocked, link: { label: "Pay the fee", to: "#fee" } }
            : { at: e.at, text: "Your final copies are ready", link: { label: "Download them from your documents", to: documentsLink } },
        );
        break;
      default:
        break;
    }
  }
  return lines;
}
