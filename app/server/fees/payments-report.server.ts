import { and, asc, desc, eq, gte, inArray, lt } from "drizzle-orm";
import { daysBetween, newYorkDay, newYorkDayStart } from "~/domain/business-days";
import { agingBucketOf, AGING_BUCKETS, amountDue, PAYMENT_METHOD_LABELS } from "~/domain/fees";
import type { PaymentStatus, RefundStatus } from "~/domain/fees";
import type { AgingSummary, MonthPayment, MonthRefund, OutstandingInvoice } from "~/domain/fee-section";
import { getDb } from "~/server/db/client.server";
import { invoices, payments, refunds, user } from "~/server/db/schema";

// The Payments page (docs/product/fees.md#who-may-do-what, admins only): the invoices still
// owed by age, the month's payments and refunds, and the rows of the CSV for the books.

/** The sent and partly paid invoices, oldest first, each with its age in days since it was sent (New York days), and the count and amount owed per age. */
export async function outstandingInvoices(now = new Date()): Promise<{ invoices: OutstandingInvoice[]; buckets: AgingSummary[] }> {
  const today = newYorkDay(now);
  const rows = await getDb()
    .select({ invoice: invoices, clientName: user.name })
    .from(invoices)
    .innerJoin(user, eq(user.id, invoices.clientId))
    .where(inArray(invoices.status, ["sent", "partly-paid"]))
    .orderBy(asc(invoices.sentAt));
  const list = rows.map(({ invoice, clientName }) => {
    const sentOn = newYorkDay(invoice.sentAt ?? invoice.createdAt);
    const days = Math.max(0, daysBetween(sentOn, today));
    return {
      id: invoice.id,
      number: invoice.number,
      clientId: invoice.clientId,
      clientName,
      taxYear: invoice.taxYear,
      status: invoice.status,
      sentOn,
      dueOn: invoice.dueOn,
      dueCents: amountDue(invoice.totalCents, invoice.paidCents),
      days,
      bucket: agingBucketOf(days),
    };
  });
  const buckets = AGING_BUCKETS.map((b) => {
    const inIt = list.filter((i) => i.bucket === b.key);
    return { key: b.key, label: b.label, count: inIt.length, dueCents: inIt.reduce((sum, i) => sum + i.dueCents, 0) };
  });
  return { invoices: list, buckets };
}

/** The first day of New York's month of `now`, and of the next month (YYYY-MM-DD). */
function monthOf(now: Date): { first: string; next: string; label: string } {
  const today = newYorkDay(now);
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const first = `${today.slice(0, 7)}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
  const label = new Date(`${first}T12:00:00Z`).toLocaleDateString("en-US", { timeZone: "UTC", month: "long", year: "numeric" });
  return { first, next, label };
}

/**
 * The payments received this month (New York's), newest first, with the total of those that
 * succeeded; the refunds asked or made this month, with the total of those that succeeded.
 */
export async function paymentsThisMonth(now = new Date()): Promise<{
  month: string;
  payments: MonthPayment[];
  receivedCents: number;
  refunds: MonthRefund[];
  refundedCents: number;
}> {
  const { first, next, label } = monthOf(now);
  const db = getDb();
  const [paymentRows, refundRows] = await Promise.all([
    db
      .select({ payment: payments, number: invoices.number, clientId: invoices.clientId, taxYear: invoices.taxYear, clientName: user.name })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .innerJoin(user, eq(user.id, invoices.clientId))
      .where(and(gte(payments.receivedOn, first), lt(payments.receivedOn, next)))
      .orderBy(desc(payments.receivedOn), desc(payments.createdAt)),
    db
      .select({ refund: refunds, method: payments.method, number: invoices.number, taxYear: invoices.taxYear, clientName: user.name })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .innerJoin(user, eq(user.id, invoices.clientId))
      .where(and(gte(refunds.createdAt, newYorkDayStart(first)), lt(refunds.createdAt, newYorkDayStart(next))))
      .orderBy(desc(refunds.createdAt)),
  ]);
  const list = paymentRows.map((r) => ({
    id: r.payment.id,
    receivedOn: r.payment.receivedOn,
    number: r.number,
    clientId: r.clientId,
    clientName: r.clientName,
    taxYear: r.taxYear,
    method: r.payment.method,
    methodLabel: PAYMENT_METHOD_LABELS[r.payment.method],
    status: r.payment.status,
    reference: r.payment.reference,
    amountCents: r.payment.amountCents,
  }));
  const refundList = refundRows.map((r) => ({
    id: r.refund.id,
    on: newYorkDay(r.refund.confirmedAt ?? r.refund.createdAt),
    number: r.number,
    clientName: r.clientName,
    taxYear: r.taxYear,
    method: r.method,
    status: r.refund.status,
    amountCents: r.refund.amountCents,
  }));
  return {
    month: label,
    payments: list,
    receivedCents: list.filter((p) => p.status === "succeeded").reduce((sum, p) => sum + p.amountCents, 0),
    refunds: refundList,
    refundedCents: refundList.filter((r) => r.status === "succeeded").reduce((sum, r) => sum + r.amountCents, 0),
  };
}

/** One row of the CSV for the books: a payment, or a refund (its amount negative). */
export type LedgerRow = {
  date: string;
  number: string;
  clientName: string;
  email: string;
  taxYear: number;
  method: string;
  reference: string;
  amountCents: number;
  kind: "payment" | "refund";
  status: PaymentStatus | RefundStatus;
};

/**
 * Every payment and every refund, oldest first, for the books: a payment on the day it was
 * received, a refund on the day it was confirmed (asked, while pending), in New York. A firm's
 * ledger is small (thousands of rows a year): it is read at once.
 */
export async function ledgerRows(): Promise<LedgerRow[]> {
  const db = getDb();
  const [paymentRows, refundRows] = await Promise.all([
    db
      .select({ payment: payments, number: invoices.number, taxYear: invoices.taxYear, clientName: user.name, email: user.email })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .innerJoin(user, eq(user.id, invoices.clientId)),
    db
      .select({ refund: refunds, method: payments.method, reference: payments.reference, number: invoices.number, taxYear: invoices.taxYear, clientName: user.name, email: user.email })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .innerJoin(user, eq(user.id, invoices.clientId)),
  ]);
  const rows: Array<LedgerRow & { at: number }> = [
    ...paymentRows.map((r) => ({
      at: r.payment.createdAt.getTime(),
      date: r.payment.receivedOn,
      number: r.number,
      clientName: r.clientName,
      email: r.email,
      taxYear: r.taxYear,
      method: PAYMENT_METHOD_LABELS[r.payment.method],
      reference: r.payment.reference,
      amountCents: r.payment.amountCents,
      kind: "payment" as const,
      status: r.payment.status,
    })),
    ...refundRows.map((r) => ({
      at: r.refund.createdAt.getTime(),
      date: newYorkDay(r.refund.confirmedAt ?? r.refund.createdAt),
      number: r.number,
      clientName: r.clientName,
      email: r.email,
      taxYear: r.taxYear,
      method: PAYMENT_METHOD_LABELS[r.method],
      reference: r.reference,
      amountCents: -r.refund.amountCents,
      kind: "refund" as const,
      status: r.refund.status,
    })),
  ];
  rows.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : x.at - y.at));
  return rows.map(({ at: _at, ...row }) => row);
}
