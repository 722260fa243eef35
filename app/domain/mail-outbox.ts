/**
 * The kinds of e-mail the product sends, as the outbox stores them (app/server/mail/outbox.server.ts),
 * with the words the admin page "Undelivered e-mails" shows for each, and what that page says.
 */

export const MAIL_KINDS = [
  "verification",
  "password-reset",
  "existing-account",
  "client-invitation",
  "staff-invitation",
  "contact-message",
  "stage-changed",
  "documents-shared",
  "staff-case-notice",
  "requests-reminder",
  "client-message",
  "requests-added",
  "request-returned",
  "return-rejected",
  "signature-requested",
  "signing-code",
  "invoice-sent",
  "fee-paid",
  "draft-ready",
  "return-staff-notice",
  "engagement-letter",
] as const;

export type MailKind = (typeof MAIL_KINDS)[number];

export function isMailKind(value: string): value is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(value);
}

/** What each kind of e-mail is, in a few words. */
export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  verification: "E-mail address verification",
  "password-reset": "Password reset link",
  "existing-account": "Sign-up with an address that has an account",
  "client-invitation": "Client invitation",
  "staff-invitation": "Staff invitation",
  "contact-message": "Contact-form message to staff",
  "stage-changed": "Filing moved to another stage",
  "documents-shared": "Documents shared with the client",
  "staff-case-notice": "Client activity notice to staff",
  "requests-reminder": "Reminder of requested items",
  "client-message": "New message from the firm",
  "requests-added": "Items requested from the client",
  "request-returned": "Requested item sent back",
  "return-rejected": "Return rejected by the IRS",
  "signature-requested": "Authorisation form to sign",
  "signing-code": "One-time signing code",
  "invoice-sent": "Invoice sent to the client",
  "fee-paid": "Fee paid: receipt ready",
  "draft-ready": "Draft return ready for review",
  "return-staff-notice": "Client's step on the return, to staff",
  "engagement-letter": "Engagement letter to accept",
};

/** A kind stored by a later version, or one no longer sent, still reads as something. */
export function mailKindLabel(kind: string): string {
  return isMailKind(kind) ? MAIL_KIND_LABELS[kind] : "Another e-mail";
}

/**
 * What a failure's code means, for the codes seen most (SMTP replies and network errors); any
 * other code is shown as it is.
 */
const REASONS: Record<string, string> = {
  "421": "mail server unavailable",
  "450": "mailbox busy",
  "451": "mail server error",
  "452": "mail server out of space",
  "454": "temporary authentication failure",
  "530": "authentication required",
  "535": "authentication refused",
  "550": "mailbox unavailable",
  "551": "recipient not local",
  "552": "message too large",
  "553": "address refused",
  "554": "refused",
  ECONNREFUSED: "connection refused",
  ETIMEDOUT: "timed out",
  ECONNRESET: "connection reset",
  ENOTFOUND: "mail server not found",
  EAUTH: "authentication failed",
  UNREADABLE: "its link could not be decrypted",
  GONE: "what it was about no longer exists",
  EXPIRED: "its code or link expired before it could be sent",
};

/** "421 (mail server unavailable)", or the code alone. */
export function mailReasonText(code: string | null): string {
  if (!code) return "";
  const reason = REASONS[code];
  return reason ? `${code} (${reason})` : code;
}

export const MAIL_OUTBOX_MESSAGES = {
  resent: "The e-mail is being sent again. If the mail server does not take it, it is listed here again.",
  expired: "That e-mail carried a code or link that has expired: sending it again would not help. Nothing was changed.",
  notFound: "That e-mail is not among the undelivered ones (it may have been sent again already). Nothing was changed.",
  badRequest: "That request could not be read. Nothing was changed.",
  /** The admin dashboard's line about them. */
  failedCount: (n: number) =>
    n === 1 ? "1 e-mail could not be sent and will not be tried again." : `${n} e-mails could not be sent and will not be tried again.`,
} as const;
