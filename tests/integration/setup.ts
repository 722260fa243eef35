import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";

// Each test file gets its own data folder (PGlite, secrets, outbox). On PostgreSQL
// (DATABASE_URL set) the tables are emptied before each test instead.
const dataDir = mkdtempSync(path.join(tmpdir(), "taxbridge-it-"));
process.env.DATA_DIR = dataDir;
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
