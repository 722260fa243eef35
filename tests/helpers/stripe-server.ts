// The tests' local Stripe (scripts/lib/stripe-stand-in.js, plain JavaScript so that the browser
// tests' server can start it too), with types, the keys the tests configure, and a small client
// for a test that talks to a stand-in another process started (the browser tests' server).
import { startStripeStandIn } from "../../scripts/lib/stripe-stand-in.js";

export { parseStripeForm } from "../../scripts/lib/stripe-stand-in.js";

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
export type Delivery = { status: number; body: string };
/** Where the stand-in sends the events it signs: the app's webhook, over HTTP or called directly. */
export type Deliver = (payload: string, signature: string) => Promise<Delivery>;

/** A Checkout Session as the stand-in holds it (Stripe's shape; the fields the tests read). */
export type StandInSession = {
  id: string;
  object: "checkout.session";
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: "paid" | "unpaid";
  status: "open" | "complete";
  success_url: string;
  url: string;
  [field: string]: unknown;
};

/** Test-mode keys in the shapes the app's configuration accepts. */
export const TEST_STRIPE_KEYS = { secretKey: "sk_test_taxbridge_stand_in", webhookSecret: "whsec_taxbridge_stand_in" } as const;

/**
 * Starts a stand-in on a free port. Events go to `webhookUrl` over HTTP, or to `deliver`
 * (an integration test calling the route module itself).
 */
export function startStripeServer(target: { webhookUrl: string } | { deliver: Deliver }, webhookSecret: string = TEST_STRIPE_KEYS.webhookSecret): Promise<StripeStandIn> {
  return startStripeStandIn({ webhookSecret, ...target });
}

/** The environment that points the app at `standIn`. */
export function stripeEnv(standIn: { url: string }): Record<"STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_URL", string> {
  return { STRIPE_SECRET_KEY: TEST_STRIPE_KEYS.secretKey, STRIPE_WEBHOOK_SECRET: TEST_STRIPE_KEYS.webhookSecret, STRIPE_API_URL: standIn.url };
}

/** An API request as the stand-in recorded it. */
export type RecordedStripeRequest = { method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | null };

/** A stand-in started by another process (scripts/e2e-server.js), driven over HTTP. */
export function stripeStandInAt(url: string) {
  const post = async (path: string, fields: Record<string, string>) => {
    const response = await fetch(`${url}${path}`, { method: "POST", body: new URLSearchParams(fields) });
    if (!response.ok) throw new Error(`The Stripe stand-in answered ${response.status} to ${path}`);
    return (await response.json()) as { status: number; eventId: string };
  };
  return {
    /** A bank payment of Checkout Session `sessionId` clears (or fails): the event is sent to the app; what the app answered. */
    asyncPayment: (sessionId: string, outcome: "succeeded" | "failed") => post(`/_stand-in/sessions/${sessionId}/async-payment`, { outcome }),
    /** Refund `refundId` ends (refund.updated sent to the app). */
    refundStatus: (refundId: string, status: "succeeded" | "failed" | "canceled") => post(`/_stand-in/refunds/${refundId}/status`, { status }),
    /** Every API request the stand-in received. */
    requests: async () => (await (await fetch(`${url}/_stand-in/requests`)).json()) as RecordedStripeRequest[],
  };
}
