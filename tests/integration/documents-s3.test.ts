// Documents kept in an S3-compatible bucket (s3rver on loopback), through the real routes: an
// upload lands in the bucket and nowhere on the local disk, a download streams it back, a
// removal deletes the object. And downloads stream from the local folder too.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/server/db/client.server";
import { auditLog, documents } from "~/server/db/schema";
import { LocalDiskStorage, S3Storage, setStorage } from "~/server/storage/storage.server";
import { routeArgs, routeModule } from "../helpers/route";
import type { RouteArgs } from "../helpers/route";
import { startS3Server } from "../helpers/s3-server";
import type { TestS3 } from "../helpers/s3-server";
import { makeStaff, signedInClient, withCookie } from "./helpers";

type Account = { id: string; cookie: string };
type Answer = { uploaded: Array<{ id: string; name: string }>; refused: Array<{ name: string; reason: string }> };

const uploadRoute = routeModule("routes/admin/document-upload.ts");
const documentsRoute = routeModule("routes/admin/client-documents.tsx");
const downloadRoute = routeModule("routes/portal/document-download.ts");

const MB = 1024 * 1024;
/** A PDF of `size` bytes: a real header, then random bytes. */
function pdfOf(size: number): Buffer {
  const head = Buffer.from("%PDF-1.4\n%");
  return Buffer.concat([head, randomBytes(size - head.length)]);
}

const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const localFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()) : []);

function args(request: Request, params: Record<string, string>) {
  return { ...routeArgs(request), params } as never;
}

async function upload(clientId: string, cookie: string, files: Array<{ name: string; bytes: Uint8Array }>) {
  const form = new FormData();
  form.append("category", "form-16");
  for (const f of files) form.append("files", new Blob([Uint8Array.from(f.bytes)]), f.name);
  const request = withCookie(`/admin/clients/${clientId}/documents/upload`, cookie, { method: "POST", body: form });
  const res = (await (await uploadRoute).action(args(request, { clientId }) as RouteArgs)) as Response;
  return { status: res.status, body: (await res.json()) as Answer };
}

async function download(documentId: string, cookie: string, method = "GET"): Promise<Response> {
  const request = withCookie(`/documents/${documentId}`, cookie, { method });
  return (await (await downloadRoute).loader(args(request, { documentId }) as RouteArgs)) as Response;
}

/** Every chunk of a response's body, as the server would write them. */
async function chunksOf(res: Response): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

async function storageKeyOf(documentId: string): Promise<string> {
  const [row] = await getDb().select({ key: documents.storageKey }).from(documents).where(eq(documents.id, documentId));
  return row!.key;
}

async function downloadsAudited(): Promise<number> {
  return (await getDb().select().from(auditLog).where(eq(auditLog.action, "document-downloaded"))).length;
}

/** The file descriptors of this process that point at `file`. */
function openDescriptorsOf(file: string): string[] {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });
}

let admin: Account;
let client: Account;
let other: Account;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  admin = await signedInClient("staff@example.com");
  await makeStaff(admin);
  client = await signedInClient("client@example.com");
  other = await signedInClient("other@example.com");
});

afterEach(() => setStorage(undefined));

describe("documents in an S3 bucket", () => {
  let s3: TestS3;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startS3Server();
    storage = new S3Storage(s3.settings);
  });
  afterAll(async () => {
    await storage.close();
    await s3.close();
  });
  beforeEach(() => setStorage(storage));

  it("stores an upload in the bucket only, and streams it back to staff and to its client", async () => {
    const pdf = pdfOf(300_000);
    const before = s3.objectKeys();
    const sent = await upload(client.id, admin.cookie, [{ name: "form-16.pdf", bytes: pdf }]);
    expect(sent.status).toBe(200);
    const id = sent.body.uploaded[0]!.id;
    const key = await storageKeyOf(id);
    expect(s3.objectKeys()).toEqual([...before, key].sort());
    expect(s3.objectBytes(key).equals(pdf)).toBe(true);
    expect(localFiles()).toEqual([]);

    await getDb().update(documents).set({ sharedAt: new Date() }).where(eq(documents.id, id));
    for (const who of [admin, client]) {
      const res = await download(id, who.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-length")).toBe("300000");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="form-16.pdf"; filename*=UTF-8''form-16.pdf`);
      expect(Buffer.concat(await chunksOf(res)).equals(pdf)).toBe(true);
    }
    expect(await downloadsAudited()).toBe(2);
    // Another client gets the same 404 as for nothing at all, and nothing is read from the bucket.
    const requestsBefore = s3.requests.length;
    const refused = await download(id, other.cookie);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe("Document not found.");
    expect(s3.requests.length).toBe(requestsBefore);
  });

  it("streams a 20 MB document in and out in pieces, byte for byte", async () => {
    const pdf = pdfOf(20 * MB - 1024);
    const sent = await upload(client.id, admin.cookie, [{ name: "scan.pdf", bytes: pdf }]);
    expect(sent.status).toBe(200);
    const key = await storageKeyOf(sent.body.uploaded[0]!.id);
    expect(s3.objectBytes(key).equals(pdf)).toBe(true);
    const res = await download(sent.body.uploaded[0]!.id, admin.cookie);
    const chunks = await chunksOf(res);
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThan(MB);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
  });

  it("answers HEAD with the headers and no body, and 404 once the object is gone from the bucket", async () => {
    const pdf = pdfOf(5000);
    const sent = await upload(client.id, admin.cookie, [{ name: "a.pdf", bytes: pdf }]);
    const id = sent.body.uploaded[0]!.id;
    const head = await download(id, admin.cookie, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("5000");
    expect(head.body).toBeNull();

    await storage.remove(await storageKeyOf(id));
    const gone = await download(id, admin.cookie);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe("Document not found.");
  });

  it("deletes the object when staff remove the document", async () => {
    const sent = await upload(client.id, admin.cookie, [
      { name: "keep.pdf", bytes: pdfOf(2000) },
      { name: "drop.pdf", bytes: pdfOf(3000) },
    ]);
    const [keep, drop] = sent.body.uploaded;
    const keepKey = await storageKeyOf(keep!.id);
    const dropKey = await storageKeyOf(drop!.id);
    expect(s3.objectKeys()).toEqual(expect.arrayContaining([keepKey, dropKey]));
    const body = new URLSearchParams({ intent: "remove", documentIds: drop!.id });
    const request = withCookie(`/admin/clients/${client.id}/documents`, admin.cookie, { method: "POST", body });
    await (await documentsRoute).action(args(request, { clientId: client.id }) as RouteArgs);
    expect(s3.objectKeys()).toContain(keepKey);
    expect(s3.objectKeys()).not.toContain(dropKey);
    expect((await download(drop!.id, admin.cookie)).status).toBe(404);
  });
});

describe("downloads from the local folder", () => {
  beforeEach(() => setStorage(new LocalDiskStorage(uploadsDir())));

  it("stream the file in pieces and let go of it when the reader stops early", async () => {
    const pdf = pdfOf(3 * MB);
    const sent = await upload(client.id, admin.cookie, [{ name: "big.pdf", bytes: pdf }]);
    const id = sent.body.uploaded[0]!.id;
    const file = path.join(uploadsDir(), await storageKeyOf(id));

    const whole = await download(id, admin.cookie);
    expect(whole.headers.get("content-length")).toBe(String(3 * MB));
    const chunks = await chunksOf(whole);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
    expect(openDescriptorsOf(file)).toEqual([]);

    // The visitor goes away after the first piece: the file is closed.
    const partial = await download(id, admin.cookie);
    const reader = partial.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    expect(openDescriptorsOf(file)).toHaveLength(1);
    await reader.cancel();
    expect(openDescriptorsOf(file)).toEqual([]);

    // HEAD reads nothing and keeps nothing open.
    const head = await download(id, admin.cookie, "HEAD");
    expect(head.headers.get("content-length")).toBe(String(3 * MB));
    expect(openDescriptorsOf(file)).toEqual([]);
  });
});
