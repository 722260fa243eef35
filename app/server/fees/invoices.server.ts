import { and, eq, sql } from "drizzle-orm";
import { isRealDay, newYorkDay } from "~/domain/business-days";
import type { InvoiceInput } from "~/domain/fee-section";
import { FEE_MESSAGES, formatUsd, invoiceFormSchema, invoiceNumber, invoiceTotals, MAX_INVOICE_NOTES } from "~/domain/fees";
import type { InvoiceForm } from "~/domain/fees";
import { priceList } from "~/content/price-list";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, invoiceLines, invoiceNumbers, invoices, payments } from "~/server/db/schema";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { clientContact, filingUrl } from "~/server/notices/notices.server";
import type { FeeRefused } from "./fee-records.server";
import { expireUnwantedSessions, retireSessionsInTx } from "./checkout-sessions.server";
import { feeRefused, firstMessage, isAdmin, lockInvoice } from "./fee-records.server";

// Invoices of a case (docs/product/fees.md#invoices): made as a draft with a number taken from
// the year's counter in the same transaction (so numbers have no gaps: a refused or failed
// draft gives its number back), changed only while a draft, sent to the client (an e-mail with a
// link only), and voided by an administrator when nothing has been received on it.

type CaseRef = { clientId: string; taxYear: number };

/** A checked invoice: the form's values in cents, and each line's price list item when it names a real one. */
type CheckedInvoice = InvoiceForm & { items: Array<string | null> };

const KNOWN_ITEMS: ReadonlySet<string> = new Set(priceList.map((item) => item.id));

/** The input's rules (domain/fees.ts invoiceFormSchema), and a due date that is a real day, today or later. */
function checkInvoice(input: InvoiceInput): CheckedInvoice | FeeRefused {
  const parsed = invoiceFormSchema.safeParse({
    lines: input.lines.map((l) => ({ description: l.description, quantity: l.quantity, unitCents: l.unitCents })),
    discountCents: input.discountCents ?? "",
    notes: (input.notes ?? "").slice(0, MAX_INVOICE_NOTES + 1),
    dueOn: input.dueOn,
  });
  if (!parsed.success) return feeRefused(firstMessage(parsed.error, FEE_MESSAGES.noLines));
  if (!isRealDay(parsed.data.dueOn) || parsed.data.dueOn < newYorkDay()) return feeRefused(FEE_MESSAGES.dueDate);
  const items = input.lines.map((l) => (l.priceListId && KNOWN_ITEMS.has(l.priceListId) ? l.priceListId : null));
  return { ...parsed.data, items };
}

async function insertLines(tx: Transaction, invoiceId: string, invoice: CheckedInvoice): Promise<void> {
  await tx.insert(invoiceLines).values(
    invoice.lines.map((line, i) => ({
      invoiceId,
      position: i + 1,
      priceListId: invoice.items[i] ?? null,
      description: line.description,
      quantity: line.quantity,
      unitCents: line.unitCents,
    })),
  );
}

/**
 * The next number of `year`: the year's counter row is made or moved on, and stays locked until
 * the transaction ends, so two invoices made at once take consecutive numbers and a rolled-back
 * one takes none.
 */
async function nextNumber(tx: Transaction, year: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceNumbers)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: invoiceNumbers.year, set: { last: sql`${invoiceNumbers.last} + 1` } })
    .returning({ last: invoiceNumbers.last });
  if (!row) throw new Error("no invoice number returned");
  return row.last;
}

/**
 * Staff make an invoice of a case, as a draft: numbered in the calendar year of New York at the
 * moment it is made (INV-2026-00042), with its lines, discount, notes and due date. Audited.
 */
export async function createInvoice(
  staff: SessionUser,
  ref: CaseRef,
  input: InvoiceInput,
  ip: string,
  now = new Date(),
): Promise<{ ok: true; invoiceId: string; number: string } | FeeRefused> {
  assertStaff(staff, "make an invoice");
  const invoice = checkInvoice(input);
  if ("ok" in invoice) return invoice;
  const { totalCents } = invoiceTotals(invoice.lines, invoice.discountCents);
  return getDb().transaction(async (tx) => {
    const [found] = await tx
      .select({ userId: clientCases.userId })
      .from(clientCases)
      .where(and(eq(clientCases.userId, ref.clientId), eq(clientCases.taxYear, ref.taxYear)));
    if (!found) return feeRefused(FEE_MESSAGES.noSuchCase, 404);
    const year = Number(newYorkDay(now).slice(0, 4));
    const seq = await nextNumber(tx, year);
    const number = invoiceNumber(year, seq);
    const [row] = await tx
      .insert(invoices)
      .values({
        clientId: ref.clientId,
        taxYear: ref.taxYear,
        numberYear: year,
        numberSeq: seq,
        number,
        status: "draft",
        discountCents: invoice.discountCents,
        totalCents,
        notes: invoice.notes,
        dueOn: invoice.dueOn,
        createdBy: staff.id,
      })
      .returning({ id: invoices.id });
    if (!row) throw new Error("no invoice row returned");
    await insertLines(tx, row.id, invoice);
    await recordAudit({ actor: staff, action: "invoice-created", ...ref, detail: `${number}: ${formatUsd(totalCents)}, draft`, ip }, tx);
    return { ok: true as const, invoiceId: row.id, number };
  });
}

/** Staff change a draft invoice: its lines, discount, notes and due date. A sent invoice never changes. Audited. */
export async function updateDraft(staff: SessionUser, invoiceId: string, input: InvoiceInput, ip: string): Promise<{ ok: true } | FeeRefused> {
  assertStaff(staff, "change an invoice");
  const invoice = checkInvoice(input);
  if ("ok" in invoice) return invoice;
  const { totalCents } = invoiceTotals(invoice.lines, invoice.discountCents);
  return getDb().transaction(async (tx) => {
    const current = await lockInvoice(tx, invoiceId);
    if (!current) return feeRefused(FEE_MESSAGES.noSuchInvoice, 404);
    if (current.status !== "draft") return feeRefused(FEE_MESSAGES.notDraft);
    await tx.delete(invoiceLines).where(eq(invoiceLines.invoiceId, current.id));
    await insertLines(tx, current.id, invoice);
    await tx
      .update(invoices)
      .set({ discountCents: invoice.discountCents, totalCents, notes: invoice.notes, dueOn: invoice.dueOn, updatedAt: new Date() })
      .where(eq(invoices.id, current.id));
    await recordAudit(
      { actor: staff, action: "invoice-updated", clientId: current.clientId, taxYear: current.taxYear, detail: `${current.number}: ${formatUsd(totalCents)}`, ip },
      tx,
    );
    return { ok: true as const };
  });
}

/**
 * Staff send a draft invoice to the client: it becomes payable, and the client is e-mailed a
 * link to their filing page (never the amounts). Audited.
 */
export async function sendInvoice(staff: SessionUser, invoiceId: string, ip: string): Promise<{ ok: true } | FeeRefused> {
  assertStaff(staff, "send an invoice");
  const outcome = await getDb().transaction(async (tx) => {
    const current = await lockInvoice(tx, invoiceId);
    if (!current) return feeRefused(FEE_MESSAGES.noSuchInvoice, 404);
    if (current.status !== "draft") return feeRefused(FEE_MESSAGES.notSendable);
    await tx.update(invoices).set({ status: "sent", sentAt: new Date(), updatedAt: new Date() }).where(eq(invoices.id, current.id));
    await recordAudit(
      { actor: staff, action: "invoice-sent", clientId: current.clientId, taxYear: current.taxYear, detail: `${current.number}: ${formatUsd(current.totalCents)}`, ip },
      tx,
    );
    const client = await clientContact(current.clientId, tx);
    const mailId = client
      ? await enqueueMail(
          { kind: "invoice-sent", to: client.email, payload: { name: client.name, taxYear: current.taxYear, url: filingUrl(current.taxYear), number: current.number } },
          tx,
        )
      : null;
    return { ok: true as const, mailId };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true };
}

/**
 * An administrator voids an invoice made by mistake, with the reason: a draft or a sent invoice
 * on which nothing has been received (a paid or partly paid one has its payments refunded
 * first; one with a bank payment still processing waits for it). Its number stays used. Audited.
 * Its Checkout Sessions still open are expired (a failure is left to the sweep: the invoice is
 * void all the same).
 */
export async function voidInvoice(actor: SessionUser, invoiceId: string, reason: string, ip: string): Promise<{ ok: true } | FeeRefused> {
  assertStaff(actor, "void an invoice");
  if (!isAdmin(actor)) return feeRefused(FEE_MESSAGES.adminsOnly, 403);
  const why = reason.trim();
  if (why === "" || why.length > 500) return feeRefused(FEE_MESSAGES.voidReason);
  const outcome = await getDb().transaction(async (tx) => {
    const current = await lockInvoice(tx, invoiceId);
    if (!current) return feeRefused(FEE_MESSAGES.noSuchInvoice, 404);
    if (current.status === "void") return feeRefused(FEE_MESSAGES.alreadyVoid);
    if (current.status === "paid" || current.status === "partly-paid" || current.paidCents > 0) return feeRefused(FEE_MESSAGES.notVoidable);
    const [processing] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.invoiceId, current.id), eq(payments.status, "processing")))
      .limit(1);
    if (processing) return feeRefused(FEE_MESSAGES.paymentProcessing);
    await tx
      .update(invoices)
      .set({ status: "void", voidedAt: new Date(), voidedBy: actor.id, voidReason: why, updatedAt: new Date() })
      .where(eq(invoices.id, current.id));
    await recordAudit(
      { actor, action: "invoice-voided", clientId: current.clientId, taxYear: current.taxYear, detail: `${current.number}: ${why}`, ip },
      tx,
    );
    // A card payment page left open must not take money for a void invoice.
    await retireSessionsInTx(tx, current.id);
    return { ok: true as const };
  });
  if (outcome.ok) await expireUnwantedSessions(invoiceId);
  return outcome;
}
