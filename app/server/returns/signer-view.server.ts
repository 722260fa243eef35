import { and, desc, eq, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import type { AuthorizationForm, ReturnForm, SignerRole } from "~/domain/returns";
import { RETURN_MESSAGES } from "~/domain/returns";
import { CONSENT_VERSION, consentText, DECLARATION_VERSION, declarationText } from "~/domain/e-signature";
import { returnTextContext } from "~/domain/return-client";
import type { SigningView } from "~/domain/return-client";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { documents, signatureRequests, signatureSigners } from "~/server/db/schema";
import { withheldForFee } from "~/server/fees/final-copies-gate.server";
import { getStorage } from "~/server/storage/storage.server";
import { refused, requestStandingSql } from "./records.server";
import type { Refused } from "./records.server";
import { signerOfAccess } from "./signer-access.server";
import type { SignerAccess } from "./signer-access.server";

// What a signer's page reads: what they sign and where their hand-signed upload stands
// (signerView), which request waits for the client (the client's page knows their case, not the
// request's id), and the form's file. The signer is the one openSigner would open, refused for the
// same reasons; but a page only reads, so nothing is locked and it all comes in one query (the
// signer's actions go through openSigner).

const request = sql`${signatureRequests}`;
const signer = sql`${signatureSigners}`;

/** A signer and their request, with what their page shows beside them. */
const signerPageColumns = {
  signer: signatureSigners,
  request: signatureRequests,
  standing: requestStandingSql(sql`${request}.id`),
  signed: sql<boolean>`exists (select 1 from signatures s where s.signer_id = ${signer}.id)`,
  // The return the form authorises (its texts name it).
  returnForm: sql<string | null>`(select v.form from return_versions v where v.id = ${request}.version_id)`,
  // An e-signature is open to a signer once their identity check is recorded.
  idChecked: sql<boolean>`exists (select 1 from id_checks c where c.client_id = ${request}.client_id
    and c.tax_year = ${request}.tax_year and c.signer_role = ${signer}.role)`,
  // Their latest hand-signed upload: "waiting" for staff's decision, "returned", "accepted"; null before any.
  handwritten: sql<string | null>`(select coalesce(h.decision, 'waiting') from handwritten_uploads h
    where h.signer_id = ${signer}.id order by h.created_at desc limit 1)`,
  handwrittenReason: sql<string | null>`(select h.reason from handwritten_uploads h
    where h.signer_id = ${signer}.id order by h.created_at desc limit 1)`,
};


async function signerPageRows(where: SQL) {
  return getDb()
    .select(signerPageColumns)
    .from(signatureSigners)
    .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
    .where(where)
    .orderBy(desc(signatureRequests.createdAt));
}

/** A signer's page: the request and its year, the signer's role, and what the page shows. */
export type SignerView = { requestId: string; taxYear: number; role: SignerRole; signing: SigningView };

function viewOf(row: Awaited<ReturnType<typeof signerPageRows>>[number]): SignerView {
  const text = returnTextContext((row.returnForm ?? "") as ReturnForm, row.request.taxYear, row.request.authorizationForm as AuthorizationForm);
  return {
    requestId: row.request.id,
    taxYear: row.request.taxYear,
    role: row.signer.role,
    signing: {
      name: row.signer.name,
      authorizationForm: row.request.authorizationForm,
      eSignature: row.idChecked,
      consent: consentText(CONSENT_VERSION, text),
      consentVersion: CONSENT_VERSION,
      declaration: declarationText(DECLARATION_VERSION, text),
      declarationVersion: DECLARATION_VERSION,
      waiting: row.handwritten === "waiting",
      returnedReason: row.handwritten === "returned" ? row.handwrittenReason : null,
    },
  };
}

/** The signer's row behind `access` while they may sign (as openSigner decides), or why not. */
async function openSignerRow(access: SignerAccess) {
  const which = signerOfAccess(access);
  if ("ok" in which) return which;
  const [row] = await signerPageRows(which.where);
  if (!row) return refused(which.notFound);
  if (row.standing.void) return refused(RETURN_MESSAGES.requestVoid);
  if (row.signed) return refused(RETURN_MESSAGES.alreadySigned);
  return { ok: true as const, row };
}

/**
 * What the signer behind `access` signs, the return it authorises and its texts, whether an
 * e-signature is open to them, and where their latest hand-signed upload stands: waiting for
 * staff, or sent back with staff's reason. Refused as openSigner would.
 */
export async function signerView(access: SignerAccess): Promise<({ ok: true } & SignerView) | Refused> {
  const open = await openSignerRow(access);
  return open.ok ? { ok: true, ...viewOf(open.row) } : open;
}

/** The signature request of the client's own case of `taxYear` that waits for their signature, and its page; or null. */
export async function waitingSignerView(client: SessionUser, taxYear: number): Promise<SignerView | null> {
  if (client.role !== "user") return null;
  const rows = await signerPageRows(
    and(eq(signatureRequests.clientId, client.id), eq(signatureRequests.taxYear, taxYear), eq(signatureSigners.role, "taxpayer"))!,
  );
  const waiting = rows.find((row) => !row.standing.void && !row.standing.authorised && !row.signed);
  return waiting ? viewOf(waiting) : null;
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
  const open = await openSignerRow(access);
  if (!open.ok) return null;
  const formDocumentId = open.row.request.formDocumentId;
  const [doc] = await getDb()
    .select({ clientId: documents.clientId, taxYear: documents.taxYear, name: documents.originalName, contentType: documents.contentType, storageKey: documents.storageKey })
    .from(documents)
    .where(eq(documents.id, formDocumentId));
  if (!doc) return null;
  if ((await withheldForFee("client" in access ? access.client : "spouse-link", doc, [formDocumentId])).has(formDocumentId)) return "waits-for-fee";
  const object = await getStorage().open(doc.storageKey);
  return { name: doc.name, contentType: doc.contentType, size: object.size, body: object.body };
}
