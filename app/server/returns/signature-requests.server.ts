import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { authorizationFormFor } from "~/domain/e-signature";
import { RETURN_MESSAGES, SPOUSE_LINK_DAYS } from "~/domain/returns";
import { EMAIL_SHAPE } from "~/domain/validation";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { returnReviews, returnVersions, signatureRequests, signatureSigners, taxpayerRecords, user } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";
import { filingUrl } from "~/server/notices/notices.server";
import { getEnv } from "~/server/platform/env.server";
import type { Refused } from "./records.server";
import { acceptStored, assertStaffKeepingNothing, currentVersionOf, insertReturnDocument, liveRequestsOf, lockCase, refused, sha256Hex, sha256OfStored } from "./records.server";

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
 * Staff request the signatures of the authorisation form for a version the client approved and
 * that is still current: `formFile` (received and stored by receiveUpload) is the form's PDF, hashed
 * as stored. Signers: the taxpayer, and with `jointReturn` the spouse (`spouse`: name and e-mail
 * address), who is e-mailed a link of their own (only its SHA-256 is kept; it works
 * SPOUSE_LINK_DAYS days). The taxpayer is e-mailed a link to their filing. Audited.
 */
export async function requestSignature(
  staff: SessionUser,
  versionId: string,
  input: { formFile: ReceivedFile; jointReturn: boolean; spouse?: { name: string; email: string } },
  ip: string,
): Promise<{ ok: true; requestId: string } | Refused> {
  await assertStaffKeepingNothing(staff, "request a signature", [input.formFile]);
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
    await discardReceived([input.formFile]);
    return refused(early);
  }
  const stored = await acceptStored(input.formFile, ["application/pdf"], RETURN_MESSAGES.formNotPdf);
  if (!stored.ok) return stored;
  const formSha256 = await sha256OfStored(stored.storageKey);
  const token = spouse ? randomBytes(32).toString("base64url") : null;
  const outcome = await getDb().transaction(async (tx) => {
    const [version] = await tx.select().from(returnVersions).where(eq(returnVersions.id, versionId));
    if (!version || !(await lockCase(tx, version))) return refused(RETURN_MESSAGES.noSuchVersion);
    if ((await currentVersionOf(version, tx))?.id !== version.id) return refused(RETURN_MESSAGES.notCurrent);
    const [approval] = await tx
      .select({ id: returnReviews.id })
      .from(returnReviews)
      .where(and(eq(returnReviews.versionId, version.id), eq(returnReviews.decision, "approved")));
    if (!approval) return refused(RETURN_MESSAGES.notApproved);
    if ((await liveRequestsOf(version, tx)).length > 0) return refused(RETURN_MESSAGES.openRequest);
    const [client] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, version.clientId));
    if (!client) return refused(RETURN_MESSAGES.noSuchCase);
    const doc = await insertReturnDocument(tx, version, stored, { kind: "authorization-form", uploadedBy: staff.id, fromClient: false });
    if ("ok" in doc) return doc;
    const form = authorizationFormFor(version.form);
    const [request] = await tx
      .insert(signatureRequests)
      .values({
        clientId: version.clientId,
        taxYear: version.taxYear,
        versionId: version.id,
        authorizationForm: form,
        formDocumentId: doc.id,
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
    await discardReceived([input.formFile]);
    return outcome;
  }
  for (const id of outcome.mailIds) await deliverMail(id);
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
