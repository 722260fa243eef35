import { and, eq, gt } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { RETURN_MESSAGES } from "~/domain/returns";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { signatureRequests, signatureSigners, signatures } from "~/server/db/schema";
import type { Transaction } from "~/server/db/client.server";
import type { Refused } from "./records.server";
import { lockCase, refused, requestStandings, sha256Hex } from "./records.server";

// Who is signing: the client signed in (the taxpayer of their own case) or the spouse with their
// link. Every signer's action starts with openSigner, so a signer reaches only their own form, and
// only while the request stands and they have not signed.

/** A signer reaching their form: the client signed in (the taxpayer), or the spouse's link. */
export type SignerAccess = { client: SessionUser; requestId: string } | { token: string };

export type SignerRow = typeof signatureSigners.$inferSelect;
export type RequestRow = typeof signatureRequests.$inferSelect;

/**
 * Which signer row `access` reaches (a condition on signature_signers joined with their
 * signature_requests), and what to answer when none matches; or why not, before any query. The
 * taxpayer is the client of the request's case; the spouse's link must match a stored hash that
 * has not expired.
 */
export function signerOfAccess(access: SignerAccess): { where: SQL; notFound: string } | Refused {
  if ("token" in access) {
    if (access.token === "" || access.token.length > 200) return refused(RETURN_MESSAGES.badLink);
    return {
      where: and(eq(signatureSigners.tokenHash, sha256Hex(access.token)), gt(signatureSigners.tokenExpiresAt, new Date()))!,
      notFound: RETURN_MESSAGES.badLink,
    };
  }
  if (access.client.role !== "user" || !isDocumentId(access.requestId)) return refused(RETURN_MESSAGES.noSuchRequest);
  return {
    where: and(eq(signatureRequests.id, access.requestId), eq(signatureRequests.clientId, access.client.id), eq(signatureSigners.role, "taxpayer"))!,
    notFound: RETURN_MESSAGES.noSuchRequest,
  };
}

/**
 * The signer behind `access` (signerOfAccess) and their request, when the request is not void and
 * they have not signed yet (read in `tx`, after locking the case); or why not. Every signer's
 * action starts here.
 */
export async function openSigner(tx: Transaction, access: SignerAccess): Promise<{ ok: true; signer: SignerRow; request: RequestRow } | Refused> {
  const which = signerOfAccess(access);
  if ("ok" in which) return which;
  const [found] = await tx
    .select({ signer: signatureSigners, request: signatureRequests })
    .from(signatureSigners)
    .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
    .where(which.where);
  if (!found) return refused(which.notFound);
  await lockCase(tx, found.request);
  if ((await requestStandings([found.request.id], tx)).get(found.request.id)?.void) return refused(RETURN_MESSAGES.requestVoid);
  const [signed] = await tx.select({ id: signatures.id }).from(signatures).where(eq(signatures.signerId, found.signer.id));
  if (signed) return refused(RETURN_MESSAGES.alreadySigned);
  return { ok: true, ...found };
}

/** The audit entry's actor: the client, or nobody signed in (the spouse, named in the detail). */
export const signerActor = (access: SignerAccess) => ("client" in access ? access.client : null);

/** The signer's name and role, for the audit detail. */
export const signerLabel = (signer: SignerRow) => (signer.role === "spouse" ? `the spouse, ${signer.name}` : "the taxpayer");
