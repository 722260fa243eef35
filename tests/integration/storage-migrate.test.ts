// npm run storage:migrate: every document's file copied from DATA_DIR/uploads to the bucket
// (s3rver on loopback), each copy read back and its SHA-256 compared, a second run copying
// nothing again, and only keys and counts printed.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { documentStorageKeys, migrateStorage, migrationSucceeded, reportLines } from "../../ops/storage-migrate";
import { currentFilingYear } from "~/domain/tax-year";
import { createAccount } from "~/server/auth/accounts.server";
import { closeDatabase, databaseKind, getDb } from "~/server/db/client.server";
import { clientCases, documents } from "~/server/db/schema";
import { LocalDiskStorage, S3Storage } from "~/server/storage/storage.server";
import { startS3Server } from "../helpers/s3-server";
import type { TestS3 } from "../helpers/s3-server";

const MB = 1024 * 1024;
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");

let s3: TestS3;
let bucket: S3Storage;
let local: LocalDiskStorage;
let clientId: string;

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = new S3Storage(s3.settings);
});

afterAll(async () => {
  await bucket.close();
  await s3.close();
});

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  local = new LocalDiskStorage(uploadsDir());
  // Straight into the tables: the test closes the embedded database between runs, which the
  // sign-in library's own handle on it would not survive.
  clientId = await createAccount({ name: "Client", email: `client-${randomUUID()}@example.com`, role: "user", emailVerified: true });
  await getDb().insert(clientCases).values({ userId: clientId, taxYear: currentFilingYear() }).onConflictDoNothing();
});

/** A document row named `name`, with `bytes` as its file in the local folder (none when null). */
async function documentWith(name: string, bytes: Uint8Array | null): Promise<string> {
  const storageKey = randomUUID();
  if (bytes) await local.put(storageKey, bytes);
  await getDb()
    .insert(documents)
    .values({
      clientId,
      taxYear: currentFilingYear(),
      category: "form-16",
      originalName: name,
      size: bytes?.byteLength ?? 0,
      contentType: "application/pdf",
      storageKey,
      uploadedBy: clientId,
    });
  return storageKey;
}

const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n%"), randomBytes(size - 10)]);

describe("copying the documents to the bucket", () => {
  it("copies and verifies each file, skips what is already there, and copies again what differs", async () => {
    const small = pdf(40_000);
    const large = pdf(7 * MB);
    const keySmall = await documentWith("w2-jane.pdf", small);
    const keyLarge = await documentWith("scan.pdf", large);
    const keyGone = await documentWith("lost.pdf", null);
    const keyOnlyThere = await documentWith("moved.pdf", null);
    await bucket.put(keyOnlyThere, pdf(1000));

    const keys = await documentStorageKeys(getDb());
    expect(keys).toEqual([keySmall, keyLarge, keyGone, keyOnlyThere]);
    const first = await migrateStorage({ keys, source: local, target: bucket });
    expect(first).toEqual({
      documents: 4,
      copied: [keySmall, keyLarge],
      alreadyThere: [],
      missingLocally: [
        { key: keyGone, inTarget: false },
        { key: keyOnlyThere, inTarget: true },
      ],
      failed: [],
    });
    expect(s3.objectBytes(keySmall).equals(small)).toBe(true);
    expect(s3.objectBytes(keyLarge).equals(large)).toBe(true);
    // A document whose file is nowhere is a failed migration.
    expect(migrationSucceeded(first)).toBe(false);
    expect(reportLines(first)).toEqual([
      `  missing locally: ${keyGone} (not in the bucket either)`,
      `  missing locally: ${keyOnlyThere} (the bucket has a copy, not verified)`,
      "Documents: 4",
      "  copied and verified: 2",
      "  already in the bucket (same SHA-256): 0",
      "  missing locally: 2 (1 not in the bucket either)",
      "  failed: 0",
    ]);

    // Run again: nothing is sent, only read.
    const before = s3.requests.length;
    const second = await migrateStorage({ keys: [keySmall, keyLarge], source: local, target: bucket });
    expect(second).toMatchObject({ copied: [], alreadyThere: [keySmall, keyLarge], failed: [] });
    expect(migrationSucceeded(second)).toBe(true);
    expect(s3.requests.slice(before).every((line) => line.startsWith("GET "))).toBe(true);

    // An object that differs from the local file is replaced and verified.
    await bucket.put(keySmall, pdf(500));
    const third = await migrateStorage({ keys: [keySmall, keyLarge], source: local, target: bucket });
    expect(third).toMatchObject({ copied: [keySmall], alreadyThere: [keyLarge], failed: [] });
    expect(s3.objectBytes(keySmall).equals(small)).toBe(true);
  });

  it("reports a file the bucket refuses as failed, by key and error name, and goes on with the rest", async () => {
    const refused = await documentWith("a.pdf", pdf(3000));
    const fine = await documentWith("b.pdf", pdf(4000));
    s3.refuse(({ method, url }) => method === "PUT" && url.pathname.endsWith(refused));
    try {
      const report = await migrateStorage({ keys: [refused, fine], source: local, target: bucket });
      expect(report.failed).toEqual([{ key: refused, reason: "AccessDenied" }]);
      expect(report.copied).toEqual([fine]);
      expect(migrationSucceeded(report)).toBe(false);
      expect(reportLines(report)).toContain(`  failed: ${refused}: AccessDenied`);
    } finally {
      s3.refuse(null);
    }
    expect(s3.objectKeys()).not.toContain(refused);
  });

  it("refuses a key that is not a storage key without touching either side", async () => {
    const report = await migrateStorage({ keys: ["../../etc/passwd"], source: local, target: bucket });
    expect(report.failed).toEqual([{ key: "../../etc/passwd", reason: "InvalidStorageKeyError" }]);
  });
});

/** Runs `npm run storage:migrate` as a person would, with `env` on top of this process's. */
async function runCommand(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(path.resolve("node_modules", ".bin", "tsx"), [path.resolve("scripts", "storage-migrate.ts")], {
    env: { ...process.env, NODE_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

describe("npm run storage:migrate", () => {
  it("copies every document's file, prints keys and counts only, and exits 0; again, it copies nothing", async () => {
    const keyA = await documentWith("Jane Doe W-2 2024.pdf", pdf(20_000));
    const keyB = await documentWith("passport-scan.pdf", pdf(6 * MB));
    // The embedded database serves one process at a time: the test lets go of it meanwhile.
    if (databaseKind() === "pglite") await closeDatabase();
    const env = { ...s3.env, DATA_DIR: process.env.DATA_DIR!, DATABASE_URL: process.env.DATABASE_URL ?? "" };

    const first = await runCommand(env);
    expect(first.output).toContain(`Copying the files of 2 documents from ${uploadsDir()} to the bucket ${s3.bucket} at ${s3.endpoint}.`);
    expect(first.output).toContain("  copied and verified: 2\n");
    expect(first.output).toContain("  failed: 0\n");
    expect(first.output).toContain("Every document's file is in the bucket.");
    expect(first.output).not.toMatch(/Jane Doe|passport-scan|%PDF/);
    expect(first.code).toBe(0);
    expect(s3.objectKeys()).toEqual(expect.arrayContaining([keyA, keyB]));
    expect(s3.objectBytes(keyB).equals(await local.get(keyB))).toBe(true);

    const second = await runCommand(env);
    expect(second.output).toContain("  copied and verified: 0\n");
    expect(second.output).toContain("  already in the bucket (same SHA-256): 2\n");
    expect(second.code).toBe(0);
  });

  it("exits 1 naming the key of a file that is nowhere", async () => {
    const lost = await documentWith("lost.pdf", null);
    if (databaseKind() === "pglite") await closeDatabase();
    const run = await runCommand({ ...s3.env, DATA_DIR: process.env.DATA_DIR!, DATABASE_URL: process.env.DATABASE_URL ?? "" });
    expect(run.output).toContain(`  missing locally: ${lost} (not in the bucket either)\n`);
    expect(run.output).toContain("Not every document's file is in the bucket: see the keys above, then run this again.");
    expect(run.code).toBe(1);
  });

  it("refuses to start without a bucket, and while the embedded database is in use", async () => {
    const noBucket = await runCommand({ DATA_DIR: process.env.DATA_DIR!, DATABASE_URL: process.env.DATABASE_URL ?? "" });
    expect(noBucket.output).toMatch(/^S3_BUCKET is not set: name the bucket to copy the documents to/);
    expect(noBucket.code).toBe(1);

    const regionMissing = await runCommand({ S3_BUCKET: "taxbridge-documents", DATA_DIR: process.env.DATA_DIR! });
    expect(regionMissing.output).toMatch(/^Invalid configuration: S3_REGION is required with S3_BUCKET/);
    expect(regionMissing.code).toBe(1);

    const busy = mkdtempSync(path.join(tmpdir(), "taxbridge-busy-"));
    try {
      mkdirSync(path.join(busy, "pglite"));
      writeFileSync(path.join(busy, "pglite", "postmaster.pid"), "4242\n");
      const locked = await runCommand({ ...s3.env, DATA_DIR: busy, DATABASE_URL: "" });
      expect(locked.output).toContain(`The embedded database at ${path.join(busy, "pglite")} is in use`);
      expect(locked.output).toContain("Stop the TaxBridge server");
      expect(locked.code).toBe(1);
    } finally {
      rmSync(busy, { recursive: true, force: true });
    }
  });
});
