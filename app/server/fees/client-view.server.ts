import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { amountDue, invoiceTotals } from "~/domain/fees";
import { invoiceFileUrl } from "~/domain/fee-client";
import type { ClientFee, ClientInvoice } from "~/domain/fee-client";
import { firmDate } from "~/domain/return-client";
import { getDb } from "~/server/db/client.server";
import { invoiceLines, invoices, payments } from "~/server/db/schema";
import { stripeAccount } from "./stripe.server";

// The fee of a case as its client sees it (docs/product/fees.md#what-the-client-sees). Every query
// takes the client's own id: another client's invoice is never read here.

/** The states a client sees: a draft is staff's, a void invoice is no longer owed. */
const CLIENT_STATUSES = ["sent", "partly-paid", "paid"] as const;

/** The invoices of the client's case of `taxYear`, newest first, with their lines and what is due. */
export async function clientFee(clientId: string, taxYear: number): Promise<ClientFee> {
  const db = getDb();
  const rows = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.clientId, clientId), eq(invoices.taxYear, taxYear), inArray(invoices.status, [...CLIENT_STATUSES])))
    .orderBy(desc(invoices.sentAt), desc(invoices.createdAt));
  const ids = rows.map((r) => r.id);
  const [lines, processing] = ids.length
    ? await Promise.all([
        db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, ids)).orderBy(asc(invoiceLines.position)),
        db
          .select({ invoiceId: payments.invoiceId })
          .from(payments)
          .where(and(inArray(payments.invoiceId, ids), eq(payments.status, "processing"))),
      ])
    : [[], []];
  const waiting = new Set(processing.map((p) => p.invoiceId));
  const invoicesOut = rows.map((row): ClientInvoice => {
    const own = lines
      .filter((l) => l.invoiceId === row.id)
      .map((l) => ({ description: l.description, quantity: l.quantity, unitCents: l.unitCents, amountCents: l.quantity * l.unitCents }));
    const { subtotalCents } = invoiceTotals(own, row.discountCents);
    return {
      id: row.id,
      number: row.number,
      status: row.status,
      lines: own,
      subtotalCents,
      discountCents: row.discountCents,
      totalCents: row.totalCents,
      paidCents: row.paidCents,
      dueCents: amountDue(row.totalCents, row.paidCents),
      notes: row.notes,
      issuedOn: firmDate((row.sentAt ?? row.createdAt).toISOString()),
      dueOn: firmDate(row.dueOn),
      paidOn: row.paidAt ? firmDate(row.paidAt.toISOString()) : null,
      processing: waiting.has(row.id),
      announcedOn: row.clientNotifiedAt ? firmDate(row.clientNotifiedAt.toISOString()) : null,
      invoiceUrl: invoiceFileUrl(taxYear, row.id, "invoice"),
      receiptUrl: row.status === "paid" ? invoiceFileUrl(taxYear, row.id, "receipt") : null,
    };
  });
  return { invoices: invoicesOut, cardPayments: stripeAccount() !== null };
}

/** What the client owes per tax year (open invoices only), for the My Tax Filing cards. */
export async function clientDueByYear(clientId: string): Promise<Map<number, number>> {
  const rows = await getDb()
    .select({ taxYear: invoices.taxYear, totalCents: invoices.totalCents, paidCents: invoices.paidCents })
    .from(invoices)
    .where(and(eq(invoices.clientId, clientId), inArray(invoices.status, ["sent", "partly-paid"])));
  const due = new Map<number, number>();
  for (const row of rows) due.set(row.taxYear, (due.get(row.taxYear) ?? 0) + amountDue(row.totalCents, row.paidCents));
  return due;
}
