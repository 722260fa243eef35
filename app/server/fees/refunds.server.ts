import { and, eq, ne, sql } from "drizzle-orm";
import { FEE_MESSAGES, formatUsd, OFFLINE_METHODS, PAYMENT_METHOD_LABELS, refundSchema } from "~/domain/fees";
import type { InvoiceStatus } from "~/domain/fees";
import { isDocumentId } from "~/domain/documents";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { invoices, payments, refunds } from "~/server/db/schema";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";
import type { FeeRefused } from "./fee-records.server";
import { feeRefused, firstMessage, isAdmin, lockInvoice } from "./fee-records.server";
import { settleInvoiceInTx } from "./settle.server";
import { stripeAccount } from "./stripe.server";

// Refunds (docs/product/fees.md#refunds): an administrator refunds (part of) a payment that was
// received. A payment received outside Stripe is refunded outside it too, and recorded here as
// done; a Stripe payment is refunded through Stripe, and stays pending until Stripe's webhook
// confirms it (confirmStripeRefund). Each refund settles its invoice again: a paid invoice
// partly refunded is partly paid.

const isOffline = (method: string) => (OFFLINE_METHODS as readonly string[]).includes(method);

/** What is left of a payment to refund: its amount less its refunds that did not fail. */
async function refundableCents(tx: Transaction, payment: { id: string; amountCents: number }): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), ne(refunds.status, "failed")));
  return payment.amountCents - Number(row?.cents ?? 0);
}

export type RefundOutcome = { ok: true; refundId: string; status: "succeeded" | "pending"; invoiceStatus: InvoiceStatus } | FeeRefused;

/**
 * An administrator refunds `amount` (dollars) of a payment that succeeded, at most what is left
 * of it after earlier refunds that did not fail, with a reason. Offline methods: recorded as
 * done ("refund-recorded") and the invoice settled, in one transaction. Stripe: recorded as
 * pending ("refund-requested"), then asked of Stripe with the refund's id as the idempotency
 * key; Stripe's refusal (or no Stripe on this server) marks it failed and says so.
 */
export async function refundPayment(
  actor: SessionUser,
  paymentId: string,
  input: { amount: string; reason?: string },
  ip: string,
): Promise<RefundOutcome> {
  assertStaff(actor, "refund a payment");
  if (!isAdmin(actor)) return feeRefused(FEE_MESSAGES.adminsOnly, 403);
  const parsed = refundSchema.safeParse({ amountCents: input.amount, reason: input.reason ?? "" });
  if (!parsed.success) return feeRefused(firstMessage(parsed.error, FEE_MESSAGES.refundAmount));
  const form = parsed.data;
  if (!isDocumentId(paymentId)) return feeRefused(FEE_MESSAGES.noSuchPayment, 404);
  const stripe = stripeAccount();

  const outcome = await getDb().transaction(async (tx) => {
    const [found] = await tx.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, paymentId));
    if (!found) return feeRefused(FEE_MESSAGES.noSuchPayment, 404);
    // The invoice's row first: every change of its money takes that lock, so refunds of one invoice take turns.
    const invoice = await lockInvoice(tx, found.invoiceId);
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId));
    if (!invoice || !payment) return feeRefused(FEE_MESSAGES.noSuchPayment, 404);
    if (payment.status !== "succeeded") return feeRefused(FEE_MESSAGES.refundNotPossible);
    if (form.amountCents > (await refundableCents(tx, payment))) return feeRefused(FEE_MESSAGES.refundAmount);
    const offline = isOffline(payment.method);
    if (!offline && (!stripe || !payment.stripePaymentIntentId)) return feeRefused(FEE_MESSAGES.refundFailed);
    const [row] = await tx
      .insert(refunds)
      .values({
        paymentId: payment.id,
        amountCents: form.amountCents,
        status: offline ? "succeeded" : "pending",
        reason: form.reason,
        requestedBy: actor.id,
        ...(offline ? { confirmedAt: new Date() } : {}),
      })
      .returning({ id: refunds.id });
    if (!row) throw new Error("no refund row returned");
    const because = form.reason ? `; ${form.reason}` : "";
    await recordAudit(
      {
        actor,
        action: offline ? "refund-recorded" : "refund-requested",
        clientId: invoice.clientId,
        taxYear: invoice.taxYear,
        detail: `${invoice.number}: ${formatUsd(form.amountCents)} of a ${PAYMENT_METHOD_LABELS[payment.method]} payment of ${formatUsd(payment.amountCents)}${because}`,
        ip,
      },
      tx,
    );
    if (!offline)
      return { ok: true as const, refundId: row.id, invoiceId: invoice.id, invoiceStatus: invoice.status, paymentIntent: payment.stripePaymentIntentId!, mailIds: [] as string[] };
    const settled = await settleInvoiceInTx(tx, invoice.id, actor, ip, "refund recorded");
    return { ok: true as const, refundId: row.id, invoiceId: invoice.id, invoiceStatus: settled?.status ?? invoice.status, paymentIntent: null, mailIds: settled?.mailIds ?? [] };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailIds);
  if (outcome.paymentIntent === null) return { ok: true, refundId: outcome.refundId, status: "succeeded", invoiceStatus: outcome.invoiceStatus };

  // Stripe is asked outside the transaction (a network call never holds the invoice's lock).
  try {
    const asked = await stripe!.client.refunds.create(
      { payment_intent: outcome.paymentIntent, amount: form.amountCents, metadata: { refundId: outcome.refundId, invoiceId: outcome.invoiceId } },
      { idempotencyKey: `refund-${outcome.refundId}` },
    );
    await getDb().update(refunds).set({ stripeRefundId: asked.id }).where(eq(refunds.id, outcome.refundId));
    if (asked.status === "failed" || asked.status === "canceled") {
      await getDb().transaction((tx) => confirmStripeRefund(tx, asked.id, "failed", outcome.refundId));
      return feeRefused(FEE_MESSAGES.refundFailed);
    }
  } catch (error) {
    logError("fees", "Stripe refused a refund", error);
    await getDb().transaction(async (tx) => {
      await tx.update(refunds).set({ status: "failed", confirmedAt: new Date() }).where(and(eq(refunds.id, outcome.refundId), eq(refunds.status, "pending")));
      const [invoice] = await tx.select({ clientId: invoices.clientId, taxYear: invoices.taxYear, number: invoices.number }).from(invoices).where(eq(invoices.id, outcome.invoiceId));
      await recordAudit(
        { actor, action: "refund-failed", clientId: invoice?.clientId ?? null, taxYear: invoice?.taxYear ?? null, detail: `${invoice?.number ?? ""}: Stripe did not accept the refund of ${formatUsd(form.amountCents)}`, ip },
        tx,
      );
    });
    return feeRefused(FEE_MESSAGES.refundFailed);
  }
  return { ok: true, refundId: outcome.refundId, status: "pending", invoiceStatus: outcome.invoiceStatus };
}

/**
 * Stripe's word on a refund (its webhook, app/server/fees/webhook.server.ts), in the webhook's
 * transaction `tx`: the refund found by Stripe's id (or, when Stripe told of it before its id was
 * stored here, by our id from its metadata, `refundId`) takes the status, its confirmation time
 * and audit entry ("refund-recorded" or "refund-failed"), and its invoice is settled again. The
 * same word twice changes nothing. Answers the outbox rows to deliver once `tx` commits, or null
 * when no refund of ours matches.
 */
export async function confirmStripeRefund(
  tx: Transaction,
  stripeRefundId: string,
  status: "succeeded" | "failed",
  refundId?: string | null,
): Promise<{ invoiceId: string; changed: boolean; mailIds: string[] } | null> {
  let [row] = await tx.select().from(refunds).where(eq(refunds.stripeRefundId, stripeRefundId));
  if (!row && refundId && isDocumentId(refundId)) [row] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
  if (!row || (row.stripeRefundId !== null && row.stripeRefundId !== stripeRefundId)) return null;
  const [payment] = await tx.select().from(payments).where(eq(payments.id, row.paymentId));
  if (!payment) return null;
  const invoice = await lockInvoice(tx, payment.invoiceId);
  if (!invoice) return null;
  // Read again under the invoice's lock: another delivery of the same event may have just written it.
  const [current] = await tx.select().from(refunds).where(eq(refunds.id, row.id));
  if (!current || current.status === status) return { invoiceId: invoice.id, changed: false, mailIds: [] };
  await tx.update(refunds).set({ status, stripeRefundId, confirmedAt: new Date() }).where(eq(refunds.id, current.id));
  await recordAudit(
    {
      actor: null,
      action: status === "succeeded" ? "refund-recorded" : "refund-failed",
      clientId: invoice.clientId,
      taxYear: invoice.taxYear,
      detail: `${invoice.number}: Stripe ${status === "succeeded" ? "confirmed" : "refused"} the refund of ${formatUsd(current.amountCents)}`,
    },
    tx,
  );
  const settled = await settleInvoiceInTx(tx, invoice.id, null, "", `Stripe refund ${status}`);
  return { invoiceId: invoice.id, changed: true, mailIds: settled?.mailIds ?? [] };
}
