import { desc, eq } from "drizzle-orm";
import type { SignerRole } from "~/domain/returns";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { documents, handwrittenUploads, returnVersions } from "~/server/db/schema";
import { withheldForFee } from "~/server/fees/final-copies-gate.server";
import { getStorage } from "~/server/storage/storage.server";
import { latestIdCheck } from "./id-checks.server";
import type { Refused } from "./records.server";
import { liveRequestsOf } from "./records.server";
import { openSigner } from "./signer-access.server";
import type { SignerAccess } from "./signer-access.server";

// What a signer's page reads: what they sign (signingPage), which request waits for the client
// (the client's page knows their case, not the request's id), the form's file, and where their
// hand-signed upload stands. Each goes through openSigner, so a signer reaches only their own.

/** What a signer's page shows: the form to sign and the return it authorises, for whom, and whether an e-signature is open to them (an identity check is recorded). */
export async function signingPage(access: SignerAccess): Promise<
  | { ok: true; requestId: string; role: SignerRole; name: string; taxYear: number; authorizationForm: string; returnForm: string; formDocumentId: string; eSignature: boolean }
  | Refused
> {
  return getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    // The return the form authorises (its texts name it).
    const [version] = await tx.select({ form: returnVersions.form }).from(returnVersions).where(eq(returnVersions.id, request.versionId));
    return {
      ok: true as const,
      returnForm: version?.form ?? "",
      requestId: request.id,
      role: signer.role,
      name: signer.name,
      taxYear: request.taxYear,
      authorizationForm: request.authorizationForm,
      formDocumentId: request.formDocumentId,
      eSignature: (await latestIdCheck(request, signer.role, tx)) !== null,
    };
  });
}

/** The signature request of the client's own case of `taxYear` that waits for their signature, or null. */
export async function waitingRequestOf(client: SessionUser, taxYear: number): Promise<string | null> {
  if (client.role !== "user") return null;
  const live = await liveRequestsOf({ clientId: client.id, taxYear });
  for (const request of live) {
    if (request.standing.authorised) continue;
    if ((await signingPage({ client, requestId: request.id })).ok) return request.id;
  }
  return null;
}

/**
 * The form to sign (its PDF) for the signer behind `access`, or null when they have nothing to
 * sign, or "waits-for-fee" when the fee withholds it (withheldForFee). Read `body` to its end or
 * cancel it.
 */
export async function signingFormFile(
  access: SignerAccess,
): Promise<{ name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> } | "waits-for-fee" | null> {
  const page = await signingPage(access);
  if (!page.ok) return null;
  const [doc] = await getDb()
    .select({ clientId: documents.clientId, taxYear: documents.taxYear, name: documents.originalName, contentType: documents.contentType, storageKey: documents.storageKey })
    .from(documents)
    .where(eq(documents.id, page.formDocumentId));
  if (!doc) return null;
  if ((await withheldForFee("client" in access ? access.client : "spouse-link", doc, [page.formDocumentId])).has(page.formDocumentId)) return "waits-for-fee";
  const object = await getStorage().open(doc.storageKey);
  return { name: doc.name, contentType: doc.contentType, size: object.size, body: object.body };
}

/**
 * Where the signer's latest hand-signed upload stands: waiting for staff, or sent back with
 * staff's reason (null for neither: none yet, or accepted, after which there is nothing to sign).
 */
export async function handwrittenStanding(access: SignerAccess): Promise<{ waiting: boolean; returnedReason: string | null }> {
  const latest = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return null;
    const [row] = await tx
      .select({ decision: handwrittenUploads.decision, reason: handwrittenUploads.reason })
      .from(handwrittenUploads)
      .where(eq(handwrittenUploads.signerId, open.signer.id))
      .orderBy(desc(handwrittenUploads.createdAt))
      .limit(1);
    return row ?? null;
  });
  if (!latest) return { waiting: false, returnedReason: null };
  return { waiting: latest.decision === null, returnedReason: latest.decision === "returned" ? latest.reason : null };
}
