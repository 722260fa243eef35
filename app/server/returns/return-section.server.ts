import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { isDocumentId } from "~/domain/documents";
import { authorizationFormFor } from "~/domain/e-signature";
import { newYorkDay } from "~/domain/business-days";
import { resendBy, resendDaysLeft } from "~/domain/returns";
import type { ReturnForm } from "~/domain/returns";
import type { ReturnSectionData, SectionEfileEvent, SectionRequest, SectionVersion } from "~/domain/return-section";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { residencyFormOf } from "~/server/residency/outcome.server";
import {
  caseMessages,
  documents,
  efileEvents,
  finalCopies,
  handwrittenUploads,
  idChecks,
  returnReviews,
  returnVersions,
  signatureRequests,
  signatureSigners,
  signatures,
  signedAuthorizations,
  user,
} from "~/server/db/schema";
import { openRejection } from "./efile.server";
import { listReturnVersions } from "./versions.server";
import type { CaseRef } from "./records.server";
import { requestStandings } from "./records.server";

// What the staff's Return section of a case shows (docs/product/return-and-signature.md): the
// versions with the client's reviews, the identity checks, the signature requests with their
// signers and hand-signed forms, the e-file history and the final copies. Read only; the changes
// are the functions of the other modules here.

const iso = (d: Date) => d.toISOString();

/** Everything the Return section shows of a case. Staff only. */
export async function returnSection(staff: SessionUser, ref: CaseRef, today: string = newYorkDay()): Promise<ReturnSectionData> {
  assertStaff(staff, "see a case's return");
  const db = getDb();
  const ofCase = (t: { clientId: AnyPgColumn; taxYear: AnyPgColumn }) => and(eq(t.clientId, ref.clientId), eq(t.taxYear, ref.taxYear));
  const [views, versionRows, reviews, checks, requests, efile, open, released, residencyForm] = await Promise.all([
    listReturnVersions(staff, ref),
    db
      .select({ id: returnVersions.id, documentId: returnVersions.documentId, uploadedBy: user.name })
      .from(returnVersions)
      .leftJoin(user, eq(user.id, returnVersions.uploadedBy))
      .where(ofCase(returnVersions)),
    db
      .select({ versionId: returnReviews.versionId, decision: returnReviews.decision, at: returnReviews.createdAt, comment: caseMessages.body })
      .from(returnReviews)
      .leftJoin(caseMessages, eq(caseMessages.id, returnReviews.messageId))
      .where(ofCase(returnReviews))
      .orderBy(asc(returnReviews.createdAt)),
    db
      .select({ check: idChecks, checkedBy: user.name })
      .from(idChecks)
      .leftJoin(user, eq(user.id, idChecks.checkedBy))
      .where(ofCase(idChecks))
      .orderBy(desc(idChecks.checkedAt)),
    db
      .select({ request: signatureRequests, versionNumber: returnVersions.number })
      .from(signatureRequests)
      .innerJoin(returnVersions, eq(returnVersions.id, signatureRequests.versionId))
      .where(ofCase(signatureRequests))
      .orderBy(desc(signatureRequests.createdAt)),
    db
      .select({ event: efileEvents, recordedBy: user.name })
      .from(efileEvents)
      .leftJoin(user, eq(user.id, efileEvents.recordedBy))
      .where(ofCase(efileEvents))
      .orderBy(asc(efileEvents.createdAt), asc(efileEvents.id)),
    db
      .select({ id: efileEvents.id })
      .from(efileEvents)
      .where(and(ofCase(efileEvents), openRejection(sql`${efileEvents}`))),
    db.select().from(finalCopies).where(ofCase(finalCopies)).orderBy(desc(finalCopies.releasedAt)).limit(1),
    residencyFormOf(ref.clientId, ref.taxYear),
  ]);

  const byVersion = new Map(versionRows.map((v) => [v.id, v]));
  const lastReview = new Map(reviews.map((r) => [r.versionId, r]));
  const versions: SectionVersion[] = views.map((v) => {
    const review = lastReview.get(v.id);
    return {
      ...v,
      documentId: byVersion.get(v.id)?.documentId ?? "",
      uploadedBy: byVersion.get(v.id)?.uploadedBy ?? null,
      review: review ? { decision: review.decision, at: iso(review.at), comment: review.comment } : null,
    };
  });

  const requestIds = requests.map((r) => r.request.id);
  const [standings, signers, signed, scans, copies] = await Promise.all([
    requestStandings(requestIds),
    requestIds.length === 0 ? [] : db.select().from(signatureSigners).where(inArray(signatureSigners.requestId, requestIds)).orderBy(asc(signatureSigners.role)),
    requestIds.length === 0 ? [] : db.select().from(signatures).where(inArray(signatures.requestId, requestIds)),
    requestIds.length === 0
      ? []
      : db
          .select({ upload: handwrittenUploads, signer: signatureSigners, fileName: documents.originalName })
          .from(handwrittenUploads)
          .innerJoin(signatureSigners, eq(signatureSigners.id, handwrittenUploads.signerId))
          .innerJoin(documents, eq(documents.id, handwrittenUploads.documentId))
          .where(and(inArray(signatureSigners.requestId, requestIds), isNull(handwrittenUploads.decision)))
          .orderBy(asc(handwrittenUploads.createdAt)),
    requestIds.length === 0
      ? []
      : db
          .select({ requestId: signedAuthorizations.requestId, documentId: documents.id, sha256: signedAuthorizations.sha256 })
          .from(signedAuthorizations)
          .innerJoin(documents, eq(documents.storageKey, signedAuthorizations.storageKey))
          .where(inArray(signedAuthorizations.requestId, requestIds)),
  ]);
  const signatureOf = new Map(signed.map((s) => [s.signerId, s]));
  const sectionRequests: SectionRequest[] = requests.map(({ request, versionNumber }) => {
    const standing = standings.get(request.id)!;
    const copy = copies.find((c) => c.requestId === request.id);
    return {
      id: request.id,
      form: request.authorizationForm,
      formDocumentId: request.formDocumentId,
      versionId: request.versionId,
      versionNumber,
      jointReturn: request.jointReturn,
      createdAt: iso(request.createdAt),
      void: standing.void,
      authorised: standing.authorised,
      voidedBy: standing.voidedBy,
      cancelled: standing.cancelled,
      signers: signers
        .filter((s) => s.requestId === request.id)
        .sort((a, b) => (a.role === b.role ? 0 : a.role === "taxpayer" ? -1 : 1))
        .map((s) => {
          const sig = signatureOf.get(s.id);
          return { role: s.role, name: s.name, email: s.email, signed: sig ? { method: sig.method, at: iso(sig.signedAt), name: sig.signerName } : null };
        }),
      pendingScans: scans
        .filter((s) => s.signer.requestId === request.id)
        .map((s) => ({ id: s.upload.id, role: s.signer.role, name: s.signer.name, documentId: s.upload.documentId, fileName: s.fileName, at: iso(s.upload.createdAt) })),
      signedCopy: copy ? { documentId: copy.documentId, sha256: copy.sha256 } : null,
    };
  });

  const events: SectionEfileEvent[] = efile.map(({ event: e, recordedBy }) => ({
    id: e.id,
    kind: e.kind,
    jurisdiction: e.jurisdiction,
    date: e.eventDate,
    submissionId: e.submissionId,
    transmissionId: e.transmissionId,
    codes: e.rejectCodes ?? [],
    note: e.note,
    recordedAt: iso(e.createdAt),
    recordedBy,
  }));
  const answered = new Set(events.flatMap((e) => (e.transmissionId ? [e.transmissionId] : [])));
  const waiting = events.filter((e) => e.kind === "transmitted" && !answered.has(e.id));
  const openIds = new Set(open.map((r) => r.id));
  const openRejections = events
    .filter((e) => openIds.has(e.id))
    .map((e) => ({ id: e.id, jurisdiction: e.jurisdiction, resendBy: resendBy(e.date), daysLeft: resendDaysLeft(e.date, today) }));
  const current = views[0];
  const copies0 = released[0];
  return {
    versions,
    expectedForm: current ? authorizationFormFor(current.form as ReturnForm) : null,
    residencyForm,
    idChecks: checks.map(({ check: c, checkedBy }) => ({
      id: c.id,
      signer: c.signerRole,
      documentType: c.documentType,
      issuingCountry: c.issuingCountry,
      expiresOn: c.expiresOn,
      numberLast4: c.numberLast4,
      how: c.method,
      checkedBy,
      checkedAt: iso(c.checkedAt),
    })),
    requests: sectionRequests,
    efile: events,
    waiting,
    openRejections,
    accepted: events.some((e) => e.kind === "accepted" && e.jurisdiction === "federal"),
    finalCopies: copies0
      ? { releasedAt: iso(copies0.releasedAt), filedReturnDocumentId: copies0.filedReturnDocumentId, signedAuthorizationDocumentId: copies0.signedAuthorizationDocumentId }
      : null,
  };
}

/** Whether a record named by id in a form belongs to the case: a version, a request, a hand-signed upload or a transmission. */
export async function belongsToCase(kind: "version" | "request" | "scan" | "transmission", id: string, ref: CaseRef): Promise<boolean> {
  if (!isDocumentId(id)) return false;
  const db = getDb();
  const rows =
    kind === "version"
      ? await db.select({ id: returnVersions.id }).from(returnVersions).where(and(eq(returnVersions.id, id), eq(returnVersions.clientId, ref.clientId), eq(returnVersions.taxYear, ref.taxYear)))
      : kind === "request"
        ? await db.select({ id: signatureRequests.id }).from(signatureRequests).where(and(eq(signatureRequests.id, id), eq(signatureRequests.clientId, ref.clientId), eq(signatureRequests.taxYear, ref.taxYear)))
        : kind === "scan"
          ? await db
              .select({ id: handwrittenUploads.id })
              .from(handwrittenUploads)
              .innerJoin(signatureSigners, eq(signatureSigners.id, handwrittenUploads.signerId))
              .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
              .where(and(eq(handwrittenUploads.id, id), eq(signatureRequests.clientId, ref.clientId), eq(signatureRequests.taxYear, ref.taxYear)))
          : await db.select({ id: efileEvents.id }).from(efileEvents).where(and(eq(efileEvents.id, id), eq(efileEvents.clientId, ref.clientId), eq(efileEvents.taxYear, ref.taxYear)));
  return rows.length > 0;
}
