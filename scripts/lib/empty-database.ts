// The database a benchmark of its own starts from (the cost curve, the season's start): empty.
import { mkdirSync, rmSync } from "node:fs";
import pg from "pg";
import { step } from "./bench-measure";

/** A database the benchmark may not empty: the message says what to do. */
class Refusal extends Error {}

/** emptyDatabase, with a refusal printed: false when the benchmark cannot start (exit code 2). */
export async function startEmpty(settings: { databaseUrl: string; dataDir: string; resetDatabase: boolean }, what: string): Promise<boolean> {
  try {
    await emptyDatabase(settings, what);
    return true;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    console.error(error.message);
    return false;
  }
}

/**
 * Empties the benchmark's database. PGlite: its own folder, removed. PostgreSQL: the DATABASE_URL
 * database when it holds no tables, or when --reset-database allows emptying it (its schemas public
 * and drizzle are dropped); otherwise a Refusal naming `what` needs a database of its own.
 */
async function emptyDatabase(settings: { databaseUrl: string; dataDir: string; resetDatabase: boolean }, what: string): Promise<void> {
  if (settings.databaseUrl) await emptyPostgres(settings.databaseUrl, settings.resetDatabase, what);
  rmSync(settings.dataDir, { recursive: true, force: true });
  mkdirSync(settings.dataDir, { recursive: true });
}

async function emptyPostgres(databaseUrl: string, reset: boolean, what: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number; db: string }>(
      "select count(*)::int as n, current_database() as db from pg_tables where schemaname in ('public', 'drizzle')",
    );
    const { n, db } = rows[0]!;
    if (n === 0) return;
    if (!reset)
      throw new Refusal(
        `The database "${db}" (DATABASE_URL) holds ${n} tables. ${what} needs a database of its own that starts empty: run again with --reset-database to drop everything in it (schemas public and drizzle), or point DATABASE_URL at an empty database.`,
      );
    step(`Emptying the database "${db}" (--reset-database): schemas public and drizzle dropped`);
    await client.query("drop schema if exists drizzle cascade");
    await client.query("drop schema if exists public cascade");
    await client.query("create schema public");
  } finally {
    await client.end();
  }
}
