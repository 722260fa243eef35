import Stripe from "stripe";
import { getEnv } from "~/server/platform/env.server";
import type { StripeSettings } from "~/server/platform/env.server";

// Stripe's Node library, made once per process from the environment (README, "Payments"). Card
// payments exist only when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; STRIPE_API_URL
// points the library at another address (the tests' local stand-in, tests/helpers/stripe-server.ts).

let cached: { settings: StripeSettings; client: Stripe } | undefined;
/** How long one request to Stripe may take before it counts as unanswered (tests shorten it). */
let timeoutMs = 20_000;

/** Tests: a shorter wait for Stripe's answers (null: the default again). */
export function setStripeTimeoutForTests(ms: number | null): void {
  timeoutMs = ms ?? 20_000;
  cached = undefined;
}

/** The Stripe client and its settings, or null when card payments are not configured. */
export function stripeAccount(): { settings: StripeSettings; client: Stripe } | null {
  const settings = getEnv().stripe;
  if (!settings) return null;
  if (cached?.settings !== settings) {
    const api = settings.apiUrl;
    const client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: timeoutMs,
      telemetry: false,
      appInfo: { name: "TaxBridge" },
      ...(api
        ? {
            protocol: api.protocol === "http:" ? ("http" as const) : ("https" as const),
            host: api.hostname,
            port: api.port ? Number(api.port) : api.protocol === "http:" ? 80 : 443,
          }
        : {}),
    });
    cached = { settings, client };
  }
  return cached;
}

/**
 * Whether an error from Stripe's API is Stripe's definite "no": it answered that the request is
 * refused (a card error, 402; an invalid request, 400 or 404), so nothing was done. Anything
 * else leaves the outcome unknown: a time-out or a broken connection (Stripe may have done it),
 * a 5xx, a 409 (the same idempotency key still being worked on), a rate limit, a key Stripe did
 * not accept, or an idempotency error. An unknown outcome is asked of Stripe again, never taken
 * for a refusal.
 */
export function stripeRefused(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { type } = error as { type?: unknown };
  return type === "StripeCardError" || type === "StripeInvalidRequestError";
}
