import { hitRateLimit, limitOf, releaseRateLimit } from "./rate-limit.server";
import type { RateLimitRule } from "./rate-limit.server";

/** Per-IP and per-e-mail limits on the account actions, stored in the database. */
export const authLimits = {
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

/**
 * Sign-in limits (docs/decisions/0011-sign-in-limits.md). Nobody can lock another person out:
 * wrong passwords refuse the IP they come from, for that address (`pair`) and for every address
 * (`ip`), while the address itself is only slowed down (`address`), so its owner still signs in
 * from elsewhere.
 */
export const signInLimits = {
  /** Attempts from one IP, whatever the address. */
  ip: { name: "sign-in:ip", limit: 20, windowSeconds: 15 * 60 },
  /** Failed attempts for one address from one IP. */
  pair: { name: "sign-in:email-ip", limit: 8, windowSeconds: 15 * 60 },
  /** Failed attempts for one address from anywhere: past `limit`, each attempt waits first. */
  address: { name: "sign-in:email-failures", limit: 5, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

/** The wait before the first slowed attempt; it doubles with each further failure, up to SIGN_IN_DELAY_MAX_MS. */
export const SIGN_IN_DELAY_FIRST_MS = 250;
export const SIGN_IN_DELAY_MAX_MS = 4000;

/**
 * How long an attempt on an address waits before it is answered, given the failures already
 * counted for that address and how many of them pass without a wait: nothing up to `freeFailures`,
 * then 250 ms, 500 ms, 1 s, 2 s, and 4 s from then on.
 */
export function signInDelayMs(failuresBefore: number, freeFailures: number): number {
  const over = failuresBefore - freeFailures;
  if (over < 0) return 0;
  return Math.min(SIGN_IN_DELAY_MAX_MS, SIGN_IN_DELAY_FIRST_MS * 2 ** Math.min(over, 16));
}

export type SignInAttempt =
  | { allowed: false }
  | {
      allowed: true;
      /** How long this attempt waited before the password was checked. */
      delayMs: number;
      /** The password was right: the attempt is not a failure and is taken back from the counts. */
      passwordAccepted: () => Promise<void>;
    };

/** How an attempt waits; an object so that tests can see the waits without sitting through them. */
export const signInPause = {
  wait: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/**
 * Counts a sign-in attempt before the password is checked: refused when its IP is over either
 * limit; otherwise it waits as long as the address's failures call for. Every attempt counts as a
 * failure until `passwordAccepted` takes it back, so attempts made at the same time are all counted.
 */
export async function beginSignIn(ip: string, email: string): Promise<SignInAttempt> {
  const address = email.trim().toLowerCase();
  const pair = `${address} ${ip}`;
  if (!(await hitRateLimit(signInLimits.ip, ip)).allowed) return { allowed: false };
  if (!(await hitRateLimit(signInLimits.pair, pair)).allowed) return { allowed: false };
  const byAddress = await hitRateLimit(signInLimits.address, address);
  const delayMs = signInDelayMs(byAddress.count - 1, limitOf(signInLimits.address));
  if (delayMs > 0) await signInPause.wait(delayMs);
  return {
    allowed: true,
    delayMs,
    passwordAccepted: async () => {
      await releaseRateLimit(signInLimits.pair, pair);
      await releaseRateLimit(signInLimits.address, address);
    },
  };
}
