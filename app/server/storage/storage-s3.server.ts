import { Readable } from "node:stream";
import type * as Sdk from "@aws-sdk/client-s3";
import type { CompletedPart, S3Client } from "@aws-sdk/client-s3";
import { logError } from "~/log";
import type { S3Settings } from "~/server/platform/env.server";
import { StoredObjectNotFoundError, checkKey, readWhole, releaseHandedOver, streamOf } from "./storage-contract.server";
import type { FileStorage, StoredObject } from "./storage-contract.server";

// Documents in an S3-compatible bucket (AWS S3, MinIO, Ceph, Cloudflare R2, Backblaze B2...),
// chosen by S3_BUCKET (app/server/platform/env.server.ts, docs/decisions/0018-object-storage.md).

/**
 * The size of one part of a multipart upload: S3's smallest part (every part but the last must
 * have at least 5 MiB). A part is the most of a file held in memory while it is stored.
 */
export const PART_BYTES = 5 * 1024 * 1024;

/** Part buffers kept for the next upload rather than allocated again for each. */
const IDLE_PARTS_KEPT = 2;
const idleParts: Buffer[] = [];

/** A part buffer: one kept from an earlier upload, or a new one (never zeroed: only what an upload writes into it is ever sent). */
function takePartBuffer(): Buffer {
  return idleParts.pop() ?? Buffer.allocUnsafeSlow(PART_BYTES);
}

/** Keeps a part buffer for the next upload, once nothing can still be sending from it. */
function keepPartBuffer(buffer: Buffer): void {
  if (idleParts.length < IDLE_PARTS_KEPT) idleParts.push(buffer);
}

let sdkLoading: Promise<typeof Sdk> | undefined;

/** The AWS SDK, loaded the first time a bucket is used: a server on the local folder never loads it. */
function loadSdk(): Promise<typeof Sdk> {
  sdkLoading ??= import("@aws-sdk/client-s3");
  return sdkLoading;
}

type ErrorFacts = { name?: unknown; $metadata?: { httpStatusCode?: unknown } };

/** True when S3 says there is no such object (not when the bucket itself is missing). */
function isMissingObject(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const facts = error as ErrorFacts;
  if (facts.name === "NoSuchBucket") return false;
  return facts.name === "NoSuchKey" || facts.name === "NotFound" || facts.$metadata?.httpStatusCode === 404;
}

/**
 * Files as objects of one bucket, each under its storage key (a random UUID) at the bucket's
 * root. Nothing is read or written for a key of any other shape.
 *
 * - `put` streams: the chunks are copied into a part buffer as they arrive and each handed-over
 *   chunk's memory is freed at once (docs/decisions/0012); a file that fits in one part is one
 *   PutObject, a larger one a multipart upload whose parts go out as each fills. While a part is
 *   sent, no more chunks are taken, so the sender waits: at most one part (5 MiB) of a file is
 *   in memory, whatever its size. All or nothing: an object appears only when the last request
 *   succeeds, and a failed or abandoned stream aborts its multipart upload.
 * - `open` streams the object's body as the reader reads it; `get` reads it whole.
 * - `remove` is idempotent, as S3's DeleteObject is.
 */
export class S3Storage implements FileStorage {
  readonly bucket: string;
  private clientLoading: Promise<S3Client> | undefined;

  constructor(private readonly settings: S3Settings) {
    this.bucket = settings.bucket;
  }

  private async client(): Promise<{ sdk: typeof Sdk; client: S3Client }> {
    const sdk = await loadSdk();
    this.clientLoading ??= Promise.resolve(
      new sdk.S3Client({
        region: this.settings.region,
        endpoint: this.settings.endpoint,
        forcePathStyle: this.settings.forcePathStyle,
        credentials: this.settings.credentials,
        // Checksums only where S3 requires them (DeleteObjects, bucket settings), not on every
        // request as the SDK does by default since 3.729 (WHEN_SUPPORTED). That default sends a
        // streamed body with `Content-Encoding: aws-chunked` and a CRC32 trailer, and asks every
        // download for a checksum (`x-amz-checksum-mode`). S3-compatible stores that predate it
        // may not understand the encoding: s3rver 3.7, the tests' store, keeps the chunk framing
        // as part of the object ("b\r\nstream body\r\n0\r\nx-amz-checksum-crc32:..." for
        // "stream body"). Nothing is lost: every upload here is a whole buffer, whose SHA-256
        // SigV4 signs (x-amz-content-sha256), so the store checks each byte it receives against it;
        // storage:migrate reads each object back and compares SHA-256 itself.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 3,
        // A store that does not answer fails the request (and its upload) instead of hanging it.
        requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
      }),
    );
    return { sdk, client: await this.clientLoading };
  }

  async put(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<void> {
    checkKey(key);
    const { sdk, client } = await this.client();
    if (data instanceof Uint8Array && data.byteLength <= PART_BYTES) {
      // Already whole in memory: sent as it is, without a copy.
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
        }),
      );
      releaseHandedOver(data);
      return;
    }

    const part = takePartBuffer();
    let filled = 0;
    let upload: { id: string; parts: CompletedPart[] } | undefined;
    const sendPart = async (bytes: number) => {
      if (!upload) {
        const created = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
        if (!created.UploadId) throw new Error("The bucket did not start a multipart upload.");
        upload = { id: created.UploadId, parts: [] };
      }
      const PartNumber = upload.parts.length + 1;
      const sent = await client.send(
        new sdk.UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: upload.id,
          PartNumber,
          Body: part.subarray(0, bytes),
        }),
      );
      if (!sent.ETag) throw new Error("The bucket did not confirm a part.");
      upload.parts.push({ ETag: sent.ETag, PartNumber });
    };

    try {
      for await (const chunk of data instanceof Uint8Array ? [data] : data) {
        let at = 0;
        while (at < chunk.byteLength) {
          // A full part goes out only once more bytes come: the last part may be the only one.
          if (filled === PART_BYTES) {
            await sendPart(filled);
            filled = 0;
          }
          const taken = Math.min(PART_BYTES - filled, chunk.byteLength - at);
          part.set(chunk.subarray(at, at + taken), filled);
          filled += taken;
          at += taken;
        }
        // Copied into the part: its own memory goes now, not at the next garbage collection.
        releaseHandedOver(chunk);
      }
      if (upload) {
        await sendPart(filled);
        await client.send(
          new sdk.CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: upload.id,
            MultipartUpload: { Parts: upload.parts },
          }),
        );
      } else {
        await client.send(
          new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: part.subarray(0, filled) }),
        );
      }
    } catch (error) {
      if (upload) await this.abort(client, sdk, key, upload.id);
      // A request that failed may still be sending from the part: it is not used again.
      throw error;
    }
    keepPartBuffer(part);
  }

  /** Gives up a multipart upload: its parts are deleted and no object appears. */
  private async abort(client: S3Client, sdk: typeof Sdk, key: string, uploadId: string): Promise<void> {
    try {
      await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      // No object appears all the same (the upload was never completed); its parts stay until
      // the bucket's lifecycle rule for incomplete uploads removes them (README, Object storage).
      logError("storage", `aborting the multipart upload of ${key} failed`, error);
    }
  }

  async open(key: string): Promise<StoredObject> {
    checkKey(key);
    const { sdk, client } = await this.client();
    let answer: Sdk.GetObjectCommandOutput;
    try {
      answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw isMissingObject(error) ? new StoredObjectNotFoundError({ cause: error }) : error;
    }
    const body = answer.Body;
    if (!(body instanceof Readable)) {
      if (body && "destroy" in body && typeof body.destroy === "function") body.destroy();
      throw new Error("The bucket answered without a readable body.");
    }
    if (answer.ContentLength === undefined) {
      body.destroy();
      throw new Error("The bucket did not say how large the object is.");
    }
    // Ending the body early (a reader that cancels) closes its connection.
    return { size: answer.ContentLength, body: streamOf(body, () => void body.destroy()) };
  }

  async get(key: string): Promise<Uint8Array> {
    return readWhole(await this.open(key));
  }

  async remove(key: string): Promise<void> {
    checkKey(key);
    const { sdk, client } = await this.client();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissingObject(error)) throw error;
    }
  }

  /** Closes the connections to the bucket (scripts and tests, when done). */
  async close(): Promise<void> {
    const client = await this.clientLoading;
    client?.destroy();
  }
}
