import { randomUUID } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { MessageChannel } from "node:worker_threads";
import { getEnv } from "./env.server";

/**
 * Where client documents' bytes live. Keys are random UUIDs chosen by the server (never a
 * user's file name). The local disk is the default; an S3-compatible store can implement the
 * same three calls later.
 */
export interface FileStorage {
  /**
   * Stores the bytes under `key` completely, or not at all. Given chunks, it writes each as it
   * comes; when they fail midway (the sender went away, the file grew too large) nothing is kept.
   * A chunk whose memory was handed over (`handOver`) may be freed once written: nothing reads
   * it afterwards (it reads as empty).
   */
  put(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<void>;
  /** The bytes stored under `key`; rejects when there are none. */
  get(key: string): Promise<Uint8Array>;
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

/** A new random storage key. */
export function newStorageKey(): string {
  return randomUUID();
}

function checkKey(key: string): string {
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

/** Writes all of `chunk` at the file's current end. */
async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/**
 * Files in one folder outside anything the web server serves (DATA_DIR/uploads by default):
 * the folder is 0700, each file 0600. A file is written under a temporary name and renamed
 * into place, so a crash or a failed write never leaves half a file under a real key.
 */
export class LocalDiskStorage implements FileStorage {
  constructor(readonly root: string) {}

  /** Created on first use (and again if someone removed it), owner-only. */
  private async ensureRoot(): Promise<void> {
    const created = await mkdir(this.root, { recursive: true, mode: 0o700 });
    if (created !== undefined) await chmod(this.root, 0o700);
  }

  private pathOf(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<void> {
    const target = this.pathOf(key);
    await this.ensureRoot();
    const temporary = path.join(this.root, `.tmp-${randomUUID()}`);
    let file: FileHandle | undefined;
    try {
      file = await open(temporary, "wx", 0o600);
      // One chunk at a time: the next is asked for once the previous one is written.
      for await (const chunk of data instanceof Uint8Array ? [data] : data) {
        await writeAll(file, chunk);
        releaseHandedOver(chunk);
      }
      await file.sync();
      await file.close();
      file = undefined;
      await rename(temporary, target);
    } catch (error) {
      await file?.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array> {
    const buffer = await readFile(this.pathOf(key));
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  async remove(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

let configured: FileStorage | undefined;

/** The storage in use: the local disk under DATA_DIR/uploads unless another one was set. */
export function getStorage(): FileStorage {
  configured ??= new LocalDiskStorage(path.join(getEnv().dataDir, "uploads"));
  return configured;
}

/** Replaces the storage (another backend, or a test double); `undefined` restores the default. */
export function setStorage(storage: FileStorage | undefined): void {
  configured = storage;
}
