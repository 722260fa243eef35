import { and, eq, not } from "drizzle-orm";
import { categoryLabel, isDocumentId } from "~/domain/documents";
import { isStaffRole } from "~/domain/policy";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { documents } from "~/server/db/schema";
import { withheldForFee } from "~/server/fees/final-copies-gate.server";
import { getStorage } from "~/server/storage/storage.server";
import type { StoredObject } from "~/server/storage/storage.server";
import { visibleToClient } from "./visibility.server";
import { staffSeesClientSql } from "~/server/consents/outside-us.server";

// A document's file for download.

/** A document's file as it is sent: `body` streams its `size` bytes from storage (read it to the end or cancel it). */
export type DocumentDownload = { id: string; name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> };

/**
 * One document for download, when the actor may have it: staff, or the client it belongs to.
 * null otherwise, and for an unknown id or a missing file, so the two cannot be told apart.
 * "waits-for-fee": a file the fee withholds from the client now (withheldForFee). Staff who work
 * outside the United States find none of a client whose consent to disclose is not in force
 * (documentHiddenFromStaff tells that case apart, for the route's 403).
 */
export async function documentForDownload(
  actor: SessionUser,
  documentId: string,
  ip: string,
): Promise<DocumentDownload | "waits-for-fee" | null> {
  if (!isDocumentId(documentId)) return null;
  const owner =
    isStaffRole(actor.role) ? staffSeesClientSql(actor.id, documents.clientId) : actor.role === "user" ? and(eq(documents.clientId, actor.id), visibleToClient()) : null;
  if (owner === null) return null;
  const [doc] = await getDb()
    .select({
      id: documents.id,
      clientId: documents.clientId,
      taxYear: documents.taxYear,
      category: documents.category,
      name: documents.originalName,
      contentType: documents.contentType,
      storageKey: documents.storageKey,
    })
    .from(documents)
    .where(and(eq(documents.id, documentId.toLowerCase()), owner));
  if (!doc) return null;
  // A file the fee withholds: the answer says so, and the file is not opened.
  if ((await withheldForFee(actor, doc, [doc.id])).has(doc.id)) return "waits-for-fee";
  let stored: StoredObject;
  try {
    stored = await getStorage().open(doc.storageKey);
  } catch (error) {
    logError("documents", `reading the file of document ${doc.id} failed`, error);
    return null;
  }
  try {
    await recordAudit({
      actor,
      action: "document-downloaded",
      clientId: doc.clientId,
      taxYear: doc.taxYear,
      detail: `${categoryLabel(doc.category)}: ${doc.name}`,
      ip,
    });
  } catch (error) {
    // Not sent, so the opened file is let go of.
    await stored.body.cancel().catch(() => undefined);
    throw error;
  }
  return { id: doc.id, name: doc.name, contentType: doc.contentType, size: stored.size, body: stored.body };
}

/**
 * Whether the document exists but belongs to a client the staff member, working outside the
 * United States, may not see now (no consent to disclose in force): the download's 403.
 */
export async function documentHiddenFromStaff(actor: SessionUser, documentId: string): Promise<boolean> {
  if (!isStaffRole(actor.role) || !isDocumentId(documentId)) return false;
  const [doc] = await getDb()
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, documentId.toLowerCase()), not(staffSeesClientSql(actor.id, documents.clientId))));
  return doc !== undefined;
}
