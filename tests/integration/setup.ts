import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import "../../scripts/lib/scrypt-memo";
import { ensureWorkerDatabase } from "./worker-database";

// Each test file gets its own data folder (PGlite, secrets, outbox), so files run in parallel.
// On PostgreSQL (DATABASE_URL set) each Vitest worker has a database of its own
// (worker-database.ts), where files take turns, and the tables are emptied before each test.
// The run's DATABASE_URL is kept aside: a worker that runs several files sees its own address here.
process.env.TAXBRIDGE_TEST_BASE_DATABASE_URL ??= process.env.DATABASE_URL?.trim() ?? "";
const baseDatabaseUrl = process.env.TAXBRIDGE_TEST_BASE_DATABASE_URL;
if (baseDatabaseUrl) {
  // The worker's database: the app, and the servers and scripts that tests start with
  // process.env.DATABASE_URL, all use it.
  process.env.DATABASE_URL = await ensureWorkerDatabase(baseDatabaseUrl, process.env.VITEST_POOL_ID ?? "1");
}
const dataDir = mkdtempSync(path.join(tmpdir(), "taxbridge-it-"));
process.env.DATA_DIR = dataDir;
// On PGlite the file's database starts as a copy of the run's migrated one (global-setup.ts).
const template = inject("pgliteTemplate");
if (!process.env.DATABASE_URL?.trim() && template) cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
process.env.NODE_ENV = "test";
process.env.STAFF_EMAIL = "staff@taxbridge.test";
process.env.RATE_LIMIT_SCALE = "1";
process.env.ADMIN_EMAIL = "boss@taxbridge.test";
process.env.APP_URL = "http://localhost:3000";

const { closeDatabase, getDb, migrateDatabase } = await import("~/server/db/client.server");

beforeAll(async () => {
  await migrateDatabase();
});

beforeEach(async () => {
  const db = getDb();
  const result = await db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '\\_\\_%'`,
  );
  const tables = (result as unknown as { rows: Array<{ tablename: string }> }).rows.map((r) => r.tablename);
  if (tables.length > 0) {
    await db.execute(sql.raw(`truncate ${tables.map((t) => `"${t}"`).join(", ")} restart identity cascade`));
  }
  rmSync(path.join(dataDir, "outbox"), { recursive: true, force: true });
});

afterAll(async () => {
  await closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});
