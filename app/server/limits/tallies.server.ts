/**
 * The tallies behind the panel's counters (case_tallies and client_tally, migration 0010) grow
 * by a row per key for each statement that changes cases or client accounts. This job merges
 * each key's rows into one, every few minutes, in one process at a time (the scheduler's lock).
 */
import { sql } from "drizzle-orm";
import { getDb } from "~/server/db/client.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";

export const TALLY_COMPACTION_JOB = "compact-tallies";

/** Between two merges: at a few changes a second, a year's counters add up a few thousand rows at most. */
const INTERVAL_MS = 5 * 60_000;

/** Merges the tallies' rows now (one statement per table). */
export async function compactTallies(): Promise<void> {
  await getDb().execute(sql`select compact_tallies()`);
}

export function tallyCompactionJob(): ScheduledJob {
  return {
    name: TALLY_COMPACTION_JOB,
    intervalMs: INTERVAL_MS,
    firstRunMs: 30_000,
    leaseMs: 60_000,
    run: compactTallies,
  };
}
