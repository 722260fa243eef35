import type { ClientWriteKind } from "~/domain/client-limits";
import { hitRateLimit } from "./rate-limit.server";
import type { RateLimitResult, RateLimitRule } from "./rate-limit.server";

/**
 * How often one client account may write, per kind, counted in the database like every rate
 * limit (rate-limit.server.ts), so the limit holds across server processes. Generous for a
 * person filling in their filing; a script posting in a loop is stopped within seconds.
 */
export const clientWriteLimits = {
  message: { name: "client:message", limit: 20, windowSeconds: 10 * 60 },
  taxInfo: { name: "client:tax-info", limit: 30, windowSeconds: 10 * 60 },
  // The filing page sends one file per request: 60 lets a client send a whole year's papers at once.
  upload: { name: "client:upload", limit: 60, windowSeconds: 10 * 60 },
  answer: { name: "client:answer", limit: 30, windowSeconds: 10 * 60 },
} satisfies Record<ClientWriteKind, RateLimitRule>;

/** Counts one write of `kind` by the account `userId`; not allowed once past the limit. */
export function hitClientLimit(kind: ClientWriteKind, userId: string): Promise<RateLimitResult> {
  return hitRateLimit(clientWriteLimits[kind], userId);
}

/** The headers of a refusal: when to try again. */
export function retryAfter(result: RateLimitResult): Record<string, string> {
  return { "Retry-After": String(result.retryAfterSeconds) };
}
