import { randomUUID } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { getDb } from "~/server/db/client.server";
import {
  clientCases,
  documents,
  handwrittenUploads,
  idChecks,
  signatureRequests,
  signatureSigners,
  signatures,
  signedAuthorizations,
  user,
} from "~/server/db/schema";
import { getStorage } from "~/server/storage/storage.server";
import { insertReturnDocument, lockCase, requestStandings } from "./records.server";
import type { CertificateEntry } from "./signed-pdf.server";
import { SignedPdfError, signedAuthorizationPdf } from "./signed-pdf.server";

// The signed copy of an authorised request's Form 8879 or 8878 (docs/product/return-and-signature.md):
// made once every signer has signed, from the form staff attached (or, when a signer signed on
// paper, from the newest accepted scan), with a signature certificate listing every signature's
// record. It is kept as a record of the return (a document staff can release with the final
// copies) and in signed_authorizations with its SHA-256, once per request.

export type SignedCopy = { documentId: string; sha256: string };

/** The signed copy of `requestId` when it was made already. */
async function existingCopy(requestId: string): Promise<SignedCopy | null> {
  const [row] = await getDb()
    .select({ documentId: documents.id, sha256: signedAuthorizations.sha256 })
    .from(signedAuthorizations)
    .innerJoin(documents, eq(documents.storageKey, signedAuthorizations.storageKey))
    .where(eq(signedAuthorizations.requestId, requestId));
  return row ?? null;
}

/** Every signature of the request as the certificate lists it, and the newest accepted paper scan's document. */
async function certificateOf(requestId: string) {
  const rows = await getDb()
    .select({ signature: signatures, idCheck: idChecks, checkedByName: user.name })
    .from(signatures)
    .leftJoin(idChecks, eq(idChecks.id, signatures.idCheckId))
    .leftJoin(user, eq(user.id, idChecks.checkedBy))
    .where(eq(signatures.requestId, requestId))
    .orderBy(asc(signatures.signedAt));
  const entries: CertificateEntry[] = rows.map(({ signature: s, idCheck, checkedByName }) => ({
    signerRole: s.signerRole,
    signerName: s.signerName,
    method: s.method,
    signedAt: s.signedAt,
    timeZone: s.timeZone ?? "UTC",
    ip: s.ipAddress,
    userAgent: s.userAgent,
    consentVersion: s.consentVersion,
    declarationVersion: s.declarationVersion,
    formSha256: s.formSha256,
    returnVersionSha256: s.returnSha256,
    idCheck: idCheck
      ? {
          documentType: idCheck.documentType,
          issuingCountry: idCheck.issuingCountry,
          expiresOn: idCheck.expiresOn,
          numberLast4: idCheck.numberLast4,
          how: idCheck.method,
          checkedBy: checkedByName ?? "a former staff member",
          checkedAt: idCheck.checkedAt,
        }
      : null,
  }));
  const [scan] = await getDb()
    .select({ storageKey: documents.storageKey })
    .from(handwrittenUploads)
    .innerJoin(signatureSigners, eq(signatureSigners.id, handwrittenUploads.signerId))
    .innerJoin(documents, eq(documents.id, handwrittenUploads.documentId))
    .where(and(eq(signatureSigners.requestId, requestId), eq(handwrittenUploads.decision, "accepted")))
    .orderBy(desc(handwrittenUploads.reviewedAt))
    .limit(1);
  return { entries, scanKey: scan?.storageKey ?? null };
}

/**
 * The signed copy of an authorised request: the one made before, or made now. Null while the
 * request is not authorised (or is void). Refused with a SignedPdfError when the form or the
 * scan cannot be read; nothing is kept then, and a later call tries again.
 */
export async function ensureSignedAuthorization(requestId: string): Promise<SignedCopy | null> {
  const existing = await existingCopy(requestId);
  if (existing) return existing;
  const standing = (await requestStandings([requestId])).get(requestId);
  if (!standing?.authorised || standing.void) return null;
  const [found] = await getDb()
    .select({ request: signatureRequests, formKey: documents.storageKey, number: clientCases.number })
    .from(signatureRequests)
    .innerJoin(documents, eq(documents.id, signatureRequests.formDocumentId))
    .innerJoin(clientCases, and(eq(clientCases.userId, signatureRequests.clientId), eq(clientCases.taxYear, signatureRequests.taxYear)))
    .where(eq(signatureRequests.id, requestId));
  if (!found) return null;
  const { request } = found;
  const { entries, scanKey } = await certificateOf(requestId);
  const form = await getStorage().get(scanKey ?? found.formKey);
  const { pdf, sha256 } = await signedAuthorizationPdf({
    form,
    formName: request.authorizationForm,
    taxYear: request.taxYear,
    clientCode: clientCode(found.number),
    entries,
  });
  const storageKey = randomUUID();
  await getStorage().put(storageKey, pdf);
  const made = await getDb().transaction(async (tx) => {
    await lockCase(tx, request);
    const [again] = await tx.select({ id: signedAuthorizations.id }).from(signedAuthorizations).where(eq(signedAuthorizations.requestId, requestId));
    if (again) return null;
    const doc = await insertReturnDocument(
      tx,
      request,
      { name: `Form ${request.authorizationForm} ${request.taxYear} signed.pdf`, storageKey, size: pdf.length, contentType: "application/pdf" },
      // A record the law makes the firm keep is kept whatever room the case has left.
      { kind: "signed-authorization", uploadedBy: null, fromClient: false, ignoreRoom: true },
    );
    if ("ok" in doc) throw new Error(doc.error);
    await tx.insert(signedAuthorizations).values({ requestId, storageKey, sha256 });
    return { documentId: doc.id, sha256 };
  });
  if (made) return made;
  // Another call made it first: this copy is not kept.
  await getStorage().remove(storageKey);
  return existingCopy(requestId);
}

/**
 * ensureSignedAuthorization after the last signature's transaction has committed: the signature
 * stands whether or not the copy can be made now; when it cannot, staff see why on the case's
 * Return section and make it from there.
 */
export async function makeSignedCopyAfterSigning(requestId: string): Promise<void> {
  try {
    await ensureSignedAuthorization(requestId);
  } catch (error) {
    const why = error instanceof SignedPdfError ? error.reason : error instanceof Error ? error.name : "unknown";
    console.error(`[returns] the signed copy of request ${requestId} could not be made (${why})`);
  }
}
