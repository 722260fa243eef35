import { hitRateLimit } from "./rate-limit.server";
import type { RateLimitRule } from "./rate-limit.server";

/** Per-IP and per-e-mail limits on the account actions, stored in the database. */
export const authLimits = {
  signIn: {
    ip: { name: "sign-in:ip", limit: 20, windowSeconds: 15 * 60 },
    email: { name: "sign-in:email", limit: 8, windowSeconds: 15 * 60 },
  },
  signUp: {
    ip: { name: "sign-up:ip", limit: 10, windowSeconds: 60 * 60 },
    email: { name: "sign-up:email", limit: 3, windowSeconds: 60 * 60 },
  },
  resend: {
    ip: { name: "resend:ip", limit: 10, windowSeconds: 60 * 60 },
    email: { name: "resend:email", limit: 3, windowSeconds: 60 * 60 },
  },
  reset: {
    ip: { name: "reset:ip", limit: 10, windowSeconds: 60 * 60 },
    email: { name: "reset:email", limit: 3, windowSeconds: 60 * 60 },
  },
} satisfies Record<string, { ip: RateLimitRule; email: RateLimitRule }>;

/** Counts one attempt against both limits; false when either is exhausted. */
export async function withinAuthLimit(
  limits: { ip: RateLimitRule; email: RateLimitRule },
  ip: string,
  email: string,
): Promise<boolean> {
  const byIp = await hitRateLimit(limits.ip, ip);
  const byEmail = email ? await hitRateLimit(limits.email, email.trim().toLowerCase()) : { allowed: true };
  return byIp.allowed && byEmail.allowed;
}
