import { and, eq } from "drizzle-orm";
import { amountDue, FEE_MESSAGES, FEE_TEXTS, isPayable } from "~/domain/fees";
import { isUuid } from "~/domain/validation";
import { logError } from "~/log";
import { getDb } from "~/server/db/client.server";
import { invoices, payments } from "~/server/db/schema";
import { stripeAccount } from "~/server/fees/stripe.server";
import { getEnv } from "~/server/platform/env.server";

// A client's card (or US bank account) payment of an invoice through Stripe Checkout
// (docs/decisions/0030-stripe-checkout-and-webhook.md): the server makes the Checkout Session
// for what the invoice still owes, read from the database, and sends the client to Stripe's
// page. Nothing is recorded here: the payment is recorded only when Stripe's signed webhook
// says so (app/server/fees/webhook.server.ts), never from the page the client comes back to.

export type CheckoutStart = { ok: true; url: string } | { ok: false; status: number; message: string };

/** The payment methods Checkout offers: a card, or a US bank account (which clears days later). */
export const CHECKOUT_METHODS = ["card", "us_bank_account"] as const;

/**
 * The same invoice and amount asked for again within Stripe's idempotency window (about 24
 * hours) gets the same Checkout Session back: two tabs, or a double click, give one session, and
 * a session can be paid once. A payment that changes the amount due makes a new key.
 */
export function checkoutIdempotencyKey(invoiceId: string, amountDueCents: number): string {
  return `checkout-${invoiceId}-${amountDueCents}`;
}

/**
 * Opens a Stripe Checkout Session for invoice `invoiceId` of `client` (the signed-in client;
 * another client's invoice is no invoice) and answers its address. Only an invoice that can be
 * paid now (sent or partly paid), with no bank payment of it still processing, and only when
 * card payments are configured. The amount is what the invoice still owes; nothing the browser
 * sends takes part. Nothing is audited: no money has moved yet (`_ip` is the request's address,
 * taken like every fee action's).
 */
export async function startCheckout(client: { id: string; email: string }, invoiceId: string, _ip: string): Promise<CheckoutStart> {
  const noSuchInvoice = { ok: false as const, status: 404, message: FEE_MESSAGES.noSuchInvoice };
  if (!isUuid(invoiceId)) return noSuchInvoice;
  const db = getDb();
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.clientId, client.id)));
  if (!invoice) return noSuchInvoice;
  const due = amountDue(invoice.totalCents, invoice.paidCents);
  if (!isPayable(invoice.status) || due <= 0) return { ok: false, status: 409, message: FEE_MESSAGES.notPayable };
  // A bank payment still clearing may pay the whole invoice: a second payment now could pay it twice.
  const [processing] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, "processing")))
    .limit(1);
  if (processing) return { ok: false, status: 409, message: FEE_TEXTS.processing };
  const stripe = stripeAccount();
  if (!stripe) return { ok: false, status: 503, message: FEE_MESSAGES.cardNotConfigured };

  const filing = `${getEnv().appUrl}/my-tax-filing/${invoice.taxYear}`;
  const metadata = { invoiceId: invoice.id, clientId: invoice.clientId, taxYear: String(invoice.taxYear), number: invoice.number };
  try {
    const session = await stripe.client.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: due,
              product_data: { name: `Invoice ${invoice.number} (tax year ${invoice.taxYear})` },
            },
          },
        ],
        allowed_payment_method_types: [...CHECKOUT_METHODS],
        customer_email: client.email,
        client_reference_id: invoice.id,
        metadata,
        payment_intent_data: { metadata },
        // Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}.
        success_url: `${filing}?checkout=done&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${filing}?checkout=cancelled`,
      },
      { idempotencyKey: checkoutIdempotencyKey(invoice.id, due) },
    );
    if (!session.url) throw new Error("Stripe answered a Checkout Session without its address");
    return { ok: true, url: session.url };
  } catch (error) {
    logError("fees", `Stripe Checkout Session for ${invoice.number}`, error);
    return { ok: false, status: 502, message: FEE_MESSAGES.cardUnavailable };
  }
}

/**
 * Where a client's Stripe payment stands when they come back from Stripe's page with
 * `sessionId`, read from this server's own records (what the webhook recorded): "paid",
 * "processing" (a bank payment clearing), "failed" (a bank payment that did not clear), or
 * "confirming" while the webhook has not arrived yet (FEE_TEXTS.confirming). Another client's
 * session, or one that is not a session at all, reads "confirming": nothing is told about it.
 */
export async function checkoutState(client: { id: string }, sessionId: string): Promise<"paid" | "processing" | "failed" | "confirming"> {
  if (!/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) return "confirming";
  const [payment] = await getDb()
    .select({ status: payments.status })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.stripeCheckoutSessionId, sessionId), eq(invoices.clientId, client.id)));
  if (!payment) return "confirming";
  return payment.status === "succeeded" ? "paid" : payment.status;
}
