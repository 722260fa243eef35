import { randomBytes, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackupError, createBackup, restoreBackup } from "../../ops/backup";
import type { BackupSummary } from "../../ops/backup";
import { recordAudit } from "~/server/audit/audit.server";
import type { TaxpayerInput } from "~/domain/taxpayer";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { createContactMessage } from "~/server/contact/contact.server";
import { closeDatabase, getDb, migrateDatabase } from "~/server/db/client.server";
import { documents } from "~/server/db/schema";
import { outboxSettled } from "~/server/mail/outbox.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { setStorage } from "~/server/storage/storage.server";
import { currentFilingYear } from "~/domain/tax-year";
import { getOwnTaxpayerValues, saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, signedInClient } from "./helpers";

// The backup covers the embedded database, so this file always runs on PGlite in data folders
// of its own, also in the PostgreSQL run (DATABASE_URL is cleared here and put back afterwards).

const root = mkdtempSync(path.join(tmpdir(), "taxbridge-backup-"));
const sourceDir = path.join(root, "source");
const archive = path.join(root, "backups", "taxbridge.tar.gz");

const SSN = sampleTaxpayer.ssn_tin;
const record: TaxpayerInput = sampleTaxpayer;

const ascii = (s: string) => new TextEncoder().encode(s);
const SMALL_PDF = ascii("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);
// Large, incompressible and not a multiple of the tar block size: many chunks, real padding.
const LARGE_PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(1_500_001)]);

type TableRows = Record<string, string[]>;

/** Every row of every table as JSON text, sorted: two equal snapshots mean equal contents. */
async function snapshotTables(): Promise<TableRows> {
  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
  const tables = rowsOf<{ schemaname: string; tablename: string }>(
    await getDb().execute(
      sql`select schemaname, tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
    ),
  );
  const snapshot: TableRows = {};
  for (const t of tables) {
    const rows = rowsOf<{ j: string }>(
      await getDb().execute(
        sql.raw(`select row_to_json(t)::text as j from "${t.schemaname}"."${t.tablename}" t order by 1`),
      ),
    );
    snapshot[`${t.schemaname}.${t.tablename}`] = rows.map((r) => r.j);
  }
  return snapshot;
}

/** A stored document as an upload leaves it: its file under DATA_DIR/uploads and its row. */
async function storeDocument(
  clientId: string,
  uploadedBy: string,
  originalName: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<void> {
  const storageKey = randomUUID();
  mkdirSync(path.join(sourceDir, "uploads"), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(sourceDir, "uploads", storageKey), bytes, { mode: 0o600 });
  await getDb()
    .insert(documents)
    .values({ clientId, taxYear: currentFilingYear(), category: "form-16", originalName, size: bytes.length, contentType, storageKey, uploadedBy });
}

function filesIn(dir: string): Record<string, Buffer> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name))]));
}

/** Points the application (database, secrets, storage) at another data folder. */
async function useDataDir(dir: string): Promise<void> {
  await closeDatabase();
  process.env.DATA_DIR = dir;
  resetEnvForTests();
  setStorage(undefined);
}

const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  SSN_ENCRYPTION_KEY: process.env.SSN_ENCRYPTION_KEY,
  AUTH_SECRET: process.env.AUTH_SECRET,
};

let clientId: string;
let before: TableRows;
let uploadsBefore: Record<string, Buffer>;
let secretsBefore: { authSecret: Buffer; ssnKey: Buffer };
let backup: BackupSummary;

// Creating an embedded database and dumping it takes a while on a busy machine.
beforeAll(async () => {
  await closeDatabase();
  process.env.DATABASE_URL = "";
  // The keys must come from the data folder, as they do on a server without these variables.
  delete process.env.SSN_ENCRYPTION_KEY;
  delete process.env.AUTH_SECRET;
  await useDataDir(sourceDir);
  await migrateDatabase();

  const client = await signedInClient("client@example.com");
  clientId = client.id;
  const staffAccount = await signedInClient("staff@example.com");
  await makeStaff(staffAccount);
  const staff: SessionUser = {
    id: staffAccount.id,
    email: "staff@example.com",
    name: "staff",
    role: "admin",
    emailVerified: true,
    sessionId: "",
  };
  await saveTaxpayerRecord(client.id, record);
  for (const [name, bytes, contentType] of [
    ["form16.pdf", SMALL_PDF, "application/pdf"],
    ["passport.png", PNG, "image/png"],
    ["bank statement.pdf", LARGE_PDF, "application/pdf"],
  ] as const)
    await storeDocument(client.id, staff.id, name, bytes, contentType);
  await createContactMessage(
    {
      name: "Asha Rao",
      email: "asha@example.com",
      phone: null,
      subject: "ITIN question",
      description: "How long does an ITIN application take?",
    },
    "127.0.0.1",
  );
  await recordAudit({
    actor: staff,
    action: "case-viewed",
    clientId: client.id,
    detail: "Opened the case",
    ip: "127.0.0.1",
  });

  // The contact message's e-mail goes out after the call that queued it (ADR 0023): its row is
  // snapshotted once that send has ended, not while it may still change.
  await outboxSettled();
  before = await snapshotTables();
  uploadsBefore = filesIn(path.join(sourceDir, "uploads"));
  secretsBefore = {
    authSecret: readFileSync(path.join(sourceDir, "auth-secret")),
    ssnKey: readFileSync(path.join(sourceDir, "ssn-key")),
  };
  await closeDatabase();
  backup = await createBackup({ dataDir: sourceDir, out: archive, database: "pglite" });
}, 180_000);

afterAll(async () => {
  await closeDatabase();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
  setStorage(undefined);
  rmSync(root, { recursive: true, force: true });
});

describe("db:backup and db:restore (embedded database)", { timeout: 120_000 }, () => {
  it("records every table's rows, every upload and both secret files in the manifest", () => {
    expect(before["public.taxpayer_records"]).toHaveLength(1);
    expect(before["public.documents"]).toHaveLength(3);
    expect(before["public.contact_messages"]).toHaveLength(1);
    expect(before["public.audit_log"]).toHaveLength(1);
    expect(before["public.staff_second_factor"]).toHaveLength(1);
    expect(backup.manifest.database).toEqual({
      kind: "pglite",
      tables: Object.fromEntries(Object.entries(before).map(([table, rows]) => [table, rows.length])),
    });
    expect(backup.secrets).toEqual(["auth-secret", "ssn-key"]);
    expect(backup.uploads).toEqual({ files: 3, bytes: SMALL_PDF.length + PNG.length + LARGE_PDF.length });
    expect(backup.manifest.entries.map((e) => e.name).sort()).toEqual(
      [
        "database/pglite.tar.gz",
        "secrets/auth-secret",
        "secrets/ssn-key",
        ...Object.keys(uploadsBefore).map((k) => `uploads/${k}`),
      ].sort(),
    );
    expect(statSync(archive).mode & 0o777).toBe(0o600);
  });

  it("restores into an empty folder: same rows, same files byte for byte, and the SSN decrypts", async () => {
    const restored = path.join(root, "restored");
    mkdirSync(restored);
    const result = await restoreBackup({ archive, dataDir: restored });
    expect(result.tables).toEqual(
      backup.manifest.database.kind === "pglite" ? backup.manifest.database.tables : null,
    );
    expect(result.uploads).toEqual(backup.uploads);
    expect(result.secrets).toEqual(["auth-secret", "ssn-key"]);
    expect(result.movedAside).toBeUndefined();
    expect(readdirSync(restored).sort()).toEqual(["auth-secret", "pglite", "ssn-key", "uploads"]);

    // Secrets and files, byte for byte, owner-only.
    expect(readFileSync(path.join(restored, "auth-secret"))).toEqual(secretsBefore.authSecret);
    expect(readFileSync(path.join(restored, "ssn-key"))).toEqual(secretsBefore.ssnKey);
    expect(statSync(path.join(restored, "ssn-key")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(restored, "uploads")).mode & 0o777).toBe(0o700);
    const uploadsAfter = filesIn(path.join(restored, "uploads"));
    expect(Object.keys(uploadsAfter).sort()).toEqual(Object.keys(uploadsBefore).sort());
    for (const [name, bytes] of Object.entries(uploadsBefore))
      expect(uploadsAfter[name]!.equals(bytes)).toBe(true);

    // The application, pointed at the restored folder, finds everything.
    await useDataDir(restored);
    expect(await snapshotTables()).toEqual(before);
    expect((await getOwnTaxpayerValues(clientId))?.ssn_tin).toBe(SSN);
    const stored = await getDb().select().from(documents);
    expect(stored).toHaveLength(3);
    const expectedBytes = new Map([
      ["form16.pdf", Buffer.from(SMALL_PDF)],
      ["passport.png", Buffer.from(PNG)],
      ["bank statement.pdf", LARGE_PDF],
    ]);
    for (const doc of stored) {
      expect(
        readFileSync(path.join(restored, "uploads", doc.storageKey)).equals(expectedBytes.get(doc.originalName)!),
      ).toBe(true);
    }
    await useDataDir(sourceDir);
  });

  it("refuses to restore into a folder that is not empty, and leaves it as it was", async () => {
    const occupied = path.join(root, "occupied");
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, "ssn-key"), "another key\n");
    const attempt = restoreBackup({ archive, dataDir: occupied });
    await expect(attempt).rejects.toThrow(BackupError);
    await expect(attempt).rejects.toThrow(/is not empty \(ssn-key\)[\s\S]*--force/);
    expect(readdirSync(occupied)).toEqual(["ssn-key"]);
    expect(readFileSync(path.join(occupied, "ssn-key"), "utf8")).toBe("another key\n");
  });

  it("with force, moves the folder's previous contents aside instead of deleting them", async () => {
    const occupied = path.join(root, "forced");
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, "ssn-key"), "another key\n");
    const result = await restoreBackup({ archive, dataDir: occupied, force: true });
    expect(result.movedAside).toMatch(/\.replaced-/);
    expect(readFileSync(path.join(result.movedAside!, "ssn-key"), "utf8")).toBe("another key\n");
    expect(readFileSync(path.join(occupied, "ssn-key"))).toEqual(secretsBefore.ssnKey);
  });

  it("refuses a damaged or cut-short archive with a clear message and changes nothing", async () => {
    const target = path.join(root, "untouched");
    mkdirSync(target);
    const bytes = readFileSync(archive);

    const flipped = Buffer.from(bytes);
    for (let i = Math.floor(flipped.length / 2); i < Math.floor(flipped.length / 2) + 16; i++)
      flipped[i]! ^= 0xff;
    writeFileSync(path.join(root, "flipped.tar.gz"), flipped);
    await expect(
      restoreBackup({ archive: path.join(root, "flipped.tar.gz"), dataDir: target }),
    ).rejects.toThrow(/^The archive is damaged/);
    expect(readdirSync(target)).toEqual([]);

    writeFileSync(path.join(root, "cut.tar.gz"), bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    await expect(restoreBackup({ archive: path.join(root, "cut.tar.gz"), dataDir: target })).rejects.toThrow(
      /^The archive is (damaged or incomplete|incomplete)/,
    );
    expect(readdirSync(target)).toEqual([]);

    // A valid gzip whose content was changed: one byte of the large upload.
    const tar = gunzipSync(bytes);
    const at = tar.indexOf(LARGE_PDF.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    tar[at + 100_000]! ^= 0x01;
    writeFileSync(path.join(root, "tampered.tar.gz"), gzipSync(tar));
    const largeKey = Object.entries(uploadsBefore).find(([, b]) => b.equals(LARGE_PDF))![0];
    await expect(
      restoreBackup({ archive: path.join(root, "tampered.tar.gz"), dataDir: target }),
    ).rejects.toThrow(`The archive is damaged: uploads/${largeKey} does not match its checksum.`);
    expect(readdirSync(target)).toEqual([]);

    // Into a folder that does not exist yet: it is not left behind either.
    const absent = path.join(root, "absent");
    await expect(
      restoreBackup({ archive: path.join(root, "tampered.tar.gz"), dataDir: absent }),
    ).rejects.toThrow(BackupError);
    expect(existsSync(absent)).toBe(false);
  });

  it("refuses to back up while the embedded database is open, and writes no file", async () => {
    const copy = path.join(root, "in-use");
    cpSync(sourceDir, copy, { recursive: true });
    await useDataDir(copy);
    await getDb().execute(sql`select 1`);
    const out = path.join(root, "backups", "while-open.tar.gz");
    await expect(createBackup({ dataDir: copy, out, database: "pglite" })).rejects.toThrow(
      /The embedded database at .* is in use[\s\S]*Stop the TaxBridge server/,
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(path.dirname(out))).toEqual(["taxbridge.tar.gz"]);
    await useDataDir(sourceDir);
  });

  it("with PostgreSQL, backs up the uploads and secret files only", async () => {
    const out = path.join(root, "backups", "files-only.tar.gz");
    const result = await createBackup({ dataDir: sourceDir, out, database: "postgresql" });
    expect(result.manifest.database).toEqual({ kind: "postgresql" });
    expect(result.manifest.entries.some((e) => e.name.startsWith("database/"))).toBe(false);
    const target = path.join(root, "files-only");
    const restored = await restoreBackup({ archive: out, dataDir: target });
    expect(restored.tables).toBeNull();
    expect(readdirSync(target).sort()).toEqual(["auth-secret", "ssn-key", "uploads"]);
    expect(Object.keys(filesIn(path.join(target, "uploads"))).sort()).toEqual(
      Object.keys(uploadsBefore).sort(),
    );
  });
});

describe("db:restore of an archive written before the archive format came from the tar library", () => {
  // Made by the earlier hand-written writer (files only, as with PostgreSQL); the format is
  // unchanged, so such backups must keep restoring.
  const fixture = path.join(import.meta.dirname, "fixtures", "backup-before-tar-library.tar.gz");
  const pattern = Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 7 + 3) % 256));

  it("restores its files byte for byte", async () => {
    const target = path.join(root, "from-old-archive");
    const result = await restoreBackup({ archive: fixture, dataDir: target });
    expect(result).toMatchObject({
      tables: null,
      uploads: { files: 2, bytes: 1509 + 17 },
      secrets: ["auth-secret", "ssn-key"],
      createdAt: "2026-11-23T11:26:45.137Z",
    });
    expect(readdirSync(target).sort()).toEqual(["auth-secret", "ssn-key", "uploads"]);
    expect(readFileSync(path.join(target, "auth-secret"), "utf8")).toBe(
      "fixture auth secret, not a real one, 32+ chars\n",
    );
    expect(readFileSync(path.join(target, "ssn-key"), "utf8")).toBe("Zml4dHVyZSBrZXksIG5vdCBhIHJlYWwgb25lLi4uLi4=\n");
    expect(filesIn(path.join(target, "uploads"))).toEqual({
      "0a6f3c52-8d1e-4b7a-9c2f-5e4d3b2a1f00": Buffer.concat([Buffer.from("%PDF-1.4\n"), pattern]),
      "7b1e9d44-2c3a-4f5b-8e6d-1a2b3c4d5e6f": Buffer.from("\x89PNG\r\n\x1a\n fixture"),
    });
    expect(statSync(path.join(target, "ssn-key")).mode & 0o777).toBe(0o600);
  });
});
