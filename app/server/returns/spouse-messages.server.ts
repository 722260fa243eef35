import { messageBody } from "~/domain/messages";
import { RETURN_MESSAGES } from "~/domain/returns";
import { getDb } from "~/server/db/client.server";
import { hitRateLimit } from "~/server/limits/rate-limit.server";
import type { RateLimitRule } from "~/server/limits/rate-limit.server";
import { noticeOfMessage, storeMessage } from "~/server/messages/posting.server";
import type { Refused } from "./records.server";
import { refused } from "./records.server";
import { openSigner } from "./signer-access.server";

// The spouse of a joint return has no account, so no conversation of their own: from their
// signing page they write into the case's conversation with staff, named as its author. Only
// with a link that works (the request stands, they have not signed), and a few times an hour.

/** How often a spouse may write from their page: a few questions, not a flood. */
export const spouseMessageLimit: RateLimitRule = { name: "spouse-message", limit: 5, windowSeconds: 60 * 60 };

/** The author's name a spouse's message carries in the conversation. */
export const spouseAuthor = (name: string) => `${name}, the spouse`;

/**
 * Posts the spouse's message (checked as every message is: not empty, at most MAX_MESSAGE_LENGTH
 * characters, no control characters) in the conversation of the case their link belongs to,
 * from the client's side, with their name as author; staff are told as of a client's message.
 * Refused for a link that does not work (openSigner's words) and past spouseMessageLimit. Audited.
 */
export async function sendSpouseMessage(token: string, text: string, ip: string): Promise<{ ok: true; messageId: string } | Refused> {
  const body = messageBody.safeParse(text);
  if (!body.success) return refused(body.error.issues[0]?.message ?? RETURN_MESSAGES.badLink);
  const outcome = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, { token });
    if (!open.ok) return open;
    const { signer, request } = open;
    if (!(await hitRateLimit(spouseMessageLimit, signer.id, tx)).allowed) return refused(RETURN_MESSAGES.tooManyMessages);
    const message = await storeMessage(tx, { actor: null, authorName: spouseAuthor(signer.name), clientId: request.clientId, taxYear: request.taxYear, body: body.data }, ip);
    if (!message) return refused(RETURN_MESSAGES.badLink);
    return { ok: true as const, message };
  });
  if (!outcome.ok) return outcome;
  await noticeOfMessage(outcome.message);
  return { ok: true, messageId: outcome.message.id };
}
