import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { newYorkDay } from "~/domain/business-days";
import { amountDue, formatUsd } from "~/domain/fees";
import type { PaymentMethod, PaymentStatus } from "~/domain/fees";
import { isUuid } from "~/domain/validation";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import { invoices, payments, stripeEvents } from "~/server/db/schema";
import { markSessionInTx, retireSessionsInTx } from "~/server/fees/checkout-sessions.server";
import { lockInvoice } from "~/server/fees/fee-records.server";
import { applyStripeRefundInTx } from "~/server/fees/refunds.server";
import { settleInvoiceInTx } from "~/server/fees/settle.server";
import { stripeAccount } from "~/server/fees/stripe.server";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";

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
  if (!isUuid(invoiceId)) return null;
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice || invoice.clientId !== session.metadata?.clientId) return null;
  if (session.mode !== "payment" || session.currency !== "usd") return null;
  const amount = session.amount_total;
  if (amount === null || !Number.isSafeInteger(amount) || amount <= 0) return null;
  return invoice;
}

const METHOD_WORDS: Record<"card" | "bank", string> = { card: "by card", bank: "by bank account" };

/**
 * What of a payment of `amountCents` received now is more than `invoice` still owes: all of it
 * on a void invoice (or one never sent), the part above the amount due otherwise.
 */
function excessOf(invoice: Invoice, amountCents: number): number {
  const owed = invoice.status === "void" || invoice.status === "draft" ? 0 : amountDue(invoice.totalCents, invoice.paidCents);
  return Math.max(0, amountCents - owed);
}

/**
 * Records the payment of a Checkout Session, or moves the one recorded from processing to
 * `status`; returns the mail to deliver. A payment's amount is what Stripe received
 * (`amount_total`), even above what was due or on a void invoice (a page paid before it could
 * be expired): the money is never refused or lost. What of it is more than the invoice owed
 * is kept with the payment (`excess_cents`) and said in its audit entry: the admins see it to
 * refund (docs/product/fees.md#money-received-that-is-not-owed). The session's row is closed
 * (complete), and the invoice's other sessions are no longer wanted.
 */
async function recordSessionPayment(
  tx: Transaction,
  read: Invoice,
  session: Stripe.Checkout.Session,
  method: "card" | "bank",
  status: PaymentStatus,
  ip: string,
): Promise<string[]> {
  // The invoice's row first: what it owes decides what of this payment is more than that.
  const invoice = (await lockInvoice(tx, read.id)) ?? read;
  await markSessionInTx(tx, session.id, session.metadata?.checkoutId ?? null, "complete");
  await retireSessionsInTx(tx, invoice.id);
  const amountCents = session.amount_total ?? 0;
  const paymentIntent = idOf(session.payment_intent);
  let excess = status === "succeeded" ? excessOf(invoice, amountCents) : 0;
  const [inserted] = await tx
    .insert(payments)
    .values({
      invoiceId: invoice.id,
      method: method satisfies PaymentMethod,
      status,
      amountCents,
      // The day Stripe told of the payment, New York's.
      receivedOn: newYorkDay(),
      stripeCheckoutSessionId: session.id,
      stripePaymentIntentId: paymentIntent,
      excessCents: excess,
      recordedBy: null,
    })
    .onConflictDoNothing({ target: payments.stripeCheckoutSessionId })
    .returning({ id: payments.id });
  let told = method;
  if (!inserted) {
    // Told of before: only a bank payment still processing moves on (a final state stays).
    const [existing] = await tx
      .select({ id: payments.id, status: payments.status, method: payments.method, amountCents: payments.amountCents })
      .from(payments)
      .where(eq(payments.stripeCheckoutSessionId, session.id))
      .for("update");
    if (!existing || existing.status !== "processing" || status === "processing") return [];
    excess = status === "succeeded" ? excessOf(invoice, existing.amountCents) : 0;
    await tx
      .update(payments)
      .set({ status, excessCents: excess, updatedAt: new Date(), ...(paymentIntent ? { stripePaymentIntentId: paymentIntent } : {}) })
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
  const above =
    excess === 0
      ? ""
      : invoice.status === "void" || invoice.status === "draft"
        ? `; the invoice is ${invoice.status}: ${formatUsd(excess)} to refund`
        : `; ${formatUsd(excess)} more than was owed: to refund`;
  await recordAudit({ actor: null, action: "payment-recorded", ...ref, detail: `${words} received${above}`, ip }, tx);
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

/**
 * Stripe's word on refunds: those this server asked for take Stripe's final state (succeeded, or
 * failed or canceled); those made in Stripe's Dashboard of a payment of ours are recorded
 * (applyStripeRefundInTx). "ignored" when none is about anything of ours.
 */
async function refundEvents(tx: Transaction, refundList: readonly Stripe.Refund[]): Promise<{ outcome: StripeEventOutcome; mailIds: string[] }> {
  const mailIds: string[] = [];
  let ours = false;
  for (const refund of refundList) {
    const applied = await applyStripeRefundInTx(tx, refund);
    if (applied === null) continue;
    ours = true;
    mailIds.push(...applied);
  }
  return { outcome: ours ? "processed" : "ignored", mailIds };
}

/**
 * The refunds of a charge Stripe told of with charge.refunded. The event's charge lists them
 * only when the API version or the endpoint expands `refunds` (current versions do not); then
 * they are read from Stripe (GET /v1/refunds?payment_intent=...), before the event's
 * transaction, and only for a payment of ours and an event not seen before. A failure to read
 * them fails the event (500): Stripe sends it again.
 */
async function refundsOfCharge(event: Stripe.ChargeRefundedEvent): Promise<Stripe.Refund[]> {
  const charge = event.data.object;
  if (charge.refunds?.data) return charge.refunds.data;
  const paymentIntent = idOf(charge.payment_intent);
  const stripe = stripeAccount();
  if (!paymentIntent || !stripe) return [];
  const db = getDb();
  const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id));
  if (seen) return [];
  const [payment] = await db.select({ id: payments.id }).from(payments).where(eq(payments.stripePaymentIntentId, paymentIntent)).limit(1);
  if (!payment) return [];
  return (await stripe.client.refunds.list({ payment_intent: paymentIntent, limit: 100 })).data;
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
  const chargeRefunds = event.type === "charge.refunded" ? await refundsOfCharge(event) : [];
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
        return refundEvents(tx, [event.data.object]);
      case "charge.refunded":
        return refundEvents(tx, chargeRefunds);
      default:
        return { outcome: "ignored" as const, mailIds: [] };
    }
  });
  deliverMail(mailIds);
  return outcome;
}
