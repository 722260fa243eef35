/**
 * The fee of a case (docs/product/fees.md): invoices, their numbers and states, payments and
 * refunds, money as integer cents of US dollars, the forms' input rules and what a refusal says.
 * Pure: shared by the browser's forms and the server; the records live in app/server/fees.
 */
import { z } from "./zod";

/** The states of an invoice, in the order it goes through them. */
export const INVOICE_STATUSES = ["draft", "sent", "partly-paid", "paid", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: "Draft",
  sent: "Sent",
  "partly-paid": "Partly paid",
  paid: "Paid",
  void: "Void",
};

/** How a payment reached the firm: through Stripe (a card, or a US bank account), or outside it. */
export const STRIPE_METHODS = ["card", "bank"] as const;
export const OFFLINE_METHODS = ["wire", "zelle", "check", "cash"] as const;
export const PAYMENT_METHODS = [...STRIPE_METHODS, ...OFFLINE_METHODS] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Card",
  bank: "Bank account (Stripe)",
  wire: "Wire transfer",
  zelle: "Zelle",
  check: "Check",
  cash: "Cash",
};

/** A payment's state as staff read it. */
export const PAYMENT_STATUS_LABELS: Record<"processing" | "succeeded" | "failed", string> = { processing: "Processing", succeeded: "Received", failed: "Failed" };

/** A payment's state: a bank payment through Stripe is processing for some days before it succeeds or fails. */
export const PAYMENT_STATUSES = ["processing", "succeeded", "failed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A refund's state: asked of Stripe and not yet confirmed, done, or refused by Stripe. */
export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * A Checkout Session as this server keeps it: being made (Stripe not yet answered), open (can be
 * paid until it expires), complete (paid, or a bank debit started), expired, or refused by Stripe.
 */
export const CHECKOUT_SESSION_STATUSES = ["creating", "open", "complete", "expired", "failed"] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

/**
 * What an invoice holds that is not owed: what it received (payments that succeeded less refunds
 * that succeeded, `paidCents`) above what it is owed (its total; nothing once void), less the
 * refunds of it already asked of Stripe (`pendingRefundCents`). Money to give back to the client.
 */
export function toRefundCents(invoice: { status: InvoiceStatus; totalCents: number; paidCents: number }, pendingRefundCents = 0): number {
  const owed = invoice.status === "void" || invoice.status === "draft" ? 0 : invoice.totalCents;
  return Math.max(0, invoice.paidCents - owed - pendingRefundCents);
}

/** The most lines an invoice holds, and the longest texts. */
export const MAX_INVOICE_LINES = 20;
export const MAX_LINE_DESCRIPTION = 200;
export const MAX_INVOICE_NOTES = 2_000;
export const MAX_PAYMENT_REFERENCE = 120;
/** No invoice, line or payment is above $100,000.00 (a typing slip, not a fee). */
export const MAX_AMOUNT_CENTS = 10_000_000;
export const MAX_QUANTITY = 99;
/** An invoice is due this many days after it is made, unless staff choose another date. */
export const DEFAULT_DUE_DAYS = 14;

/** "$1,234.50" from 123450 (cents). Negative amounts read "-$5.00". */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** "1234.50" from 123450: the value a money input shows. */
export function centsToInput(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/**
 * Cents from what a person typed as dollars ("299", "299.5", "$1,299.00"), read as text so that
 * no float ever holds money; null when it is not an amount.
 */
export function parseUsd(input: string): number | null {
  const text = input.trim().replace(/^\$/, "").replaceAll(",", "");
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** The invoice number of the `seq`th invoice made in `year`: INV-2026-00042. */
export function invoiceNumber(year: number, seq: number): string {
  return `INV-${year}-${String(seq).padStart(5, "0")}`;
}

export type InvoiceLine = { description: string; quantity: number; unitCents: number };

/** An invoice's amounts: lines before the discount, the discount, and what is owed in all. */
export function invoiceTotals(lines: readonly InvoiceLine[], discountCents: number): { subtotalCents: number; discountCents: number; totalCents: number } {
  const subtotalCents = lines.reduce((sum, line) => sum + line.quantity * line.unitCents, 0);
  return { subtotalCents, discountCents, totalCents: subtotalCents - discountCents };
}

/**
 * The state an invoice is in, from what has been received: `paidCents` is the payments that
 * succeeded less the refunds that did. A draft or a void invoice keeps its state.
 */
export function statusFromPayments(current: InvoiceStatus, totalCents: number, paidCents: number): InvoiceStatus {
  if (current === "draft" || current === "void") return current;
  if (paidCents >= totalCents) return "paid";
  if (paidCents > 0) return "partly-paid";
  return "sent";
}

/** What is still owed on an invoice (never below zero). */
export function amountDue(totalCents: number, paidCents: number): number {
  return Math.max(0, totalCents - paidCents);
}

/** Whether the client can pay an invoice now: it has been sent, is not void and is not paid in full. */
export function isPayable(status: InvoiceStatus): boolean {
  return status === "sent" || status === "partly-paid";
}

/** What each refusal says: the change was not made. */
export const FEE_MESSAGES = {
  noSuchCase: "There is no such case.",
  noSuchInvoice: "There is no such invoice.",
  noLines: "Add at least one line to the invoice.",
  tooManyLines: `An invoice can have at most ${MAX_INVOICE_LINES} lines.`,
  lineDescription: `Each line needs a description of at most ${MAX_LINE_DESCRIPTION} characters.`,
  lineQuantity: `Each line's quantity must be a whole number from 1 to ${MAX_QUANTITY}.`,
  lineAmount: "Each line's unit price must be an amount in dollars, such as 299.00.",
  discountAmount: "The discount must be an amount in dollars, such as 50.00, no more than the lines add up to.",
  notesTooLong: `The notes can be at most ${MAX_INVOICE_NOTES} characters.`,
  dueDate: "Choose a due date, today or later.",
  totalZero: "The invoice must come to more than $0.00.",
  tooLarge: "That amount is too large for one invoice.",
  notDraft: "This invoice has been sent: it can no longer be changed. Void it and make a new one.",
  notSendable: "Only a draft invoice can be sent.",
  notVoidable: "A paid or partly paid invoice cannot be voided: refund its payments first.",
  alreadyVoid: "This invoice is void.",
  notPayable: "This invoice cannot be paid now.",
  paymentAmount: "Enter the amount received in dollars, such as 150.00.",
  paymentTooMuch: "That is more than is still owed on this invoice.",
  paymentMethod: "Choose how the payment was made: wire, Zelle, check or cash.",
  paymentDate: "Enter the date the payment was received, no later than today.",
  referenceTooLong: `The reference can be at most ${MAX_PAYMENT_REFERENCE} characters.`,
  noSuchPayment: "There is no such payment.",
  refundAmount: "Enter the amount to refund in dollars, no more than what is left of the payment.",
  refundNotPossible: "Only a payment that has been received can be refunded.",
  cardNotConfigured: "Card payments are not set up on this server. Please pay by wire transfer or Zelle.",
  cardUnavailable: "We could not open the card payment page. Please try again in a few minutes, or pay by wire transfer or Zelle.",
  refundFailed: "Stripe refused this refund. Check the payment in Stripe's Dashboard: a refund made there is recorded here once Stripe tells us of it.",
  refundNoStripe: "Card payments are not set up on this server, so this refund cannot be asked of Stripe. Set up Stripe's keys, then refund it here.",
  notifiedAlready: "You have already told us about this payment. We will confirm it when it arrives.",
  overrideReason: "Say why the final copies are released before the fee is paid.",
  voidReason: "Say why the invoice is voided.",
  adminsOnly: "Only an administrator can void an invoice or refund a payment.",
  paymentProcessing: "A bank payment of this invoice is still processing: wait until it clears or fails.",
} as const;

/** What the client and staff are told, word for word. */
export const FEE_TEXTS = {
  feeDue: (cents: number) => `Fee due: ${formatUsd(cents)}`,
  paid: "Paid",
  processing: "Your bank payment is processing. We will confirm it when it clears.",
  confirming: "Thank you. Your payment is being confirmed; this page will show it as paid once Stripe tells us.",
  cardPaid: "Paid. Thank you: your receipt is ready below.",
  bankFailed: "Your bank payment did not go through. You can pay again by card, wire transfer or Zelle.",
  checkoutCancelled: "The card payment was not completed. You can try again, or pay by wire transfer or Zelle.",
  finalCopiesLocked: "Your final copies are ready and will be available once the fee is paid.",
  paymentNoticeSent: "Thank you. We have told the team; we will confirm the payment when it arrives.",
} as const;

const trimmed = (max: number, message: string) => z.string({ error: message }).trim().max(max, { error: message });

/** A money field as typed: dollars, converted to integer cents. */
const usd = (message: string) =>
  z
    .string({ error: message })
    .transform((value, ctx) => {
      const cents = parseUsd(value);
      if (cents === null || cents > MAX_AMOUNT_CENTS) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return cents;
    });

const isoDate = (message: string) => z.string({ error: message }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: message });

export const invoiceLineSchema = z.object({
  description: trimmed(MAX_LINE_DESCRIPTION, FEE_MESSAGES.lineDescription).min(1, { error: FEE_MESSAGES.lineDescription }),
  quantity: z.coerce
    .number({ error: FEE_MESSAGES.lineQuantity })
    .int({ error: FEE_MESSAGES.lineQuantity })
    .min(1, { error: FEE_MESSAGES.lineQuantity })
    .max(MAX_QUANTITY, { error: FEE_MESSAGES.lineQuantity }),
  unitCents: usd(FEE_MESSAGES.lineAmount),
});

/** An invoice as staff fill it in: lines, an optional discount, notes and a due date. */
export const invoiceFormSchema = z
  .object({
    lines: z
      .array(invoiceLineSchema, { error: FEE_MESSAGES.noLines })
      .min(1, { error: FEE_MESSAGES.noLines })
      .max(MAX_INVOICE_LINES, { error: FEE_MESSAGES.tooManyLines }),
    discountCents: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (!value?.trim()) return 0;
        const cents = parseUsd(value);
        if (cents === null) {
          ctx.addIssue({ code: "custom", message: FEE_MESSAGES.discountAmount });
          return z.NEVER;
        }
        return cents;
      }),
    notes: trimmed(MAX_INVOICE_NOTES, FEE_MESSAGES.notesTooLong).default(""),
    dueOn: isoDate(FEE_MESSAGES.dueDate),
  })
  .superRefine((invoice, ctx) => {
    const { subtotalCents, totalCents } = invoiceTotals(invoice.lines, invoice.discountCents);
    if (invoice.discountCents > subtotalCents) ctx.addIssue({ code: "custom", path: ["discountCents"], message: FEE_MESSAGES.discountAmount });
    else if (totalCents <= 0) ctx.addIssue({ code: "custom", path: ["lines"], message: FEE_MESSAGES.totalZero });
    else if (totalCents > MAX_AMOUNT_CENTS) ctx.addIssue({ code: "custom", path: ["lines"], message: FEE_MESSAGES.tooLarge });
  });
export type InvoiceForm = z.output<typeof invoiceFormSchema>;

/** A payment staff record that reached the firm outside Stripe. */
export const offlinePaymentSchema = z.object({
  method: z.enum(OFFLINE_METHODS, { error: FEE_MESSAGES.paymentMethod }),
  amountCents: usd(FEE_MESSAGES.paymentAmount).refine((cents) => cents > 0, { error: FEE_MESSAGES.paymentAmount }),
  reference: trimmed(MAX_PAYMENT_REFERENCE, FEE_MESSAGES.referenceTooLong).default(""),
  receivedOn: isoDate(FEE_MESSAGES.paymentDate),
});
export type OfflinePaymentForm = z.output<typeof offlinePaymentSchema>;

/** A refund an admin makes of one payment. */
export const refundSchema = z.object({
  amountCents: usd(FEE_MESSAGES.refundAmount).refine((cents) => cents > 0, { error: FEE_MESSAGES.refundAmount }),
  reason: trimmed(MAX_PAYMENT_REFERENCE, FEE_MESSAGES.referenceTooLong).default(""),
});

/** How old an outstanding invoice is, for the Payments page: days past its sending. */
export const AGING_BUCKETS = [
  { key: "0-30", label: "0-30 days", from: 0, to: 30 },
  { key: "31-60", label: "31-60 days", from: 31, to: 60 },
  { key: "over-60", label: "Over 60 days", from: 61, to: Number.POSITIVE_INFINITY },
] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number]["key"];

export function agingBucketOf(days: number): AgingBucket {
  return AGING_BUCKETS.find((b) => days >= b.from && days <= b.to)?.key ?? "over-60";
}

/** Where a client pays the fee of `taxYear`: its filing page's Fee panel; My Tax Filing when no fee is open. */
export function feeAddress(taxYear: number | null): string {
  return taxYear === null ? "/my-tax-filing" : `/my-tax-filing/${taxYear}#fee`;
}
