// A received file's memory: its chunks are freed as soon as storage has written them, rather
// than when the garbage collector next runs (docs/decisions/0012).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMultipart, requestBodyStream } from "~/server/http/multipart.server";
import type { MultipartFile } from "~/server/http/multipart.server";
import { LocalDiskStorage, handOver, newStorageKey } from "~/server/storage/storage.server";

const KB = 1024;
const MB = 1024 * KB;
const BOUNDARY = "----rss-test-boundary";

let dir: string;
let storage: LocalDiskStorage;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "taxbridge-rss-"));
  storage = new LocalDiskStorage(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The byte at `i` of a test file: not all alike, so a misplaced chunk shows. */
const byteAt = (i: number) => (i * 2654435761) >>> 24;

/** `size` bytes of the test file from `start`, in memory of their own. */
function fileBytes(start: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = byteAt(start + i);
  return bytes;
}

async function* chunksOf(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

/**
 * A multipart body with one PDF of `size` bytes, as Node's HTTP parser hands it on: 64 KB
 * chunks, each in memory of its own, made as they are read. `onRead` runs before each chunk.
 */
function multipartSource(size: number, onRead: () => void = () => undefined): Readable {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="category"\r\n\r\nform-16\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const total = head.length + size + tail.length;
  let sent = 0;
  return new Readable({
    highWaterMark: 16 * KB,
    read() {
      onRead();
      if (sent === total) return void this.push(null);
      const length = Math.min(64 * KB, total - sent);
      const chunk = Buffer.alloc(length);
      for (let i = 0; i < length; i++) {
        const at = sent + i;
        chunk[i] =
          at < head.length
            ? head[at]!
            : at < head.length + size
              ? byteAt(at - head.length)
              : tail[at - head.length - size]!;
      }
      sent += length;
      this.push(chunk);
    },
  });
}

function uploadRequest(body: ReadableStream<Uint8Array>): Request {
  return new Request("http://localhost/upload", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    duplex: "half",
  } as RequestInit);
}

const LIMITS = { maxRequestBytes: 100 * MB, maxFileBytes: 20 * MB, maxFieldBytes: 64 * KB };

/** Reads the form, storing each file with `storage.put`; the chunks it was given are kept in `seen`. */
async function storeForm(request: Request, seen: Uint8Array[] = []): Promise<string[]> {
  const keys: string[] = [];
  const outcome = await readMultipart(request, LIMITS, async (file: MultipartFile) => {
    const key = newStorageKey();
    async function* tap(): AsyncGenerator<Uint8Array> {
      for await (const chunk of file.chunks) {
        seen.push(chunk);
        yield chunk;
      }
    }
    await storage.put(key, tap());
    keys.push(key);
  });
  expect(outcome.ok).toBe(true);
  return keys;
}

describe("storage frees what was handed over once it is written", () => {
  it("frees a handed-over chunk after writing it, and leaves any other bytes alone", async () => {
    const handed = fileBytes(0, 64 * KB);
    handOver(handed);
    const notHanded = fileBytes(64 * KB, 64 * KB);
    // A view of part of handed-over memory: other views may share it, so it is never freed.
    const shared = fileBytes(128 * KB, 128 * KB);
    handOver(shared);
    const part = shared.subarray(0, 64 * KB);
    const expected = Buffer.concat([handed, notHanded, part]);

    const key = newStorageKey();
    await storage.put(key, chunksOf(handed, notHanded, part));

    expect(readFileSync(path.join(dir, key)).equals(expected)).toBe(true);
    expect(handed.byteLength).toBe(0);
    expect(notHanded.equals(fileBytes(64 * KB, 64 * KB))).toBe(true);
    expect(shared.equals(fileBytes(128 * KB, 128 * KB))).toBe(true);
  });

  it("takes over only memory that is all one view's", () => {
    const whole = Buffer.alloc(4 * KB, 7);
    handOver(whole.subarray(1));
    // Not handed over, so writing it would leave it as it is; handing over nothing is harmless.
    handOver(new Uint8Array(0));
    expect(whole.byteLength).toBe(4 * KB);
  });

  it("frees nothing, and stores nothing, when the chunks fail midway", async () => {
    const handed = fileBytes(0, 64 * KB);
    handOver(handed);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield handed;
      throw new Error("the sender went away");
    }
    await expect(storage.put(newStorageKey(), failing())).rejects.toThrow("the sender went away");
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("a request's body as a byte stream", () => {
  it("is a byte stream, read from its source only as fast as it is read", async () => {
    let reads = 0;
    const body = requestBodyStream(multipartSource(4 * MB, () => (reads += 1)));
    // A byte stream: a BYOB reader may be taken.
    body.getReader({ mode: "byob" }).releaseLock();
    const reader = body.getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(64 * KB);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // 64 chunks are waiting at the source; only the one read and the next few are taken.
    expect(reads).toBeLessThanOrEqual(4);
    await reader.cancel();
  });

  it("takes each chunk's memory over, and copies a chunk that shares its memory", async () => {
    const whole = Buffer.alloc(64 * KB, 1);
    const shared = Buffer.alloc(64 * KB, 2);
    const body = requestBodyStream(
      Readable.from([whole, shared.subarray(0, 32 * KB)], { objectMode: false }),
    );
    const received: Uint8Array[] = [];
    const reader = body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) received.push(next.value);
    expect(received.map((c) => c.byteLength)).toEqual([64 * KB, 32 * KB]);
    expect(received[0]!.every((b) => b === 1)).toBe(true);
    // The whole chunk's memory moved into the stream; the shared memory is still its owner's.
    expect(whole.byteLength).toBe(0);
    expect(shared.byteLength).toBe(64 * KB);
    expect(shared.every((b) => b === 2)).toBe(true);
  });

  it("fails when its source fails", async () => {
    const source = new Readable({ read() {} });
    const reader = requestBodyStream(source).getReader();
    source.destroy(new Error("cut short"));
    await expect(reader.read()).rejects.toThrow("cut short");
  });
});

describe("an upload read from a byte stream", () => {
  it("stores the file byte for byte and frees its chunks as they are written", async () => {
    const size = 3 * MB + 12_345;
    const seen: Uint8Array[] = [];
    const [key] = await storeForm(uploadRequest(requestBodyStream(multipartSource(size))), seen);
    expect(readFileSync(path.join(dir, key!)).equals(fileBytes(0, size))).toBe(true);
    // Nearly every chunk was freed once written. Left to the garbage collector: the first and the
    // last (the body's other parts share their memory), and the few the parser cut where the
    // next part's boundary might have begun.
    const freed = seen.filter((c) => c.byteLength === 0).length;
    expect(freed).toBeGreaterThanOrEqual(seen.length * 0.9);
  });

  it("never holds the file: received memory stays far below a 20 MB file", async () => {
    const size = 20 * MB - 64 * KB;
    const base = process.memoryUsage().arrayBuffers;
    let most = 0;
    const source = multipartSource(size, () => {
      most = Math.max(most, process.memoryUsage().arrayBuffers - base);
    });
    const [key] = await storeForm(uploadRequest(requestBodyStream(source)));
    expect(readFileSync(path.join(dir, key!)).byteLength).toBe(size);
    // Chunks in flight and the type check's first 64 KB; without freeing, every byte received
    // stays allocated until the garbage collector runs (it rarely does during an upload).
    expect(most).toBeLessThan(2 * MB);
  });

  it("leaves the chunks of a body that is not a byte stream to whoever made them", async () => {
    // Another stream's chunks may be shared: here the same memory is queued twice.
    const text = new TextEncoder();
    const content = fileBytes(0, 64 * KB);
    const pieces = [
      text.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n`),
      content,
      content,
      text.encode(`\r\n--${BOUNDARY}--\r\n`),
    ];
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces[next++];
        if (piece) controller.enqueue(piece);
        else controller.close();
      },
    });
    const [key] = await storeForm(uploadRequest(body));
    expect(readFileSync(path.join(dir, key!)).equals(Buffer.concat([content, content]))).toBe(true);
    expect(content.byteLength).toBe(64 * KB);
  });
});
