/**
 * The invoice and the receipt as PDFs (docs/product/fees.md#invoices): the firm's details from
 * app/content/business.ts, the client, the lines and amounts, and on the invoice the wire and
 * Zelle instructions with the invoice number as the reference. Made on request from the records
 * (never stored), with the PDF standard fonts (docs/decisions/0028-pdf-library.md).
 */
import { eq } from "drizzle-orm";
import { PDFDocument, StandardFonts, rgb } from "@pdfme/pdf-lib";
import type { PDFFont, PDFPage } from "@pdfme/pdf-lib";
import { business, paymentInstructions } from "~/content/business";
import { FIRM_TIME_ZONE } from "~/domain/business-days";
import type { FeeInvoiceView } from "~/domain/fee-section";
import { formatUsd, INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "~/domain/fees";
import { getDb } from "~/server/db/client.server";
import { invoices, user } from "~/server/db/schema";
import { wrap, writable } from "~/server/pdf/pdf-text.server";
import { invoiceView } from "./fee-reads.server";

const LETTER: [number, number] = [612, 792];
const MARGIN = 54;
const RIGHT = LETTER[0] - MARGIN;
const INK = rgb(0.06, 0.13, 0.27);
const SOFT = rgb(0.35, 0.4, 0.48);
const RULE = rgb(0.75, 0.78, 0.83);

type Fonts = { regular: PDFFont; bold: PDFFont };

/** "November 27, 2026" from a day (YYYY-MM-DD). */
function longDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

/** The day of a moment in New York, written long. */
function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { timeZone: FIRM_TIME_ZONE, year: "numeric", month: "long", day: "numeric" });
}

/** Writes down a page, starting another when the page is full. */
class Writer {
  private page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
    private readonly footer: string,
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage(LETTER);
    this.pages.push(this.page);
    this.y = LETTER[1] - MARGIN;
  }

  room(height: number): void {
    if (this.y - height < MARGIN + 24) this.newPage();
  }

  text(text: string, x: number, { size = 10, bold = false, color = INK, align = "left" as "left" | "right" } = {}): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const line = writable(font, text);
    const at = align === "right" ? x - font.widthOfTextAtSize(line, size) : x;
    this.page.drawText(line, { x: at, y: this.y, size, font, color });
  }

  /** A paragraph wrapped to `width` from `x`. */
  paragraph(text: string, { x = MARGIN, width = RIGHT - MARGIN, size = 10, bold = false, color = INK, gap = 4 } = {}): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    for (const line of wrap(font, size, writable(font, text), width)) {
      this.room(size * 1.4);
      this.y -= size * 1.4;
      this.page.drawText(line, { x, y: this.y, size, font, color });
    }
    this.y -= gap;
  }

  down(points: number): void {
    this.room(points);
    this.y -= points;
  }

  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: RIGHT, y: this.y }, thickness: 0.75, color: RULE });
  }

  /** "Page n of N" and the footer at the foot of every page. */
  finish(): void {
    this.pages.forEach((page, i) => {
      const text = writable(this.fonts.regular, `${this.footer}, page ${i + 1} of ${this.pages.length}`);
      page.drawText(text, { x: MARGIN, y: MARGIN - 24, size: 8, font: this.fonts.regular, color: SOFT });
    });
  }
}

type Document = { invoice: FeeInvoiceView; client: { name: string; email: string }; taxYear: number };

async function documentOf(invoiceId: string): Promise<Document | null> {
  const invoice = await invoiceView(invoiceId);
  if (!invoice) return null;
  const [row] = await getDb()
    .select({ name: user.name, email: user.email, taxYear: invoices.taxYear })
    .from(invoices)
    .innerJoin(user, eq(user.id, invoices.clientId))
    .where(eq(invoices.id, invoiceId));
  if (!row) return null;
  return { invoice, client: { name: row.name, email: row.email }, taxYear: row.taxYear };
}

/** The firm's name and contact details at the top left, the document's title and facts at the top right. */
function letterhead(w: Writer, title: string, facts: Array<[string, string]>): void {
  const top = w.y;
  w.y -= 20;
  w.text(business.name, MARGIN, { size: 18, bold: true });
  for (const line of [...business.address.lines, business.email, business.phone.display]) {
    w.y -= 13;
    w.text(line, MARGIN, { size: 9, color: SOFT });
  }
  const left = w.y;
  w.y = top - 20;
  w.text(title, RIGHT, { size: 20, bold: true, align: "right" });
  for (const [label, value] of facts) {
    w.y -= 14;
    w.text(`${label}: ${value}`, RIGHT, { size: 9.5, align: "right" });
  }
  w.y = Math.min(left, w.y) - 24;
}

function billTo(w: Writer, doc: Document, heading: string): void {
  w.text(heading, MARGIN, { size: 9, bold: true, color: SOFT });
  w.y -= 14;
  w.text(doc.client.name, MARGIN, { size: 11, bold: true });
  w.y -= 13;
  w.text(doc.client.email, MARGIN, { size: 9.5 });
  w.y -= 13;
  w.text(`Tax year ${doc.taxYear}`, MARGIN, { size: 9.5 });
  w.y -= 24;
}

const COL = { qty: 380, unit: 470, amount: RIGHT };

function linesTable(w: Writer, invoice: FeeInvoiceView): void {
  w.text("Description", MARGIN, { size: 9, bold: true, color: SOFT });
  w.text("Qty", COL.qty, { size: 9, bold: true, color: SOFT, align: "right" });
  w.text("Unit price", COL.unit, { size: 9, bold: true, color: SOFT, align: "right" });
  w.text("Amount", COL.amount, { size: 9, bold: true, color: SOFT, align: "right" });
  w.y -= 6;
  w.rule();
  for (const line of invoice.lines) {
    const rows = wrap(w.fonts.regular, 10, writable(w.fonts.regular, line.description), COL.qty - MARGIN - 40);
    w.room(rows.length * 14 + 6);
    w.y -= 14;
    w.text(String(line.quantity), COL.qty, { align: "right" });
    w.text(formatUsd(line.unitCents), COL.unit, { align: "right" });
    w.text(formatUsd(line.amountCents), COL.amount, { align: "right" });
    rows.forEach((row, i) => {
      if (i > 0) w.y -= 12;
      w.text(row, MARGIN);
    });
    w.y -= 6;
    w.rule();
  }
  w.y -= 8;
}

function amountRow(w: Writer, label: string, cents: number, bold = false): void {
  w.room(16);
  w.y -= 15;
  w.text(label, COL.unit, { bold, align: "right" });
  w.text(formatUsd(cents), COL.amount, { bold, align: "right" });
}

function paymentInstructionsBlock(w: Writer, number: string): void {
  const { wire, zelle } = paymentInstructions;
  w.down(20);
  w.paragraph("How to pay by wire transfer or Zelle", { size: 12, bold: true });
  w.paragraph(`Write the invoice number ${paymentInstructions.reference(number)} as the payment's reference or memo, so that we can match your payment.`, { size: 9.5 });
  const fields: Array<[string, string]> = [
    ["Bank", wire.bankName],
    ["Bank address", wire.bankAddress],
    ["Account name", wire.accountName],
    ["Routing number (ABA)", wire.routingNumber],
    ["Account number", wire.accountNumber],
    ["SWIFT (international wires)", wire.swift],
    ["Zelle", `${zelle.email} or ${zelle.phone}`],
    ["Reference", paymentInstructions.reference(number)],
  ];
  for (const [label, value] of fields) {
    w.room(14);
    w.y -= 13;
    w.text(label, MARGIN, { size: 9.5, bold: true });
    w.text(value, MARGIN + 150, { size: 9.5 });
  }
}

async function newDocument(title: string): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title);
  doc.setProducer(business.name);
  doc.setCreator(business.name);
  doc.setAuthor(business.name);
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  return { doc, fonts };
}

/**
 * The invoice `invoiceId` as a PDF: the firm, its number and dates, the client, the lines and
 * amounts (subtotal, discount, total, paid, amount due), the notes, and how to pay by wire or
 * Zelle. A draft says DRAFT and a void one VOID. Null when there is no such invoice.
 */
export async function invoicePdf(invoiceId: string): Promise<{ pdf: Uint8Array; filename: string } | null> {
  const found = await documentOf(invoiceId);
  if (!found) return null;
  const { invoice } = found;
  const { doc, fonts } = await newDocument(`Invoice ${invoice.number}`);
  const w = new Writer(doc, fonts, `${business.name} invoice ${invoice.number}`);
  const title = invoice.status === "draft" ? "INVOICE (DRAFT)" : invoice.status === "void" ? "INVOICE (VOID)" : "INVOICE";
  letterhead(w, title, [
    ["Invoice number", invoice.number],
    ["Issue date", longDate(invoice.sentAt ?? invoice.createdAt)],
    ["Due date", longDay(invoice.dueOn)],
    ["Status", INVOICE_STATUS_LABELS[invoice.status]],
  ]);
  billTo(w, found, "BILL TO");
  linesTable(w, invoice);
  amountRow(w, "Subtotal", invoice.subtotalCents);
  if (invoice.discountCents > 0) amountRow(w, "Discount", -invoice.discountCents);
  amountRow(w, "Total", invoice.totalCents, true);
  amountRow(w, "Paid", invoice.paidCents);
  amountRow(w, "Amount due", invoice.dueCents, true);
  if (invoice.status === "void") w.paragraph("This invoice is void: nothing is owed on it.", { bold: true });
  if (invoice.notes) {
    w.down(18);
    w.paragraph("Notes", { size: 11, bold: true });
    w.paragraph(invoice.notes, { size: 9.5 });
  }
  if (invoice.status !== "void" && invoice.status !== "paid") paymentInstructionsBlock(w, invoice.number);
  w.finish();
  return { pdf: await doc.save(), filename: `${invoice.number}.pdf` };
}

/**
 * What the receipt's heading says of the invoice now: paid in full (and when), or, once a refund
 * has reopened it, what is due again (or that it is void); never "paid in full" when it is not.
 */
function receiptFacts(invoice: FeeInvoiceView): Array<[string, string]> {
  if (invoice.status === "paid") return [["Paid in full on", longDate(invoice.paidAt!)]];
  if (invoice.status === "void") return [["Status", INVOICE_STATUS_LABELS.void]];
  return [
    ["Status", invoice.paidCents > 0 ? "Partly refunded" : "Refunded"],
    ["Balance due", formatUsd(invoice.dueCents)],
  ];
}

/**
 * The receipt of invoice `invoiceId` as a PDF, once it has been paid in full: the firm, the
 * invoice, the day it was paid in full (while it still is), each payment received (method, day,
 * reference, amount), each refund made, and the balance. After a refund reopened the invoice it
 * says so, with what is due again. Null when there is no such invoice or it has never been paid
 * in full.
 */
export async function receiptPdf(invoiceId: string): Promise<{ pdf: Uint8Array; filename: string } | null> {
  const found = await documentOf(invoiceId);
  if (!found || !found.invoice.paidAt) return null;
  const { invoice } = found;
  const { doc, fonts } = await newDocument(`Receipt for invoice ${invoice.number}`);
  const w = new Writer(doc, fonts, `${business.name} receipt for invoice ${invoice.number}`);
  letterhead(w, "Receipt", [["Invoice number", invoice.number], ...receiptFacts(invoice)]);
  billTo(w, found, "RECEIVED FROM");
  w.text("Payment", MARGIN, { size: 9, bold: true, color: SOFT });
  w.text("Date", 250, { size: 9, bold: true, color: SOFT });
  w.text("Reference", 350, { size: 9, bold: true, color: SOFT });
  w.text("Amount", RIGHT, { size: 9, bold: true, color: SOFT, align: "right" });
  w.y -= 6;
  w.rule();
  const received = invoice.payments.filter((p) => p.status === "succeeded");
  for (const p of received) {
    w.room(22);
    w.y -= 14;
    w.text(PAYMENT_METHOD_LABELS[p.method], MARGIN);
    w.text(longDay(p.receivedOn), 250);
    w.text(wrap(fonts.regular, 10, writable(fonts.regular, p.reference || "-"), 120)[0] ?? "", 350);
    w.text(formatUsd(p.amountCents), RIGHT, { align: "right" });
    w.y -= 6;
    w.rule();
  }
  const refunds = received.flatMap((p) => p.refunds.filter((r) => r.status === "succeeded").map((r) => ({ ...r, method: p.method })));
  for (const r of refunds) {
    w.room(22);
    w.y -= 14;
    w.text(`Refund (${PAYMENT_METHOD_LABELS[r.method]})`, MARGIN);
    w.text(longDate(r.confirmedAt ?? r.createdAt), 250);
    w.text(formatUsd(-r.amountCents), RIGHT, { align: "right" });
    w.y -= 6;
    w.rule();
  }
  w.y -= 8;
  amountRow(w, "Invoice total", invoice.totalCents);
  amountRow(w, "Received", received.reduce((sum, p) => sum + p.amountCents, 0));
  if (refunds.length > 0) amountRow(w, "Refunded", -refunds.reduce((sum, r) => sum + r.amountCents, 0));
  amountRow(w, "Amount due", invoice.dueCents, true);
  w.down(24);
  if (invoice.status !== "paid" && invoice.status !== "void")
    w.paragraph(
      `After the refunds above, ${formatUsd(invoice.paidCents)} of the invoice's ${formatUsd(invoice.totalCents)} is paid and ${formatUsd(invoice.dueCents)} is due again.`,
      { size: 9.5 },
    );
  w.paragraph(`Thank you. This receipt is for the fee of your ${found.taxYear} tax filing with ${business.name}.`, { size: 9.5 });
  w.finish();
  return { pdf: await doc.save(), filename: `${invoice.number}-receipt.pdf` };
}
