import { CheckCircle2, CreditCard, Download, Landmark, Receipt } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { FilingPanel } from "./filing-panel";
import { PaymentInstructions } from "./payment-instructions";
import { formatUsd, FEE_TEXTS, INVOICE_STATUS_LABELS, isPayable } from "~/domain/fees";
import type { CheckoutReturn, ClientFee, ClientInvoice, FeeFormResult } from "~/domain/fee-client";

// The filing page's fee (docs/product/fees.md#what-the-client-sees): each invoice sent to the
// client, what is due, the invoice and receipt PDFs, and the ways to pay: by card through Stripe
// (when the firm has set it up), by wire transfer or Zelle with the firm's instructions and
// "I have sent the payment". Plain form posts: they work without JavaScript.

/** An invoice's state in the client's words: a sent invoice is due. */
const CLIENT_STATUS_LABELS: Partial<Record<ClientInvoice["status"], string>> = { sent: "Due", paid: FEE_TEXTS.paid };

function StatusBadge({ invoice }: { invoice: ClientInvoice }) {
  const paid = invoice.status === "paid";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ${
        paid ? "bg-green-50 text-green-800 ring-green-200" : "bg-accent-50 text-accent-700 ring-accent-500"
      }`}
    >
      {paid ? <CheckCircle2 className="size-4" aria-hidden="true" /> : null}
      {CLIENT_STATUS_LABELS[invoice.status] ?? INVOICE_STATUS_LABELS[invoice.status]}
    </span>
  );
}

/** A row below an invoice's lines: its label under the lines' columns, its amount under Amount. */
function TotalRow({ label, cents, spaced = false, strong = false }: { label: string; cents: number; spaced?: boolean; strong?: boolean }) {
  const weight = strong ? "font-semibold" : "font-medium";
  return (
    <tr>
      <th scope="row" colSpan={2} className={`${spaced ? "pt-2 " : ""}pr-3 text-right ${weight}`}>
        {label}
      </th>
      <td className={`${spaced ? "pt-2 " : ""}whitespace-nowrap text-right tabular-nums${strong ? " font-semibold" : ""}`}>{formatUsd(cents)}</td>
    </tr>
  );
}

/**
 * The invoice's lines as wide as its box and no wider: a description wraps (a long word too), the
 * figures keep to one line, so that nothing is cut on a phone (390 px and below).
 */
function Amounts({ invoice }: { invoice: ClientInvoice }) {
  return (
    <div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{`Invoice ${invoice.number}`}</caption>
        <thead>
          <tr className="border-b border-line text-ink-muted">
            <th scope="col" className="py-2 pr-3 font-medium">
              Description
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Qty
            </th>
            <th scope="col" className="whitespace-nowrap py-2 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, i) => (
            <tr key={i} className="border-b border-line/60">
              <td className="py-2 pr-3 text-ink [overflow-wrap:anywhere]">{line.description}</td>
              <td className="py-2 pr-3 text-right text-ink-soft tabular-nums">{line.quantity}</td>
              <td className="whitespace-nowrap py-2 text-right text-ink tabular-nums">{formatUsd(line.amountCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="text-ink">
          {invoice.discountCents > 0 ? (
            <>
              <TotalRow label="Subtotal" cents={invoice.subtotalCents} spaced />
              <TotalRow label="Discount" cents={-invoice.discountCents} />
            </>
          ) : null}
          <TotalRow label="Total" cents={invoice.totalCents} spaced strong />
          {invoice.paidCents > 0 ? <TotalRow label="Paid" cents={invoice.paidCents} /> : null}
        </tfoot>
      </table>
    </div>
  );
}

function PayForms({ invoice, action, cardPayments, posted }: { invoice: ClientInvoice; action: string; cardPayments: boolean; posted: FeeFormResult | undefined }) {
  const answer = (intent: FeeFormResult["intent"]) =>
    posted && posted.intent === intent ? <Alert tone={posted.ok ? "success" : "error"}>{posted.message}</Alert> : null;
  return (
    <div className="space-y-5">
      {cardPayments ? (
        <div className="space-y-2">
          <h4 className="flex items-center gap-2 font-semibold text-ink">
            <CreditCard className="size-4" aria-hidden="true" />
            Pay by card or US bank account
          </h4>
          <p className="text-sm text-ink-soft">Stripe, our payment provider, takes the payment on its secure page. We never see your card number.</p>
          {answer("pay-card")}
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="pay-card" />
            <input type="hidden" name="invoiceId" value={invoice.id} />
            <Button type="submit" className="min-h-11">{`Pay ${formatUsd(invoice.dueCents)} by card`}</Button>
          </Form>
        </div>
      ) : null}
      <div className="space-y-2">
        <h4 className="flex items-center gap-2 font-semibold text-ink">
          <Landmark className="size-4" aria-hidden="true" />
          Pay by wire transfer or Zelle
        </h4>
        <PaymentInstructions reference={invoice.number} />
        {answer("announce-payment")}
        {invoice.announcedOn ? (
          <p className="text-sm text-ink-soft">{`You told us on ${invoice.announcedOn} that you sent the payment. We will confirm it when it arrives.`}</p>
        ) : (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="announce-payment" />
            <input type="hidden" name="invoiceId" value={invoice.id} />
            <Button type="submit" variant="secondary" className="min-h-11">
              I have sent the payment
            </Button>
          </Form>
        )}
      </div>
    </div>
  );
}

function InvoiceCard({ invoice, action, cardPayments, posted }: { invoice: ClientInvoice; action: string; cardPayments: boolean; posted: FeeFormResult | undefined }) {
  const titleId = `invoice-${invoice.id}`;
  return (
    <article aria-labelledby={titleId} className="space-y-4 rounded-xl border border-line p-4 sm:p-5">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="font-semibold text-ink">{`Invoice ${invoice.number}`}</h3>
        <StatusBadge invoice={invoice} />
      </header>
      {isPayable(invoice.status) ? (
        <div>
          <p className="text-2xl font-bold tracking-tight text-ink">{FEE_TEXTS.feeDue(invoice.dueCents)}</p>
          <p className="text-sm text-ink-soft">{`Issued ${invoice.issuedOn}; due by ${invoice.dueOn}.`}</p>
        </div>
      ) : invoice.paidOn ? (
        <p className="text-ink-soft">{`Paid in full on ${invoice.paidOn}. Thank you.`}</p>
      ) : null}
      <Amounts invoice={invoice} />
      {invoice.notes ? <p className="whitespace-pre-line text-sm text-ink-soft">{invoice.notes}</p> : null}
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <a href={invoice.invoiceUrl} download className="inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline">
          <Download className="size-4" aria-hidden="true" />
          Download the invoice (PDF)
        </a>
        {invoice.receiptUrl ? (
          <a href={invoice.receiptUrl} download className="inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline">
            <Download className="size-4" aria-hidden="true" />
            Download the receipt (PDF)
          </a>
        ) : null}
      </div>
      {invoice.processing ? <p className="text-sm font-medium text-accent-700">{FEE_TEXTS.processing}</p> : null}
      {isPayable(invoice.status) ? <PayForms invoice={invoice} action={action} cardPayments={cardPayments} posted={posted} /> : null}
    </article>
  );
}

/** What the page says when Stripe's page sends the client back. */
function CheckoutAnswer({ checkout }: { checkout: CheckoutReturn }) {
  switch (checkout) {
    case "confirming":
      return <Alert tone="success">{FEE_TEXTS.confirming}</Alert>;
    case "paid":
      return <Alert tone="success">{FEE_TEXTS.cardPaid}</Alert>;
    case "processing":
      return <Alert tone="warning">{FEE_TEXTS.processing}</Alert>;
    case "failed":
      return <Alert tone="error">{FEE_TEXTS.bankFailed}</Alert>;
    case "cancelled":
      return <Alert tone="warning">{FEE_TEXTS.checkoutCancelled}</Alert>;
  }
}

/** "Your fee": shown once an invoice has been sent; folded once every invoice is paid. */
export function FeePanel({
  fee,
  action,
  checkout,
  posted,
}: {
  fee: ClientFee;
  action: string;
  /** Back from Stripe's page: done (waiting for Stripe's word) or cancelled. */
  checkout: CheckoutReturn | null;
  posted?: FeeFormResult;
}) {
  if (fee.invoices.length === 0) return null;
  const open = fee.invoices.filter((i) => isPayable(i.status));
  const allPaid = open.length === 0;
  return (
    <FilingPanel
      id="fee-title"
      anchor="fee"
      title="Your fee"
      icon={<Receipt className="size-5" aria-hidden="true" />}
      done={allPaid && !posted && checkout === null ? "Paid. Your receipt is here." : null}
    >
      <div className="space-y-4">
        {checkout ? <CheckoutAnswer checkout={checkout} /> : null}
        {fee.invoices.map((invoice) => (
          <InvoiceCard key={invoice.id} invoice={invoice} action={action} cardPayments={fee.cardPayments} posted={posted} />
        ))}
      </div>
    </FilingPanel>
  );
}
