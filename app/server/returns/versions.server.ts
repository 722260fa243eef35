import { and, desc, eq, sql } from "drizzle-orm";
import { newYorkDay } from "~/domain/business-days";
import { ENGAGEMENT_MESSAGES } from "~/domain/engagement";
import { isDocumentId } from "~/domain/documents";
import { isReturnForm, MAX_RETURN_NOTE_LENGTH, RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import type { ReturnForm } from "~/domain/returns";
import { isStaffRole } from "~/domain/policy";
import { differsFromResidency, RESIDENCY_RETURN_TEXTS } from "~/domain/residency/return-form";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { documents, returnReviews, returnVersions, signatureRequestEvents } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { withheldForFee } from "~/server/fees/final-copies-gate.server";
import { logError } from "~/log";
import { caseExists } from "~/server/cases/cases.server";
import { draftWaitsForLetter } from "~/server/engagement/letters.server";
import { deliverMail } from "~/server/mail/outbox.server";
import { noticeDraftReady } from "~/server/notices/return-notices.server";
import { residencyFormOf } from "~/server/residency/outcome.server";
import { getStorage } from "~/server/storage/storage.server";
import { stampDraft } from "./draft-pdf.server";
import { SignedPdfError } from "./signed-pdf.server";
import type { CaseRef, Refused } from "./records.server";
import { acceptStored, assertStaffKeepingNothing, currentVersionOf, insertReturnDocument, liveRequestsOf, lockCase, refused, sha256OfStored } from "./records.server";

// The draft return of a case, version by version. Staff upload each version (a PDF); the newest
// supersedes the others. The file is one of the case's documents, marked as a record of the
// return (documents.return_record) and never shared: the client's documents list shows only
// their own uploads and what staff shared, so a draft never sits there beside the papers they
// sent, and an outdated draft never reaches them. The client sees only the current version,
// through currentReturnVersion and returnVersionFile, stamped DRAFT on every page.

export type ReturnVersionView = {
  id: string;
  number: number;
  form: ReturnForm;
  note: string;
  sha256: string;
  fileName: string;
  uploadedAt: string;
  /** Whether a newer version replaced it. */
  superseded: boolean;
  /** When the client approved this version, if their latest review of it is an approval. */
  approvedAt: string | null;
};

const versionColumns = {
  id: returnVersions.id,
  number: returnVersions.number,
  form: returnVersions.form,
  note: returnVersions.note,
  sha256: returnVersions.sha256,
  fileName: documents.originalName,
  createdAt: returnVersions.createdAt,
  // The latest review's time when it is an approval (records.server.ts latestReviewOf): a request
  // for changes after approving withdraws the approval.
  approvedAt: sql<Date | null>`(select case when r.decision = 'approved' then r.created_at end from ${returnReviews} r
    where r.version_id = ${returnVersions.id} order by r.created_at desc, r.id desc limit 1)`,
};

type VersionRow = { id: string; number: number; form: ReturnForm; note: string; sha256: string; fileName: string; createdAt: Date; approvedAt: Date | string | null };

const toView = (r: VersionRow, newest: number): ReturnVersionView => ({
  id: r.id,
  number: r.number,
  form: r.form,
  note: r.note,
  sha256: r.sha256,
  fileName: r.fileName,
  uploadedAt: r.createdAt.toISOString(),
  superseded: r.number < newest,
  approvedAt: r.approvedAt === null ? null : new Date(r.approvedAt).toISOString(),
});

/**
 * Staff upload a new version of a case's draft return: `file` is what receiveUpload checked and
 * stored as it arrived (documents/upload.server.ts), and must be a PDF. Its SHA-256 is computed
 * from the stored bytes. A new version voids every signature request of the case that is not
 * void already (an event; the signatures stay as they are), unless staff then declare the change
 * within the IRS tolerances (tolerance.server.ts). A PDF that cannot be stamped DRAFT for the
 * client's review (damaged, protected by a password) is refused. Audited.
 */
export async function uploadReturnVersion(
  actor: SessionUser,
  ref: CaseRef,
  input: { form: string; note: string; file: ReceivedFile; formDiffers?: boolean },
  ip: string,
): Promise<{ ok: true; versionId: string; number: number; voidedRequests: number } | Refused> {
  await assertStaffKeepingNothing(actor, "upload a draft return", [input.file]);
  const note = input.note.trim();
  const problem = !isReturnForm(input.form) ? RETURN_MESSAGES.badForm : note.length > MAX_RETURN_NOTE_LENGTH ? RETURN_MESSAGES.noteTooLong : null;
  if (problem) {
    await discardReceived([input.file]);
    return refused(problem);
  }
  const form = input.form as ReturnForm;
  // While the firm requires it, a draft is sent for review only under an accepted engagement letter.
  if (await draftWaitsForLetter(ref)) {
    await discardReceived([input.file]);
    return refused((await caseExists(ref.clientId, ref.taxYear)) ? ENGAGEMENT_MESSAGES.draftWaits : RETURN_MESSAGES.noSuchCase);
  }
  // A draft of the other kind than the case's residency calls for is uploaded only when staff say they mean it.
  const expected = await residencyFormOf(ref.clientId, ref.taxYear);
  const differs = expected !== null && differsFromResidency(expected, form);
  if (differs && !input.formDiffers) {
    await discardReceived([input.file]);
    return refused(RESIDENCY_RETURN_TEXTS.differs(expected, form));
  }
  const stored = await acceptStored(input.file, ["application/pdf"], RETURN_MESSAGES.notPdf);
  if (!stored.ok) return stored;
  try {
    await stampDraft(await getStorage().get(stored.storageKey));
  } catch (error) {
    if (!(error instanceof SignedPdfError)) throw error;
    await discardReceived([input.file]);
    return refused(error.message);
  }
  const sha256 = await sha256OfStored(stored.storageKey);
  const outcome = await getDb().transaction(async (tx) => {
    if (!(await lockCase(tx, ref))) return refused(RETURN_MESSAGES.noSuchCase);
    if (await draftWaitsForLetter(ref, tx)) return refused(ENGAGEMENT_MESSAGES.draftWaits);
    const doc = await insertReturnDocument(tx, ref, stored, { kind: "return-version", uploadedBy: actor.id, fromClient: false, category: "other-documents" });
    if ("ok" in doc) return doc;
    const previous = await currentVersionOf(ref, tx);
    const number = (previous?.number ?? 0) + 1;
    const [version] = await tx
      .insert(returnVersions)
      .values({ clientId: ref.clientId, taxYear: ref.taxYear, number, form, note, documentId: doc.id, sha256, uploadedBy: actor.id })
      .returning({ id: returnVersions.id });
    if (!version) throw new Error("no version row returned");
    await recordAudit(
      { actor, action: "return-version-uploaded", clientId: ref.clientId, taxYear: ref.taxYear, detail: `Form ${form}, version ${number} (SHA-256 ${sha256.slice(0, 12)}…)${differs ? `; the case's residency calls for Form ${expected}` : ""}`, ip },
      tx,
    );
    const live = await liveRequestsOf(ref, tx);
    for (const request of live) {
      await tx.insert(signatureRequestEvents).values({ requestId: request.id, kind: "voided", versionId: version.id, actorId: actor.id });
      await recordAudit(
        {
          actor,
          action: "signature-request-voided",
          clientId: ref.clientId,
          taxYear: ref.taxYear,
          detail: `Form ${request.authorizationForm} request of ${newYorkDay(request.createdAt)}, by version ${number}`,
          ip,
        },
        tx,
      );
    }
    const mailId = await noticeDraftReady(tx, ref);
    return { ok: true as const, versionId: version.id, number, voidedRequests: live.length, mailId };
  });
  if (!outcome.ok) {
    await discardReceived([input.file]);
    return outcome;
  }
  deliverMail(outcome.mailId);
  const { mailId: _queued, ...done } = outcome;
  return done;
}

/** Every version of a case for staff, newest first. */
export async function listReturnVersions(actor: SessionUser, ref: CaseRef): Promise<ReturnVersionView[]> {
  assertStaff(actor, "see a case's draft returns");
  const rows = await getDb()
    .select(versionColumns)
    .from(returnVersions)
    .innerJoin(documents, eq(documents.id, returnVersions.documentId))
    .where(and(eq(returnVersions.clientId, ref.clientId), eq(returnVersions.taxYear, ref.taxYear)))
    .orderBy(desc(returnVersions.number));
  const newest = rows[0]?.number ?? 0;
  return rows.map((r) => toView(r, newest));
}

/** The client's own current version of a tax year's return (null before the first, or for a case not theirs). */
export async function currentReturnVersion(clientUserId: string, taxYear: number): Promise<ReturnVersionView | null> {
  const [row] = await getDb()
    .select(versionColumns)
    .from(returnVersions)
    .innerJoin(documents, eq(documents.id, returnVersions.documentId))
    .where(and(eq(returnVersions.clientId, clientUserId), eq(returnVersions.taxYear, taxYear)))
    .orderBy(desc(returnVersions.number))
    .limit(1);
  return row ? toView(row, row.number) : null;
}

/**
 * A version's PDF for download: staff any version as uploaded; the client only the current version
 * of their own case of the address's year (null otherwise, and for an unknown id), stamped DRAFT on every page and named
 * as a draft, or "waits-for-fee" when the fee withholds it (withheldForFee: once the case's final
 * copies are released, the version is the return as filed). Read `body` to its end or cancel it.
 */
export async function returnVersionFile(
  actor: SessionUser,
  versionId: string,
  /** The tax year of the client's address (a version of another year is none of it); null for staff's address, which has none. */
  clientYear: number | null,
): Promise<{ clientId: string; name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> } | "waits-for-fee" | null> {
  if (!isDocumentId(versionId)) return null;
  const [row] = await getDb()
    .select({
      clientId: returnVersions.clientId,
      taxYear: returnVersions.taxYear,
      number: returnVersions.number,
      form: returnVersions.form,
      documentId: returnVersions.documentId,
      name: documents.originalName,
      contentType: documents.contentType,
      storageKey: documents.storageKey,
    })
    .from(returnVersions)
    .innerJoin(documents, eq(documents.id, returnVersions.documentId))
    .where(eq(returnVersions.id, versionId));
  if (!row) return null;
  if (isStaffRole(actor.role)) {
    const object = await getStorage().open(row.storageKey);
    return { clientId: row.clientId, name: row.name, contentType: row.contentType, size: object.size, body: object.body };
  }
  if (actor.role !== "user" || row.clientId !== actor.id || row.taxYear !== clientYear) return null;
  const current = await currentVersionOf(row);
  if (current?.number !== row.number) return null;
  if ((await withheldForFee(actor, row, [row.documentId])).has(row.documentId)) return "waits-for-fee";
  let stamped: Uint8Array;
  try {
    stamped = await stampDraft(await getStorage().get(row.storageKey));
  } catch (error) {
    // Refused at upload; a version stored before that check is not given unstamped.
    logError("returns", `the draft of version ${versionId} could not be stamped`, error);
    return null;
  }
  return {
    clientId: row.clientId,
    name: RETURN_FILE_NAMES.draft(row.form, row.taxYear, row.number),
    contentType: "application/pdf",
    size: stamped.length,
    body: new Blob([stamped.slice()]).stream(),
  };
}
