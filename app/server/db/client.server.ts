import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { logError } from "~/log";
import { getEnv } from "~/server/platform/env.server";
import { namePgliteStatements, NamedStatementClient } from "./prepared.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of the database, as `getDb().transaction` hands it to its callback. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

type Connection =
  | { kind: "postgres"; db: Database; pool: pg.Pool; migrate: () => Promise<void> }
  | { kind: "pglite"; db: Database; client: PGlite; migrate: () => Promise<void> };

const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

// One connection per process, kept on globalThis so that the development server's
// module reloads do not open the embedded database a second time.
const holder = globalThis as unknown as { __taxbridgeDb?: Connection };

/** Opens an embedded database folder with the extensions the migrations use. */
export function openPglite(dataDir: string): PGlite {
  return new PGlite(dataDir, { extensions: { pg_trgm } });
}

function connect(): Connection {
  const env = getEnv();
  if (env.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: env.databaseUrl,
      max: 10,
      // A database host that does not answer fails the query (and a start-up) instead of hanging it.
      connectionTimeoutMillis: 10_000,
      // Queries are named statements (./prepared.server.ts), which a connection keeps: an hour bounds them.
      Client: NamedStatementClient,
      maxLifetimeSeconds: 3600,
    });
    // An idle client that loses its connection must not crash the process. The driver's message
    // may quote the server's, so only its code is logged.
    pool.on("error", (error) => logError("db", "idle client error", error));
    const db = drizzleNodePg(pool, { schema });
    return { kind: "postgres", db, pool, migrate: () => migratePostgres(pool) };
  }
  const client = openPglite(path.join(env.dataDir, "pglite"));
  namePgliteStatements(client);
  const db = drizzlePglite(client, { schema });
  return { kind: "pglite", db, client, migrate: () => migratePglite(db, { migrationsFolder }) };
}

/** The advisory lock that lets one process at a time apply the migrations ("taxbridg" in ASCII). */
const MIGRATIONS_LOCK = 0x7461786272696467n;

/**
 * Applies the migrations under a PostgreSQL advisory lock: several processes starting at once (a
 * deployment behind a load balancer) would otherwise all run the pending ones, and all but one
 * fail on the others' tables. The first applies them; the others wait, then find none left. The
 * lock belongs to a connection of its own, closed afterwards, which lets it go also when a
 * migration failed.
 */
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1::bigint)", [MIGRATIONS_LOCK.toString()]);
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
  } finally {
    client.release(true);
  }
}

function connection(): Connection {
  holder.__taxbridgeDb ??= connect();
  return holder.__taxbridgeDb;
}

/** The application's database (PostgreSQL when DATABASE_URL is set, PGlite otherwise). */
export function getDb(): Database {
  return connection().db;
}

export function databaseKind(): Connection["kind"] {
  return connection().kind;
}

/** Applies the committed migrations under db/migrations. */
export async function migrateDatabase(): Promise<void> {
  const current = connection();
  await current.migrate();
  // PGlite has no autovacuum. Without ANALYZE its planner would never learn how many rows the
  // tables hold and would scan whole tables where an index answers (the staff list at 10,000
  // clients went from 71 ms to under 1 ms per query); without VACUUM no page is marked
  // all-visible, so counting from an index still reads every row (the staff panel's counters at
  // 10,000 clients: 11 ms before, 4.5 ms after). Both run at start and every 15 minutes; at
  // 10,000 clients they take about 0.6 s.
  if (current.kind === "pglite") {
    await vacuumEmbedded();
    setInterval(() => void vacuumEmbedded(), 15 * 60 * 1000).unref();
  }
}

async function vacuumEmbedded(): Promise<void> {
  try {
    await connection().db.execute(sql`vacuum analyze`);
  } catch (error) {
    logError("db", "vacuum failed", error);
  }
}

/** True when the database answers a trivial query. */
export async function pingDatabase(): Promise<boolean> {
  try {
    await connection().db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

export async function closeDatabase(): Promise<void> {
  const current = holder.__taxbridgeDb;
  holder.__taxbridgeDb = undefined;
  if (!current) return;
  if (current.kind === "postgres") await current.pool.end();
  else await current.client.close();
}
