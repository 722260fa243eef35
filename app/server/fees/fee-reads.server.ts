import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import type { CaseFeesData, ClientInvoiceView, FeeInvoiceView, FeeLineView, FeePaymentView, FeeRefundView } from "~/domain/fee-section";
import { amountDue, invoiceTotals, STRIPE_METHODS, toRefundCents } from "~/domain/fees";
import { isDocumentId } from "~/domain/documents";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { invoiceLines, invoices, payments, refunds, user } from "~/server/db/schema";
import { finalCopiesGate } from "./final-copies-gate.server";

// What the fee's pages read (docs/product/fees.md): a case's invoices in full for staff (lines,
// payments, refunds), and a client's own invoices as they see them (never a draft; void ones
// not listed). Read only: the changes are in invoices/payments/refunds.server.ts.

type CaseRef = { clientId: string; taxYear: number };
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const isStripeMethod = (method: string) => (STRIPE_METHODS as readonly string[]).includes(method);

type InvoiceRow = typeof invoices.$inferSelect;
type LineJson = Omit<FeeLineView, "amountCents">;
type RefundJson = Omit<FeeRefundView, "createdAt" | "confirmedAt"> & { createdAt: string; confirmedAt: string | null };
type PaymentJson = {
  id: string;
  invoiceId: string;
  method: FeePaymentView["method"];
  status: FeePaymentView["status"];
  amountCents: number;
  reference: string;
  receivedOn: string;
  excessCents: number;
  recordedBy: string | null;
  refunds: RefundJson[];
};

/** A timestamp as JSON gives it ("2026-01-31T21:00:00.123456+00:00"), as the views write it (toISOString). */
const isoOf = (value: string) => new Date(value).toISOString();

/**
 * An invoice's lines, and its payments each with its refunds, as JSON columns of the invoice's
 * own row: the whole fee in one query. The invoice is named in full ("invoices"."id"): drizzle
 * writes a one-table select's columns without their table, which the inner tables' would shadow.
 */
const linesJson = sql<LineJson[]>`coalesce((select json_agg(json_build_object(
    'position', l.position, 'priceListId', l.price_list_id, 'description', l.description,
    'quantity', l.quantity, 'unitCents', l.unit_cents) order by l.position)
  from ${invoiceLines} l where l.invoice_id = "invoices"."id"), '[]'::json)`;
const paymentsJson = sql<PaymentJson[]>`coalesce((select json_agg(json_build_object(
    'id', p.id, 'invoiceId', p.invoice_id, 'method', p.method, 'status', p.status,
    'amountCents', p.amount_cents, 'reference', p.reference, 'receivedOn', p.received_on,
    'excessCents', p.excess_cents, 'recordedBy', pu.name,
    'refunds', coalesce((select json_agg(json_build_object(
        'id', r.id, 'amountCents', r.amount_cents, 'status', r.status, 'reason', r.reason,
        'createdAt', r.created_at, 'confirmedAt', r.confirmed_at, 'requestedBy', ru.name) order by r.created_at)
      from ${refunds} r left join ${user} ru on ru.id = r.requested_by where r.payment_id = p.id), '[]'::json))
    order by p.received_on, p.created_at)
  from ${payments} p left join ${user} pu on pu.id = p.recorded_by where p.invoice_id = "invoices"."id"), '[]'::json)`;

/** The invoices `where` picks, newest first, with their lines, payments and refunds, as staff see them. */
async function invoiceViews(where: SQL | undefined): Promise<FeeInvoiceView[]> {
  const rows = await getDb()
    .select({ invoice: invoices, lines: linesJson, payments: paymentsJson })
    .from(invoices)
    .where(where)
    .orderBy(desc(invoices.createdAt), desc(invoices.numberSeq));
  return rows.map(({ invoice, lines, payments: paid }) => viewOf(invoice, lines, paid));
}

function viewOf(r: InvoiceRow, lineRows: LineJson[], paymentRows: PaymentJson[]): FeeInvoiceView {
  const its = paymentRows.map((payment): FeePaymentView => {
    const refundViews = payment.refunds.map(
      (refund): FeeRefundView => ({ ...refund, createdAt: isoOf(refund.createdAt), confirmedAt: refund.confirmedAt === null ? null : isoOf(refund.confirmedAt) }),
    );
    const held = refundViews.filter((f) => f.status !== "failed").reduce((sum, f) => sum + f.amountCents, 0);
    return {
      id: payment.id,
      method: payment.method,
      status: payment.status,
      amountCents: payment.amountCents,
      reference: payment.reference,
      receivedOn: payment.receivedOn,
      recordedBy: payment.recordedBy,
      throughStripe: isStripeMethod(payment.method),
      refunds: refundViews,
      refundableCents: payment.status === "succeeded" ? Math.max(0, payment.amountCents - held) : 0,
      excessCents: payment.excessCents,
    };
  });
  const lines = lineRows.map((l): FeeLineView => ({ ...l, amountCents: l.quantity * l.unitCents }));
  const { subtotalCents } = invoiceTotals(lines, r.discountCents);
  const pendingRefunds = its.flatMap((p) => p.refunds).filter((f) => f.status === "pending").reduce((sum, f) => sum + f.amountCents, 0);
  return {
    id: r.id,
    clientId: r.clientId,
    taxYear: r.taxYear,
    number: r.number,
    status: r.status,
    lines,
    subtotalCents,
    discountCents: r.discountCents,
    totalCents: r.totalCents,
    paidCents: r.paidCents,
    dueCents: r.status === "void" || r.status === "draft" ? 0 : amountDue(r.totalCents, r.paidCents),
    dueOn: r.dueOn,
    notes: r.notes,
    createdAt: r.createdAt.toISOString(),
    sentAt: iso(r.sentAt),
    paidAt: iso(r.paidAt),
    voidedAt: iso(r.voidedAt),
    voidReason: r.voidReason,
    clientNotifiedAt: iso(r.clientNotifiedAt),
    payments: its,
    toRefundCents: toRefundCents(r, pendingRefunds),
  };
}

/** Everything the staff's Fee section shows of a case: its invoices, newest first, and its final copies' gate. Staff only. */
export async function caseFees(staff: SessionUser, ref: CaseRef): Promise<CaseFeesData> {
  assertStaff(staff, "see a case's fee");
  const [views, gate] = await Promise.all([
    invoiceViews(and(eq(invoices.clientId, ref.clientId), eq(invoices.taxYear, ref.taxYear))),
    finalCopiesGate(ref.clientId, ref.taxYear),
  ]);
  return { invoices: views, gate };
}

/** An invoice as staff see it (the PDFs read it); null when there is no such invoice. */
export async function invoiceView(invoiceId: string): Promise<FeeInvoiceView | null> {
  if (!isDocumentId(invoiceId)) return null;
  return (await invoiceViews(eq(invoices.id, invoiceId)))[0] ?? null;
}

/** What the client sees of an invoice: no staff names, no failed or refused attempts, no internal reasons. */
function forClient(v: FeeInvoiceView): ClientInvoiceView {
  const shown = v.payments.filter((p) => p.status !== "failed");
  return {
    id: v.id,
    number: v.number,
    status: v.status,
    lines: v.lines,
    subtotalCents: v.subtotalCents,
    discountCents: v.discountCents,
    totalCents: v.totalCents,
    paidCents: v.paidCents,
    dueCents: v.dueCents,
    dueOn: v.dueOn,
    notes: v.notes,
    sentAt: v.sentAt,
    paidAt: v.paidAt,
    clientNotifiedAt: v.clientNotifiedAt,
    payments: shown.map((p) => ({ method: p.method, status: p.status, amountCents: p.amountCents, reference: p.reference, receivedOn: p.receivedOn })),
    refundedCents: v.payments.flatMap((p) => p.refunds).filter((r) => r.status === "succeeded").reduce((sum, r) => sum + r.amountCents, 0),
  };
}

/** A client's invoices of a tax year that they may see: sent, partly paid or paid (never a draft or a void one), newest first. */
export async function clientFees(clientId: string, taxYear: number): Promise<ClientInvoiceView[]> {
  const views = await invoiceViews(
    and(eq(invoices.clientId, clientId), eq(invoices.taxYear, taxYear), inArray(invoices.status, ["sent", "partly-paid", "paid"])),
  );
  return views.map(forClient);
}

/** Whether invoice `invoiceId` is one of the case's (a section's form names only its own case's invoices). */
export async function invoiceOfCase(ref: CaseRef, invoiceId: string): Promise<boolean> {
  if (!isDocumentId(invoiceId)) return false;
  const [row] = await getDb()
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.clientId, ref.clientId), eq(invoices.taxYear, ref.taxYear)));
  return row !== undefined;
}

/** Whether payment `paymentId` is of one of the case's invoices. */
export async function paymentOfCase(ref: CaseRef, paymentId: string): Promise<boolean> {
  if (!isDocumentId(paymentId)) return false;
  const [row] = await getDb()
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.id, paymentId), eq(invoices.clientId, ref.clientId), eq(invoices.taxYear, ref.taxYear)));
  return row !== undefined;
}
