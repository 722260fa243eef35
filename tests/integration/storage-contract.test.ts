// The storage contract (app/server/storage/storage-contract.server.ts), held against both backends: the
// local folder and an S3-compatible bucket (s3rver, a real S3 API server on loopback).
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "~/server/platform/env.server";
import {
  InvalidStorageKeyError,
  LocalDiskStorage,
  S3Storage,
  StoredObjectNotFoundError,
  chunksOf,
  getStorage,
  handOver,
  newStorageKey,
  readWhole,
  setStorage,
} from "~/server/storage/storage.server";
import type { FileStorage } from "~/server/storage/storage.server";
import { PART_BYTES } from "~/server/storage/storage-s3.server";
import { startS3Server } from "../helpers/s3-server";
import type { TestS3 } from "../helpers/s3-server";

const MB = 1024 * 1024;

let s3: TestS3;
let folder: string;
const opened: S3Storage[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
  folder = mkdtempSync(path.join(os.tmpdir(), "taxbridge-storage-"));
});

afterAll(async () => {
  for (const storage of opened) await storage.close();
  await s3.close();
  rmSync(folder, { recursive: true, force: true });
});

/** `size` bytes that differ from place to place, so a misplaced or repeated chunk shows. */
function bytesOf(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = ((i + seed) * 2654435761) >>> 24;
  return bytes;
}

/** `bytes` as chunks of `size` (the last one shorter), each in memory of its own. */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += size) yield Uint8Array.from(bytes.subarray(at, at + size));
}

/** `bytes` in chunks, then the sender goes away. */
async function* failingAfter(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  yield* chunked(bytes, size);
  throw new Error("the sender went away");
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

type Backend = {
  name: string;
  storage: () => FileStorage;
  /** What a failed put could have left behind: temporary files, or multipart uploads not aborted. */
  leftovers: () => string[];
};

const backends: Backend[] = [
  {
    name: "LocalDiskStorage (the local folder)",
    storage: () => new LocalDiskStorage(folder),
    leftovers: () => readdirSync(folder).filter((name) => name.startsWith(".tmp-")),
  },
  {
    name: "S3Storage (s3rver on loopback)",
    storage: () => {
      const storage = new S3Storage(s3.settings);
      opened.push(storage);
      return storage;
    },
    leftovers: () => s3.pendingUploads(),
  },
];

describe.each(backends)("$name keeps the storage contract", (backend) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = backend.storage();
  });
  afterEach(() => {
    expect(backend.leftovers()).toEqual([]);
  });

  it("gives back the bytes it was given, whole and streamed", async () => {
    const key = newStorageKey();
    const bytes = bytesOf(150_000);
    await storage.put(key, bytes);
    expect(Buffer.from(await storage.get(key)).equals(bytes)).toBe(true);
    const object = await storage.open(key);
    expect(object.size).toBe(150_000);
    expect(Buffer.from(await readWhole(object)).equals(bytes)).toBe(true);
  });

  it("stores a stream of uneven chunks as one file", async () => {
    const key = newStorageKey();
    const bytes = bytesOf(300_001, 7);
    async function* uneven(): AsyncGenerator<Uint8Array> {
      yield bytes.subarray(0, 1);
      yield bytes.subarray(1, 1);
      yield bytes.subarray(1, 65_537);
      yield bytes.subarray(65_537);
    }
    await storage.put(key, uneven());
    expect(Buffer.from(await storage.get(key)).equals(bytes)).toBe(true);
  });

  it("stores an empty file", async () => {
    const key = newStorageKey();
    await storage.put(key, new Uint8Array(0));
    expect(await storage.get(key)).toHaveLength(0);
    const object = await storage.open(key);
    expect(object.size).toBe(0);
    expect(await readWhole(object)).toHaveLength(0);
  });

  it("streams a 20 MB file in and out, chunk by chunk, unchanged", async () => {
    const key = newStorageKey();
    const bytes = randomBytes(20 * MB);
    await storage.put(key, chunked(bytes, 64 * 1024));
    const object = await storage.open(key);
    expect(object.size).toBe(20 * MB);
    const hash = createHash("sha256");
    let chunks = 0;
    for await (const chunk of chunksOf(object.body)) {
      // Read a piece at a time, never as one 20 MB buffer.
      expect(chunk.byteLength).toBeLessThan(20 * MB);
      hash.update(chunk);
      chunks += 1;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(hash.digest("hex")).toBe(sha256(bytes));
  });

  it("keeps nothing under the key when the stream fails midway, small or past one part", async () => {
    for (const size of [100_000, PART_BYTES + 1 * MB]) {
      const key = newStorageKey();
      await expect(storage.put(key, failingAfter(bytesOf(size), 64 * 1024))).rejects.toThrow("the sender went away");
      await expect(storage.get(key)).rejects.toBeInstanceOf(StoredObjectNotFoundError);
      await expect(storage.open(key)).rejects.toBeInstanceOf(StoredObjectNotFoundError);
      expect(backend.leftovers()).toEqual([]);
    }
  });

  it("replaces a file with a complete put, and keeps it when a put over it fails", async () => {
    const key = newStorageKey();
    const first = bytesOf(70_000, 1);
    const second = bytesOf(6 * MB, 2);
    await storage.put(key, first);
    await storage.put(key, chunked(second, 64 * 1024));
    expect(Buffer.from(await storage.get(key)).equals(second)).toBe(true);
    await expect(storage.put(key, failingAfter(bytesOf(PART_BYTES + 1024, 3), 64 * 1024))).rejects.toThrow(
      "the sender went away",
    );
    expect(Buffer.from(await storage.get(key)).equals(second)).toBe(true);
    await storage.put(key, first);
    expect(Buffer.from(await storage.get(key)).equals(first)).toBe(true);
  });

  it("removes a file for good, and removing what is not there is fine", async () => {
    const key = newStorageKey();
    await storage.put(key, bytesOf(10));
    await storage.remove(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StoredObjectNotFoundError);
    await expect(storage.open(key)).rejects.toBeInstanceOf(StoredObjectNotFoundError);
    await expect(storage.remove(key)).resolves.toBeUndefined();
    await expect(storage.remove(newStorageKey())).resolves.toBeUndefined();
  });

  it("refuses every key that is not a storage key, before touching storage", async () => {
    const requestsBefore = s3.requests.length;
    for (const key of ["../../etc/passwd", "", "A".repeat(36), newStorageKey().toUpperCase(), `${newStorageKey()}/x`, "a".repeat(37)]) {
      await expect(storage.put(key, bytesOf(4))).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.open(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    expect(s3.requests.length).toBe(requestsBefore);
    expect(readdirSync(folder).some((name) => name.includes("passwd"))).toBe(false);
  });

  it("frees a handed-over chunk once it is written, and stores its bytes", async () => {
    const key = newStorageKey();
    const handed = Uint8Array.from(bytesOf(64 * 1024, 5));
    const expected = Buffer.from(handed);
    handOver(handed);
    async function* one(): AsyncGenerator<Uint8Array> {
      yield handed;
    }
    await storage.put(key, one());
    expect(handed.byteLength).toBe(0);
    expect(Buffer.from(await storage.get(key)).equals(expected)).toBe(true);
  });

  it("lets a reader stop early and reads the file again afterwards", async () => {
    const key = newStorageKey();
    const bytes = bytesOf(2 * MB, 9);
    await storage.put(key, bytes);
    const object = await storage.open(key);
    const reader = object.body.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    expect(Buffer.from(await storage.get(key)).equals(bytes)).toBe(true);
  });
});

describe("S3Storage with s3rver", () => {
  let storage: S3Storage;
  beforeAll(() => {
    storage = new S3Storage(s3.settings);
    opened.push(storage);
  });
  afterEach(() => s3.refuse(null));

  it("keeps each file as one object under its key, the bytes exactly, in one request when it fits in a part", async () => {
    const key = newStorageKey();
    const bytes = bytesOf(PART_BYTES, 11);
    const before = s3.requests.length;
    await storage.put(key, chunked(bytes, 64 * 1024));
    expect(s3.requests.slice(before)).toEqual([`PUT /${s3.bucket}/${key}?x-id=PutObject`]);
    expect(s3.objectKeys()).toContain(key);
    expect(s3.objectBytes(key).equals(bytes)).toBe(true);
  });

  it("sends a larger file as a multipart upload of 5 MiB parts", async () => {
    const key = newStorageKey();
    const bytes = bytesOf(2 * PART_BYTES + 10, 12);
    const before = s3.requests.length;
    await storage.put(key, chunked(bytes, 64 * 1024));
    const sent = s3.requests.slice(before).map((line) => line.replace(/uploadId=[0-9a-f]+/, "uploadId=U"));
    expect(sent).toEqual([
      `POST /${s3.bucket}/${key}?uploads=`,
      `PUT /${s3.bucket}/${key}?partNumber=1&uploadId=U&x-id=UploadPart`,
      `PUT /${s3.bucket}/${key}?partNumber=2&uploadId=U&x-id=UploadPart`,
      `PUT /${s3.bucket}/${key}?partNumber=3&uploadId=U&x-id=UploadPart`,
      `POST /${s3.bucket}/${key}?uploadId=U`,
    ]);
    expect(s3.objectBytes(key).equals(bytes)).toBe(true);
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("aborts the multipart upload when the store refuses a part: no object, no parts left", async () => {
    const key = newStorageKey();
    s3.refuse(({ url }) => url.searchParams.get("partNumber") === "2");
    await expect(storage.put(key, chunked(bytesOf(2 * PART_BYTES, 13), 64 * 1024))).rejects.toMatchObject({
      name: "AccessDenied",
    });
    s3.refuse(null);
    expect(s3.requests.at(-1)).toMatch(new RegExp(`^DELETE /${s3.bucket}/${key}\\?uploadId=[0-9a-f]+&x-id=AbortMultipartUpload$`));
    expect(s3.pendingUploads()).toEqual([]);
    expect(s3.objectKeys()).not.toContain(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(StoredObjectNotFoundError);
  });

  it("aborts the multipart upload when the sender goes away after the first part", async () => {
    const key = newStorageKey();
    const before = s3.requests.length;
    await expect(storage.put(key, failingAfter(bytesOf(PART_BYTES + 100, 14), 64 * 1024))).rejects.toThrow(
      "the sender went away",
    );
    const sent = s3.requests.slice(before).map((line) => line.split("?")[1]!.replace(/uploadId=[0-9a-f]+/, "uploadId=U"));
    expect(sent).toEqual([
      "uploads=",
      "partNumber=1&uploadId=U&x-id=UploadPart",
      "uploadId=U&x-id=AbortMultipartUpload",
    ]);
    expect(s3.pendingUploads()).toEqual([]);
  });

  it("says a missing bucket is an error, not a missing file", async () => {
    const elsewhere = new S3Storage({ ...s3.settings, bucket: "no-such-bucket" });
    opened.push(elsewhere);
    const failure = await elsewhere.get(newStorageKey()).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(StoredObjectNotFoundError);
    expect(failure).toMatchObject({ name: "NoSuchBucket" });
  });
});

describe("choosing the storage", () => {
  const names = ["S3_BUCKET", "S3_REGION", "S3_ENDPOINT", "S3_FORCE_PATH_STYLE", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
  afterEach(() => {
    for (const name of names) delete process.env[name];
    resetEnvForTests();
    setStorage(undefined);
  });

  it("is the local folder under DATA_DIR/uploads by default, and the bucket when S3_BUCKET is set", async () => {
    resetEnvForTests();
    setStorage(undefined);
    const local = getStorage();
    expect(local).toBeInstanceOf(LocalDiskStorage);
    expect((local as LocalDiskStorage).root).toBe(path.join(process.env.DATA_DIR!, "uploads"));

    Object.assign(process.env, s3.env);
    resetEnvForTests();
    setStorage(undefined);
    const chosen = getStorage();
    expect(chosen).toBeInstanceOf(S3Storage);
    expect((chosen as S3Storage).bucket).toBe(s3.bucket);
    const key = newStorageKey();
    await chosen.put(key, bytesOf(1000));
    expect(s3.objectKeys()).toContain(key);
    await (chosen as S3Storage).close();
  });
});
