import { and, eq } from "drizzle-orm";
import { formatUsd } from "~/domain/fees";
import { recordAudit } from "~/server/audit/audit.server";
import { invoices, payments, refunds } from "~/server/db/schema";
import type { Transaction } from "~/server/mail/outbox.server";
import { settleInvoiceInTx } from "~/server/fees/settle.server";

// Refunds of payments (docs/product/fees.md). A refund of a Stripe payment is asked of Stripe and
// stays pending until Stripe's webhook says how it ended (app/server/fees/webhook.server.ts).

/**
 * Stripe's word on refund `stripeRefundId`, in the webhook's transaction: a pending refund becomes
 * succeeded or failed (with when), with its audit entry, and its invoice is settled again (a
 * refund that succeeded lowers what was received: a paid invoice goes back to partly paid or
 * sent). A refund that is not ours, or that is no longer pending (told twice), changes nothing.
 * Stripe's change has no address of a person: the audit entries carry none. Returns the outbox
 * rows to deliver once the transaction commits.
 */
export async function confirmStripeRefund(tx: Transaction, stripeRefundId: string, outcome: "succeeded" | "failed"): Promise<string[]> {
  const [refund] = await tx
    .update(refunds)
    .set({ status: outcome, confirmedAt: new Date() })
    .where(and(eq(refunds.stripeRefundId, stripeRefundId), eq(refunds.status, "pending")))
    .returning({ paymentId: refunds.paymentId, amountCents: refunds.amountCents });
  if (!refund) return [];
  const [invoice] = await tx
    .select({ id: invoices.id, number: invoices.number, clientId: invoices.clientId, taxYear: invoices.taxYear })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(eq(payments.id, refund.paymentId));
  if (!invoice) return [];
  await recordAudit(
    {
      actor: null,
      action: outcome === "succeeded" ? "refund-recorded" : "refund-failed",
      clientId: invoice.clientId,
      taxYear: invoice.taxYear,
      detail: `${invoice.number}: refund of ${formatUsd(refund.amountCents)} ${outcome === "succeeded" ? "confirmed" : "refused"} by Stripe`,
    },
    tx,
  );
  const settled = await settleInvoiceInTx(tx, invoice.id, null, "", `refund ${outcome} (Stripe)`);
  return settled?.mailIds ?? [];
}
