import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { getEnv } from "~/server/platform/env.server";

export type RateLimitRule = {
  /** What is counted, e.g. "contact". */
  name: string;
  /** Attempts allowed in one window (scaled by RATE_LIMIT_SCALE). */
  limit: number;
  windowSeconds: number;
};

export type RateLimitResult = {
  allowed: boolean;
  retryAfterSeconds: number;
  /** Attempts left in this window after this one (0 once the limit is reached). */
  remaining: number;
  /** Attempts counted in this window, this one included (past the limit too). */
  count: number;
};

/** The database, or a transaction on it, to count in. */
type Executor = Pick<Database, "execute">;

/** A rule's limit as it applies here (RATE_LIMIT_SCALE included). */
export function limitOf(rule: RateLimitRule): number {
  return Math.max(1, Math.floor(rule.limit * getEnv().rateLimitScale));
}

function keyOf(rule: RateLimitRule, subject: string): string {
  // A subject the index cannot hold as it is (long, or with NUL, which PostgreSQL text refuses) is counted by its hash.
  const plain = subject.length <= 200 && !subject.includes("\u0000");
  return `${rule.name}:${plain ? subject : `sha256:${createHash("sha256").update(subject).digest("hex")}`}`;
}

/**
 * Counts one attempt for `subject` under `rule` in a fixed window stored in the
 * database, so the limit holds across every server process.
 */
export async function hitRateLimit(rule: RateLimitRule, subject: string, db: Executor = getDb()): Promise<RateLimitResult> {
  const limit = limitOf(rule);
  const key = keyOf(rule, subject);
  const result = await db.execute(sql`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at
  `);
  // node-postgres and PGlite both answer raw queries with { rows }.
  const row = (result as unknown as { rows: Array<{ count: number; reset_at: string | Date }> }).rows[0];
  if (!row) return { allowed: true, retryAfterSeconds: 0, remaining: limit, count: 1 };
  const resetAt = new Date(row.reset_at).getTime();
  return {
    allowed: Number(row.count) <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
    remaining: Math.max(0, limit - Number(row.count)),
    count: Number(row.count),
  };
}

/** Where `subject` stands under `rule` without counting an attempt. */
export async function rateLimitStanding(rule: RateLimitRule, subject: string, db: Executor = getDb()): Promise<RateLimitResult> {
  const limit = limitOf(rule);
  const result = await db.execute(sql`
    select count, reset_at from rate_limits where key = ${keyOf(rule, subject)} and reset_at > now()
  `);
  const row = (result as unknown as { rows: Array<{ count: number; reset_at: string | Date }> }).rows[0];
  if (!row) return { allowed: true, retryAfterSeconds: 0, remaining: limit, count: 0 };
  const remaining = Math.max(0, limit - Number(row.count));
  return {
    allowed: remaining > 0,
    retryAfterSeconds: Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - Date.now()) / 1000)),
    remaining,
    count: Number(row.count),
  };
}

/**
 * Takes back one attempt counted for `subject` under `rule` in the current window: for limits that
 * count failures, an attempt is counted when it starts (so attempts made at the same time are all
 * counted) and given back when it succeeds.
 */
export async function releaseRateLimit(rule: RateLimitRule, subject: string, db: Executor = getDb()): Promise<void> {
  await db.execute(sql`
    update rate_limits set count = greatest(count - 1, 0) where key = ${keyOf(rule, subject)} and reset_at > now()
  `);
}
