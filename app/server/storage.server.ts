import { randomUUID } from "node:crypto";
import { chmod, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
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
    try {
      await writeFile(temporary, data, { mode: 0o600, flag: "wx", flush: true });
      await rename(temporary, target);
    } catch (error) {
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
