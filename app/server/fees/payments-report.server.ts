import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql } from "drizzle-orm";
import { daysBetween, newYorkDay, newYorkDayStart } from "~/domain/business-days";
import { agingBucketOf, AGING_BUCKETS, amountDue, PAYMENT_METHOD_LABELS, toRefundCents } from "~/domain/fees";
import type { PaymentStatus, RefundStatus } from "~/domain/fees";
import type { AgingSummary, InvoiceToRefund, MonthPayment, MonthRefund, OutstandingInvoice } from "~/domain/fee-section";
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

/**
 * The invoices that hold money they do not owe, oldest first: paid above their total (a card
 * page paid after another payment), or paid while void; with what is left to give back once the
 * refunds already made or asked of Stripe are counted (toRefundCents). None once all is refunded.
 */
export async function invoicesToRefund(): Promise<InvoiceToRefund[]> {
  const db = getDb();
  const rows = await db
    .select({ invoice: invoices, clientName: user.name })
    .from(invoices)
    .innerJoin(user, eq(user.id, invoices.clientId))
    .where(or(gt(invoices.paidCents, invoices.totalCents), and(eq(invoices.status, "void"), gt(invoices.paidCents, 0))))
    .orderBy(asc(invoices.createdAt));
  if (rows.length === 0) return [];
  const pending = await db
    .select({ invoiceId: payments.invoiceId, cents: sql<string>`sum(${refunds.amountCents})` })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(refunds.status, "pending"), inArray(payments.invoiceId, rows.map((r) => r.invoice.id))))
    .groupBy(payments.invoiceId);
  const pendingOf = new Map(pending.map((p) => [p.invoiceId, Number(p.cents)]));
  return rows
    .map(({ invoice, clientName }) => ({
      id: invoice.id,
      number: invoice.number,
      clientId: invoice.clientId,
      clientName,
      taxYear: invoice.taxYear,
      status: invoice.status,
      toRefundCents: toRefundCents(invoice, pendingOf.get(invoice.id) ?? 0),
    }))
    .filter((i) => i.toRefundCents > 0);
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
    excessCents: r.payment.excessCents,
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

/**
 * One row of the CSV for the books: a payment, a refund (its amount negative), or the part of a
 * payment that was not owed (an overpayment, or a payment on a void invoice: money to give back).
 * An overpayment row is no more money: it names what of its payment's row is the client's; its
 * status says whether the invoice still holds it ("to refund") or it has been given back or asked
 * back of Stripe ("refunded").
 */
export type LedgerRow = {
  date: string;
  number: string;
  clientName: string;
  email: string;
  taxYear: number;
  method: string;
  reference: string;
  amountCents: number;
  kind: "payment" | "refund" | "overpayment";
  status: PaymentStatus | RefundStatus | "to refund" | "refunded";
};

/**
 * Every payment and every refund, oldest first, for the books: a payment on the day it was
 * received (followed by its overpayment row when part of it was not owed), a refund on the day
 * it was confirmed (asked, while pending), in New York. A firm's
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
  const stillToRefund = new Set((await invoicesToRefund()).map((i) => i.number));
  // What every row of a payment (its own, its overpayment's) tells of the payment and its invoice.
  const ofPayment = (r: (typeof paymentRows)[number]) => ({
    date: r.payment.receivedOn,
    number: r.number,
    clientName: r.clientName,
    email: r.email,
    taxYear: r.taxYear,
    method: PAYMENT_METHOD_LABELS[r.payment.method],
    reference: r.payment.reference,
  });
  const rows: Array<LedgerRow & { at: number }> = [
    ...paymentRows.map((r) => ({
      at: r.payment.createdAt.getTime(),
      ...ofPayment(r),
      amountCents: r.payment.amountCents,
      kind: "payment" as const,
      status: r.payment.status,
    })),
    ...paymentRows
      .filter((r) => r.payment.status === "succeeded" && r.payment.excessCents > 0)
      .map((r) => ({
        at: r.payment.createdAt.getTime() + 1,
        ...ofPayment(r),
        amountCents: r.payment.excessCents,
        kind: "overpayment" as const,
        status: stillToRefund.has(r.number) ? ("to refund" as const) : ("refunded" as const),
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
