import { and, eq, sql } from "drizzle-orm";
import { formatUsd, statusFromPayments } from "~/domain/fees";
import type { InvoiceStatus } from "~/domain/fees";
import { recordAudit } from "~/server/audit/audit.server";
import { completeStageInTx } from "~/server/cases/workflow.server";
import { invoices, payments, refunds } from "~/server/db/schema";
import { enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { clientContact, filingUrl } from "~/server/notices/notices.server";
import { retireSessionsInTx } from "./checkout-sessions.server";

// What a payment or a refund does to its invoice, in the payment's own transaction: the amount
// received is added up again from the records, the invoice's state follows from it, and an
// invoice paid in full ticks the case's PAYMENT flag, with its audit entry and the client's
// e-mail (a link to the filing page, where the receipt is).

/** Who made the change: a staff member, the client, or nobody (Stripe's webhook). */
export type FeeActor = { id: string; email: string } | null;

export type Settled = {
  status: InvoiceStatus;
  paidCents: number;
  /** The invoice became paid in full by this change. */
  becamePaid: boolean;
  /** Outbox rows to deliver once the transaction commits. */
  mailIds: string[];
};

/**
 * Adds up what invoice `invoiceId` has received (payments that succeeded, less refunds that did)
 * and stores it with the state that follows, in `tx`, with the invoice's row locked. When the
 * invoice becomes paid in full: `paid_at`, the PAYMENT flag of its case (completeStageInTx, with
 * the stage e-mail when the stage moves), an "invoice-paid" audit entry and the client's
 * "fee-paid" e-mail. What the invoice owes has changed, so its Checkout Sessions that could still
 * be paid are no longer wanted (retireSessionsInTx; Stripe is asked to expire them once `tx` has
 * committed). Null when there is no such invoice.
 */
export async function settleInvoiceInTx(tx: Transaction, invoiceId: string, actor: FeeActor, ip: string, because: string): Promise<Settled | null> {
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for("update");
  if (!invoice) return null;
  const [received] = await tx
    .select({ cents: sql<string>`coalesce(sum(${payments.amountCents}), 0)` })
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, "succeeded")));
  const [refunded] = await tx
    .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)` })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(payments.invoiceId, invoiceId), eq(refunds.status, "succeeded")));
  const paidCents = Math.max(0, Number(received?.cents ?? 0) - Number(refunded?.cents ?? 0));
  const status = statusFromPayments(invoice.status, invoice.totalCents, paidCents);
  const becamePaid = status === "paid" && invoice.status !== "paid";
  await tx
    .update(invoices)
    .set({ paidCents, status, updatedAt: new Date(), ...(becamePaid ? { paidAt: new Date() } : {}) })
    .where(eq(invoices.id, invoiceId));
  await retireSessionsInTx(tx, invoiceId);
  const mailIds: string[] = [];
  if (becamePaid) {
    const ref = { clientId: invoice.clientId, taxYear: invoice.taxYear };
    await recordAudit(
      { actor, action: "invoice-paid", ...ref, detail: `${invoice.number}: ${formatUsd(paidCents)} received; ${because}`, ip },
      tx,
    );
    const stageMail = await completeStageInTx(tx, actor, ref, "payment", ip, `${invoice.number} paid in full`);
    if (stageMail) mailIds.push(stageMail);
    const client = await clientContact(invoice.clientId, tx);
    if (client) {
      mailIds.push(
        await enqueueMail(
          { kind: "fee-paid", to: client.email, payload: { name: client.name, taxYear: invoice.taxYear, url: filingUrl(invoice.taxYear), number: invoice.number } },
          tx,
        ),
      );
    }
  }
  return { status, paidCents, becamePaid, mailIds };
}
