import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { formatUsd } from "~/domain/fees";
import type { PaymentMethod, PaymentStatus } from "~/domain/fees";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import { invoices, payments, stripeEvents } from "~/server/db/schema";
import { UUID_SHAPE } from "~/server/fees/checkout.server";
import { confirmStripeRefund } from "~/server/fees/refunds.server";
import { settleInvoiceInTx } from "~/server/fees/settle.server";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";

// What Stripe's signed events do to the books (docs/decisions/0030-stripe-checkout-and-webhook.md):
// the only way a card or bank payment through Stripe is recorded, and how a refund asked of
// Stripe is confirmed. Each event is processed once, in one transaction with its id: Stripe may
// send an event again, or twice at once, or out of order.

/** What became of an event: processed now, already processed before, or about nothing of ours. */
export type StripeEventOutcome = "processed" | "repeated" | "ignored";

/** The events this server acts on (README, "Payments": the webhook endpoint's events). */
export const STRIPE_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.refunded",
] as const;

type Invoice = typeof invoices.$inferSelect;

/** Today's date (UTC), YYYY-MM-DD: the day Stripe told of the payment. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === "string" ? value : (value?.id ?? null);
}

/**
 * The invoice a Checkout Session pays, when the session is one this server made for it: its
 * metadata names an invoice of this server and that invoice's client, in US dollars, for an
 * amount. Anything else is about nothing of ours (null).
 */
async function invoiceOfSession(tx: Transaction, session: Stripe.Checkout.Session): Promise<Invoice | null> {
  const invoiceId = session.metadata?.invoiceId ?? "";
  if (!UUID_SHAPE.test(invoiceId)) return null;
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice || invoice.clientId !== session.metadata?.clientId) return null;
  if (session.mode !== "payment" || session.currency !== "usd") return null;
  const amount = session.amount_total;
  if (amount === null || !Number.isSafeInteger(amount) || amount <= 0) return null;
  return invoice;
}

const METHOD_WORDS: Record<"card" | "bank", string> = { card: "by card", bank: "by bank account" };

/**
 * Records the payment of a Checkout Session, or moves the one recorded from processing to
 * `status`; returns the mail to deliver. A payment's amount is what Stripe received
 * (`amount_total`), even above what was due: the invoice is then simply paid.
 */
async function recordSessionPayment(
  tx: Transaction,
  invoice: Invoice,
  session: Stripe.Checkout.Session,
  method: "card" | "bank",
  status: PaymentStatus,
  ip: string,
): Promise<string[]> {
  const amountCents = session.amount_total ?? 0;
  const paymentIntent = idOf(session.payment_intent);
  const [inserted] = await tx
    .insert(payments)
    .values({
      invoiceId: invoice.id,
      method: method satisfies PaymentMethod,
      status,
      amountCents,
      receivedOn: today(),
      stripeCheckoutSessionId: session.id,
      stripePaymentIntentId: paymentIntent,
      recordedBy: null,
    })
    .onConflictDoNothing({ target: payments.stripeCheckoutSessionId })
    .returning({ id: payments.id });
  let told = method;
  if (!inserted) {
    // Told of before: only a bank payment still processing moves on (a final state stays).
    const [existing] = await tx
      .select({ id: payments.id, status: payments.status, method: payments.method })
      .from(payments)
      .where(eq(payments.stripeCheckoutSessionId, session.id))
      .for("update");
    if (!existing || existing.status !== "processing" || status === "processing") return [];
    await tx
      .update(payments)
      .set({ status, updatedAt: new Date(), ...(paymentIntent ? { stripePaymentIntentId: paymentIntent } : {}) })
      .where(eq(payments.id, existing.id));
    if (existing.method === "card" || existing.method === "bank") told = existing.method;
  }
  const ref = { clientId: invoice.clientId, taxYear: invoice.taxYear };
  const words = `${invoice.number}: ${formatUsd(amountCents)} ${METHOD_WORDS[told]} through Stripe`;
  if (status === "processing") {
    await recordAudit({ actor: null, action: "payment-processing", ...ref, detail: `${words}, clearing`, ip }, tx);
    return [];
  }
  if (status === "failed") {
    await recordAudit({ actor: null, action: "payment-failed", ...ref, detail: `${words} did not clear`, ip }, tx);
    return [];
  }
  await recordAudit({ actor: null, action: "payment-recorded", ...ref, detail: `${words} received`, ip }, tx);
  const settled = await settleInvoiceInTx(tx, invoice.id, null, ip, `${METHOD_WORDS[told]} through Stripe`);
  return settled?.mailIds ?? [];
}

/**
 * A Checkout Session's events. Completed and paid: a card payment (a card is paid at once).
 * Completed but unpaid: a US bank account's debit, processing until Stripe tells of its
 * success or failure (the async events, which may also come first: then the payment is
 * recorded from them).
 */
async function sessionEvent(
  tx: Transaction,
  type: "completed" | "succeeded" | "failed",
  session: Stripe.Checkout.Session,
  ip: string,
  eventId: string,
): Promise<{ outcome: StripeEventOutcome; mailIds: string[] }> {
  const invoice = await invoiceOfSession(tx, session);
  if (!invoice) {
    console.warn(`[fees] Stripe event ${eventId} is about no invoice of this server (or not in US dollars): ignored`);
    return { outcome: "ignored", mailIds: [] };
  }
  if (type === "completed") {
    if (session.payment_status === "paid") return { outcome: "processed", mailIds: await recordSessionPayment(tx, invoice, session, "card", "succeeded", ip) };
    if (session.payment_status === "unpaid") return { outcome: "processed", mailIds: await recordSessionPayment(tx, invoice, session, "bank", "processing", ip) };
    return { outcome: "ignored", mailIds: [] };
  }
  return { outcome: "processed", mailIds: await recordSessionPayment(tx, invoice, session, "bank", type, ip) };
}

/** Stripe's word on refunds it was asked for: succeeded, or failed or canceled; pending ones wait. */
async function refundEvents(tx: Transaction, refundList: readonly Stripe.Refund[]): Promise<string[]> {
  const mailIds: string[] = [];
  for (const refund of refundList) {
    const outcome = refund.status === "succeeded" ? "succeeded" : refund.status === "failed" || refund.status === "canceled" ? "failed" : null;
    if (!outcome) continue;
    const confirmed = await confirmStripeRefund(tx, refund.id, outcome, refund.metadata?.refundId ?? null);
    if (confirmed) mailIds.push(...confirmed.mailIds);
  }
  return mailIds;
}

/**
 * Processes one verified Stripe event, once: its id is stored in the same transaction as what it
 * changes, so an event delivered again changes nothing ("repeated"; two deliveries at once: the
 * second waits for the first's row and then finds it). An event of another kind, or about no
 * invoice of this server, is stored as seen and changes nothing else. The e-mails it queues
 * (the fee-paid receipt, a stage notice) are sent once it has committed and Stripe has its
 * answer, which never waits for the mail server. `ip` is the address the event came from, for
 * the audit trail.
 */
export async function processStripeEvent(event: Stripe.Event, ip = ""): Promise<StripeEventOutcome> {
  const { outcome, mailIds } = await getDb().transaction(async (tx) => {
    const fresh = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (fresh.length === 0) return { outcome: "repeated" as const, mailIds: [] };
    switch (event.type) {
      case "checkout.session.completed":
        return sessionEvent(tx, "completed", event.data.object, ip, event.id);
      case "checkout.session.async_payment_succeeded":
        return sessionEvent(tx, "succeeded", event.data.object, ip, event.id);
      case "checkout.session.async_payment_failed":
        return sessionEvent(tx, "failed", event.data.object, ip, event.id);
      case "refund.created":
      case "refund.updated":
      case "refund.failed":
        return { outcome: "processed" as const, mailIds: await refundEvents(tx, [event.data.object]) };
      case "charge.refunded":
        return { outcome: "processed" as const, mailIds: await refundEvents(tx, event.data.object.refunds?.data ?? []) };
      default:
        return { outcome: "ignored" as const, mailIds: [] };
    }
  });
  deliverMail(mailIds);
  return outcome;
}
