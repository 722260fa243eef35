import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { isStaffRole } from "~/domain/policy";
import type { ClientDocumentView, StaffDocumentView } from "~/domain/cases";
import {
  DOCUMENT_CATEGORIES,
  MAX_CASE_BYTES,
  MAX_UPLOAD_BYTES,
  REFUSED_EMPTY,
  REFUSED_NO_ROOM,
  REFUSED_TOO_LARGE,
  refusedByName,
  categoryLabel,
  cleanFileName,
  contentTypeOf,
  formatKb,
  isDocumentCategory,
  refusedContent,
  uploadExtension,
} from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/auth.server";
import { getDb } from "~/server/db/client.server";
import { caseViews, clientCases, documentRequests, documents, user } from "~/server/db/schema";
import type { Transaction } from "~/server/mail/outbox.server";
import { reopenEmptiedRequests } from "~/server/requests/requests.server";
import { getStorage, newStorageKey, releaseHandedOver } from "~/server/storage/storage.server";
import type { StoredObject } from "~/server/storage/storage.server";
import { SNIFF_BYTES, contentMatches } from "./upload-check.server";

// Every query here names the client it is about, and every function is handed the actor:
// no document is ever read, changed or removed by its id alone.

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isDocumentId(value: unknown): value is string {
  return typeof value === "string" && UUID_SHAPE.test(value);
}

/** One document as the panel lists it. */
export type ClientDocument = {
  id: string;
  category: DocumentCategoryKey;
  name: string;
  size: number;
  contentType: string;
  /** ISO timestamp. */
  uploadedAt: string;
};

export type DocumentGroup = { key: DocumentCategoryKey; label: string; documents: ClientDocument[] };

export type UploadFile = { name: string; bytes: Uint8Array };

export type UploadOutcome = {
  uploaded: Array<{ id: string; name: string }>;
  refused: Array<{ name: string; reason: string }>;
  /** Set when the files did not fit in the case's room (MAX_CASE_BYTES): the bytes left, and none was kept. */
  noRoom?: number;
};

function assertAdmin(actor: SessionUser): void {
  if (!isStaffRole(actor.role)) throw new Error("Only staff may change a client's documents.");
}

/** Staff upload to any client's case; a client only to their own. */
function assertMayUpload(actor: SessionUser, clientId: string): void {
  if (!isStaffRole(actor.role) && actor.id !== clientId) throw new Error("A client may upload only to their own case.");
}

/** True when the client has a case for the tax year. */
export async function caseExists(clientId: string, taxYear: number): Promise<boolean> {
  if (clientId === "") return false;
  const [row] = await getDb()
    .select({ year: clientCases.taxYear })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  return row !== undefined;
}

/** The bytes a case's documents may still take (MAX_CASE_BYTES less what they hold), never below 0. */
export async function caseRoom(
  clientId: string,
  taxYear: number,
  db: Pick<ReturnType<typeof getDb>, "select"> = getDb(),
): Promise<number> {
  const [row] = await db
    .select({ used: sql<number>`coalesce(sum(${documents.size}), 0)`.mapWith(Number) })
    .from(documents)
    .where(and(eq(documents.clientId, clientId), eq(documents.taxYear, taxYear)));
  return Math.max(0, MAX_CASE_BYTES - (row?.used ?? 0));
}

/** The room one upload request has left in its case as its files arrive (receiveUpload takes from it). */
export type UploadRoom = { left: number };

/** A case's documents in the categories' order, oldest first within each (the Document Management modal). */
export async function listClientDocuments(actor: SessionUser, clientId: string, taxYear: number): Promise<DocumentGroup[]> {
  assertAdmin(actor);
  const rows = await getDb()
    .select({
      id: documents.id,
      category: documents.category,
      name: documents.originalName,
      size: documents.size,
      contentType: documents.contentType,
      createdAt: documents.createdAt,
    })
    .from(documents)
    .where(and(eq(documents.clientId, clientId), eq(documents.taxYear, taxYear)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  const groups: DocumentGroup[] = DOCUMENT_CATEGORIES.map((c) => ({
    key: c.key,
    label: c.label,
    documents: [],
  }));
  for (const r of rows) {
    const key: DocumentCategoryKey = isDocumentCategory(r.category) ? r.category : "other-documents";
    groups
      .find((g) => g.key === key)
      ?.documents.push({
        id: r.id,
        category: key,
        name: r.name,
        size: r.size,
        contentType: r.contentType,
        uploadedAt: r.createdAt.toISOString(),
      });
  }
  return groups;
}

/** What a client may see of their documents: their own uploads, and staff's once shared. */
const visibleToClient = or(eq(documents.fromClient, true), isNotNull(documents.sharedAt))!;

/**
 * A document sent against a requested item staff have accepted (received), whichever way it
 * came: it stays, and its client cannot remove it (staff still can, or return the item first).
 */
const onAcceptedItem = sql<boolean>`exists (select 1 from ${documentRequests} where ${documentRequests.id} = ${documents.requestId} and ${documentRequests.state} = 'received')`;

/** The columns every listing of a case's documents reads. */
const listedColumns = {
  id: documents.id,
  category: documents.category,
  name: documents.originalName,
  size: documents.size,
  createdAt: documents.createdAt,
  fromClient: documents.fromClient,
};

function listed(r: { id: string; category: string; name: string; size: number; createdAt: Date }) {
  return {
    id: r.id,
    category: isDocumentCategory(r.category) ? r.category : ("other-documents" as const),
    name: r.name,
    size: r.size,
    uploadedAt: r.createdAt.toISOString(),
  };
}

/**
 * A case's documents for its page in the panel: who uploaded each, whether it is shared, and
 * whether it is new to the acting staff member (uploaded by the client since they last opened
 * the case). Oldest first.
 */
export async function listCaseDocuments(actor: SessionUser, clientId: string, taxYear: number): Promise<StaffDocumentView[]> {
  assertAdmin(actor);
  const rows = await getDb()
    .select({
      ...listedColumns,
      sharedAt: documents.sharedAt,
      uploaderName: user.name,
      isNew: sql<boolean>`(${documents.fromClient} and ${documents.createdAt} > coalesce((select ${caseViews.viewedAt} from ${caseViews}
        where ${caseViews.staffId} = ${actor.id} and ${caseViews.clientId} = ${documents.clientId} and ${caseViews.taxYear} = ${documents.taxYear}), '-infinity'))`,
    })
    .from(documents)
    .leftJoin(user, eq(user.id, documents.uploadedBy))
    .where(and(eq(documents.clientId, clientId), eq(documents.taxYear, taxYear)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map((r) => ({
    ...listed(r),
    uploadedBy: r.uploaderName === null ? null : { name: r.uploaderName, client: r.fromClient },
    sharedAt: r.sharedAt?.toISOString() ?? null,
    isNew: r.isNew === true,
  }));
}

/**
 * The client's own documents of a tax year: the ones they uploaded and the ones staff shared
 * with them, oldest first. Staff documents not shared are never among them.
 */
export async function listOwnDocuments(userId: string, taxYear: number): Promise<ClientDocumentView[]> {
  const rows = await getDb()
    .select({ ...listedColumns, accepted: onAcceptedItem })
    .from(documents)
    .where(and(eq(documents.clientId, userId), eq(documents.taxYear, taxYear), visibleToClient))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map((r) => ({ ...listed(r), mine: r.fromClient, accepted: r.accepted === true }));
}

/**
 * The titles of the accepted items (see onAcceptedItem) that the client's own documents among
 * `documentIds` were sent against: why a removal of them was refused.
 */
export async function acceptedItemsOf(clientId: string, taxYear: number, documentIds: string[]): Promise<string[]> {
  const ids = [...new Set(documentIds.filter(isDocumentId).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const rows = await getDb()
    .selectDistinct({ title: documentRequests.title })
    .from(documents)
    .innerJoin(documentRequests, eq(documentRequests.id, documents.requestId))
    .where(
      and(
        eq(documents.clientId, clientId),
        eq(documents.taxYear, taxYear),
        inArray(documents.id, ids),
        eq(documents.fromClient, true),
        eq(documentRequests.state, "received"),
      ),
    )
    .orderBy(asc(documentRequests.title));
  return rows.map((r) => r.title);
}

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
  assertAdmin(actor);
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

/**
 * One file of an upload once its bytes have been received: stored under a new random key (not
 * yet recorded), or refused with the reason.
 */
export type ReceivedFile =
  | { name: string; stored: { storageKey: string; size: number; contentType: string } }
  | { name: string; refused: string };

class FileTooLargeError extends Error {
  constructor(readonly reason: string) {
    super("The file is larger than allowed.");
    this.name = "FileTooLargeError";
  }
}

/** Reads what is left of `chunks`; returns how many bytes that was. */
async function drain(chunks: AsyncIterator<Uint8Array>): Promise<number> {
  let size = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done) return size;
    size += next.value.byteLength;
    // Counted and thrown away: its memory goes now, not at the next collection.
    releaseHandedOver(next.value);
  }
}

/**
 * Receives one file as its bytes arrive: its name is checked first, then its type from its
 * first bytes, then it is written to storage chunk by chunk and counted, so no file is ever
 * held whole. A file that passes 20 MB is dropped from storage at once. The reasons and their
 * order are the same as for a whole file: type by name, empty, too large, content. With `room`,
 * a file that passes what is left of its case's room is refused (REFUSED_NO_ROOM) and dropped
 * the same way; a stored file takes its size from the room.
 */
export async function receiveUpload(
  sentName: string,
  chunks: AsyncIterable<Uint8Array>,
  room?: UploadRoom,
): Promise<ReceivedFile> {
  const name = cleanFileName(sentName);
  const source = chunks[Symbol.asyncIterator]();
  const extension = uploadExtension(sentName);
  if (extension === null) return { name, refused: refusedByName(sentName) };

  const head: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    size += next.value.byteLength;
  }
  if (size === 0) return { name, refused: REFUSED_EMPTY };
  const start = head.length === 1 ? head[0]! : Buffer.concat(head);
  if (!(await contentMatches(extension, start))) {
    if (!ended) size += await drain(source);
    return { name, refused: size > MAX_UPLOAD_BYTES ? REFUSED_TOO_LARGE : refusedContent(extension) };
  }
  if (size > MAX_UPLOAD_BYTES) {
    if (!ended) await drain(source);
    return { name, refused: REFUSED_TOO_LARGE };
  }
  if (room && size > room.left) {
    if (!ended) await drain(source);
    return { name, refused: REFUSED_NO_ROOM };
  }

  async function* rest(): AsyncGenerator<Uint8Array> {
    yield start;
    if (ended) return;
    for (;;) {
      const next = await source.next();
      if (next.done) return;
      size += next.value.byteLength;
      if (size > MAX_UPLOAD_BYTES) throw new FileTooLargeError(REFUSED_TOO_LARGE);
      if (room && size > room.left) throw new FileTooLargeError(REFUSED_NO_ROOM);
      yield next.value;
    }
  }
  const storageKey = newStorageKey();
  try {
    await getStorage().put(storageKey, rest());
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      await drain(source);
      return { name, refused: error.reason };
    }
    logError("documents", "storing an upload failed", error);
    return { name, refused: "the file could not be stored; please try again" };
  }
  if (room) room.left -= size;
  return { name, stored: { storageKey, size, contentType: contentTypeOf(extension) } };
}

/** Removes the stored files of received uploads that will not be recorded. */
export async function discardReceived(files: ReceivedFile[]): Promise<void> {
  const storage = getStorage();
  for (const file of files)
    if ("stored" in file) await storage.remove(file.stored.storageKey).catch(() => undefined);
}

/**
 * Records the received files that were stored (one row and one audit entry each) and reports
 * every file in the order sent: recorded, or refused with the reason. When the database
 * refuses a row, its stored file is removed again. `requestId` and `messageId` link the files to
 * the requested item they answer or the message they are attached to (the caller has checked
 * that these belong to the same case). Files that together do not fit in the case's room
 * (MAX_CASE_BYTES) are all removed and refused (`noRoom`); each row is then written with the
 * case locked and only while it fits, so uploads at the same time cannot pass the cap together.
 */
export async function recordUploads(
  actor: SessionUser,
  input: {
    clientId: string;
    taxYear: number;
    category: DocumentCategoryKey;
    files: ReceivedFile[];
    requestId?: string | null;
    messageId?: string | null;
  },
  ip: string,
): Promise<UploadOutcome> {
  assertMayUpload(actor, input.clientId);
  // The account was checked before the files were received; should it go in the meantime, each
  // row is refused by the database and its file removed.
  const outcome: UploadOutcome = { uploaded: [], refused: [] };
  const sentBytes = input.files.reduce((sum, f) => sum + ("stored" in f ? f.stored.size : 0), 0);
  const room = sentBytes > 0 ? await caseRoom(input.clientId, input.taxYear) : 0;
  if (sentBytes > room) {
    await discardReceived(input.files);
    for (const file of input.files)
      outcome.refused.push({ name: file.name, reason: "refused" in file ? file.refused : REFUSED_NO_ROOM });
    return { ...outcome, noRoom: room };
  }
  for (const file of input.files) {
    if ("refused" in file) {
      outcome.refused.push({ name: file.name, reason: file.refused });
      continue;
    }
    const { name, stored } = file;
    let id: string;
    try {
      const row = await getDb().transaction(async (tx) => {
        await tx
          .select({ year: clientCases.taxYear })
          .from(clientCases)
          .where(and(eq(clientCases.userId, input.clientId), eq(clientCases.taxYear, input.taxYear)))
          .for("update");
        if ((await caseRoom(input.clientId, input.taxYear, tx)) < stored.size) return null;
        const [inserted] = await tx
          .insert(documents)
          .values({
            clientId: input.clientId,
            taxYear: input.taxYear,
            category: input.category,
            originalName: name,
            size: stored.size,
            contentType: stored.contentType,
            storageKey: stored.storageKey,
            uploadedBy: actor.id,
            fromClient: !isStaffRole(actor.role),
            requestId: input.requestId ?? null,
            messageId: input.messageId ?? null,
          })
          .returning({ id: documents.id });
        if (!inserted) throw new Error("no row returned");
        return inserted;
      });
      if (row === null) {
        await getStorage()
          .remove(stored.storageKey)
          .catch(() => undefined);
        outcome.refused.push({ name, reason: REFUSED_NO_ROOM });
        continue;
      }
      id = row.id;
    } catch (error) {
      await getStorage()
        .remove(stored.storageKey)
        .catch(() => undefined);
      // Not the error's message: the failed query would quote the file's name.
      logError("documents", "recording an upload failed", error);
      outcome.refused.push({ name, reason: "the file could not be saved; please try again" });
      continue;
    }
    outcome.uploaded.push({ id, name });
    await recordAudit({
      actor,
      action: "document-uploaded",
      clientId: input.clientId,
      taxYear: input.taxYear,
      detail: `${categoryLabel(input.category)}: ${name} (${formatKb(stored.size)})`,
      ip,
    });
  }
  return outcome;
}

/** The chunks of a file already in memory, without copying it. */
function* chunksOf(bytes: Uint8Array): Generator<Uint8Array> {
  const step = SNIFF_BYTES;
  for (let at = 0; at < bytes.byteLength; at += step) yield bytes.subarray(at, at + step);
}

/**
 * Checks, stores and records files already in memory (scripts and tests); the same rules as
 * an upload received as a stream.
 */
export async function saveUploads(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; category: DocumentCategoryKey; files: UploadFile[] },
  ip: string,
): Promise<UploadOutcome | "no-such-client"> {
  assertMayUpload(actor, input.clientId);
  if (!(await caseExists(input.clientId, input.taxYear))) return "no-such-client";
  const received: ReceivedFile[] = [];
  for (const file of input.files)
    received.push(await receiveUpload(file.name, toAsync(chunksOf(file.bytes))));
  return recordUploads(actor, { ...input, files: received }, ip);
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
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
  assertMayUpload(actor, input.clientId);
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
    .where(and(eq(documents.clientId, clientId), eq(documents.taxYear, taxYear), inArray(documents.id, ids), clientRule))
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

/** A document's file as it is sent: `body` streams its `size` bytes from storage (read it to the end or cancel it). */
export type DocumentDownload = { id: string; name: string; contentType: string; size: number; body: ReadableStream<Uint8Array> };

/**
 * One document for download, when the actor may have it: staff, or the client it belongs to.
 * null otherwise, and for an unknown id or a missing file, so the two cannot be told apart.
 */
export async function documentForDownload(
  actor: SessionUser,
  documentId: string,
  ip: string,
): Promise<DocumentDownload | null> {
  if (!isDocumentId(documentId)) return null;
  const owner =
    isStaffRole(actor.role) ? undefined : actor.role === "user" ? and(eq(documents.clientId, actor.id), visibleToClient) : null;
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
