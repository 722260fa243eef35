import { and, eq, sql } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { MAX_RETURN_NOTE_LENGTH, RETURN_MESSAGES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { completeStageInTx } from "~/server/cases/workflow.server";
import { getDb } from "~/server/db/client.server";
import { returnReviews, returnVersions } from "~/server/db/schema";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { noticeOfMessage, storeMessage } from "~/server/messages/posting.server";
import { noticeReturnStep } from "~/server/notices/return-notices.server";
import type { Refused } from "./records.server";
import { currentVersionOf, latestReviewOf, liveRequestsOf, lockCase, refused } from "./records.server";
import { cancelRequestInTx } from "./signature-requests.server";

// The client's review of the current draft: approve it, or ask for changes. An approval belongs
// to the version approved: a newer version needs its own. Asking for changes after approving
// withdraws the approval (a version is approved while its latest review is an approval), so that
// nothing is signed or filed on a draft the client has since said is wrong. Only the case's own
// client reviews.

/** Why a request waiting for signatures is cancelled when the client asks for changes. */
export const CHANGES_ASKED_REASON = "The client asked for changes to the draft.";

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
 * (`declarationVersion`, whose text is the page's). Refused while the version's latest review is
 * an approval already; after a request for changes, the client may approve it again. The case's
 * DRAFT flag is ticked in the same transaction (with its own audit entry and the stage e-mail).
 * Audited.
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
    if ((await latestReviewOf(version.id, tx))?.decision === "approved") return refused(RETURN_MESSAGES.alreadyApproved);
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
        // The clock's time, not the transaction's start: the latest review is the one written last.
        createdAt: sql`clock_timestamp()`,
      })
      .returning({ id: returnReviews.id });
    if (!review) throw new Error("no review row returned");
    await recordAudit(
      { actor: client, action: "return-approved", clientId: version.clientId, taxYear: version.taxYear, detail: `version ${version.number} (declaration ${declarationVersion})`, ip: context.ip },
      tx,
    );
    const noticeId = await noticeReturnStep(tx, version, "approved");
    const mailId = await completeStageInTx(tx, client, version, "draft", context.ip, "the client approved the draft");
    return { ok: true as const, reviewId: review.id, mailIds: [noticeId, mailId].filter((id): id is string => Boolean(id)) };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailIds);
  return { ok: true, reviewId: outcome.reviewId };
}

/**
 * The client asks for changes to the current version: the comment is posted in the case's
 * conversation as their message, and the review is recorded with that message, in one
 * transaction (both or neither); staff are told of the message once it has committed. After an
 * approval, this withdraws it: a request waiting for signatures on the return is cancelled (its
 * links stop working) and staff cannot request one until the client approves again or a new
 * version comes. Refused once every signer has signed a request that holds for the return:
 * the client then writes to staff, who upload a new version. Audited.
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
  const outcome = await getDb().transaction(async (tx) => {
    const found = await reviewable(tx, client, versionId);
    if (!found.ok) return found;
    const { version } = found;
    const live = await liveRequestsOf(version, tx);
    if (live.some((r) => r.standing.authorised)) return refused(RETURN_MESSAGES.changesAfterSigning);
    const withdrawn = (await latestReviewOf(version.id, tx))?.decision === "approved";
    for (const request of live) await cancelRequestInTx(tx, request, client, CHANGES_ASKED_REASON, context.ip);
    const message = await storeMessage(
      tx,
      { actor: client, clientId: version.clientId, taxYear: version.taxYear, body: `Changes to the draft return (version ${version.number}): ${text}` },
      context.ip,
    );
    if (!message) return refused(RETURN_MESSAGES.noSuchVersion);
    const [review] = await tx
      .insert(returnReviews)
      .values({
        versionId: version.id,
        clientId: version.clientId,
        taxYear: version.taxYear,
        reviewerId: client.id,
        decision: "changes-requested",
        returnSha256: version.sha256,
        messageId: message.id,
        ipAddress: context.ip,
        userAgent: context.userAgent.slice(0, 512),
        createdAt: sql`clock_timestamp()`,
      })
      .returning({ id: returnReviews.id });
    if (!review) throw new Error("no review row returned");
    await recordAudit(
      {
        actor: client,
        action: "return-changes-requested",
        clientId: version.clientId,
        taxYear: version.taxYear,
        detail: `version ${version.number}${withdrawn ? ", withdrawing its approval" : ""}`,
        ip: context.ip,
      },
      tx,
    );
    const noticeId = await noticeReturnStep(tx, version, "changes-requested");
    return { ok: true as const, reviewId: review.id, message, noticeId };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.noticeId);
  await noticeOfMessage(outcome.message);
  return { ok: true, reviewId: outcome.reviewId, messageId: outcome.message.id };
}
