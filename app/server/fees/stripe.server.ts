import Stripe from "stripe";
import { getEnv } from "~/server/platform/env.server";
import type { StripeSettings } from "~/server/platform/env.server";

// Stripe's Node library, made once per process from the environment (README, "Payments"). Card
// payments exist only when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; STRIPE_API_URL
// points the library at another address (the tests' local stand-in, tests/helpers/stripe-server.ts).

let cached: { settings: StripeSettings; client: Stripe } | undefined;

/** The Stripe client and its settings, or null when card payments are not configured. */
export function stripeAccount(): { settings: StripeSettings; client: Stripe } | null {
  const settings = getEnv().stripe;
  if (!settings) return null;
  if (cached?.settings !== settings) {
    const api = settings.apiUrl;
    const client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
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
