import { and, asc, eq, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import type Stripe from "stripe";
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
import type { Transaction } from "~/server/db/client.server";
import type { FeeRefused } from "./fee-records.server";
import { feeRefused, firstMessage, isAdmin, lockInvoice } from "./fee-records.server";
import { settleInvoiceInTx } from "./settle.server";
import { stripeAccount, stripeRefused } from "./stripe.server";

// Refunds (docs/product/fees.md#refunds): an administrator refunds (part of) a payment that was
// received. A payment received outside Stripe is refunded outside it too, and recorded here as
// done; a Stripe payment is refunded through Stripe, and stays pending until Stripe says what
// became of it (its answer, its webhook, or the sweep asking again: never a guess). A refund
// made in Stripe's Dashboard is recorded when Stripe tells of it. Each refund settles its
// invoice again: a paid invoice partly refunded is partly paid.

const isOffline = (method: string) => (OFFLINE_METHODS as readonly string[]).includes(method);

/** What is left of a payment to refund: its amount less its refunds that did not fail. */
async function refundableCents(tx: Transaction, payment: { id: string; amountCents: number }): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), ne(refunds.status, "failed")));
  return payment.amountCents - Number(row?.cents ?? 0);
}

export type RefundOutcome =
  | {
      ok: true;
      refundId: string;
      /** Done (an offline refund, or Stripe said so at once), or pending: asked of Stripe, not confirmed yet. */
      status: "succeeded" | "pending";
      /** Stripe has not answered (a time-out, a broken connection, a 5xx): the refund stays pending and is asked again. */
      unanswered: boolean;
      invoiceStatus: InvoiceStatus;
    }
  | FeeRefused;

/**
 * An administrator refunds `amount` (dollars) of a payment that succeeded, at most what is left
 * of it after earlier refunds that did not fail, with a reason. Offline methods: recorded as
 * done ("refund-recorded") and the invoice settled, in one transaction. Stripe: recorded as
 * pending ("refund-requested"), then asked of Stripe with the refund's id as the idempotency
 * key (askStripe). Only Stripe's definite refusal marks it failed; when Stripe's answer is
 * unknown the refund stays pending (it holds its amount, so it cannot be made twice) and the
 * sweep asks Stripe again under the same key until it is known.
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
    if (!offline && (!stripe || !payment.stripePaymentIntentId)) return feeRefused(FEE_MESSAGES.refundNoStripe);
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
      .returning();
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
    if (!offline) return { ok: true as const, row, invoiceStatus: invoice.status, paymentIntent: payment.stripePaymentIntentId!, mailIds: [] as string[] };
    const settled = await settleInvoiceInTx(tx, invoice.id, actor, ip, "refund recorded");
    return { ok: true as const, row, invoiceStatus: settled?.status ?? invoice.status, paymentIntent: null, mailIds: settled?.mailIds ?? [] };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailIds);
  if (outcome.paymentIntent === null)
    return { ok: true, refundId: outcome.row.id, status: "succeeded", unanswered: false, invoiceStatus: outcome.invoiceStatus };

  // Stripe is asked outside the transaction (a network call never holds the invoice's lock).
  const asked = await askStripe({ ...outcome.row, paymentIntent: outcome.paymentIntent }, { actor, ip, first: true });
  if (asked === "failed") return feeRefused(FEE_MESSAGES.refundFailed);
  const [invoice] = await getDb().select({ status: invoices.status }).from(invoices).innerJoin(payments, eq(payments.invoiceId, invoices.id)).where(eq(payments.id, paymentId));
  return {
    ok: true,
    refundId: outcome.row.id,
    status: asked === "succeeded" ? "succeeded" : "pending",
    unanswered: asked === "unknown",
    invoiceStatus: invoice?.status ?? outcome.invoiceStatus,
  };
}

type RefundRow = typeof refunds.$inferSelect;

/** Stripe's state of a refund, as the books take it: done, refused (failed or canceled), or still to come. */
function outcomeOf(status: string | null | undefined): "succeeded" | "failed" | "pending" {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  // pending, requires_action (the customer must give bank details), or a state this library does not name.
  return "pending";
}

/**
 * Asks Stripe where refund `refund` (ours, pending) stands, and records what it says:
 * - with Stripe's id known: Stripe's refund is read (GET /v1/refunds/:id);
 * - without it (the answer to the request was lost, or the request was never sent because the
 *   process stopped): Stripe's refunds of the payment are read first, to find ours by its id in
 *   their metadata; if none is there it is asked for (again) with the SAME idempotency key
 *   (`refund-<our id>`), so that a request Stripe did carry out answers the same refund.
 * Succeeded, failed or canceled: confirmed (confirmStripeRefund). Stripe's definite refusal of
 * the request (a 4xx card or invalid-request error): failed, audited. Anything else (time-out,
 * broken connection, 5xx, 409): unknown, the refund stays pending. Never throws.
 * `first`: the administrator's own request (nothing to look up yet).
 */
async function askStripe(
  refund: RefundRow & { paymentIntent: string },
  { actor = null, ip = "", first = false }: { actor?: SessionUser | null; ip?: string; first?: boolean } = {},
): Promise<"succeeded" | "failed" | "pending" | "unknown"> {
  const stripe = stripeAccount();
  if (!stripe) return "unknown";
  let answer: Stripe.Refund | undefined;
  let asking = false;
  try {
    if (refund.stripeRefundId) answer = await stripe.client.refunds.retrieve(refund.stripeRefundId);
    else if (!first) answer = (await stripe.client.refunds.list({ payment_intent: refund.paymentIntent, limit: 100 })).data.find((r) => r.metadata?.refundId === refund.id);
    if (!answer) {
      asking = true;
      answer = await stripe.client.refunds.create(
        { payment_intent: refund.paymentIntent, amount: refund.amountCents, metadata: { refundId: refund.id, invoiceId: await invoiceIdOf(refund.paymentId) } },
        { idempotencyKey: refundIdempotencyKey(refund.id) },
      );
    }
  } catch (error) {
    // Only a refusal of the request to refund is Stripe's "no"; failing to read a refund says nothing of it.
    if (!asking || !stripeRefused(error)) {
      logError("fees", "Stripe did not answer about a refund; it stays pending and is asked again", error);
      return "unknown";
    }
    logError("fees", "Stripe refused a refund", error);
    await getDb().transaction(async (tx) => {
      const [changed] = await tx
        .update(refunds)
        .set({ status: "failed", confirmedAt: new Date() })
        .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
        .returning({ id: refunds.id });
      if (!changed) return;
      const [invoice] = await tx
        .select({ clientId: invoices.clientId, taxYear: invoices.taxYear, number: invoices.number })
        .from(invoices)
        .innerJoin(payments, eq(payments.invoiceId, invoices.id))
        .where(eq(payments.id, refund.paymentId));
      await recordAudit(
        { actor, action: "refund-failed", clientId: invoice?.clientId ?? null, taxYear: invoice?.taxYear ?? null, detail: `${invoice?.number ?? ""}: Stripe refused the refund of ${formatUsd(refund.amountCents)}`, ip },
        tx,
      );
    });
    return "failed";
  }
  const told = answer;
  const outcome = outcomeOf(told.status);
  const mailIds = await getDb().transaction(async (tx) => {
    if (outcome === "pending") {
      await tx.update(refunds).set({ stripeRefundId: told.id }).where(and(eq(refunds.id, refund.id), isNull(refunds.stripeRefundId)));
      return [];
    }
    return (await confirmStripeRefund(tx, told.id, outcome, refund.id))?.mailIds ?? [];
  });
  deliverMail(mailIds);
  return outcome;
}

/** The idempotency key of our refund `id`: every request for it, first or again, carries it. */
export function refundIdempotencyKey(id: string): string {
  return `refund-${id}`;
}

async function invoiceIdOf(paymentId: string): Promise<string> {
  const [row] = await getDb().select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, paymentId));
  return row?.invoiceId ?? "";
}

/** A refund asked of Stripe this long ago and still unanswered is the sweep's (the request's own tries are over). */
export const REFUND_ASK_AGAIN_AFTER_MS = 2 * 60_000;

/**
 * The sweep's part for refunds (app/server/fees/stripe-sweep.server.ts): every refund of a Stripe
 * payment still pending, asked more than REFUND_ASK_AGAIN_AFTER_MS ago, is asked of Stripe
 * again (askStripe): those whose answer was lost, those whose request was never sent (the
 * process stopped between writing the row and asking), those Stripe has not finished, and
 * those made in Stripe's Dashboard and told of as pending. Answers what became of them.
 */
export async function sweepPendingRefunds(now = new Date()): Promise<{ settled: number; pending: number }> {
  if (!stripeAccount()) return { settled: 0, pending: 0 };
  const rows = await getDb()
    .select({ refund: refunds, paymentIntent: payments.stripePaymentIntentId })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(refunds.status, "pending"),
        isNotNull(payments.stripePaymentIntentId),
        lt(refunds.createdAt, new Date(now.getTime() - REFUND_ASK_AGAIN_AFTER_MS)),
      ),
    )
    .orderBy(asc(refunds.createdAt));
  let settled = 0;
  for (const { refund, paymentIntent } of rows) {
    const asked = await askStripe({ ...refund, paymentIntent: paymentIntent! });
    if (asked === "succeeded" || asked === "failed") settled++;
  }
  return { settled, pending: rows.length - settled };
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
  const row = await refundOfStripe(tx, stripeRefundId, refundId);
  if (!row) return null;
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

/** Our refund that Stripe's refund `stripeRefundId` is: by Stripe's id, or by our id in its metadata (`refundId`) while it has none. */
async function refundOfStripe(tx: Transaction, stripeRefundId: string, refundId?: string | null): Promise<RefundRow | null> {
  let [row] = await tx.select().from(refunds).where(eq(refunds.stripeRefundId, stripeRefundId));
  if (!row && refundId && isDocumentId(refundId)) [row] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
  if (!row || (row.stripeRefundId !== null && row.stripeRefundId !== stripeRefundId)) return null;
  return row;
}

/** What a refund made in Stripe's Dashboard is called in the books. */
export const DASHBOARD_REFUND_REASON = "Made in Stripe's Dashboard";

/**
 * A refund Stripe tells of (refund.created, refund.updated, refund.failed, or one listed by
 * charge.refunded), in the webhook's transaction `tx`. One of ours: its status is taken when
 * final (confirmStripeRefund), and Stripe's id is kept meanwhile. One this server did not ask for
 * (made in Stripe's Dashboard) of a payment it holds: recorded in the books as a refund of that
 * payment, with no administrator and Stripe's id, audited, and the invoice settled (a paid
 * invoice refunded in part is partly paid again), once: Stripe's id is unique, and the invoice's
 * lock makes two events about it take turns. Answers the outbox rows to deliver, or null when the
 * refund is of nothing of ours.
 */
export async function applyStripeRefundInTx(tx: Transaction, refund: Stripe.Refund): Promise<string[] | null> {
  const outcome = outcomeOf(refund.status);
  const ourId = refund.metadata?.refundId ?? null;
  const known = await refundOfStripe(tx, refund.id, ourId);
  if (known) {
    if (outcome !== "pending") return (await confirmStripeRefund(tx, refund.id, outcome, ourId))?.mailIds ?? [];
    await tx.update(refunds).set({ stripeRefundId: refund.id }).where(and(eq(refunds.id, known.id), isNull(refunds.stripeRefundId)));
    return [];
  }
  const paymentIntent = typeof refund.payment_intent === "string" ? refund.payment_intent : (refund.payment_intent?.id ?? null);
  if (!paymentIntent || refund.currency !== "usd" || !Number.isSafeInteger(refund.amount) || refund.amount <= 0) return null;
  const [payment] = await tx.select().from(payments).where(eq(payments.stripePaymentIntentId, paymentIntent)).limit(1);
  if (!payment) return null;
  const invoice = await lockInvoice(tx, payment.invoiceId);
  if (!invoice) return null;
  // Under the invoice's lock: the other event about the same refund may have just recorded it.
  const [again] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.stripeRefundId, refund.id));
  if (again) return outcome === "pending" ? [] : ((await confirmStripeRefund(tx, refund.id, outcome))?.mailIds ?? []);
  await tx.insert(refunds).values({
    paymentId: payment.id,
    amountCents: refund.amount,
    status: outcome,
    reason: DASHBOARD_REFUND_REASON,
    stripeRefundId: refund.id,
    requestedBy: null,
    ...(outcome === "pending" ? {} : { confirmedAt: new Date() }),
  });
  const state = outcome === "succeeded" ? "" : outcome === "failed" ? ", which failed" : ", pending";
  await recordAudit(
    {
      actor: null,
      action: outcome === "succeeded" ? "refund-recorded" : outcome === "failed" ? "refund-failed" : "refund-requested",
      clientId: invoice.clientId,
      taxYear: invoice.taxYear,
      detail: `${invoice.number}: ${formatUsd(refund.amount)} of a ${PAYMENT_METHOD_LABELS[payment.method]} payment of ${formatUsd(payment.amountCents)} refunded in Stripe's Dashboard${state}`,
    },
    tx,
  );
  if (outcome !== "succeeded") return [];
  const settled = await settleInvoiceInTx(tx, invoice.id, null, "", "refund made in Stripe's Dashboard");
  return settled?.mailIds ?? [];
}
