import type { Route } from "./+types/stripe-webhook";
import type Stripe from "stripe";
import { logError } from "~/log";
import { NO_STORE } from "~/server/auth/session.server";
import { stripeAccount } from "~/server/fees/stripe.server";
import { processStripeEvent } from "~/server/fees/webhook.server";

// Stripe's webhook endpoint (README, "Payments"; docs/decisions/0030-stripe-checkout-and-webhook.md).
// Stripe posts from its own servers, so this one address is exempt from the origin check
// (app/server/http/origin-check.server.ts): the event's signature, made with the endpoint's
// signing secret over the exact bytes of the body, is what admits it. Only a verified event is
// read; anything else is answered 400 and stored nowhere.

function answer(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/** The endpoint takes POSTs only. */
export function loader() {
  return answer(405, "Method not allowed.", { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return answer(405, "Method not allowed.", { Allow: "POST" });
  const stripe = stripeAccount();
  // Card payments are not configured: there is no endpoint.
  if (!stripe) return answer(404, "Not found.");
  // The body exactly as sent: the signature is over these bytes.
  const raw = Buffer.from(await request.arrayBuffer());
  const signature = request.headers.get("stripe-signature");
  if (!signature) return answer(400, "No signature.");
  let event: Stripe.Event;
  try {
    // Stripe's default tolerance: a signature more than 300 seconds old is refused (a replay).
    event = stripe.client.webhooks.constructEvent(raw, signature, stripe.settings.webhookSecret);
  } catch {
    console.warn("[fees] Stripe webhook refused: the signature does not match the body or is too old");
    return answer(400, "Bad signature.");
  }
  try {
    await processStripeEvent(event, context.clientIp);
  } catch (error) {
    // Not stored: Stripe sends the event again later.
    logError("fees", `Stripe event ${event.type} ${event.id}`, error);
    return answer(500, "Not processed; send it again.");
  }
  return answer(200, "OK");
}
