import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { authorizationFormFor } from "~/domain/e-signature";
import { MAX_RETURN_NOTE_LENGTH, RETURN_MESSAGES, SPOUSE_LINK_DAYS } from "~/domain/returns";
import { EMAIL_SHAPE } from "~/domain/validation";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { returnVersions, signatureRequestEvents, signatureRequests, signatureSigners, taxpayerRecords, user } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { filingUrl } from "~/server/notices/notices.server";
import { getEnv } from "~/server/platform/env.server";
import type { Refused } from "./records.server";
import {
  acceptStored,
  assertStaffKeepingNothing,
  currentVersionOf,
  insertReturnDocument,
  latestReviewOf,
  liveRequestsOf,
  lockCase,
  refused,
  requestStandings,
  sha256Hex,
  sha256OfStored,
} from "./records.server";

// Staff's signature requests of the authorisation form (8879, 8878 for an extension): attached to
// the approved current version, with a signer for the taxpayer and, on a joint return, one for
// the spouse, who is e-mailed a link of their own. How each signer signs is the other modules'
// (signer-access, signing-codes, e-signing, handwritten); the request is authorised once every
// signer has signed (signature-records).

/** The spouse's signing page, reached with their link. */
export function spouseSigningUrl(token: string): string {
  return `${getEnv().appUrl}/sign/${encodeURIComponent(token)}`;
}

/**
 * Staff request the signatures of the authorisation form for a version the client approved (its
 * latest review is an approval) and that is still current: `formFile` (received and stored by
 * receiveUpload) is the form's PDF, hashed as stored; without one, the form of the version's last
 * cancelled request is sent again (the same document and SHA-256), so that a request cancelled for
 * a wrong address is sent anew without a new upload. Signers: the taxpayer, and with `jointReturn`
 * the spouse (`spouse`: name and e-mail address), who is e-mailed a link of their own (only its
 * SHA-256 is kept; it works SPOUSE_LINK_DAYS days). The taxpayer is e-mailed a link to their
 * filing. Audited.
 */
export async function requestSignature(
  staff: SessionUser,
  versionId: string,
  input: { formFile: ReceivedFile | null; jointReturn: boolean; spouse?: { name: string; email: string } },
  ip: string,
): Promise<{ ok: true; requestId: string } | Refused> {
  const received = input.formFile ? [input.formFile] : [];
  await assertStaffKeepingNothing(staff, "request a signature", received);
  const spouse = input.jointReturn ? { name: (input.spouse?.name ?? "").trim().replace(/\s+/g, " "), email: (input.spouse?.email ?? "").trim().toLowerCase() } : null;
  const early =
    !isDocumentId(versionId)
      ? RETURN_MESSAGES.noSuchVersion
      : spouse && (spouse.name === "" || spouse.name.length > 200)
        ? RETURN_MESSAGES.spouseRequired
        : spouse && !EMAIL_SHAPE.test(spouse.email)
          ? RETURN_MESSAGES.spouseEmail
          : null;
  if (early) {
    await discardReceived(received);
    return refused(early);
  }
  let stored: { name: string; storageKey: string; size: number; contentType: string; sha256: string } | null = null;
  if (input.formFile) {
    const accepted = await acceptStored(input.formFile, ["application/pdf"], RETURN_MESSAGES.formNotPdf);
    if (!accepted.ok) return accepted;
    stored = { ...accepted, sha256: await sha256OfStored(accepted.storageKey) };
  }
  const token = spouse ? randomBytes(32).toString("base64url") : null;
  const outcome = await getDb().transaction(async (tx) => {
    const [version] = await tx.select().from(returnVersions).where(eq(returnVersions.id, versionId));
    if (!version || !(await lockCase(tx, version))) return refused(RETURN_MESSAGES.noSuchVersion);
    if ((await currentVersionOf(version, tx))?.id !== version.id) return refused(RETURN_MESSAGES.notCurrent);
    const review = await latestReviewOf(version.id, tx);
    if (review?.decision !== "approved") return refused(review ? RETURN_MESSAGES.approvalWithdrawn : RETURN_MESSAGES.notApproved);
    if ((await liveRequestsOf(version, tx)).length > 0) return refused(RETURN_MESSAGES.openRequest);
    const [client] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, version.clientId));
    if (!client) return refused(RETURN_MESSAGES.noSuchCase);
    let formDocumentId: string;
    let formSha256: string;
    if (stored) {
      const doc = await insertReturnDocument(tx, version, stored, { kind: "authorization-form", uploadedBy: staff.id, fromClient: false });
      if ("ok" in doc) return doc;
      formDocumentId = doc.id;
      formSha256 = stored.sha256;
    } else {
      const again = await cancelledFormOf(tx, version.id);
      if (!again) return refused(RETURN_MESSAGES.formRequired);
      ({ formDocumentId, formSha256 } = again);
    }
    const form = authorizationFormFor(version.form);
    const [request] = await tx
      .insert(signatureRequests)
      .values({
        clientId: version.clientId,
        taxYear: version.taxYear,
        versionId: version.id,
        authorizationForm: form,
        formDocumentId,
        formSha256,
        returnSha256: version.sha256,
        jointReturn: spouse !== null,
        requestedBy: staff.id,
      })
      .returning({ id: signatureRequests.id });
    if (!request) throw new Error("no request row returned");
    const name = (await taxpayerName(tx, version)) ?? client.name;
    await tx.insert(signatureSigners).values({ requestId: request.id, role: "taxpayer", name, email: client.email });
    const mailIds = [
      await enqueueMail(
        { kind: "signature-requested", to: client.email, payload: { name: client.name, taxYear: version.taxYear, url: filingUrl(version.taxYear), days: null } },
        tx,
      ),
    ];
    if (spouse && token) {
      await tx.insert(signatureSigners).values({
        requestId: request.id,
        role: "spouse",
        name: spouse.name,
        email: spouse.email,
        tokenHash: sha256Hex(token),
        tokenExpiresAt: new Date(Date.now() + SPOUSE_LINK_DAYS * 86_400_000),
      });
      mailIds.push(
        await enqueueMail(
          { kind: "signature-requested", to: spouse.email, payload: { name: spouse.name, taxYear: version.taxYear, url: spouseSigningUrl(token), days: SPOUSE_LINK_DAYS } },
          tx,
        ),
      );
    }
    await recordAudit(
      {
        actor: staff,
        action: "signature-requested",
        clientId: version.clientId,
        taxYear: version.taxYear,
        detail: `Form ${form} for version ${version.number}${spouse ? ", taxpayer and spouse" : ", taxpayer"}`,
        ip,
      },
      tx,
    );
    return { ok: true as const, requestId: request.id, mailIds };
  });
  if (!outcome.ok) {
    await discardReceived(received);
    return outcome;
  }
  deliverMail(outcome.mailIds);
  return { ok: true, requestId: outcome.requestId };
}

/** The taxpayer's name as on their taxpayer information (first, middle, last), or null before they sent it. */
async function taxpayerName(db: Pick<Transaction, "select">, ref: { clientId: string; taxYear: number }): Promise<string | null> {
  const [row] = await db
    .select({ first: taxpayerRecords.name_as_per_ssn, middle: taxpayerRecords.middle_name, last: taxpayerRecords.last_name })
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, ref.clientId), eq(taxpayerRecords.taxYear, ref.taxYear)));
  return row ? [row.first, row.middle, row.last].map((s) => s.trim()).filter(Boolean).join(" ") : null;
}

/** The form of the version's last cancelled request (its document and SHA-256), or null. */
async function cancelledFormOf(tx: Transaction, versionId: string): Promise<{ formDocumentId: string; formSha256: string } | null> {
  const rows = await tx
    .select({ id: signatureRequests.id, formDocumentId: signatureRequests.formDocumentId, formSha256: signatureRequests.formSha256 })
    .from(signatureRequests)
    .where(eq(signatureRequests.versionId, versionId))
    .orderBy(desc(signatureRequests.createdAt));
  const standings = await requestStandings(
    rows.map((r) => r.id),
    tx,
  );
  const last = rows.find((r) => standings.get(r.id)?.cancelled != null);
  return last ? { formDocumentId: last.formDocumentId, formSha256: last.formSha256 } : null;
}

/**
 * Cancels `request` (which stands and is not authorised; the case locked by the caller) in `tx`:
 * an event with the reason, audited. Its links and codes stop working at once (openSigner refuses
 * a void request: the spouse's link then says it is not valid); signatures already made stay as
 * they are, records of a request that was cancelled. `actor` is the staff member who cancelled
 * it, or the client whose request for changes withdrew their approval.
 */
export async function cancelRequestInTx(
  tx: Transaction,
  request: { id: string; clientId: string; taxYear: number; authorizationForm: string; createdAt: Date },
  actor: SessionUser,
  reason: string,
  ip: string,
): Promise<void> {
  // The clock's time, not the transaction's start: a standing follows its events in the order they were written.
  await tx.insert(signatureRequestEvents).values({ requestId: request.id, kind: "cancelled", reason, actorId: actor.id, createdAt: sql`clock_timestamp()` });
  await recordAudit(
    {
      actor,
      action: "signature-request-cancelled",
      clientId: request.clientId,
      taxYear: request.taxYear,
      detail: `Form ${request.authorizationForm} request of ${request.createdAt.toISOString().slice(0, 10)}: ${reason}`,
      ip,
    },
    tx,
  );
}

/**
 * Staff cancel a signature request that stands and is not signed by everyone, with the reason
 * (kept with the event and in the audit entry): to send new links (a spouse's address was wrong),
 * or to stop it. A new request on the same version needs no new version nor a new approval
 * (requestSignature, without a file, sends the same form again). Refused for a request already
 * void or cancelled, and for one every signer has signed (a new version voids it).
 */
export async function cancelSignatureRequest(staff: SessionUser, requestId: string, reason: string, ip: string): Promise<{ ok: true } | Refused> {
  assertStaff(staff, "cancel a signature request");
  const why = reason.trim();
  if (why === "" || why.length > MAX_RETURN_NOTE_LENGTH) return refused(RETURN_MESSAGES.cancelReasonRequired);
  if (!isDocumentId(requestId)) return refused(RETURN_MESSAGES.noSuchRequestForStaff);
  return getDb().transaction(async (tx) => {
    const [request] = await tx.select().from(signatureRequests).where(eq(signatureRequests.id, requestId));
    if (!request || !(await lockCase(tx, request))) return refused(RETURN_MESSAGES.noSuchRequestForStaff);
    const standing = (await requestStandings([request.id], tx)).get(request.id)!;
    if (standing.void) return refused(RETURN_MESSAGES.alreadyVoid);
    if (standing.authorised) return refused(RETURN_MESSAGES.cannotCancelSigned);
    await cancelRequestInTx(tx, request, staff, why, ip);
    return { ok: true as const };
  });
}
