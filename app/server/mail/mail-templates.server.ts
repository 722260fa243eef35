import { business } from "~/content/business";
import type { ContactInput } from "~/domain/contact";
import type { Mail } from "./mail.server";
import { accountInvitation } from "./templates/account-invitation.server";
import { contactMessage } from "./templates/contact-message.server";
import { linkNotice } from "./templates/link-notice.server";
import { returnRejected } from "./templates/return-rejected.server";
import { signingCode } from "./templates/signing-code.server";

/**
 * Every e-mail the product sends: its recipient, subject and words. Each is laid out by a React
 * component in ./templates as HTML and, from the same words, as plain text (docs/decisions/0024).
 */

/** A message made of an introduction, one link and a closing line, signed by the firm. */
function linkMessage(url: string, linkText: string, intro: string, outro: string): Pick<Mail, "text" | "html"> {
  return linkNotice({ intro, linkText, url, outro });
}

/**
 * The e-mail verification link. `contested`: the address was signed up for again before it was
 * verified, so no sign-up password is kept and the link leads on to choosing one.
 */
export function verificationMail(to: string, url: string, contested: boolean): Mail {
  return {
    to,
    subject: `Verify your e-mail for ${business.name}`,
    ...linkMessage(
      url,
      "Verify my e-mail address",
      contested
        ? `Someone asked to create a ${business.name} account with this e-mail address, which is waiting to be verified. If it was you, confirm that this is your e-mail address: you will then choose your password (for your safety, no password typed at sign-up is kept).`
        : `Welcome to ${business.name}. Please confirm that this is your e-mail address.`,
      "The link works for 24 hours. If you did not create an account, ignore this e-mail.",
    ),
  };
}

export function passwordResetMail(to: string, url: string): Mail {
  return {
    to,
    subject: `Reset your ${business.name} password`,
    ...linkMessage(
      url,
      "Choose a new password",
      `We received a request to reset the password of your ${business.name} account.`,
      "The link works once, for one hour. If you did not ask for this, ignore this e-mail: your password stays as it is.",
    ),
  };
}

/** Sent instead of a new account when someone signs up with an address that has one. */
export function existingAccountMail(to: string, signInUrl: string): Mail {
  return {
    to,
    subject: `Someone tried to create a ${business.name} account with your e-mail`,
    ...linkMessage(
      signInUrl,
      "Sign in",
      `Someone tried to create a new ${business.name} account with this e-mail address, which already has an account.`,
      "If it was you, sign in instead, or use “Forgot password” on the sign-in page. If it was not you, you can ignore this e-mail.",
    ),
  };
}

/** Add New Client's invitation: the link to choose a password works once, for `hours`. */
export function invitationMail(to: string, name: string, link: string, hours: number): Mail {
  return {
    to,
    subject: `Your ${business.name} client account`,
    ...accountInvitation({
      name,
      intro: `${business.name} has opened a client account for you, so you can send us your tax details securely and follow your filing.`,
      link,
      hours,
      outro: `Questions? Reply to this e-mail or call ${business.phone.display}, ${business.hoursLong}.`,
    }),
  };
}

/** A contact-form message forwarded to staff; replying answers the visitor. */
export function contactMessageMail(to: string, input: ContactInput, receivedAt: Date): Mail {
  return {
    to,
    replyTo: input.email,
    subject: `[${business.name} contact] ${input.subject}`,
    ...contactMessage({ input, receivedAt }),
  };
}

// Notices about a case carry a link, never tax details or a document's name.

/** To the client: a case of theirs moved to another stage. */
export function stageChangedMail(to: string, name: string, taxYear: number, url: string): Mail {
  return {
    to,
    subject: `An update on your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See where your filing stands",
      `Hello ${name}, your ${taxYear} tax filing with ${business.name} has moved to its next stage.`,
      "You can turn these e-mails off on your filing's page.",
    ),
  };
}

/** To the client: staff shared documents of a case with them. */
export function documentsSharedMail(to: string, name: string, taxYear: number, count: number, url: string): Mail {
  return {
    to,
    subject: `New ${count === 1 ? "document" : "documents"} for your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See your documents",
      `Hello ${name}, ${business.name} has shared ${count === 1 ? "a document" : `${count} documents`} of your ${taxYear} tax filing with you.`,
      "Sign in to download them.",
    ),
  };
}

export type StaffNoticeKind =
  | "tax-info-submitted"
  | "tax-info-changed"
  | "documents-uploaded"
  | "message-received"
  | "request-answered"
  | "payment-announced";

/** What a client did about a case, by kind, that one notice to staff tells. */
export type StaffNoticeCounts = Partial<Record<StaffNoticeKind, number>>;

/** The kinds in the order a notice names them. */
export const STAFF_NOTICE_KINDS: readonly StaffNoticeKind[] = [
  "tax-info-submitted",
  "tax-info-changed",
  "documents-uploaded",
  "request-answered",
  "message-received",
  "payment-announced",
];

const times = (n: number) => (n === 1 ? "" : n === 2 ? " twice" : ` ${n} times`);

/** One kind in words: "uploaded 3 documents". */
function staffNoticeWhat(kind: StaffNoticeKind, n: number): string {
  switch (kind) {
    case "tax-info-submitted":
      return "submitted their taxpayer information";
    case "tax-info-changed":
      return `changed their taxpayer information${times(n)}`;
    case "documents-uploaded":
      return `uploaded ${n === 1 ? "a document" : `${n} documents`}`;
    case "request-answered":
      return `answered ${n === 1 ? "a requested item" : `${n} requested items`}`;
    case "message-received":
      return `sent ${n === 1 ? "a message" : `${n} messages`}`;
    case "payment-announced":
      return `said they sent a payment by wire or Zelle${times(n)}`;
  }
}

/**
 * To the case's staff member (else the firm's address): what the client sent since the last
 * notice, by kind ("uploaded 3 documents and sent 2 messages"). Counts and a link, nothing else.
 */
export function staffCaseNoticeMail(to: string, clientLabel: string, taxYear: number, counts: StaffNoticeCounts, url: string): Mail {
  const parts = STAFF_NOTICE_KINDS.flatMap((kind) => {
    const n = counts[kind] ?? 0;
    return n > 0 ? [staffNoticeWhat(kind, n)] : [];
  });
  const what = parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]!}`;
  return {
    to,
    subject: `${clientLabel} ${what} (${taxYear})`,
    ...linkMessage(url, "Open the case", `${clientLabel} ${what} for tax year ${taxYear}.`, "This notice holds no tax details; they are in the panel."),
  };
}

/** An invitation to join the staff: the link to choose a password, and the role. Nothing else. */
export function staffInvitationMail(to: string, name: string, role: string, link: string, hours: number): Mail {
  return {
    to,
    subject: `Your ${business.name} staff account`,
    ...accountInvitation({
      name,
      intro: `You have been invited to the ${business.name} staff panel as ${role}.`,
      link,
      hours,
      outro: "After you sign in, you will set up a second factor (an authenticator app).",
    }),
  };
}

/**
 * To the client: items of a case requested from them have been outstanding for a week. The
 * number of items and a link, never what the items are.
 */
export function requestsReminderMail(to: string, name: string, taxYear: number, count: number, url: string): Mail {
  const items = count === 1 ? "1 item" : `${count} items`;
  return {
    to,
    subject: `Reminder: we still need ${items} for your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See what we still need",
      `Hello ${name}, ${business.name} is still waiting for ${items} we asked you for, for your ${taxYear} tax filing.`,
      "Send them, or tell us on that page that one does not apply or cannot be had. We send this reminder at most once a week, and only while something is still needed.",
    ),
  };
}

/**
 * To the client: staff wrote to them in a case's conversation. A link to the conversation,
 * never the message's text.
 */
export function clientMessageMail(to: string, name: string, taxYear: number, url: string): Mail {
  return {
    to,
    subject: `You have a new message about your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "Read the message",
      `Hello ${name}, ${business.name} has sent you a message about your ${taxYear} tax filing.`,
      "For your security the message is not in this e-mail: sign in to read it and reply.",
    ),
  };
}

/** To the client: staff asked them for items of a case (one e-mail per request, however many items). */
export function requestsAddedMail(to: string, name: string, taxYear: number, count: number, url: string): Mail {
  const items = count === 1 ? "an item" : `${count} items`;
  return {
    to,
    subject: `We need something from you for your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See what we need",
      `Hello ${name}, ${business.name} has asked you for ${items} for your ${taxYear} tax filing.`,
      "On that page you can upload each one, or tell us that it does not apply or that you cannot get it.",
    ),
  };
}

/** To the client: staff sent an item back with a reason, which the client reads on the filing page. */
export function requestReturnedMail(to: string, name: string, taxYear: number, url: string): Mail {
  return {
    to,
    subject: `Please look again at an item for your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See what we need",
      `Hello ${name}, ${business.name} has sent back an item of your ${taxYear} tax filing and said why.`,
      "For your security the details are not in this e-mail: sign in to read them.",
    ),
  };
}

/** To the client: the IRS or the state rejected their return (sent at once, a link only). */
export function returnRejectedMail(to: string, name: string, taxYear: number, jurisdiction: string, url: string): Mail {
  return {
    to,
    subject: `Your ${taxYear} tax return needs a correction`,
    ...returnRejected({ name, taxYear, jurisdiction, url }),
  };
}

/**
 * To a signer: the authorisation form of a return waits for their signature. The taxpayer's link
 * leads to their filing; the spouse's is their own signing link (one-time, expiring).
 */
export function signatureRequestedMail(to: string, name: string, taxYear: number, url: string, days: number | null): Mail {
  return {
    to,
    subject: `Please sign the e-file authorisation of your ${taxYear} tax return`,
    ...linkMessage(
      url,
      "Review and sign",
      `Hello ${name}, ${business.name} has prepared your ${taxYear} tax return and needs your signature on its e-file authorisation before filing it.`,
      days === null
        ? "Sign in to review the form and sign it."
        : `The link is yours alone and works for ${days} days. If you did not expect this e-mail, ignore it.`,
    ),
  };
}

/** To a signer: the one-time code that completes an e-signature. */
export function signingCodeMail(to: string, name: string, code: string, minutes: number): Mail {
  return { to, subject: `Your ${business.name} signing code`, ...signingCode({ name, code, minutes }) };
}

/** To the client: staff sent an invoice for their filing (a link only: the amount and lines are on the page). */
export function invoiceSentMail(to: string, name: string, taxYear: number, number: string, url: string): Mail {
  return {
    to,
    subject: `Invoice ${number} for your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See the invoice and pay",
      `Hello ${name}, ${business.name} has sent you invoice ${number} for your ${taxYear} tax filing.`,
      "You can pay by card, wire transfer or Zelle. For your security the details are not in this e-mail: sign in to read them.",
    ),
  };
}

/** To the client: their fee is paid in full; the receipt is on the filing page. */
export function feePaidMail(to: string, name: string, taxYear: number, number: string, url: string): Mail {
  return {
    to,
    subject: `Payment received for your ${taxYear} tax filing`,
    ...linkMessage(
      url,
      "See your receipt",
      `Hello ${name}, thank you: invoice ${number} for your ${taxYear} tax filing is paid in full.`,
      "Your receipt is on your filing page, ready to download.",
    ),
  };
}

/** To the client: a draft of their return waits for their review (a link only, never the return). */
export function draftReadyMail(to: string, name: string, taxYear: number, url: string): Mail {
  return {
    to,
    subject: `Your ${taxYear} tax return is ready for your review`,
    ...linkMessage(
      url,
      "Review your draft return",
      `Hello ${name}, ${business.name} has prepared a draft of your ${taxYear} tax return for you to review.`,
      "Sign in to read it, then approve it or tell us what to change. For your security the return is not in this e-mail.",
    ),
  };
}

/** To the client: their engagement letter for the year waits for them to read and accept. */
export function engagementLetterMail(to: string, name: string, taxYear: number, url: string): Mail {
  return {
    to,
    subject: `Your ${taxYear} engagement letter from ${business.name}`,
    ...linkMessage(
      url,
      "Read your engagement letter",
      `Hello ${name}, ${business.name} has sent you the engagement letter for your ${taxYear} tax year: what we will do, for what fee, and what we need from you.`,
      "Sign in to read it, then accept it or tell us why you decline it. For your security the letter is not in this e-mail.",
    ),
  };
}

/** What a client (or their spouse) did on the return, or on its engagement letter, that staff are told of at once. */
export type ReturnStep = "approved" | "changes-requested" | "signed-form-uploaded" | "spouse-signed-form-uploaded" | "engagement-declined";

export const RETURN_STEPS: readonly ReturnStep[] = ["approved", "changes-requested", "signed-form-uploaded", "spouse-signed-form-uploaded", "engagement-declined"];

/** The step in words, who did it first ("TB-00042 Lee Client approved the draft return"), and what staff do next. */
function returnStepWords(step: ReturnStep, clientLabel: string): { what: string; next: string } {
  switch (step) {
    case "approved":
      return { what: `${clientLabel} approved the draft return`, next: "You can now request the signatures of the e-file authorisation." };
    case "changes-requested":
      return { what: `${clientLabel} asked for changes to the draft return`, next: "Their comments are in the case's conversation." };
    case "signed-form-uploaded":
      return { what: `${clientLabel} uploaded a hand-signed e-file authorisation`, next: "Check it, then accept it or send it back with a reason." };
    case "spouse-signed-form-uploaded":
      return { what: `The spouse of ${clientLabel} uploaded a hand-signed e-file authorisation`, next: "Check it, then accept it or send it back with a reason." };
    case "engagement-declined":
      return { what: `${clientLabel} declined the engagement letter`, next: "Their reason is on the case's Engagement section: answer them, and send a new letter if need be." };
  }
}

/**
 * To the case's staff member (else the firm's address): the client approved the draft, asked for
 * changes, or a signer uploaded a hand-signed form. Sent at once, one per step: each waits for
 * staff. A link to the case's return, nothing else.
 */
export function returnStaffNoticeMail(to: string, clientLabel: string, taxYear: number, step: ReturnStep, url: string): Mail {
  const { what, next } = returnStepWords(step, clientLabel);
  return {
    to,
    subject: `${what} (${taxYear})`,
    ...linkMessage(url, "Open the return", `${what} for tax year ${taxYear}.`, `${next} This notice holds no tax details; they are in the panel.`),
  };
}
