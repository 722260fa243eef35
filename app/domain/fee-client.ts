/**
 * The fee as the client sees it on their filing page (docs/product/fees.md#what-the-client-sees):
 * the invoices sent to them (never a draft or a void one), what is due, how to pay, and the
 * addresses of the invoice and receipt PDFs. Pure: app/server/fees/client-view.server.ts reads it.
 */
import { FEE_MESSAGES, FEE_TEXTS } from "./fees";
import type { InvoiceStatus } from "./fees";

export type ClientInvoiceLine = { description: string; quantity: number; unitCents: number; amountCents: number };

export type ClientInvoice = {
  id: string;
  number: string;
  status: InvoiceStatus;
  lines: ClientInvoiceLine[];
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  paidCents: number;
  dueCents: number;
  notes: string;
  /** Dates as the page shows them ("January 5, 2027"). */
  issuedOn: string;
  dueOn: string;
  paidOn: string | null;
  /** A bank payment through Stripe is on its way (not yet received). */
  processing: boolean;
  /** When the client said they had sent a wire or Zelle payment. */
  announcedOn: string | null;
  invoiceUrl: string;
  receiptUrl: string | null;
};

export type ClientFee = {
  invoices: ClientInvoice[];
  /** Card payments are configured on this server (Stripe). */
  cardPayments: boolean;
};

/** Where the client's invoice and receipt PDFs are. */
export function invoiceFileUrl(taxYear: number, invoiceId: string, file: "invoice" | "receipt"): string {
  return `/my-tax-filing/${taxYear}/invoices/${invoiceId}/${file}.pdf`;
}

/** Where the filing page's fee forms post. */
export function feeActionPath(taxYear: number): string {
  return `/my-tax-filing/${taxYear}/fee`;
}

/** What a fee form of the filing page answered, shown next to the fee. */
export type FeeFormResult = { ok: boolean; intent: "announce-payment" | "pay-card"; message: string };

/**
 * Where a card payment stands when Stripe's page sends the client back (`?checkout=`): cancelled
 * there, or done and then paid, processing (a bank payment), failed, or not yet confirmed by
 * Stripe's webhook ("confirming").
 */
export type CheckoutReturn = "cancelled" | "confirming" | "paid" | "processing" | "failed";

/** The page's `?checkout=` as the way back from Stripe: "done" is read with the payment's state. */
export function checkoutReturnOf(value: string | null): "done" | "cancelled" | null {
  return value === "done" || value === "cancelled" ? value : null;
}

/** Total amount the client still owes across the year's invoices (the My Tax Filing card's "Fee due"). */
export function totalDue(invoices: readonly Pick<ClientInvoice, "dueCents" | "status">[]): number {
  return invoices.filter((i) => i.status === "sent" || i.status === "partly-paid").reduce((sum, i) => sum + i.dueCents, 0);
}

/**
 * What a fee form answered, as a key in the filing page's address (`?fee=`): the form posts to
 * its own address and the browser is sent back to the page, which says it next to the fee.
 */
export const FEE_RESULTS = {
  announced: { ok: true, intent: "announce-payment", message: FEE_TEXTS.paymentNoticeSent },
  "announced-already": { ok: false, intent: "announce-payment", message: FEE_MESSAGES.notifiedAlready },
  "not-payable": { ok: false, intent: "pay-card", message: FEE_MESSAGES.notPayable },
  "card-not-configured": { ok: false, intent: "pay-card", message: FEE_MESSAGES.cardNotConfigured },
  "card-unavailable": { ok: false, intent: "pay-card", message: FEE_MESSAGES.cardUnavailable },
  "bank-processing": { ok: false, intent: "pay-card", message: FEE_TEXTS.processing },
} as const satisfies Record<string, FeeFormResult>;
export type FeeResultKey = keyof typeof FEE_RESULTS;

export function feeResultOf(key: string | null): FeeFormResult | null {
  return key !== null && Object.hasOwn(FEE_RESULTS, key) ? FEE_RESULTS[key as FeeResultKey] : null;
}
