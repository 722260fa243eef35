import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "./db/client.server";
import { getEnv } from "./env.server";

export type RateLimitRule = {
  /** What is counted, e.g. "contact". */
  name: string;
  /** Attempts allowed in one window (scaled by RATE_LIMIT_SCALE). */
  limit: number;
  windowSeconds: number;
};

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number };

/**
 * Counts one attempt for `subject` under `rule` in a fixed window stored in the
 * database, so the limit holds across every server process.
 */
export async function hitRateLimit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
  const limit = Math.max(1, Math.floor(rule.limit * getEnv().rateLimitScale));
  // A subject the index cannot hold as it is (long, or with NUL, which PostgreSQL text refuses) is counted by its hash.
  const plain = subject.length <= 200 && !subject.includes("\u0000");
  const key = `${rule.name}:${plain ? subject : `sha256:${createHash("sha256").update(subject).digest("hex")}`}`;
  const result = await getDb().execute(sql`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at
  `);
  // node-postgres and PGlite both answer raw queries with { rows }.
  const row = (result as unknown as { rows: Array<{ count: number; reset_at: string | Date }> }).rows[0];
  if (!row) return { allowed: true, retryAfterSeconds: 0 };
  const resetAt = new Date(row.reset_at).getTime();
  return {
    allowed: Number(row.count) <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
  };
}
