import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { categoryLabel, isDocumentId } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { isStaffRole } from "~/domain/policy";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import { assertOwnCaseOrStaff, assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, documents } from "~/server/db/schema";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { queueDocumentsSharedNotice } from "~/server/notices/notices.server";
import { reopenEmptiedRequests } from "~/server/requests/requests.server";
import { getStorage } from "~/server/storage/storage.server";
import { onAcceptedItem } from "./listing.server";

// Changes to a case's documents once recorded: sharing staff's with the client, and removing.
// Every query here names the client it is about, and every function is handed the actor:
// no document is ever read, changed or removed by its id alone.

/**
 * Shares staff documents of a case with its client, or takes them back (`shared` false).
 * Answers the documents whose state changed. Client uploads are the client's already.
 */
export async function setDocumentsShared(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; documentIds: string[]; shared: boolean },
  ip: string,
  /** Run in the change's transaction with the documents changed (the share's notice is queued there). */
  withinChange?: (tx: Transaction, changed: ReadonlyArray<{ id: string }>) => Promise<void>,
): Promise<Array<{ id: string; name: string; category: DocumentCategoryKey }>> {
  assertStaff(actor, "change a client's documents");
  const ids = [...new Set(input.documentIds.filter(isDocumentId).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  return getDb().transaction(async (tx) => {
    const changed = await tx
      .update(documents)
      .set({ sharedAt: input.shared ? new Date() : null })
      .where(
        and(
          eq(documents.clientId, input.clientId),
          eq(documents.taxYear, input.taxYear),
          eq(documents.fromClient, false),
          inArray(documents.id, ids),
          // A record of the return reaches the client through the return's pages, never by a share.
          isNull(documents.returnRecord),
          input.shared ? sql`${documents.sharedAt} is null` : isNotNull(documents.sharedAt),
        ),
      )
      .returning({ id: documents.id, name: documents.originalName, category: documents.category });
    for (const doc of changed)
      await recordAudit(
        {
          actor,
          action: input.shared ? "document-shared" : "document-unshared",
          clientId: input.clientId,
          taxYear: input.taxYear,
          detail: `${categoryLabel(doc.category)}: ${doc.name}`,
          ip,
        },
        tx,
      );
    await withinChange?.(tx, changed);
    return changed;
  });
}

/** Shares staff documents with the client (or takes them back); a share is e-mailed to the client. */
export async function shareDocuments(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; documentIds: string[]; shared: boolean },
  ip: string,
): Promise<Array<{ id: string; name: string; category: DocumentCategoryKey }>> {
  let notice: string | null = null;
  const changed = await setDocumentsShared(actor, input, ip, async (tx, shared) => {
    if (input.shared && shared.length > 0) notice = await queueDocumentsSharedNotice(tx, input.clientId, input.taxYear, shared.length);
  });
  deliverMail(notice);
  return changed;
}

/**
 * Removes the case's documents among `documentIds` (row, then file); returns how many. Staff
 * remove any of the case's documents; a client only their own uploads, only while the case's
 * DOCUMENTS stage is not completed, and never one sent against an item staff accepted.
 */
export async function removeDocuments(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; documentIds: string[] },
  ip: string,
): Promise<number> {
  assertOwnCaseOrStaff(actor, input.clientId, "upload");
  const { clientId, taxYear } = input;
  const ids = [...new Set(input.documentIds.filter(isDocumentId).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return 0;
  const clientRule =
    isStaffRole(actor.role)
      ? sql`true`
      : and(
          eq(documents.fromClient, true),
          sql`not exists (select 1 from ${clientCases} where ${clientCases.userId} = ${clientId} and ${clientCases.taxYear} = ${taxYear} and ${clientCases.documents})`,
          sql`not ${onAcceptedItem}`,
        );
  const removed = await getDb()
    .delete(documents)
    .where(
      and(
        eq(documents.clientId, clientId),
        eq(documents.taxYear, taxYear),
        inArray(documents.id, ids),
        // The records of the return (docs/product/return-and-signature.md) are kept.
        isNull(documents.returnRecord),
        clientRule,
      ),
    )
    .returning({
      id: documents.id,
      category: documents.category,
      name: documents.originalName,
      storageKey: documents.storageKey,
      requestId: documents.requestId,
    });
  const storage = getStorage();
  for (const doc of removed) {
    try {
      await storage.remove(doc.storageKey);
    } catch (error) {
      // The row is gone, so nothing can reach the file any more; say which one to clean up.
      logError("documents", `removing the file of document ${doc.id} failed`, error);
    }
    await recordAudit({
      actor,
      action: "document-removed",
      clientId,
      taxYear,
      detail: `${categoryLabel(doc.category)}: ${doc.name}`,
      ip,
    });
  }
  try {
    // A requested item whose last file went is needed again.
    await reopenEmptiedRequests({ clientId, taxYear }, removed.flatMap((doc) => (doc.requestId ? [doc.requestId] : [])));
  } catch (error) {
    logError("documents", "could not reopen the requested items of removed documents", error);
  }
  return removed.length;
}
