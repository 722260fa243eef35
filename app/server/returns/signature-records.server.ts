import type { SignatureMethod } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { signatureRequestEvents, signatures } from "~/server/db/schema";
import type { Transaction } from "~/server/db/client.server";
import { everySignerSigned } from "./records.server";
import type { RequestRow, SignerRow } from "./signer-access.server";

// A signature as it is kept (append-only, either way it was made), and the request's
// authorisation once every signer has signed.

/** Stores one signature of `request` by `signer` (append-only; kept until retainUntil). */
export async function insertSignature(
  tx: Transaction,
  request: RequestRow,
  signer: SignerRow,
  s: {
    method: SignatureMethod;
    signerName: string;
    timeZone: string | null;
    ip: string | null;
    userAgent: string | null;
    consentVersion: string | null;
    declarationVersion: string | null;
    idCheckId: string | null;
    handwrittenUploadId: string | null;
    retainUntil: Date;
  },
): Promise<string> {
  const [row] = await tx
    .insert(signatures)
    .values({
      requestId: request.id,
      signerId: signer.id,
      clientId: request.clientId,
      taxYear: request.taxYear,
      signerRole: signer.role,
      signerName: s.signerName,
      method: s.method,
      timeZone: s.timeZone,
      ipAddress: s.ip,
      userAgent: s.userAgent,
      consentVersion: s.consentVersion,
      declarationVersion: s.declarationVersion,
      formSha256: request.formSha256,
      returnSha256: request.returnSha256,
      idCheckId: s.idCheckId,
      handwrittenUploadId: s.handwrittenUploadId,
      retainUntil: s.retainUntil,
    })
    .returning({ id: signatures.id });
  if (!row) throw new Error("no signature row returned");
  return row.id;
}

/**
 * Once every signer of `request` has signed, records that the return is authorised (an event of
 * the request, audited), in the last signature's transaction. Answers whether it is.
 * Its signed copy is made once the transaction has committed (signed-copy.server.ts).
 */
export async function completeAuthorization(tx: Transaction, request: RequestRow, actor: SessionUser | null, ip: string): Promise<boolean> {
  if (!(await everySignerSigned(request.id, tx))) return false;
  await tx.insert(signatureRequestEvents).values({ requestId: request.id, kind: "authorised", actorId: actor?.id ?? null });
  await recordAudit(
    { actor, action: "return-authorised", clientId: request.clientId, taxYear: request.taxYear, detail: `Form ${request.authorizationForm}: every signer has signed`, ip },
    tx,
  );
  return true;
}
