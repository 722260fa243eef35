import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "~/domain/documents";
import { getDb } from "~/server/db/client.server";
import { auditLog, documents, user } from "~/server/db/schema";
import { LocalDiskStorage, setStorage, streamOf } from "~/server/storage/storage.server";
import type { FileStorage } from "~/server/storage/storage.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import type { RouteArgs } from "../helpers/route";
import * as helpers from "./helpers";
import { signedInClient, withCookie } from "./helpers";

type Account = { id: string; cookie: string };

// Each route runs behind the middleware of the layouts above it, as the server runs it.
const documentsRoute = routeModule("routes/admin/client-documents.tsx");
const uploadRoute = routeModule("routes/admin/document-upload.ts");
const downloadRoute = routeModule("routes/portal/document-download.ts");
const documentsLoader = async (a: RouteArgs) => (await documentsRoute).loader(a);
const documentsAction = async (a: RouteArgs) => (await documentsRoute).action(a);
const uploadAction = async (a: RouteArgs) => (await uploadRoute).action(a);
const downloadLoader = async (a: RouteArgs) => (await downloadRoute).loader(a);
type Answer = {
  uploaded: Array<{ id: string; name: string }>;
  refused: Array<{ name: string; reason: string }>;
  error?: string;
};
type Listing = {
  client: { id: string; code: string; name: string; email: string };
  groups: Array<{
    key: string;
    label: string;
    documents: Array<{ id: string; name: string; size: number; contentType: string; uploadedAt: string }>;
  }>;
};

const ascii = (s: string) => new TextEncoder().encode(s);
const PDF = ascii("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
const FAKE_PDF = ascii("<!doctype html><script>alert(1)</script>");

const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).sort() : []);

let admin: Account;
let client: Account;
let other: Account;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  admin = await signedInClient("staff@example.com");
  await makeAdmin(admin);
  client = await signedInClient("client@example.com");
  other = await signedInClient("other@example.com");
});

afterEach(() => setStorage(undefined));

/**
 * Staff with whatever an admin session needs: the shared helper's makeStaff where the tree has
 * it (staff second factor), else the role alone.
 */
async function makeAdmin(account: Account): Promise<void> {
  const makeStaff = (helpers as unknown as Record<string, unknown>).makeStaff;
  if (typeof makeStaff === "function")
    await (makeStaff as (member: { id: string }) => Promise<unknown>)(account);
  else await getDb().update(user).set({ role: "admin" }).where(eq(user.id, account.id));
}

function args(request: Request, params: Record<string, string>) {
  return { ...routeArgs(request), params } as never;
}

function uploadRequest(
  clientId: string,
  cookie: string,
  category: string,
  files: Array<{ name: string; bytes: Uint8Array; type?: string }>,
) {
  const form = new FormData();
  form.append("category", category);
  for (const f of files)
    form.append("files", new Blob([f.bytes.slice()], { type: f.type ?? "application/octet-stream" }), f.name);
  return withCookie(`/admin/clients/${clientId}/documents/upload`, cookie, { method: "POST", body: form });
}

async function upload(
  clientId: string,
  category: string,
  files: Array<{ name: string; bytes: Uint8Array; type?: string }>,
  cookie = admin.cookie,
) {
  const res = (await uploadAction(
    args(uploadRequest(clientId, cookie, category, files), { clientId }),
  )) as Response;
  return { status: res.status, body: (await res.json()) as Answer, headers: res.headers };
}

async function list(clientId: string, cookie = admin.cookie): Promise<Listing> {
  return unwrap<Listing>(
    await documentsLoader(args(withCookie(`/admin/clients/${clientId}/documents`, cookie), { clientId })),
  ).body;
}

function removeRequest(clientId: string, cookie: string, ids: string[]) {
  const body = new URLSearchParams({ intent: "remove" });
  for (const id of ids) body.append("documentIds", id);
  return withCookie(`/admin/clients/${clientId}/documents`, cookie, { method: "POST", body });
}

async function download(documentId: string, cookie: string): Promise<Response> {
  return (await downloadLoader(
    args(withCookie(`/documents/${documentId}`, cookie), { documentId }),
  )) as Response;
}

async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

async function auditRows(action: (typeof auditLog.$inferSelect)["action"]) {
  return getDb().select().from(auditLog).where(eq(auditLog.action, action));
}

describe("document access", () => {
  it("refuses the documents loader, its action and the upload to clients and visitors", async () => {
    const calls: Array<(cookie: string) => Promise<unknown>> = [
      (c) =>
        documentsLoader(
          args(withCookie(`/admin/clients/${client.id}/documents`, c), { clientId: client.id }),
        ),
      (c) =>
        documentsAction(
          args(removeRequest(client.id, c, ["00000000-0000-0000-0000-000000000000"]), {
            clientId: client.id,
          }),
        ),
      (c) =>
        uploadAction(
          args(uploadRequest(client.id, c, "form-16", [{ name: "a.pdf", bytes: PDF }]), {
            clientId: client.id,
          }),
        ),
    ];
    for (const call of calls) {
      const asClient = await thrown(() => call(client.cookie));
      expect(asClient).toBeInstanceOf(Response);
      expect((asClient as Response).headers.get("location")).toBe("/dashboard");
      const asVisitor = await thrown(() => call(""));
      expect((asVisitor as Response).headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    }
    expect(await getDb().select().from(documents)).toHaveLength(0);
    expect(storedFiles()).toEqual([]);
    expect(await getDb().select().from(auditLog)).toHaveLength(0);
  });

  it("sends visitors to sign in for a download", async () => {
    const res = await thrown(() => download("00000000-0000-0000-0000-000000000000", ""));
    expect((res as Response).headers.get("location")).toMatch(/^\/login\?redirectTo=%2Fdocuments%2F/);
  });

  it("answers 404 for an id that is not a client's", async () => {
    const notFound = await thrown(() => list(admin.id));
    expect(notFound).toMatchObject({ init: { status: 404 } });
    const upl = await upload(admin.id, "form-16", [{ name: "a.pdf", bytes: PDF }]);
    expect(upl.status).toBe(404);
    const removal = unwrap<{ ok: boolean }>(
      await documentsAction(args(removeRequest("nobody", admin.cookie, []), { clientId: "nobody" })),
    );
    expect(removal.status).toBe(404);
  });
});

describe("uploads", () => {
  it("stores a real PDF and PNG under random names, lists them by category, and audits each", async () => {
    const res = await upload(client.id, "form-16", [
      { name: "Form16 2024.pdf", bytes: PDF, type: "text/html" },
      { name: "scan.png", bytes: PNG },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.refused).toEqual([]);
    expect(res.body.uploaded.map((u) => u.name)).toEqual(["Form16 2024.pdf", "scan.png"]);

    const rows = await getDb().select().from(documents).where(eq(documents.clientId, client.id));
    expect(rows).toHaveLength(2);
    const pdf = rows.find((r) => r.originalName === "Form16 2024.pdf")!;
    // The type comes from the content check, not from what the browser claimed.
    expect(pdf).toMatchObject({
      category: "form-16",
      size: PDF.length,
      contentType: "application/pdf",
      uploadedBy: admin.id,
    });
    expect(rows.find((r) => r.originalName === "scan.png")).toMatchObject({
      contentType: "image/png",
      size: PNG.length,
    });

    // On disk: one file per row, named by its random key, owner-only, with the exact bytes.
    expect(storedFiles()).toEqual(rows.map((r) => r.storageKey).sort());
    for (const r of rows)
      expect(r.storageKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(statSync(uploadsDir()).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(uploadsDir(), pdf.storageKey)).mode & 0o777).toBe(0o600);
    expect(new Uint8Array(readFileSync(path.join(uploadsDir(), pdf.storageKey)))).toEqual(PDF);

    const listing = await list(client.id);
    expect(listing.client).toMatchObject({ id: client.id, email: "client@example.com" });
    expect(listing.client.code).toMatch(/^TB-\d{5}$/);
    expect(listing.groups.map((g) => g.label)).toEqual([
      "PAN Card",
      "Aadhar Card",
      "Form 16",
      "Bank Statements",
      "Investment Proofs",
      "Rent Receipts",
      "Previous ITR",
      "Other Documents",
      "W-2",
      "1042-S",
      "1099 Forms",
      "Passport and Visa (I-20, DS-2019, I-94)",
      "Prior US Returns",
    ]);
    const form16 = listing.groups.find((g) => g.key === "form-16")!;
    expect(form16.documents.map((d) => d.name).sort()).toEqual(["Form16 2024.pdf", "scan.png"]);
    expect(listing.groups.filter((g) => g.key !== "form-16").every((g) => g.documents.length === 0)).toBe(
      true,
    );

    const uploads = await auditRows("document-uploaded");
    expect(uploads).toHaveLength(2);
    expect(
      uploads.every(
        (a) => a.actorId === admin.id && a.clientId === client.id && a.ipAddress === "203.0.113.10",
      ),
    ).toBe(true);
    expect(uploads.map((a) => a.detail).sort()).toEqual([
      "Form 16: Form16 2024.pdf (0.07 KB)",
      "Form 16: scan.png (0.03 KB)",
    ]);
    const viewed = await auditRows("documents-viewed");
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({ actorId: admin.id, clientId: client.id, detail: "2 documents" });
  });

  it("refuses a .pdf that is really HTML with its reason while the other file still uploads", async () => {
    const res = await upload(client.id, "bank-statements", [
      { name: "statement.pdf", bytes: FAKE_PDF },
      { name: "photo.png", bytes: PNG },
      { name: "x.pdf.html", bytes: PDF },
      { name: "empty.pdf", bytes: new Uint8Array(0) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.uploaded.map((u) => u.name)).toEqual(["photo.png"]);
    expect(res.body.refused).toEqual([
      { name: "statement.pdf", reason: "the file's content is not a real PDF" },
      { name: "x.pdf.html", reason: "only PDF, JPG, PNG, DOC and DOCX files are accepted" },
      { name: "empty.pdf", reason: "the file is empty" },
    ]);
    const rows = await getDb().select().from(documents);
    expect(rows.map((r) => r.originalName)).toEqual(["photo.png"]);
    // Nothing half-written or refused stays on disk: only the stored file, no temporary ones.
    expect(storedFiles()).toEqual([rows[0]!.storageKey]);
    expect(await auditRows("document-uploaded")).toHaveLength(1);
  });

  it("answers 400 when nothing was accepted, and for a bad category or no file", async () => {
    const none = await upload(client.id, "form-16", [{ name: "statement.pdf", bytes: FAKE_PDF }]);
    expect(none.status).toBe(400);
    expect(none.body.uploaded).toEqual([]);
    expect((await upload(client.id, "tax-secrets", [{ name: "a.pdf", bytes: PDF }])).status).toBe(400);
    expect((await upload(client.id, "form-16", [])).status).toBe(400);
    expect(await getDb().select().from(documents)).toHaveLength(0);
    expect(storedFiles()).toEqual([]);
  });

  it("refuses a file over 20 MB", async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(PDF);
    const res = await upload(client.id, "form-16", [{ name: "big.pdf", bytes: big }]);
    expect(res.status).toBe(400);
    expect(res.body.refused).toEqual([{ name: "big.pdf", reason: "the file is larger than 20 MB" }]);
    expect(storedFiles()).toEqual([]);
  });

  it("refuses a request over 100 MB before reading it whole", async () => {
    const declared = withCookie(`/admin/clients/${client.id}/documents/upload`, admin.cookie, {
      method: "POST",
      body: "x",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(101 * 1024 * 1024),
      },
    });
    const byHeader = (await uploadAction(args(declared, { clientId: client.id }))) as Response;
    expect(byHeader.status).toBe(413);

    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 200) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = new Request(`http://localhost:3000/admin/clients/${client.id}/documents/upload`, {
      method: "POST",
      body: stream,
      headers: { cookie: admin.cookie, "content-type": "multipart/form-data; boundary=x" },
      duplex: "half",
    } as RequestInit);
    const res = (await uploadAction(args(streamed, { clientId: client.id }))) as Response;
    expect(res.status).toBe(413);
    expect(((await res.json()) as Answer).error).toMatch(/larger than 100 MB/);
    expect(sent).toBeLessThanOrEqual(102);
  });

  it("refuses a file over 20 MB as it arrives: nothing stored, never held whole, the next file still stored", async () => {
    const MB = 1024 * 1024;
    const encoder = new TextEncoder();
    const boundary = "----taxbridge-test-boundary";
    const part = (field: string, fileName?: string) =>
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"` +
          (fileName ? `; filename="${fileName}"\r\nContent-Type: application/pdf` : "") +
          "\r\n\r\n",
      );
    const filler = new Uint8Array(MB).fill(0x20);
    // The body is made as it is read: the category, a 25 MB PDF, a small PNG.
    const pieces: Array<() => Uint8Array> = [
      () => part("category"),
      () => encoder.encode("form-16\r\n"),
      () => part("files", "huge.pdf"),
      () => PDF,
      ...Array.from({ length: 25 }, () => () => filler),
      () => encoder.encode("\r\n"),
      () => part("files", "after.png"),
      () => PNG,
      () => encoder.encode(`\r\n--${boundary}--\r\n`),
    ];
    let read = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces[read];
        if (!next) return controller.close();
        read += 1;
        controller.enqueue(next());
      },
    });
    // Counts how much of the body had been read when the first file's bytes reached storage.
    const disk = new LocalDiskStorage(uploadsDir());
    const readAtFirstPut: number[] = [];
    setStorage({
      put: (key, data) => {
        readAtFirstPut.push(read);
        return disk.put(key, data);
      },
      get: (key) => disk.get(key),
      open: (key) => disk.open(key),
      remove: (key) => disk.remove(key),
    });
    const request = new Request(`http://localhost:3000/admin/clients/${client.id}/documents/upload`, {
      method: "POST",
      body,
      headers: { cookie: admin.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    const res = (await uploadAction(args(request, { clientId: client.id }))) as Response;
    const answer = (await res.json()) as Answer;
    expect(res.status).toBe(200);
    expect(answer.refused).toEqual([{ name: "huge.pdf", reason: "the file is larger than 20 MB" }]);
    expect(answer.uploaded.map((u) => u.name)).toEqual(["after.png"]);
    // Storage was writing the large file while most of it had not been read yet.
    expect(readAtFirstPut[0]).toBeLessThanOrEqual(8);
    const rows = await getDb().select().from(documents);
    expect(rows.map((r) => r.originalName)).toEqual(["after.png"]);
    // Nothing of the refused file is left, not even a temporary file.
    expect(storedFiles()).toEqual([rows[0]!.storageKey]);
    expect(read).toBe(pieces.length);
  });

  it("stores a file of several megabytes byte for byte as it was sent", async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024 + 12345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    bytes.set(PDF);
    const res = await upload(client.id, "bank-statements", [{ name: "year.pdf", bytes }]);
    expect(res.status).toBe(200);
    const [row] = await getDb().select().from(documents);
    expect(row).toMatchObject({
      originalName: "year.pdf",
      size: bytes.length,
      contentType: "application/pdf",
    });
    expect(
      Buffer.from(readFileSync(path.join(uploadsDir(), row!.storageKey))).equals(Buffer.from(bytes)),
    ).toBe(true);
    const downloaded = await download(res.body.uploaded[0]!.id, admin.cookie);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("never uses the sender's name as a path", async () => {
    const res = await upload(client.id, "other-documents", [{ name: "../../escape.pdf", bytes: PDF }]);
    expect(res.status).toBe(200);
    const [row] = await getDb().select().from(documents);
    expect(row!.originalName).toBe("escape.pdf");
    expect(storedFiles()).toEqual([row!.storageKey]);
    expect(existsSync(path.join(process.env.DATA_DIR!, "escape.pdf"))).toBe(false);
  });

  it("removes the stored file again when the database refuses the row", async () => {
    const held = new Map<string, Uint8Array>();
    const removed: string[] = [];
    const storage: FileStorage = {
      async put(key, data) {
        const chunks: Uint8Array[] = [];
        if (data instanceof Uint8Array) chunks.push(data);
        else for await (const chunk of data) chunks.push(chunk);
        held.set(key, Buffer.concat(chunks));
        // The client account disappears between the check and the insert: the row is refused.
        await getDb().delete(user).where(eq(user.id, client.id));
      },
      async get(key) {
        const data = held.get(key);
        if (!data) throw new Error("missing");
        return data;
      },
      async open(key) {
        const data = await this.get(key);
        return { size: data.byteLength, body: streamOf([data]) };
      },
      async remove(key) {
        removed.push(key);
        held.delete(key);
      },
    };
    setStorage(storage);
    const res = await upload(client.id, "form-16", [{ name: "a.pdf", bytes: PDF }]);
    expect(res.status).toBe(400);
    expect(res.body.refused).toEqual([
      { name: "a.pdf", reason: "the file could not be saved; please try again" },
    ]);
    expect(removed).toHaveLength(1);
    expect(held.size).toBe(0);
    expect(await getDb().select().from(documents)).toHaveLength(0);
  });
});

describe("downloads", () => {
  it("lets staff and the owning client download, with a safe attachment, and audits it", async () => {
    const { body } = await upload(client.id, "pan-card", [{ name: 'PAN "card" ñ.pdf', bytes: PDF }]);
    const id = body.uploaded[0]!.id;
    // A document staff upload reaches the client only once shared.
    expect((await download(id, client.cookie)).status).toBe(404);
    await getDb().update(documents).set({ sharedAt: new Date() }).where(eq(documents.id, id));

    for (const who of [admin, client]) {
      const res = await download(id, who.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="PAN _card_ _.pdf"; filename*=UTF-8''PAN%20_card_%20%C3%B1.pdf`,
      );
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
    }

    const downloads = await auditRows("document-downloaded");
    expect(downloads.map((a) => a.actorId).sort()).toEqual([admin.id, client.id].sort());
    expect(
      downloads.every((a) => a.clientId === client.id && a.detail === "PAN Card: PAN _card_ ñ.pdf"),
    ).toBe(true);
  });

  it("answers the same 404 to another client as for a document that does not exist", async () => {
    const { body } = await upload(client.id, "pan-card", [{ name: "pan.pdf", bytes: PDF }]);
    const id = body.uploaded[0]!.id;
    const forbidden = await download(id, other.cookie);
    const missing = await download("00000000-0000-4000-8000-000000000000", other.cookie);
    const malformed = await download("../../etc/passwd", admin.cookie);
    for (const res of [forbidden, missing, malformed]) {
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("Document not found.");
    }
    expect(await auditRows("document-downloaded")).toHaveLength(0);
  });

  it("answers 404 when the stored file is gone", async () => {
    const { body } = await upload(client.id, "pan-card", [{ name: "pan.pdf", bytes: PDF }]);
    rmSync(uploadsDir(), { recursive: true, force: true });
    expect((await download(body.uploaded[0]!.id, admin.cookie)).status).toBe(404);
  });
});

describe("removals", () => {
  it("deletes the row and the file, only within the client named, and audits it", async () => {
    const mine = await upload(client.id, "rent-receipts", [
      { name: "rent-jan.pdf", bytes: PDF },
      { name: "rent-feb.png", bytes: PNG },
    ]);
    const theirs = await upload(other.id, "rent-receipts", [{ name: "theirs.pdf", bytes: PDF }]);
    const [jan, feb] = mine.body.uploaded;
    const foreign = theirs.body.uploaded[0]!;
    const janRow = (await getDb().select().from(documents).where(eq(documents.id, jan!.id)))[0]!;

    // Another client's document named under this client's URL is left alone.
    const res = unwrap<{ ok: boolean; removed: number; message: string }>(
      await documentsAction(
        args(removeRequest(client.id, admin.cookie, [jan!.id, foreign.id, "not-an-id"]), {
          clientId: client.id,
        }),
      ),
    );
    expect(res.body).toEqual({ ok: true, removed: 1, message: "1 document removed." });

    const left = await getDb().select().from(documents);
    expect(left.map((r) => r.id).sort()).toEqual([feb!.id, foreign.id].sort());
    expect(existsSync(path.join(uploadsDir(), janRow.storageKey))).toBe(false);
    expect(storedFiles()).toEqual(left.map((r) => r.storageKey).sort());
    expect((await download(jan!.id, admin.cookie)).status).toBe(404);

    const removals = await auditRows("document-removed");
    expect(removals).toHaveLength(1);
    expect(removals[0]).toMatchObject({
      actorId: admin.id,
      clientId: client.id,
      detail: "Rent Receipts: rent-jan.pdf",
    });

    const listing = await list(client.id);
    expect(listing.groups.find((g) => g.key === "rent-receipts")!.documents.map((d) => d.name)).toEqual([
      "rent-feb.png",
    ]);
    const [viewed] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "documents-viewed"), eq(auditLog.clientId, client.id)));
    expect(viewed).toMatchObject({ detail: "1 document" });
  });

  it("refuses a request without documents or with another intent", async () => {
    const empty = unwrap<{ ok: boolean }>(
      await documentsAction(args(removeRequest(client.id, admin.cookie, []), { clientId: client.id })),
    );
    expect(empty.status).toBe(400);
    expect(await auditRows("document-removed")).toHaveLength(0);
  });
});
