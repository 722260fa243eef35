import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { RETURN_MESSAGES, SIGNING_CODE_MINUTES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import { signingCodes } from "~/server/db/schema";
import { hitRateLimit } from "~/server/limits/rate-limit.server";
import type { RateLimitRule } from "~/server/limits/rate-limit.server";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import { latestIdCheck } from "./id-checks.server";
import type { Refused } from "./records.server";
import { refused, sha256Hex } from "./records.server";
import { openSigner, signerActor, signerLabel } from "./signer-access.server";
import type { SignerAccess } from "./signer-access.server";

// The one-time codes of an e-signature: e-mailed to the signer, kept only as a salted hash.

/** How often a signer may ask for a code: enough for a few mistyped addresses, not a flood. */
export const signingCodeLimit: RateLimitRule = { name: "signing-code", limit: 5, windowSeconds: 60 * 60 };

/**
 * Sends the signer a fresh 6-digit code (through the outbox, to the address the request has for
 * them: the client's verified account address, or the one staff entered for the spouse, which
 * their link was sent to). Only its SHA-256 is kept; it works once, for SIGNING_CODE_MINUTES
 * minutes, SIGNING_CODE_TRIES tries; a new code replaces the earlier ones. Refused without an
 * identity check (an e-signature needs one) and past signingCodeLimit. Audited.
 */
export async function startEmailCode(access: SignerAccess, ip: string): Promise<{ ok: true; sentTo: string } | Refused> {
  const outcome = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    if (!(await latestIdCheck(request, signer.role, tx))) return refused(RETURN_MESSAGES.noIdCheck);
    if (!(await hitRateLimit(signingCodeLimit, signer.id, tx)).allowed) return refused(RETURN_MESSAGES.tooManyCodes);
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await tx.delete(signingCodes).where(eq(signingCodes.signerId, signer.id));
    const [row] = await tx
      .insert(signingCodes)
      .values({ signerId: signer.id, codeHash: "", expiresAt: new Date(Date.now() + SIGNING_CODE_MINUTES * 60_000) })
      .returning({ id: signingCodes.id });
    if (!row) throw new Error("no code row returned");
    // The row's id salts the hash: a hash copied to another row does not match.
    await tx.update(signingCodes).set({ codeHash: codeHash(row.id, code) }).where(eq(signingCodes.id, row.id));
    const mailId = await enqueueMail({ kind: "signing-code", to: signer.email, payload: { name: signer.name, code, minutes: SIGNING_CODE_MINUTES } }, tx);
    await recordAudit({ actor: signerActor(access), action: "signing-code-sent", clientId: request.clientId, taxYear: request.taxYear, detail: `to ${signerLabel(signer)}`, ip }, tx);
    return { ok: true as const, mailId, sentTo: signer.email };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true, sentTo: outcome.sentTo };
}

/** The stored hash of a code: the row's id salts it, so a hash copied to another row does not match. */
export function codeHash(id: string, code: string): string {
  return sha256Hex(`${id}:${code}`);
}
