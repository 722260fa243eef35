/**
 * The staff's Fee section of a case and the client's view of their invoices
 * (docs/product/fees.md): what each shows, as plain data the server reads and the pages render,
 * the section's form intents and what it says after a change, and the reading of the invoice
 * form's fields. Pure: shared by the browser and the server.
 */
import type { AgingBucket, InvoiceStatus, PaymentMethod, PaymentStatus, RefundStatus } from "./fees";
import { formatUsd, MAX_INVOICE_LINES } from "./fees";

export type FeeLineView = {
  position: number;
  /** The price list item the line was taken from (content/price-list.ts), when it was. */
  priceListId: string | null;
  description: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
};

export type FeeRefundView = {
  id: string;
  amountCents: number;
  status: RefundStatus;
  reason: string;
  createdAt: string;
  confirmedAt: string | null;
  /** The staff member who made or asked for it (their current name). */
  requestedBy: string | null;
};

export type FeePaymentView = {
  id: string;
  method: PaymentMethod;
  status: PaymentStatus;
  amountCents: number;
  reference: string;
  receivedOn: string;
  /** Staff who recorded it; null when Stripe's webhook did. */
  recordedBy: string | null;
  /** Made through Stripe (card or bank): refunded through Stripe. */
  throughStripe: boolean;
  refunds: FeeRefundView[];
  /** What can still be refunded: the amount less the refunds that did not fail (0 unless it succeeded). */
  refundableCents: number;
  /** What of it was more than the invoice owed when it was received (all of it on a void invoice). */
  excessCents: number;
};

export type FeeInvoiceView = {
  id: string;
  /** Its case. */
  clientId: string;
  taxYear: number;
  number: string;
  status: InvoiceStatus;
  lines: FeeLineView[];
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  paidCents: number;
  dueCents: number;
  dueOn: string;
  notes: string;
  createdAt: string;
  sentAt: string | null;
  paidAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  /** When the client last said they had sent a wire or Zelle payment. */
  clientNotifiedAt: string | null;
  payments: FeePaymentView[];
  /**
   * Money received that the invoice does not owe and nobody has asked back yet: received above
   * its total (or anything, once void), less the refunds that succeeded or are pending (toRefundCents).
   */
  toRefundCents: number;
};

/** Whether the case's final copies wait for its fee (docs/product/fees.md#final-copies-wait-for-payment). */
export type FinalCopiesGate = {
  /** The firm's setting: final copies wait for payment. */
  waitForPayment: boolean;
  /** This case's own exception: its final copies are released before payment. */
  releasedBeforePayment: boolean;
  /** The result: the client cannot download the final copies now. */
  locked: boolean;
};

/** Everything the staff's Fee section shows of a case, newest invoice first. */
export type CaseFeesData = { invoices: FeeInvoiceView[]; gate: FinalCopiesGate };

/** A payment as the client sees it: no staff names, no failed attempts. */
export type ClientPaymentView = { method: PaymentMethod; status: PaymentStatus; amountCents: number; reference: string; receivedOn: string };

/** An invoice as its client sees it: sent, partly paid or paid (never a draft): no staff names, no void reason. */
export type ClientInvoiceView = Omit<FeeInvoiceView, "clientId" | "taxYear" | "createdAt" | "voidedAt" | "voidReason" | "payments" | "toRefundCents"> & {
  payments: ClientPaymentView[];
  /** The succeeded refunds, in all. */
  refundedCents: number;
};

/** The Fee section's forms, each posted with its `intent`. */
export const FEE_INTENTS = [
  "create-invoice",
  "update-invoice",
  "send-invoice",
  "void-invoice",
  "record-payment",
  "refund-payment",
  "final-copies-override",
] as const;
export type FeeIntent = (typeof FEE_INTENTS)[number];

export function isFeeIntent(value: unknown): value is FeeIntent {
  return typeof value === "string" && (FEE_INTENTS as readonly string[]).includes(value);
}

/** The intents only an administrator may use (docs/product/fees.md#who-may-do-what). */
export const ADMIN_FEE_INTENTS: ReadonlySet<FeeIntent> = new Set<FeeIntent>(["void-invoice", "refund-payment"]);

/** What the section says after each change (the address's `?done=`). */
export const FEE_DONE = {
  "invoice-saved": "The invoice was saved as a draft.",
  "invoice-sent": "The invoice was sent. The client was e-mailed a link to it.",
  "invoice-voided": "The invoice was voided.",
  "payment-recorded": "The payment was recorded.",
  "payment-recorded-paid": "The payment was recorded: the invoice is paid in full. The client was e-mailed.",
  "refund-recorded": "The refund was recorded.",
  "refund-requested": "The refund was sent to Stripe. It shows as refunded once Stripe confirms it.",
  "refund-unanswered":
    "Stripe has not answered yet. The refund stays pending and is asked of Stripe again every minute until it answers: do not make it again.",
  "override-on": "The final copies of this case are released before payment.",
  "override-off": "The final copies of this case wait for payment again.",
} as const;
export type FeeDone = keyof typeof FEE_DONE;

export function feeDoneMessage(key: string | null): string | null {
  return key !== null && Object.hasOwn(FEE_DONE, key) ? FEE_DONE[key as FeeDone] : null;
}

/** The section's own refusals (the fee's functions have theirs in domain/fees.ts FEE_MESSAGES). */
export const FEE_SECTION_MESSAGES = {
  unknown: "That change is not one this page makes. Reload the page and try again.",
  controlCharacters: "The form holds characters that cannot be stored. Remove them and try again.",
} as const;

/** An invoice still owed, on the Payments page: its age in days since it was sent (New York days). */
export type OutstandingInvoice = {
  id: string;
  number: string;
  clientId: string;
  clientName: string;
  taxYear: number;
  status: InvoiceStatus;
  sentOn: string;
  dueOn: string;
  dueCents: number;
  days: number;
  bucket: AgingBucket;
};

export type AgingSummary = { key: AgingBucket; label: string; count: number; dueCents: number };

/** A payment of the month, on the Payments page. */
export type MonthPayment = {
  id: string;
  receivedOn: string;
  number: string;
  clientId: string;
  clientName: string;
  taxYear: number;
  method: PaymentMethod;
  methodLabel: string;
  status: PaymentStatus;
  reference: string;
  amountCents: number;
  /** What of it was not owed (to give back). */
  excessCents: number;
};

/** An invoice holding money it does not owe (paid above its total, or paid while void), on the Payments page. */
export type InvoiceToRefund = { id: string; number: string; clientId: string; clientName: string; taxYear: number; status: InvoiceStatus; toRefundCents: number };

/** What an admin reads of money an invoice holds and does not owe: how much to give back, and why. */
export function toRefundText(invoice: { status: InvoiceStatus; toRefundCents: number }): string {
  const amount = formatUsd(invoice.toRefundCents);
  return invoice.status === "void"
    ? `This invoice is void, yet it received money: refund ${amount} to the client.`
    : `This invoice received more than its total: refund ${amount} to the client.`;
}

/** A refund of the month, on the Payments page. */
export type MonthRefund = { id: string; on: string; number: string; clientName: string; taxYear: number; method: PaymentMethod; status: RefundStatus; amountCents: number };

/** The Payments page's own texts. */
export const PAYMENTS_PAGE_TEXTS = {
  gateOn: "Final copies now wait for payment.",
  gateOff: "Final copies no longer wait for payment.",
  badRequest: "That change is not one this page makes. Reload the page and try again.",
} as const;

/** An invoice as the form sends it, before its rules are checked (domain/fees.ts invoiceFormSchema). */
export type InvoiceInput = {
  lines: Array<{ description: string; quantity: string; unitCents: string; priceListId?: string | null }>;
  discountCents?: string;
  notes?: string;
  dueOn: string;
};

/**
 * The invoice form's fields as the invoice's input: the lines are the repeated fields
 * `line-description`, `line-quantity`, `line-unit` (dollars) and `line-item` (the price list
 * id, or empty), in the same order; a line left wholly empty is dropped. `discount`, `notes` and
 * `dueOn` are single fields. At most MAX_INVOICE_LINES + 1 lines are read (one too many is refused by the schema).
 */
export function invoiceInputFromFields(all: (name: string) => readonly string[]): InvoiceInput {
  const descriptions = all("line-description");
  const quantities = all("line-quantity");
  const units = all("line-unit");
  const items = all("line-item");
  const count = Math.min(Math.max(descriptions.length, quantities.length, units.length), MAX_INVOICE_LINES + 1);
  const lines: InvoiceInput["lines"] = [];
  for (let i = 0; i < count; i++) {
    const line = { description: descriptions[i] ?? "", quantity: quantities[i] ?? "", unitCents: units[i] ?? "", priceListId: items[i] || null };
    if (line.description.trim() === "" && line.unitCents.trim() === "" && (line.quantity.trim() === "" || line.quantity.trim() === "1")) continue;
    lines.push(line);
  }
  const first = (name: string) => all(name)[0] ?? "";
  return { lines, discountCents: first("discount"), notes: first("notes"), dueOn: first("dueOn") };
}

/** Where staff download an invoice's PDF, or its receipt once paid in full (routes/admin/invoice-file.ts). */
export function staffInvoiceFileUrl(clientId: string, invoiceId: string, file: "invoice" | "receipt"): string {
  return `/admin/clients/${encodeURIComponent(clientId)}/invoices/${invoiceId}/${file}.pdf`;
}
