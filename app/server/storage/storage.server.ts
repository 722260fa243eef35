import { randomUUID } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "~/server/platform/env.server";
import { StoredObjectNotFoundError, checkKey, releaseHandedOver } from "./storage-contract.server";
import type { FileStorage, StoredObject } from "./storage-contract.server";
import { S3Storage } from "./storage-s3.server";

// The storage of client documents: the contract every backend keeps, the local folder (the
// default) and the choice between it and an S3-compatible bucket (S3_BUCKET, see env.server.ts).
export {
  InvalidStorageKeyError,
  StoredObjectNotFoundError,
  chunksOf,
  handOver,
  isWholeBuffer,
  newStorageKey,
  readWhole,
  releaseHandedOver,
  streamOf,
} from "./storage-contract.server";
export type { FileStorage, StoredObject } from "./storage-contract.server";
export { S3Storage } from "./storage-s3.server";

/** How much of a file one read takes from the disk. */
const READ_CHUNK_BYTES = 64 * 1024;

/** The contract's error for a file that is not there (ENOENT); any other error as it is. */
function notFound(error: unknown): unknown {
  return (error as NodeJS.ErrnoException).code === "ENOENT" ? new StoredObjectNotFoundError({ cause: error }) : error;
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
 * The `size` bytes of an open file, read as they are asked for. The file is closed once read to
 * its end, when a read fails, or when the reader cancels. A stored file never changes (a new put
 * renames another file into place), so the size read when it was opened holds.
 */
function fileStream(file: FileHandle, size: number): ReadableStream<Uint8Array> {
  let left = size;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await file.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (left === 0) {
            await close();
            controller.close();
            return;
          }
          const bytes = new Uint8Array(Math.min(READ_CHUNK_BYTES, left));
          const { bytesRead } = await file.read(bytes, 0, bytes.byteLength, null);
          if (bytesRead === 0) throw new Error("The stored file ended before its size.");
          left -= bytesRead;
          controller.enqueue(bytesRead === bytes.byteLength ? bytes : bytes.subarray(0, bytesRead));
        } catch (error) {
          await close().catch(() => undefined);
          throw error;
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
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
    try {
      const buffer = await readFile(this.pathOf(key));
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      throw notFound(error);
    }
  }

  async open(key: string): Promise<StoredObject> {
    let file: FileHandle;
    try {
      file = await open(this.pathOf(key), "r");
    } catch (error) {
      throw notFound(error);
    }
    try {
      const { size } = await file.stat();
      return { size, body: fileStream(file, size) };
    } catch (error) {
      await file.close().catch(() => undefined);
      throw error;
    }
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

/**
 * The storage in use: the bucket named by S3_BUCKET when it is set, otherwise the local disk
 * under DATA_DIR/uploads; or another one that was set.
 */
export function getStorage(): FileStorage {
  if (configured) return configured;
  const env = getEnv();
  configured = env.s3 ? new S3Storage(env.s3) : new LocalDiskStorage(path.join(env.dataDir, "uploads"));
  return configured;
}

/** Replaces the storage (another backend, or a test double); `undefined` restores the default. */
export function setStorage(storage: FileStorage | undefined): void {
  configured = storage;
}
