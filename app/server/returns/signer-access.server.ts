import { and, eq, gt } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { RETURN_MESSAGES } from "~/domain/returns";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { signatureRequests, signatureSigners, signatures } from "~/server/db/schema";
import { getDb } from "~/server/db/client.server";
import type { Database, Transaction } from "~/server/db/client.server";
import type { Refused } from "./records.server";
import { lockCase, refused, requestStandings, sha256Hex } from "./records.server";

// Who is signing: the client signed in (the taxpayer of their own case) or the spouse with their
// link. Every signer's action starts with openSigner, so a signer reaches only their own form, and
// only while the request stands and they have not signed.

/** A signer reaching their form: the client signed in (the taxpayer), or the spouse's link. */
export type SignerAccess = { client: SessionUser; requestId: string } | { token: string };

export type SignerRow = typeof signatureSigners.$inferSelect;
export type RequestRow = typeof signatureRequests.$inferSelect;

type Reader = Pick<Database, "select">;

/** The signer behind an access, and their request. */
export type OpenSigner = { ok: true; signer: SignerRow; request: RequestRow };

/**
 * The signer behind `access` and their request, when the request is not void and they have not
 * signed yet (read in `tx`, the case's row locked first); or why not. The taxpayer is the client
 * of the request's case; the spouse's link must match a stored hash that has not expired. Every
 * signer's action starts here.
 */
export async function openSigner(tx: Transaction, access: SignerAccess): Promise<OpenSigner | Refused> {
  return signerOf(tx, access, (request) => lockCase(tx, request));
}

/**
 * What openSigner finds, read without a transaction and without locking the case: for the pages
 * that only show it (a GET must not hold a lock, nor write the lock to disk). An action goes
 * through openSigner again.
 */
export async function readSigner(access: SignerAccess, db: Reader = getDb()): Promise<OpenSigner | Refused> {
  return signerOf(db, access, async () => undefined);
}

async function signerOf(db: Reader, access: SignerAccess, lock: (request: RequestRow) => Promise<unknown>): Promise<OpenSigner | Refused> {
  let found: { signer: SignerRow; request: RequestRow } | undefined;
  if ("token" in access) {
    if (access.token === "" || access.token.length > 200) return refused(RETURN_MESSAGES.badLink);
    [found] = await db
      .select({ signer: signatureSigners, request: signatureRequests })
      .from(signatureSigners)
      .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
      .where(and(eq(signatureSigners.tokenHash, sha256Hex(access.token)), gt(signatureSigners.tokenExpiresAt, new Date())));
    if (!found) return refused(RETURN_MESSAGES.badLink);
  } else {
    if (access.client.role !== "user" || !isDocumentId(access.requestId)) return refused(RETURN_MESSAGES.noSuchRequest);
    [found] = await db
      .select({ signer: signatureSigners, request: signatureRequests })
      .from(signatureSigners)
      .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
      .where(and(eq(signatureRequests.id, access.requestId), eq(signatureRequests.clientId, access.client.id), eq(signatureSigners.role, "taxpayer")));
    if (!found) return refused(RETURN_MESSAGES.noSuchRequest);
  }
  await lock(found.request);
  if ((await requestStandings([found.request.id], db)).get(found.request.id)?.void) return refused(RETURN_MESSAGES.requestVoid);
  const [signed] = await db.select({ id: signatures.id }).from(signatures).where(eq(signatures.signerId, found.signer.id));
  if (signed) return refused(RETURN_MESSAGES.alreadySigned);
  return { ok: true, ...found };
}

/** The audit entry's actor: the client, or nobody signed in (the spouse, named in the detail). */
export const signerActor = (access: SignerAccess) => ("client" in access ? access.client : null);

/** The signer's name and role, for the audit detail. */
export const signerLabel = (signer: SignerRow) => (signer.role === "spouse" ? `the spouse, ${signer.name}` : "the taxpayer");
