import { and, eq, isNull } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { MAX_RETURN_NOTE_LENGTH, RETURN_MESSAGES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { handwrittenUploads, signatureRequests, signatureSigners, signatures } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import type { Transaction } from "~/server/db/client.server";
import { deliverMail } from "~/server/mail/outbox.server";
import { noticeReturnStep } from "~/server/notices/return-notices.server";
import type { Refused } from "./records.server";
import { acceptStored, insertReturnDocument, lockCase, refused, requestStandings, retainUntilOf, sha256OfStored } from "./records.server";
import { completeAuthorization, insertSignature } from "./signature-records.server";
import { makeSignedCopyAfterSigning } from "./signed-copy.server";
import { openSigner, signerActor, signerLabel } from "./signer-access.server";
import type { SignerAccess } from "./signer-access.server";

// The paper path: a signer without an identity check (or who prefers it) signs the form by hand
// and uploads a scan or photo of it; staff accept it (a signature is recorded, method
// "handwritten") or send it back with a reason. A handwritten signature sent through a website
// is a paper signature, not an electronic one.

const SCAN_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;

/** The signer uploads their hand-signed form (received and stored by receiveUpload: PDF, JPEG or PNG). Audited. */
export async function uploadHandwritten(access: SignerAccess, file: ReceivedFile, ip: string): Promise<{ ok: true; uploadId: string } | Refused> {
  const stored = await acceptStored(file, SCAN_TYPES, RETURN_MESSAGES.notScan);
  if (!stored.ok) return stored;
  const sha256 = await sha256OfStored(stored.storageKey);
  const outcome = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    const doc = await insertReturnDocument(tx, request, stored, {
      kind: "handwritten-signature",
      uploadedBy: "client" in access ? access.client.id : null,
      fromClient: true,
    });
    if ("ok" in doc) return doc;
    const [row] = await tx.insert(handwrittenUploads).values({ signerId: signer.id, documentId: doc.id, sha256 }).returning({ id: handwrittenUploads.id });
    if (!row) throw new Error("no upload row returned");
    await recordAudit(
      { actor: signerActor(access), action: "handwritten-signature-uploaded", clientId: request.clientId, taxYear: request.taxYear, detail: `Form ${request.authorizationForm} signed by hand by ${signerLabel(signer)}`, ip },
      tx,
    );
    const mailId = await noticeReturnStep(tx, request, signer.role === "spouse" ? "spouse-signed-form-uploaded" : "signed-form-uploaded");
    return { ok: true as const, uploadId: row.id, mailId };
  });
  if (!outcome.ok) {
    await discardReceived([file]);
    return outcome;
  }
  deliverMail(outcome.mailId);
  const { mailId: _queued, ...done } = outcome;
  return done;
}

/** An upload waiting for staff's answer, with its signer and request, read in the transaction with the case locked. */
async function pendingUpload(tx: Transaction, uploadId: string) {
  if (!isDocumentId(uploadId)) return null;
  const [found] = await tx
    .select({ upload: handwrittenUploads, signer: signatureSigners, request: signatureRequests })
    .from(handwrittenUploads)
    .innerJoin(signatureSigners, eq(signatureSigners.id, handwrittenUploads.signerId))
    .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
    .where(and(eq(handwrittenUploads.id, uploadId), isNull(handwrittenUploads.decision)));
  if (!found) return null;
  await lockCase(tx, found.request);
  return found;
}

/**
 * Staff accept a hand-signed form: the signature is recorded (method "handwritten", with the
 * form's and the return's SHA-256, kept as retainUntilOf says), and the request is authorised when it was
 * the last one missing. Refused for a void request or a signer who has signed. Audited.
 */
export async function acceptHandwritten(
  staff: SessionUser,
  uploadId: string,
  ip: string,
): Promise<{ ok: true; signatureId: string; authorised: boolean } | Refused> {
  assertStaff(staff, "accept a signed form");
  const outcome = await getDb().transaction(async (tx) => {
    const found = await pendingUpload(tx, uploadId);
    if (!found) return refused(RETURN_MESSAGES.noSuchUpload);
    const { upload, signer, request } = found;
    if ((await requestStandings([request.id], tx)).get(request.id)?.void) return refused(RETURN_MESSAGES.requestVoid);
    const [signed] = await tx.select({ id: signatures.id }).from(signatures).where(eq(signatures.signerId, signer.id));
    if (signed) return refused(RETURN_MESSAGES.alreadySigned);
    await tx.update(handwrittenUploads).set({ decision: "accepted", reviewedBy: staff.id, reviewedAt: new Date() }).where(eq(handwrittenUploads.id, upload.id));
    const signatureId = await insertSignature(tx, request, signer, {
      method: "handwritten",
      signerName: signer.name,
      timeZone: null,
      ip: null,
      userAgent: null,
      consentVersion: null,
      declarationVersion: null,
      idCheckId: null,
      handwrittenUploadId: upload.id,
      retainUntil: await retainUntilOf(tx, request),
    });
    await recordAudit(
      { actor: staff, action: "handwritten-signature-accepted", clientId: request.clientId, taxYear: request.taxYear, detail: `Form ${request.authorizationForm} of ${signerLabel(signer)}`, ip },
      tx,
    );
    const authorised = await completeAuthorization(tx, request, staff, ip);
    return { ok: true as const, signatureId, authorised, requestId: request.id };
  });
  if (!outcome.ok) return outcome;
  if (outcome.authorised) await makeSignedCopyAfterSigning(outcome.requestId);
  return { ok: true, signatureId: outcome.signatureId, authorised: outcome.authorised };
}

/** Staff send a hand-signed form back with the reason the signer reads. Audited. */
export async function returnHandwritten(staff: SessionUser, uploadId: string, reason: string, ip: string): Promise<{ ok: true } | Refused> {
  assertStaff(staff, "send back a signed form");
  const why = reason.trim();
  if (why === "" || why.length > MAX_RETURN_NOTE_LENGTH) return refused(RETURN_MESSAGES.reasonRequired);
  return getDb().transaction(async (tx) => {
    const found = await pendingUpload(tx, uploadId);
    if (!found) return refused(RETURN_MESSAGES.noSuchUpload);
    const { upload, signer, request } = found;
    await tx.update(handwrittenUploads).set({ decision: "returned", reason: why, reviewedBy: staff.id, reviewedAt: new Date() }).where(eq(handwrittenUploads.id, upload.id));
    await recordAudit(
      { actor: staff, action: "handwritten-signature-returned", clientId: request.clientId, taxYear: request.taxYear, detail: `Form ${request.authorizationForm} of ${signerLabel(signer)}`, ip },
      tx,
    );
    return { ok: true as const };
  });
}
