import { desc, eq } from "drizzle-orm";
import type { AuthorizationForm, ReturnForm, SignerRole } from "~/domain/returns";
import { CONSENT_VERSION, consentText, DECLARATION_VERSION, declarationText } from "~/domain/e-signature";
import { returnTextContext } from "~/domain/return-client";
import type { SigningView } from "~/domain/return-client";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { documents, handwrittenUploads, returnVersions } from "~/server/db/schema";
import { withheldForFee } from "~/server/fees/final-copies-gate.server";
import { getStorage } from "~/server/storage/storage.server";
import { latestIdCheck } from "./id-checks.server";
import type { Refused } from "./records.server";
import { liveRequestsOf } from "./records.server";
import { readSigner } from "./signer-access.server";
import type { SignerAccess } from "./signer-access.server";

// What a signer's page reads: what they sign and where their hand-signed upload stands
// (signerView), which request waits for the client (the client's page knows their case, not the
// request's id), and the form's file. Each goes through readSigner, so a signer reaches only their
// own; none locks anything, as the pages only read (their actions go through openSigner).

/** A signer's page: the request and its year, and what the page shows. */
export type SignerView = { requestId: string; taxYear: number; role: SignerRole; signing: SigningView };

/**
 * What the signer behind `access` signs, the return it authorises and its texts, whether an
 * e-signature is open to them (an identity check is recorded), and where their latest hand-signed
 * upload stands: waiting for staff, or sent back with staff's reason. Refused as openSigner would.
 */
export async function signerView(access: SignerAccess): Promise<({ ok: true } & SignerView) | Refused> {
  const db = getDb();
  const open = await readSigner(access, db);
  if (!open.ok) return open;
  const { signer, request } = open;
  const [[version], idCheck, [handwritten]] = await Promise.all([
    // The return the form authorises (its texts name it).
    db.select({ form: returnVersions.form }).from(returnVersions).where(eq(returnVersions.id, request.versionId)),
    latestIdCheck(request, signer.role, db),
    db
      .select({ decision: handwrittenUploads.decision, reason: handwrittenUploads.reason })
      .from(handwrittenUploads)
      .where(eq(handwrittenUploads.signerId, signer.id))
      .orderBy(desc(handwrittenUploads.createdAt))
      .limit(1),
  ]);
  const text = returnTextContext((version?.form ?? "") as ReturnForm, request.taxYear, request.authorizationForm as AuthorizationForm);
  return {
    ok: true,
    requestId: request.id,
    taxYear: request.taxYear,
    role: signer.role,
    signing: {
      name: signer.name,
      authorizationForm: request.authorizationForm,
      eSignature: idCheck !== null,
      consent: consentText(CONSENT_VERSION, text),
      consentVersion: CONSENT_VERSION,
      declaration: declarationText(DECLARATION_VERSION, text),
      declarationVersion: DECLARATION_VERSION,
      waiting: handwritten !== undefined && handwritten.decision === null,
      returnedReason: handwritten?.decision === "returned" ? handwritten.reason : null,
    },
  };
}

/** The signature request of the client's own case of `taxYear` that waits for their signature, and its page; or null. */
export async function waitingSignerView(client: SessionUser, taxYear: number): Promise<SignerView | null> {
  if (client.role !== "user") return null;
  const live = await liveRequestsOf({ clientId: client.id, taxYear });
  for (const request of live) {
    if (request.standing.authorised) continue;
    const view = await signerView({ client, requestId: request.id });
    if (view.ok) return view;
  }
  return null;
}

/** The id of the signature request of the client's own case of `taxYear` that waits for their signature, or null. */
export async function waitingRequestOf(client: SessionUser, taxYear: number): Promise<string | null> {
  return (await waitingSignerView(client, taxYear))?.requestId ?? null;
}

/**
 * The form to sign (its PDF) for the signer behind `access`, or null when they have nothing to
 * sign, or "waits-for-fee" when the fee withholds it (withheldForFee). Read `body` to its end or
 * cancel it.
 */
export async function signingFormFile(
  access: SignerAccess,
): Promise<{ name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> } | "waits-for-fee" | null> {
  const open = await readSigner(access);
  if (!open.ok) return null;
  const formDocumentId = open.request.formDocumentId;
  const [doc] = await getDb()
    .select({ clientId: documents.clientId, taxYear: documents.taxYear, name: documents.originalName, contentType: documents.contentType, storageKey: documents.storageKey })
    .from(documents)
    .where(eq(documents.id, formDocumentId));
  if (!doc) return null;
  if ((await withheldForFee("client" in access ? access.client : "spouse-link", doc, [formDocumentId])).has(formDocumentId)) return "waits-for-fee";
  const object = await getStorage().open(doc.storageKey);
  return { name: doc.name, contentType: doc.contentType, size: object.size, body: object.body };
}
