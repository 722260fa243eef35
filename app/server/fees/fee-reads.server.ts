import { and, asc, desc, eq, inArray } from "drizzle-orm";
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
type InvoiceRow = typeof invoices.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const isStripeMethod = (method: string) => (STRIPE_METHODS as readonly string[]).includes(method);

/** The lines, payments and refunds of `rows`, as staff see them. */
async function details(rows: InvoiceRow[]): Promise<FeeInvoiceView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const db = getDb();
  const [lineRows, paymentRows] = await Promise.all([
    db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, ids)).orderBy(asc(invoiceLines.position)),
    db
      .select({ payment: payments, recordedBy: user.name })
      .from(payments)
      .leftJoin(user, eq(user.id, payments.recordedBy))
      .where(inArray(payments.invoiceId, ids))
      .orderBy(asc(payments.receivedOn), asc(payments.createdAt)),
  ]);
  const paymentIds = paymentRows.map((p) => p.payment.id);
  const refundRows =
    paymentIds.length === 0
      ? []
      : await db
          .select({ refund: refunds, requestedBy: user.name })
          .from(refunds)
          .leftJoin(user, eq(user.id, refunds.requestedBy))
          .where(inArray(refunds.paymentId, paymentIds))
          .orderBy(asc(refunds.createdAt));
  const refundsOf = new Map<string, FeeRefundView[]>();
  for (const { refund, requestedBy } of refundRows)
    refundsOf.set(refund.paymentId, [
      ...(refundsOf.get(refund.paymentId) ?? []),
      {
        id: refund.id,
        amountCents: refund.amountCents,
        status: refund.status,
        reason: refund.reason,
        createdAt: refund.createdAt.toISOString(),
        confirmedAt: iso(refund.confirmedAt),
        requestedBy,
      },
    ]);
  const paymentsOf = new Map<string, FeePaymentView[]>();
  for (const { payment, recordedBy } of paymentRows) {
    const its = refundsOf.get(payment.id) ?? [];
    const held = its.filter((r) => r.status !== "failed").reduce((sum, r) => sum + r.amountCents, 0);
    paymentsOf.set(payment.invoiceId, [
      ...(paymentsOf.get(payment.invoiceId) ?? []),
      {
        id: payment.id,
        method: payment.method,
        status: payment.status,
        amountCents: payment.amountCents,
        reference: payment.reference,
        receivedOn: payment.receivedOn,
        recordedBy,
        throughStripe: isStripeMethod(payment.method),
        refunds: its,
        refundableCents: payment.status === "succeeded" ? Math.max(0, payment.amountCents - held) : 0,
        excessCents: payment.excessCents,
      },
    ]);
  }
  const linesOf = new Map<string, FeeLineView[]>();
  for (const l of lineRows)
    linesOf.set(l.invoiceId, [
      ...(linesOf.get(l.invoiceId) ?? []),
      { position: l.position, priceListId: l.priceListId, description: l.description, quantity: l.quantity, unitCents: l.unitCents, amountCents: l.quantity * l.unitCents },
    ]);
  return rows.map((r) => {
    const lines = linesOf.get(r.id) ?? [];
    const { subtotalCents } = invoiceTotals(lines, r.discountCents);
    const its = paymentsOf.get(r.id) ?? [];
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
  });
}

/** Everything the staff's Fee section shows of a case: its invoices, newest first, and its final copies' gate. Staff only. */
export async function caseFees(staff: SessionUser, ref: CaseRef): Promise<CaseFeesData> {
  assertStaff(staff, "see a case's fee");
  const rows = await getDb()
    .select()
    .from(invoices)
    .where(and(eq(invoices.clientId, ref.clientId), eq(invoices.taxYear, ref.taxYear)))
    .orderBy(desc(invoices.createdAt), desc(invoices.numberSeq));
  const [views, gate] = await Promise.all([details(rows), finalCopiesGate(ref.clientId, ref.taxYear)]);
  return { invoices: views, gate };
}

/** An invoice as staff see it (the PDFs read it); null when there is no such invoice. */
export async function invoiceView(invoiceId: string): Promise<FeeInvoiceView | null> {
  if (!isDocumentId(invoiceId)) return null;
  const rows = await getDb().select().from(invoices).where(eq(invoices.id, invoiceId));
  return (await details(rows))[0] ?? null;
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
  const rows = await getDb()
    .select()
    .from(invoices)
    .where(and(eq(invoices.clientId, clientId), eq(invoices.taxYear, taxYear), inArray(invoices.status, ["sent", "partly-paid", "paid"])))
    .orderBy(desc(invoices.createdAt), desc(invoices.numberSeq));
  return (await details(rows)).map(forClient);
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
