import { and, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { categoryLabel } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { messageMoment } from "~/domain/messages";
import { isStaffRole } from "~/domain/policy";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { assertStaff } from "~/server/auth/guards.server";
import { unreadFrom } from "~/server/cases/case-counts.server";
import { getDb } from "~/server/db/client.server";
import { caseMessages, clientCases, documents } from "~/server/db/schema";
import { setDocumentsShared } from "~/server/documents/changes.server";
import { discardReceived, recordUploads } from "~/server/documents/upload.server";
import type { ReceivedFile, UploadOutcome } from "~/server/documents/upload.server";
import { NOTICE_QUIET_MS, notifyStaff } from "~/server/notices/notices.server";
import { messagesOfCase } from "./of-case.server";

// Changes to a case's conversation: sending a message (with its files) and hiding one (see
// of-case.server.ts).

type Tx = Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0];

/**
 * Sets the case's `awaiting_reply_since` from its visible messages: the oldest message of the
 * client after staff's last reply, or null when staff have answered everything. Sending sets it
 * (a client's message when nobody was waiting) or clears it (a staff reply); hiding a message
 * may change it either way (a hidden client message waits for nothing; a hidden reply answered
 * nothing the client can see).
 */
async function recomputeWaiting(tx: Tx, clientId: string, taxYear: number): Promise<void> {
  await tx
    .update(clientCases)
    .set({
      awaitingReplySince: sql`(
        select min(m.created_at) from ${caseMessages} m
        where m.client_id = ${clientId} and m.tax_year = ${taxYear} and m.from_client and m.hidden_at is null
          and m.created_at > coalesce((
            select max(s.created_at) from ${caseMessages} s
            where s.client_id = ${clientId} and s.tax_year = ${taxYear} and not s.from_client and s.hidden_at is null
          ), '-infinity'::timestamptz)
      )`,
    })
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
}

export type SentMessage = {
  id: string;
  /** The attached files recorded as the case's documents, and any the database refused. */
  files: UploadOutcome;
  /**
   * Whether the other side was e-mailed (not when they already had an unread one from this
   * hour); for the client, whether they will be once the quiet period is over
   * (message-notices.server.ts), unless the message is hidden or read first.
   */
  notified: boolean;
};

/**
 * Sends a message in a case's conversation: the client in their own case, or staff in any. The
 * message, the case's waiting time and its audit entry are stored together; the received files
 * (already checked and stored) are then recorded as the case's documents, linked to the message
 * (staff's are shared with the client at once: staff chose to send them). Then the other side is
 * e-mailed a link, unless they already have an unread message from this side sent within the
 * last hour: staff at once, the client after a quiet period (message-notices.server.ts), so
 * that a message staff hide meanwhile is never announced. Null when there is no such case (the
 * files are discarded).
 */
export async function sendMessage(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; body: string; category: DocumentCategoryKey; files: ReceivedFile[] },
  ip: string,
): Promise<SentMessage | null> {
  const fromClient = !isStaffRole(actor.role);
  const { clientId, taxYear } = input;
  if (fromClient && actor.id !== clientId) {
    await discardReceived(input.files);
    return null;
  }
  const sent = await getDb().transaction(async (tx) => storeMessage(tx, { actor, clientId, taxYear, body: input.body }, ip));
  if (!sent) {
    await discardReceived(input.files);
    return null;
  }

  let files: UploadOutcome = { uploaded: [], refused: [] };
  if (input.files.length > 0) {
    files = await recordUploads(
      actor,
      { clientId, taxYear, category: input.category, files: input.files, messageId: sent.id },
      ip,
    );
    if (!fromClient && files.uploaded.length > 0)
      await setDocumentsShared(
        actor,
        { clientId, taxYear, documentIds: files.uploaded.map((f) => f.id), shared: true },
        ip,
      );
  }

  return { id: sent.id, files, notified: await noticeOfMessage(sent) };
}

/** A message stored by storeMessage: once its transaction has committed, noticeOfMessage tells the other side. */
export type StoredMessage = { id: string; createdAt: Date; clientId: string; taxYear: number; fromClient: boolean };

/**
 * Stores a message of a case's conversation in `tx`, with the case's waiting time and its audit
 * entry (who wrote to whom, never the text), the case locked; null when there is no such case.
 * The author is `actor` (staff's message when staff, the client's otherwise), or, for someone
 * without an account writing on the client's side (a spouse from their signing page), nobody
 * signed in and `authorName`, which the audit entry's `detail` names too.
 */
export async function storeMessage(
  tx: Tx,
  input: { actor: SessionUser | null; authorName?: string; clientId: string; taxYear: number; body: string },
  ip: string,
): Promise<StoredMessage | null> {
  const { actor, clientId, taxYear } = input;
  const fromClient = actor === null || !isStaffRole(actor.role);
  const [theCase] = await tx
    .select({ year: clientCases.taxYear })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)))
    .for("update");
  if (!theCase) return null;
  const [row] = await tx
    .insert(caseMessages)
    .values({
      clientId,
      taxYear,
      authorId: actor?.id ?? null,
      authorName: actor === null ? (input.authorName ?? null) : null,
      fromClient,
      body: input.body,
      clientNoticePending: !fromClient,
    })
    .returning({ id: caseMessages.id, createdAt: caseMessages.createdAt });
  if (!row) throw new Error("no message row returned");
  await recomputeWaiting(tx, clientId, taxYear);
  await recordAudit(
    {
      actor,
      action: "message-sent",
      clientId,
      taxYear,
      detail: !fromClient ? "to the client" : actor === null ? `from ${input.authorName ?? "the client's side"}` : "from the client",
      ip,
    },
    tx,
  );
  return { ...row, clientId, taxYear, fromClient };
}

/**
 * Tells the other side of a stored message (notifyOtherSide), once its transaction has
 * committed; answers whether they were (or, for the client, will be) e-mailed. A notice that
 * cannot be sent does not undo the message.
 */
export async function noticeOfMessage(sent: StoredMessage): Promise<boolean> {
  try {
    return await notifyOtherSide(sent.fromClient, sent.clientId, sent.taxYear, sent);
  } catch (error) {
    logError("messages", "could not send a message notice", error);
    return false;
  }
}

/**
 * Tells the other side: staff as every notice of a case is gathered (notices.server notifyStaff).
 * For the client, answers whether the notice job will e-mail them (unless they have an unread
 * message from staff of the last hour, as it stands now): the message was marked for it when stored.
 */
async function notifyOtherSide(
  fromClient: boolean,
  clientId: string,
  taxYear: number,
  sent: { id: string; createdAt: Date },
): Promise<boolean> {
  if (fromClient) return notifyStaff(clientId, taxYear, "message-received");
  const [earlier] = await getDb()
    .select({ id: caseMessages.id })
    .from(caseMessages)
    .where(
      and(
        messagesOfCase(clientId, taxYear),
        unreadFrom(false),
        ne(caseMessages.id, sent.id),
        gt(caseMessages.createdAt, new Date(sent.createdAt.getTime() - NOTICE_QUIET_MS)),
      ),
    )
    .limit(1);
  return !earlier;
}

export type HideOutcome = { outcome: "hidden"; unshared: number } | { outcome: "not-found" };

/**
 * Hides one message of a case from the client (staff only), with an audit entry naming the
 * message's date and side, never its text. A staff message's files are no longer shared with the
 * client (they came with what is now withdrawn; each change is audited); a client's files stay
 * theirs. The case's waiting time is computed again from what the client can still see.
 */
export async function hideMessage(
  staff: SessionUser,
  input: { clientId: string; taxYear: number; messageId: string },
  ip: string,
): Promise<HideOutcome> {
  assertStaff(staff);
  const { clientId, taxYear } = input;
  return getDb().transaction(async (tx) => {
    const [hidden] = await tx
      .update(caseMessages)
      .set({ hiddenAt: new Date(), hiddenBy: staff.id })
      .where(and(messagesOfCase(clientId, taxYear), eq(caseMessages.id, input.messageId.toLowerCase()), isNull(caseMessages.hiddenAt)))
      .returning({ id: caseMessages.id, createdAt: caseMessages.createdAt, fromClient: caseMessages.fromClient });
    if (!hidden) return { outcome: "not-found" as const };
    const unshared = hidden.fromClient
      ? []
      : await tx
          .update(documents)
          .set({ sharedAt: null })
          .where(
            and(
              eq(documents.clientId, clientId),
              eq(documents.taxYear, taxYear),
              eq(documents.messageId, hidden.id),
              eq(documents.fromClient, false),
              isNotNull(documents.sharedAt),
            ),
          )
          .returning({ name: documents.originalName, category: documents.category });
    for (const doc of unshared)
      await recordAudit(
        { actor: staff, action: "document-unshared", clientId, taxYear, detail: `${categoryLabel(doc.category)}: ${doc.name}`, ip },
        tx,
      );
    await recomputeWaiting(tx, clientId, taxYear);
    await recordAudit(
      {
        actor: staff,
        action: "message-hidden",
        clientId,
        taxYear,
        detail: `${hidden.fromClient ? "the client's message" : "a message from staff"} of ${messageMoment(hidden.createdAt)}`,
        ip,
      },
      tx,
    );
    return { outcome: "hidden" as const, unshared: unshared.length };
  });
}
