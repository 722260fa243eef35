// A real S3-compatible server for tests: s3rver (an S3 API over a folder) on 127.0.0.1 at a
// random port, with one bucket. What it stores is read straight from its folder, so a test sees
// what is in the bucket without going through the code under test.
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import S3rver from "s3rver";
import type { S3Settings } from "~/server/platform/env.server";

/** s3rver's one account. */
const ACCESS_KEY = "S3RVER";

/** s3rver's folder layout: `<bucket>/<key>._S3rver_object`, pending uploads in `<bucket>/._S3rver_uploads/<id>`. */
const OBJECT_SUFFIX = "._S3rver_object";
const UPLOADS_FOLDER = "._S3rver_uploads";

export type TestS3 = {
  endpoint: string;
  bucket: string;
  /** What the app is given to use the bucket. */
  settings: S3Settings;
  /** The same as environment variables, for a server or script process. */
  env: Record<string, string>;
  /** The keys of the objects in the bucket, sorted. */
  objectKeys(): string[];
  /** An object's bytes as the store holds them. */
  objectBytes(key: string): Buffer;
  /** Multipart uploads started and neither completed nor aborted. */
  pendingUploads(): string[];
  /** Answers the requests `matches` picks with 403 AccessDenied (S3 refusing them) until cleared. */
  refuse(matches: ((request: { method: string; url: URL }) => boolean) | null): void;
  /** Every request it received (method and path with query), oldest first. */
  requests: string[];
  close(): Promise<void>;
};

/** What s3rver's folder store does that is replaced below. */
type FolderStore = {
  getResourcePath(bucket: string, key: string | undefined, kind: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown }): Promise<{ size: number; md5: string }>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: Readable): Promise<{ size: number; md5: string }>;
};

/** Writes `content` to `file` and answers its size and MD5 once the file holds all of it. */
async function writeWhole(content: Buffer | Readable, file: string): Promise<{ size: number; md5: string }> {
  mkdirSync(path.dirname(file), { recursive: true });
  const md5 = createHash("md5");
  let size = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, counting, createWriteStream(file));
  return { size, md5: md5.digest("hex") };
}

/**
 * s3rver 3.7 answers a PUT of an object or a part once the request's bytes are read, before its
 * file holds them: a GET right after the answer could read the file half written (a test failed
 * on it). Its two writes are done again here, answering once the file is written.
 */
function answerOnceWritten(store: FolderStore): void {
  store.putObject = async (object) => {
    const written = await writeWhole(object.content, store.getResourcePath(object.bucket, object.key, "object"));
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const file = path.join(store.getResourcePath(bucket, undefined, "uploads"), uploadId, String(partNumber));
    const written = await writeWhole(content, file);
    writeFileSync(`${file}.md5`, written.md5);
    return written;
  };
}

function errorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

export async function startS3Server(bucket = "taxbridge-documents"): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "taxbridge-s3-"));
  const store = new S3rver({
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  answerOnceWritten((store as unknown as { store: FolderStore }).store);
  await store.configureBuckets();
  const handle = store.callback();
  const bucketDir = path.join(directory, bucket);
  let refusing: ((request: { method: string; url: URL }) => boolean) | null = null;
  const requests: string[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    requests.push(`${method} ${url.pathname}${url.search}`);
    if (refusing?.({ method, url })) {
      req.resume();
      res.writeHead(403, { "Content-Type": "application/xml", Connection: "close" });
      res.end(errorXml("AccessDenied", "Access Denied"));
      return;
    }
    // s3rver 3.7 does not implement AbortMultipartUpload (it answers 405): done here as S3 does
    // it, by deleting the upload's parts.
    const uploadId = url.searchParams.get("uploadId");
    if (method === "DELETE" && uploadId !== null) {
      const folder = path.join(bucketDir, UPLOADS_FOLDER, uploadId);
      const known = /^[0-9a-f]+$/.test(uploadId) && existsSync(folder);
      if (known) rmSync(folder, { recursive: true, force: true });
      res.writeHead(known ? 204 : 404, known ? {} : { "Content-Type": "application/xml" });
      res.end(known ? undefined : errorXml("NoSuchUpload", "The specified upload does not exist."));
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    bucket,
    settings: {
      bucket,
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    },
    env: {
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    },
    objectKeys() {
      if (!existsSync(bucketDir)) return [];
      return readdirSync(bucketDir)
        .filter((name) => name.endsWith(OBJECT_SUFFIX))
        .map((name) => name.slice(0, -OBJECT_SUFFIX.length))
        .sort();
    },
    objectBytes(key) {
      return readFileSync(path.join(bucketDir, `${key}${OBJECT_SUFFIX}`));
    },
    pendingUploads() {
      const folder = path.join(bucketDir, UPLOADS_FOLDER);
      return existsSync(folder) ? readdirSync(folder).sort() : [];
    },
    refuse(matches) {
      refusing = matches;
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
