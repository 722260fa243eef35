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
// Inside the run's folder (global-setup.ts), removed when the run ends if not before.
const dataDir = mkdtempSync(path.join(inject("runFolder") || tmpdir(), "file-"));
process.env.DATA_DIR = dataDir;
// On PGlite the file's database starts as a copy of the run's migrated one (global-setup.ts).
const template = inject("pgliteTemplate");
if (!process.env.DATABASE_URL?.trim() && template) cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
process.env.NODE_ENV = "test";
process.env.STAFF_EMAIL = "staff@taxbridge.test";
process.env.RATE_LIMIT_SCALE = "1";
process.env.ADMIN_EMAIL = "boss@taxbridge.test";
process.env.APP_URL = "http://localhost:3000";

const { closeDatabase, databaseKind, getDb, migrateDatabase } = await import("~/server/db/client.server");
/**
 * Waits for the e-mails under way (they go out after the call that queued them, ADR 0023). The
 * outbox is imported here, once the test file's own imports (and their mocks) are in place.
 */
const outboxSettled = async () => (await import("~/server/mail/outbox.server")).outboxSettled();

// On PGlite the copied database has every migration applied already (global-setup.ts), so the
// file skips migrateDatabase and the VACUUM it runs on the embedded database.
beforeAll(async () => {
  if (!template || process.env.DATABASE_URL?.trim()) await migrateDatabase();
});

beforeEach(async () => {
  // E-mails go out after the call that queued them (ADR 0023): the last test's are sent before its rows go.
  await outboxSettled();
  await emptyTables();
  // The views the pages kept are of rows just deleted, under numbers the emptied sequences give again.
  (await import("~/server/cases/view-cache.server")).forgetCaseViews();
  rmSync(path.join(dataDir, "outbox"), { recursive: true, force: true });
});

type Rows<T> = { rows: T[] };

/**
 * Empties the tables the last test left rows in and restarts the sequences it used. The rows are
 * deleted with triggers off (session_replication_role = replica: no foreign-key checks, no
 * append-only guards), which costs a few milliseconds; TRUNCATE of every table cost 180 ms a test
 * on PGlite, where each truncated table and index gets new files. A role that may not turn
 * triggers off (not a superuser) truncates instead, with the kept records' TRUNCATE guards off.
 */
async function emptyTables(): Promise<void> {
  const db = getDb();
  const { rows } = (await db.execute(
    sql`select tablename, current_setting('is_superuser') = 'on' as superuser
        from pg_tables where schemaname = 'public' and tablename not like '\\_\\_%'`,
  )) as unknown as Rows<{ tablename: string; superuser: boolean }>;
  if (rows.length === 0) return;
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const literal = (name: string) => `'${name.replaceAll("'", "''")}'`;
  const filled = (
    (await db.execute(
      sql.raw(
        rows
          .map(({ tablename }) => `select ${literal(tablename)} as tablename where exists (select 1 from ${quoted(tablename)})`)
          .join(" union all "),
      ),
    )) as unknown as Rows<{ tablename: string }>
  ).rows.map((r) => r.tablename);
  const used = (
    (await db.execute(
      sql`select sequencename from pg_sequences where schemaname = 'public' and last_value is not null`,
    )) as unknown as Rows<{ sequencename: string }>
  ).rows.map((r) => r.sequencename);
  if (filled.length === 0 && used.length === 0) return;
  if (!rows[0]!.superuser) {
    // The kept records refuse a TRUNCATE (migration 0020): their guards are off for this one, as
    // the table's owner may turn them off, and on again before the transaction commits.
    const guards = (
      (await db.execute(
        sql`select c.relname as tablename, t.tgname as trigger from pg_trigger t join pg_class c on c.oid = t.tgrelid
            join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and t.tgname like '%\_no\_truncate'`,
      )) as unknown as Rows<{ tablename: string; trigger: string }>
    ).rows;
    await db.transaction(async (tx) => {
      for (const g of guards) await tx.execute(sql.raw(`alter table ${quoted(g.tablename)} disable trigger ${quoted(g.trigger)}`));
      await tx.execute(sql.raw(`truncate ${rows.map((r) => quoted(r.tablename)).join(", ")} restart identity cascade`));
      for (const g of guards) await tx.execute(sql.raw(`alter table ${quoted(g.tablename)} enable trigger ${quoted(g.trigger)}`));
    });
    return;
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const table of filled) await tx.execute(sql.raw(`delete from ${quoted(table)}`));
    for (const sequence of used) await tx.execute(sql.raw(`alter sequence ${quoted(sequence)} restart`));
  });
  if (databaseKind() === "postgres") await forgetStatistics(filled.map(quoted));
}

/**
 * Leaves PostgreSQL's planner where a TRUNCATE would: the emptied tables without pages, and every
 * table "never analyzed" (no page or row count), which the planner sizes at ten pages at least.
 * Deleted rows keep their pages until VACUUM, and an ANALYZE (autovacuum's, or a whole-database
 * one such as the seeding script's) of a table of dead pages records N pages holding no rows: the
 * planner then expects one row however many a later test inserts, and picked a plan that
 * reran the audit trail's page query per row (minutes, not milliseconds, for 50,001 entries).
 * The embedded database has no autovacuum, and each test file has its own.
 */
async function forgetStatistics(emptied: string[]): Promise<void> {
  const db = getDb();
  if (emptied.length > 0) await db.execute(sql.raw(`vacuum ${emptied.join(", ")}`));
  await db.execute(sql`
    update pg_class c set relpages = 0, reltuples = -1, relallvisible = 0
    from pg_namespace n
    where n.oid = c.relnamespace and n.nspname = 'public' and c.relkind = 'r' and c.reltuples >= 0`);
}

afterAll(async () => {
  await outboxSettled();
  await closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});
