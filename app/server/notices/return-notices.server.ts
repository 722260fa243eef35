import { and, eq, isNull } from "drizzle-orm";
import { user } from "~/server/db/schema";
import type { ReturnStep } from "~/server/mail/mail-templates.server";
import { enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { casePageUrl, filingUrl, staffNoticeRecipient } from "./notices.server";

// The e-mails about a case's return (docs/product/return-and-signature.md#e-mails): to the client
// when a draft waits for their review (the signature request's e-mail is sent with the request,
// returns/signatures.server.ts), and to the case's staff member (else the firm's address) when
// the client approves a draft, asks for changes, or a signer uploads a hand-signed form. Each is
// queued in the event's own transaction (`tx`) and sent once it has committed and the request
// has been answered; a link only, never tax data or a file. Each step waits for someone, so each
// is sent at once, never gathered like the staff's other notices (notices.server.ts).

type CaseRef = { clientId: string; taxYear: number };

/**
 * To the client: a new version of their draft return waits for their review. Not to a deactivated
 * account. Queued in `tx`; answers the e-mail's id for the caller to deliverMail once `tx` has
 * committed (null: nobody to tell).
 */
export async function noticeDraftReady(tx: Transaction, ref: CaseRef): Promise<string | null> {
  const [client] = await tx
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(and(eq(user.id, ref.clientId), eq(user.role, "user"), isNull(user.deactivatedAt)));
  if (!client) return null;
  const payload = { name: client.name, taxYear: ref.taxYear, url: filingUrl(ref.taxYear) };
  return enqueueMail({ kind: "draft-ready", to: client.email, payload }, tx);
}

/**
 * To the case's staff member, else the firm's address: what the client (or the spouse) did on the
 * return. Queued in `tx`; answers the e-mail's id for the caller to deliverMail once `tx` has
 * committed (null: nobody to tell).
 */
export async function noticeReturnStep(tx: Transaction, ref: CaseRef, step: ReturnStep): Promise<string | null> {
  const recipient = await staffNoticeRecipient(ref.clientId, ref.taxYear, tx);
  if (!recipient) return null;
  const payload = { clientLabel: recipient.clientLabel, taxYear: ref.taxYear, step, url: `${casePageUrl(ref.clientId, ref.taxYear)}/return` };
  return enqueueMail({ kind: "return-staff-notice", to: recipient.to, payload }, tx);
}

/**
 * To the client: their engagement letter for the year waits for them. Not to a deactivated
 * account. Queued in `tx`; answers the e-mail's id (null: nobody to tell).
 */
export async function noticeEngagementLetter(tx: Transaction, ref: CaseRef): Promise<string | null> {
  const [client] = await tx
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(and(eq(user.id, ref.clientId), eq(user.role, "user"), isNull(user.deactivatedAt)));
  if (!client) return null;
  const payload = { name: client.name, taxYear: ref.taxYear, url: `${filingUrl(ref.taxYear)}/engagement` };
  return enqueueMail({ kind: "engagement-letter", to: client.email, payload }, tx);
}

/** To the case's staff member, else the firm's address: the client declined the engagement letter. */
export async function noticeLetterDeclined(tx: Transaction, ref: CaseRef): Promise<string | null> {
  const recipient = await staffNoticeRecipient(ref.clientId, ref.taxYear, tx);
  if (!recipient) return null;
  const payload = { clientLabel: recipient.clientLabel, taxYear: ref.taxYear, step: "engagement-declined" as const, url: `${casePageUrl(ref.clientId, ref.taxYear)}/engagement` };
  return enqueueMail({ kind: "return-staff-notice", to: recipient.to, payload }, tx);
}
