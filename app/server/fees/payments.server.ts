import { and, eq, inArray, sql } from "drizzle-orm";
import { isRealDay, newYorkDay } from "~/domain/business-days";
import { amountDue, FEE_MESSAGES, formatUsd, isPayable, offlinePaymentSchema, PAYMENT_METHOD_LABELS } from "~/domain/fees";
import type { InvoiceStatus } from "~/domain/fees";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { invoices, payments } from "~/server/db/schema";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { notifyStaff } from "~/server/notices/notices.server";
import type { FeeRefused } from "./fee-records.server";
import { expireUnwantedSessions } from "./checkout-sessions.server";
import { feeRefused, firstMessage, lockInvoice } from "./fee-records.server";
import { settleInvoiceInTx } from "./settle.server";

// Payments received outside Stripe (docs/product/fees.md#payments): staff record a wire, Zelle,
// check or cash payment with its reference and day, in the transaction that settles the
// invoice (partial payments add up; paid in full ticks PAYMENT there too). And the client's
// "I have sent the payment", which tells staff to look for it.

/** What a bank payment through Stripe still processing will bring: not owed again meanwhile. */
async function processingCents(tx: Transaction, invoiceId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${payments.amountCents}), 0)` })
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, "processing")));
  return Number(row?.cents ?? 0);
}

/**
 * Staff record a payment received outside Stripe, of a sent or partly paid invoice: its method,
 * reference, amount (at most what is still owed, counting a bank payment still processing as
 * received) and the day it was received (not after today). Audited; the invoice is settled in
 * the same transaction, and the client's e-mail when it is paid in full is sent after it.
 */
export async function recordOfflinePayment(
  staff: SessionUser,
  invoiceId: string,
  input: { method: string; amount: string; reference?: string; receivedOn: string },
  ip: string,
): Promise<{ ok: true; paymentId: string; status: InvoiceStatus; becamePaid: boolean } | FeeRefused> {
  assertStaff(staff, "record a payment");
  const parsed = offlinePaymentSchema.safeParse({ method: input.method, amountCents: input.amount, reference: input.reference ?? "", receivedOn: input.receivedOn });
  if (!parsed.success) return feeRefused(firstMessage(parsed.error, FEE_MESSAGES.paymentAmount));
  const form = parsed.data;
  if (!isRealDay(form.receivedOn) || form.receivedOn > newYorkDay()) return feeRefused(FEE_MESSAGES.paymentDate);
  const outcome = await getDb().transaction(async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (!invoice) return feeRefused(FEE_MESSAGES.noSuchInvoice, 404);
    if (!isPayable(invoice.status)) return feeRefused(FEE_MESSAGES.notPayable);
    const due = amountDue(invoice.totalCents, invoice.paidCents + (await processingCents(tx, invoice.id)));
    if (form.amountCents > due) return feeRefused(FEE_MESSAGES.paymentTooMuch);
    const [row] = await tx
      .insert(payments)
      .values({
        invoiceId: invoice.id,
        method: form.method,
        status: "succeeded",
        amountCents: form.amountCents,
        reference: form.reference,
        receivedOn: form.receivedOn,
        recordedBy: staff.id,
      })
      .returning({ id: payments.id });
    if (!row) throw new Error("no payment row returned");
    const ref = form.reference ? `, reference ${form.reference}` : "";
    await recordAudit(
      {
        actor: staff,
        action: "payment-recorded",
        clientId: invoice.clientId,
        taxYear: invoice.taxYear,
        detail: `${invoice.number}: ${formatUsd(form.amountCents)} by ${PAYMENT_METHOD_LABELS[form.method]} received on ${form.receivedOn}${ref}`,
        ip,
      },
      tx,
    );
    const settled = await settleInvoiceInTx(tx, invoice.id, staff, ip, `${PAYMENT_METHOD_LABELS[form.method]} payment recorded`);
    if (!settled) throw new Error("the invoice vanished while it was locked");
    return { ok: true as const, paymentId: row.id, status: settled.status, becamePaid: settled.becamePaid, mailIds: settled.mailIds };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailIds);
  // The card payment page opened for the old amount must not be paid too (settleInvoiceInTx
  // marked it unwanted): Stripe is asked to expire it now, and by the sweep until it answers.
  await expireUnwantedSessions(invoiceId);
  const { mailIds: _sent, ...recorded } = outcome;
  return recorded;
}

/** How long after the client's "I have sent the payment" another one is refused. */
export const ANNOUNCE_AGAIN_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The client says they sent a wire or Zelle payment of their own sent or partly paid invoice:
 * the time is kept on the invoice, audited, and the case's staff member is told (a notice with a
 * link, gathered like the client's other news). Again within a day: refused, nothing changes.
 */
export async function announcePayment(client: SessionUser, invoiceId: string, ip: string): Promise<{ ok: true } | FeeRefused> {
  const outcome = await getDb().transaction(async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    // Only the invoice's own client: another's invoice is as if there were none.
    if (!invoice || invoice.clientId !== client.id || invoice.status === "draft") return feeRefused(FEE_MESSAGES.noSuchInvoice, 404);
    if (!isPayable(invoice.status)) return feeRefused(FEE_MESSAGES.notPayable);
    const [updated] = await tx
      .update(invoices)
      .set({ clientNotifiedAt: sql`now()` })
      .where(
        and(
          eq(invoices.id, invoice.id),
          inArray(invoices.status, ["sent", "partly-paid"]),
          sql`(${invoices.clientNotifiedAt} is null or ${invoices.clientNotifiedAt} <= now() - ${ANNOUNCE_AGAIN_AFTER_MS}::double precision * interval '1 millisecond')`,
        ),
      )
      .returning({ id: invoices.id });
    if (!updated) return feeRefused(FEE_MESSAGES.notifiedAlready);
    await recordAudit(
      { actor: client, action: "payment-announced", clientId: invoice.clientId, taxYear: invoice.taxYear, detail: `${invoice.number}: the client says the payment was sent`, ip },
      tx,
    );
    return { ok: true as const, ref: { clientId: invoice.clientId, taxYear: invoice.taxYear } };
  });
  if (!outcome.ok) return outcome;
  await notifyStaff(outcome.ref.clientId, outcome.ref.taxYear, "payment-announced");
  return { ok: true };
}
