import { and, eq, sql } from "drizzle-orm";
import {
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
  refusedContent,
  uploadExtension,
} from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { isStaffRole } from "~/domain/policy";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import { assertOwnCaseOrStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { caseExists } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, documents } from "~/server/db/schema";
import { getStorage, newStorageKey, releaseHandedOver } from "~/server/storage/storage.server";
import { SNIFF_BYTES, contentMatches } from "./upload-check.server";

// The upload pipeline: a file is checked and stored as its bytes arrive (receiveUpload), then
// recorded as one of the case's documents (recordUploads), or removed from storage again.
// Every query here names the client it is about, and every function is handed the actor:
// no document is ever read, changed or removed by its id alone.

export type UploadFile = { name: string; bytes: Uint8Array };

export type UploadOutcome = {
  uploaded: Array<{ id: string; name: string }>;
  refused: Array<{ name: string; reason: string }>;
  /** Set when the files did not fit in the case's room (MAX_CASE_BYTES): the bytes left, and none was kept. */
  noRoom?: number;
};

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
  assertOwnCaseOrStaff(actor, input.clientId, "upload");
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
): Promise<UploadOutcome | "no-such-case"> {
  assertOwnCaseOrStaff(actor, input.clientId, "upload");
  if (!(await caseExists(input.clientId, input.taxYear))) return "no-such-case";
  const received: ReceivedFile[] = [];
  for (const file of input.files)
    received.push(await receiveUpload(file.name, toAsync(chunksOf(file.bytes))));
  return recordUploads(actor, { ...input, files: received }, ip);
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
