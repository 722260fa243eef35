import { and, eq, inArray } from "drizzle-orm";
import { amountDue } from "~/domain/fees";
import { invoiceFileUrl } from "~/domain/fee-client";
import type { ClientFee, ClientInvoice } from "~/domain/fee-client";
import { firmDate } from "~/domain/return-client";
import { getDb } from "~/server/db/client.server";
import { invoices } from "~/server/db/schema";
import { clientFees } from "./fee-reads.server";
import { stripeAccount } from "./stripe.server";

// The fee of a case as its client's filing page shows it (docs/product/fees.md#what-the-client-sees),
// from the invoices the client may see (clientFees: sent, partly paid or paid). Every query takes
// the client's own id: another client's invoice is never read here.

/** The invoices of the client's case of `taxYear`, newest first, as the page shows them, and whether cards are taken. */
export async function clientFee(clientId: string, taxYear: number): Promise<ClientFee> {
  const views = await clientFees(clientId, taxYear);
  const shown = views.map(
    (v): ClientInvoice => ({
      id: v.id,
      number: v.number,
      status: v.status,
      lines: v.lines.map(({ description, quantity, unitCents, amountCents }) => ({ description, quantity, unitCents, amountCents })),
      subtotalCents: v.subtotalCents,
      discountCents: v.discountCents,
      totalCents: v.totalCents,
      paidCents: v.paidCents,
      dueCents: v.dueCents,
      notes: v.notes,
      issuedOn: firmDate(v.sentAt ?? new Date().toISOString()),
      dueOn: firmDate(v.dueOn),
      paidOn: v.paidAt ? firmDate(v.paidAt) : null,
      processing: v.payments.some((p) => p.status === "processing"),
      announcedOn: v.clientNotifiedAt ? firmDate(v.clientNotifiedAt) : null,
      invoiceUrl: invoiceFileUrl(taxYear, v.id, "invoice"),
      receiptUrl: v.paidAt ? invoiceFileUrl(taxYear, v.id, "receipt") : null,
    }),
  );
  return { invoices: shown, cardPayments: stripeAccount() !== null };
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
