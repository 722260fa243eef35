import { and, asc, eq, inArray } from "drizzle-orm";
import {
  DOCUMENT_CATEGORIES,
  MAX_UPLOAD_BYTES,
  REFUSED_EMPTY,
  REFUSED_TOO_LARGE,
  REFUSED_TYPE,
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
import { recordAudit } from "./audit.server";
import type { SessionUser } from "./auth.server";
import { getDb } from "./db/client.server";
import { documents, user } from "./db/schema";
import { getStorage, newStorageKey } from "./storage.server";
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
};

function assertAdmin(actor: SessionUser): void {
  if (actor.role !== "admin") throw new Error("Only staff may change a client's documents.");
}

/** True when the id belongs to a client account (role "user"), not to staff or nobody. */
export async function isClientAccount(clientId: string): Promise<boolean> {
  if (clientId === "") return false;
  const [row] = await getDb()
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, clientId), eq(user.role, "user")));
  return row !== undefined;
}

/** A client's documents in the eight categories, in the spec's order, oldest first within each. */
export async function listClientDocuments(actor: SessionUser, clientId: string): Promise<DocumentGroup[]> {
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
    .where(eq(documents.clientId, clientId))
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

/**
 * One file of an upload once its bytes have been received: stored under a new random key (not
 * yet recorded), or refused with the reason.
 */
export type ReceivedFile =
  | { name: string; stored: { storageKey: string; size: number; contentType: string } }
  | { name: string; refused: string };

class FileTooLargeError extends Error {
  constructor() {
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
  }
}

/**
 * Receives one file as its bytes arrive: its name is checked first, then its type from its
 * first bytes, then it is written to storage chunk by chunk and counted, so no file is ever
 * held whole. A file that passes 20 MB is dropped from storage at once. The reasons and their
 * order are the same as for a whole file: type by name, empty, too large, content.
 */
export async function receiveUpload(
  sentName: string,
  chunks: AsyncIterable<Uint8Array>,
): Promise<ReceivedFile> {
  const name = cleanFileName(sentName);
  const source = chunks[Symbol.asyncIterator]();
  const extension = uploadExtension(sentName);
  if (extension === null) return { name, refused: REFUSED_TYPE };

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

  async function* rest(): AsyncGenerator<Uint8Array> {
    yield start;
    if (ended) return;
    for (;;) {
      const next = await source.next();
      if (next.done) return;
      size += next.value.byteLength;
      if (size > MAX_UPLOAD_BYTES) throw new FileTooLargeError();
      yield next.value;
    }
  }
  const storageKey = newStorageKey();
  try {
    await getStorage().put(storageKey, rest());
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      await drain(source);
      return { name, refused: REFUSED_TOO_LARGE };
    }
    logError("documents", "storing an upload failed", error);
    return { name, refused: "the file could not be stored; please try again" };
  }
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
 * refuses a row, its stored file is removed again.
 */
export async function recordUploads(
  actor: SessionUser,
  input: { clientId: string; category: DocumentCategoryKey; files: ReceivedFile[] },
  ip: string,
): Promise<UploadOutcome> {
  assertAdmin(actor);
  // The account was checked before the files were received; should it go in the meantime, each
  // row is refused by the database and its file removed.
  const outcome: UploadOutcome = { uploaded: [], refused: [] };
  for (const file of input.files) {
    if ("refused" in file) {
      outcome.refused.push({ name: file.name, reason: file.refused });
      continue;
    }
    const { name, stored } = file;
    let id: string;
    try {
      const [row] = await getDb()
        .insert(documents)
        .values({
          clientId: input.clientId,
          category: input.category,
          originalName: name,
          size: stored.size,
          contentType: stored.contentType,
          storageKey: stored.storageKey,
          uploadedBy: actor.id,
        })
        .returning({ id: documents.id });
      if (!row) throw new Error("no row returned");
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
  input: { clientId: string; category: DocumentCategoryKey; files: UploadFile[] },
  ip: string,
): Promise<UploadOutcome | "no-such-client"> {
  assertAdmin(actor);
  if (!(await isClientAccount(input.clientId))) return "no-such-client";
  const received: ReceivedFile[] = [];
  for (const file of input.files)
    received.push(await receiveUpload(file.name, toAsync(chunksOf(file.bytes))));
  return recordUploads(actor, { ...input, files: received }, ip);
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

/** Removes the client's documents among `documentIds` (row, then file); returns how many. */
export async function removeDocuments(
  actor: SessionUser,
  clientId: string,
  documentIds: string[],
  ip: string,
): Promise<number> {
  assertAdmin(actor);
  const ids = [...new Set(documentIds.filter(isDocumentId).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return 0;
  const removed = await getDb()
    .delete(documents)
    .where(and(eq(documents.clientId, clientId), inArray(documents.id, ids)))
    .returning({
      id: documents.id,
      category: documents.category,
      name: documents.originalName,
      storageKey: documents.storageKey,
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
      detail: `${categoryLabel(doc.category)}: ${doc.name}`,
      ip,
    });
  }
  return removed.length;
}

export type DocumentDownload = { name: string; contentType: string; bytes: Uint8Array };

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
    actor.role === "admin" ? undefined : actor.role === "user" ? eq(documents.clientId, actor.id) : null;
  if (owner === null) return null;
  const [doc] = await getDb()
    .select({
      id: documents.id,
      clientId: documents.clientId,
      category: documents.category,
      name: documents.originalName,
      contentType: documents.contentType,
      storageKey: documents.storageKey,
    })
    .from(documents)
    .where(and(eq(documents.id, documentId.toLowerCase()), owner));
  if (!doc) return null;
  let bytes: Uint8Array;
  try {
    bytes = await getStorage().get(doc.storageKey);
  } catch (error) {
    logError("documents", `reading the file of document ${doc.id} failed`, error);
    return null;
  }
  await recordAudit({
    actor,
    action: "document-downloaded",
    clientId: doc.clientId,
    detail: `${categoryLabel(doc.category)}: ${doc.name}`,
    ip,
  });
  return { name: doc.name, contentType: doc.contentType, bytes };
}
