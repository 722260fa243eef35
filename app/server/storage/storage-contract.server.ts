import { randomUUID } from "node:crypto";
import { MessageChannel } from "node:worker_threads";

// What every storage backend shares (the local folder in ./storage.server.ts, an S3-compatible
// bucket in ./storage-s3.server.ts): the contract, the shape of a storage key, and the hand-over
// of a received chunk's memory. Import these from ./storage.server.ts, which re-exports them;
// they live here so that both backends can use them without importing each other.

/** A stored file opened for reading: its size, and its bytes as they are read. */
export type StoredObject = {
  /** How many bytes `body` holds. */
  size: number;
  /**
   * The bytes, read from storage as the reader asks for them (never held whole). Whoever opens
   * a file reads `body` to its end or cancels it: either releases what `open` holds (a file
   * handle, a connection to the bucket).
   */
  body: ReadableStream<Uint8Array>;
};

/**
 * Where client documents' bytes live. Keys are random UUIDs chosen by the server (never a
 * user's file name), and every call refuses any other key (`InvalidStorageKeyError`) before it
 * touches storage. The local disk is the default (`LocalDiskStorage`); `S3Storage` keeps them in
 * an S3-compatible bucket. tests/integration/storage-contract.test.ts holds both to this.
 */
export interface FileStorage {
  /**
   * Stores the bytes under `key` completely, or not at all. Given chunks, it writes each as it
   * comes; when they fail midway (the sender went away, the file grew too large) nothing is kept,
   * and what was stored under `key` before stays as it was. A complete put replaces it.
   * A chunk whose memory was handed over (`handOver`) may be freed once written: nothing reads
   * it afterwards (it reads as empty).
   */
  put(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<void>;
  /** The bytes stored under `key`, whole; rejects (`StoredObjectNotFoundError`) when there are none. */
  get(key: string): Promise<Uint8Array>;
  /** Opens what is stored under `key` for a streamed read; rejects (`StoredObjectNotFoundError`) when nothing is. */
  open(key: string): Promise<StoredObject>;
  /** Deletes what is stored under `key`; a key with nothing stored is not an error. */
  remove(key: string): Promise<void>;
}

const KEY_SHAPE = /^[0-9a-f-]{36}$/;

export class InvalidStorageKeyError extends Error {
  constructor() {
    super("Invalid storage key.");
    this.name = "InvalidStorageKeyError";
  }
}

/** Nothing is stored under the key asked for. */
export class StoredObjectNotFoundError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("Nothing is stored under this key.", options);
    this.name = "StoredObjectNotFoundError";
  }
}

/** A new random storage key. */
export function newStorageKey(): string {
  return randomUUID();
}

/** `key` when it has the shape of a storage key; throws `InvalidStorageKeyError` otherwise. */
export function checkKey(key: string): string {
  if (!KEY_SHAPE.test(key)) throw new InvalidStorageKeyError();
  return key;
}

/** Memory handed over to storage (`handOver`): nothing but storage reads it again. */
const handedOver = new WeakSet<ArrayBuffer>();

/**
 * Frees memory at once: an ArrayBuffer posted to a closed port is still transferred (the HTML
 * standard's rule for a port without a partner, which Node follows), so it is detached and its
 * bytes are freed there and then, not whenever the garbage collector next runs.
 */
const releasePort = (() => {
  const { port1 } = new MessageChannel();
  port1.close();
  return port1;
})();

/** True when `bytes` is all of its memory: an ArrayBuffer that no other view shares. */
export function isWholeBuffer(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
  return (
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength
  );
}

/**
 * Hands the memory of `bytes` over to storage: whoever holds `bytes`, or a view of all of them,
 * reads them no more once they are passed to `put` (or thrown away), and `put` frees that memory
 * as soon as they are written. Otherwise a received file's chunks wait for the garbage
 * collector, which may not run during a whole upload: every byte of the file would stay in
 * memory until it did (docs/decisions/0012). Only memory that is all one view's is taken;
 * anything else is left alone.
 */
export function handOver(bytes: Uint8Array): void {
  if (bytes.byteLength > 0 && isWholeBuffer(bytes)) handedOver.add(bytes.buffer);
}

/**
 * Frees the memory of `chunk` now, when it was handed over and `chunk` is all of it: for bytes
 * that have been written, or that are thrown away unread. It reads as empty afterwards.
 */
export function releaseHandedOver(chunk: Uint8Array): void {
  if (!isWholeBuffer(chunk) || !handedOver.has(chunk.buffer)) return;
  handedOver.delete(chunk.buffer);
  try {
    releasePort.postMessage(undefined, [chunk.buffer]);
  } catch {
    // Memory that cannot be transferred is left to the garbage collector.
  }
}

/**
 * A byte stream that reads `chunks` one at a time, only as its reader asks for more (no read
 * ahead). Cancelling it ends `chunks` early (their `return`) and calls `onCancel`, which closes
 * what they read from: an iterator not yet started does not run its own clean-up when ended.
 */
export function streamOf(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onCancel: () => void | Promise<void> = () => undefined,
): ReadableStream<Uint8Array> {
  const iterator =
    Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        try {
          await iterator.return?.();
        } finally {
          await onCancel();
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** Every chunk of `stream`, in order (for readers that take chunks, such as a hash). */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // A reader that stopped early (or failed) lets go of what the stream holds.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** All of a stored object's bytes, in one piece. */
export async function readWhole(object: StoredObject): Promise<Uint8Array> {
  const bytes = new Uint8Array(object.size);
  let at = 0;
  for await (const chunk of chunksOf(object.body)) {
    if (at + chunk.byteLength > bytes.byteLength) throw new Error("The stored file is longer than its size.");
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  if (at !== bytes.byteLength) throw new Error("The stored file is shorter than its size.");
  return bytes;
}
