import { and, eq } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { MAX_RETURN_NOTE_LENGTH, RETURN_MESSAGES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { completeStageInTx } from "~/server/cases/workflow.server";
import { getDb } from "~/server/db/client.server";
import { returnReviews, returnVersions } from "~/server/db/schema";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";
import { sendMessage } from "~/server/messages/posting.server";
import { noticeReturnStep } from "~/server/notices/return-notices.server";
import type { Refused } from "./records.server";
import { currentVersionOf, lockCase, refused } from "./records.server";

// The client's review of the current draft: approve it, or ask for changes. An approval belongs
// to the version approved: a newer version needs its own. Only the case's own client reviews.

/** Where a review was made from: kept with it. */
export type ReviewContext = { ip: string; userAgent: string };

/** The version under review, the client's own and current, read in `tx` with the case locked; or why not. */
async function reviewable(tx: Transaction, client: SessionUser, versionId: string) {
  if (client.role !== "user" || !isDocumentId(versionId)) return refused(RETURN_MESSAGES.noSuchVersion);
  const [version] = await tx.select().from(returnVersions).where(and(eq(returnVersions.id, versionId), eq(returnVersions.clientId, client.id)));
  if (!version) return refused(RETURN_MESSAGES.noSuchVersion);
  await lockCase(tx, version);
  const current = await currentVersionOf(version, tx);
  if (current?.id !== version.id) return refused(RETURN_MESSAGES.superseded);
  return { ok: true as const, version };
}

/**
 * The client approves the current version of their draft: the review keeps the version, its
 * SHA-256, the time, where from, and the version of the declaration they agreed to
 * (`declarationVersion`, whose text is the page's). The case's DRAFT flag is ticked in the same
 * transaction (with its own audit entry and the stage e-mail). Audited.
 */
export async function approveReturnVersion(
  client: SessionUser,
  versionId: string,
  context: ReviewContext & { declarationVersion: string },
): Promise<{ ok: true; reviewId: string } | Refused> {
  const declarationVersion = context.declarationVersion.trim();
  if (declarationVersion === "" || declarationVersion.length > 64) return refused(RETURN_MESSAGES.declarationRequired);
  const outcome = await getDb().transaction(async (tx) => {
    const found = await reviewable(tx, client, versionId);
    if (!found.ok) return found;
    const { version } = found;
    const [approved] = await tx
      .select({ id: returnReviews.id })
      .from(returnReviews)
      .where(and(eq(returnReviews.versionId, version.id), eq(returnReviews.decision, "approved")));
    if (approved) return refused(RETURN_MESSAGES.alreadyApproved);
    const [review] = await tx
      .insert(returnReviews)
      .values({
        versionId: version.id,
        clientId: version.clientId,
        taxYear: version.taxYear,
        reviewerId: client.id,
        decision: "approved",
        returnSha256: version.sha256,
        declarationVersion,
        ipAddress: context.ip,
        userAgent: context.userAgent.slice(0, 512),
      })
      .returning({ id: returnReviews.id });
    if (!review) throw new Error("no review row returned");
    await recordAudit(
      { actor: client, action: "return-approved", clientId: version.clientId, taxYear: version.taxYear, detail: `version ${version.number} (declaration ${declarationVersion})`, ip: context.ip },
      tx,
    );
    await noticeReturnStep(tx, version, "approved");
    const mailId = await completeStageInTx(tx, client, version, "draft", context.ip, "the client approved the draft");
    return { ok: true as const, reviewId: review.id, mailId };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true, reviewId: outcome.reviewId };
}

/**
 * The client asks for changes to the current version: the comment is posted in the case's
 * conversation as their message (messages/posting.server.ts sendMessage: stored, audited, staff
 * notified), then the review is recorded with that message. Audited.
 */
export async function requestReturnChanges(
  client: SessionUser,
  versionId: string,
  comment: string,
  context: ReviewContext,
): Promise<{ ok: true; reviewId: string; messageId: string } | Refused> {
  const text = comment.trim();
  if (text === "") return refused(RETURN_MESSAGES.commentRequired);
  if (text.length > MAX_RETURN_NOTE_LENGTH) return refused(RETURN_MESSAGES.commentTooLong);
  const check = await getDb().transaction(async (tx) => reviewable(tx, client, versionId));
  if (!check.ok) return check;
  const { version } = check;
  const sent = await sendMessage(
    client,
    { clientId: version.clientId, taxYear: version.taxYear, body: `Changes to the draft return (version ${version.number}): ${text}`, category: "other-documents", files: [] },
    context.ip,
  );
  if (!sent) return refused(RETURN_MESSAGES.noSuchVersion);
  const reviewId = await getDb().transaction(async (tx) => {
    const [review] = await tx
      .insert(returnReviews)
      .values({
        versionId: version.id,
        clientId: version.clientId,
        taxYear: version.taxYear,
        reviewerId: client.id,
        decision: "changes-requested",
        returnSha256: version.sha256,
        messageId: sent.id,
        ipAddress: context.ip,
        userAgent: context.userAgent.slice(0, 512),
      })
      .returning({ id: returnReviews.id });
    if (!review) throw new Error("no review row returned");
    await recordAudit(
      { actor: client, action: "return-changes-requested", clientId: version.clientId, taxYear: version.taxYear, detail: `version ${version.number}`, ip: context.ip },
      tx,
    );
    await noticeReturnStep(tx, version, "changes-requested");
    return review.id;
  });
  return { ok: true, reviewId, messageId: sent.id };
}
