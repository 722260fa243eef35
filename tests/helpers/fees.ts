// Invoices for the fee tests, made with direct inserts (the staff's invoice forms are tested on
// their own): numbered as the app numbers them, under the year's invoice_numbers row.
import { eq, sql } from "drizzle-orm";
import { addDays, newYorkDay } from "~/domain/business-days";
import { invoiceNumber } from "~/domain/fees";
import type { InvoiceStatus } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, invoiceLines, invoices } from "~/server/db/schema";
import { account } from "./returns";
import type { Account } from "./returns";
import { sampleTaxpayer } from "./taxpayer";

export type TestInvoice = { id: string; number: string; clientId: string; taxYear: number; totalCents: number };

/**
 * An invoice of `cents` for the case of `clientId` and `taxYear` (opened if need be), in state
 * `status` ("sent" by default), with one line. Its number is the next of this year's.
 */
export async function sentInvoice(clientId: string, taxYear: number, cents: number, status: InvoiceStatus = "sent"): Promise<TestInvoice> {
  const db = getDb();
  await db.insert(clientCases).values({ userId: clientId, taxYear }).onConflictDoNothing();
  const year = Number(newYorkDay().slice(0, 4));
  const numbered = await db.execute(
    sql`insert into invoice_numbers (year, last) values (${year}, 1) on conflict (year) do update set last = invoice_numbers.last + 1 returning last`,
  );
  const seq = Number((numbered as unknown as { rows: Array<{ last: number }> }).rows[0]!.last);
  const number = invoiceNumber(year, seq);
  const due = addDays(newYorkDay(), 14);
  const [invoice] = await db
    .insert(invoices)
    .values({ clientId, taxYear, numberYear: year, numberSeq: seq, number, totalCents: cents, dueOn: due, createdBy: "staff-for-tests" })
    .returning({ id: invoices.id });
  const id = invoice!.id;
  // Lines are written while the invoice is a draft (migration 0019 keeps a sent invoice's lines).
  await db.insert(invoiceLines).values({ invoiceId: id, position: 1, description: "Federal return (Form 1040-NR)", quantity: 1, unitCents: cents });
  if (status !== "draft") {
    const at = new Date();
    await db
      .update(invoices)
      .set({ status, sentAt: at, ...(status === "void" ? { voidedAt: at, voidReason: "test" } : {}), ...(status === "paid" ? { paidCents: cents, paidAt: at } : {}) })
      .where(eq(invoices.id, id));
  }
  return { id, number, clientId, taxYear, totalCents: cents };
}

/**
 * The people of the return and fee tests: an admin, a preparer and two clients, each client with the filing
 * season's taxpayer information sent (so each has that year's case). `clientA` names the first.
 */
export async function feeCast(clientA = "Alice Aardvark"): Promise<{ admin: Account; preparer: Account; a: Account; b: Account }> {
  const admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  const preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  const a = await account("alice@example.com", clientA);
  const b = await account("bob@example.com", "Bob Bobolink");
  for (const client of [a, b]) {
    if ((await saveTaxpayerRecord(client.id, sampleTaxpayer, currentFilingYear())) !== "created") throw new Error("no taxpayer record");
  }
  return { admin, preparer, a, b };
}
