import { Form } from "react-router";
import { LocalTime } from "~/components/ui/local-time";
import { Input } from "~/components/ui/field";
import { staffInvoiceFileUrl, toRefundText } from "~/domain/fee-section";
import type { FeeInvoiceView, FeePaymentView } from "~/domain/fee-section";
import { centsToInput, formatUsd, isPayable, OFFLINE_METHODS, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/domain/fees";
import type { FeeActionResult } from "./fee-form-parts";
import { labelClass, Refusal, selectClass, StatusBadge, Submit } from "./fee-form-parts";
import { InvoiceEditor } from "./invoice-editor";

const REFUND_STATUS_LABELS = { pending: "Asked of Stripe, not confirmed yet", succeeded: "Refunded", failed: "Refused by Stripe" } as const;

/**
 * One invoice of the case, for staff: its state and amounts, lines, payments and refunds, and
 * what can be done with it now: a draft is edited, sent or voided; a sent or partly paid one
 * takes a payment (or is voided while nothing was received); a payment received is refunded.
 * Voiding and refunding are shown to administrators only.
 */
export function InvoiceCard({
  clientId,
  invoice,
  isAdmin,
  today,
  result,
}: {
  clientId: string;
  invoice: FeeInvoiceView;
  isAdmin: boolean;
  today: string;
  result?: FeeActionResult;
}) {
  const refusal = (intent: FeeActionResult["intent"]) => (result?.intent === intent && result.target === invoice.id ? result : undefined);
  const prefix = `invoice-${invoice.id}`;
  const mayVoid = isAdmin && (invoice.status === "draft" || (invoice.status === "sent" && invoice.paidCents === 0 && !invoice.payments.some((p) => p.status === "processing")));
  return (
    <li className={`rounded-xl border p-4 ${invoice.status === "void" ? "border-line bg-surface text-ink-muted" : "border-primary-200 bg-white"}`} aria-labelledby={`${prefix}-title`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`${prefix}-title`} className="font-semibold text-ink">
          {invoice.number} <StatusBadge status={invoice.status} />
        </h3>
        <p className="text-sm">Due {invoice.dueOn}</p>
      </div>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-sm sm:max-w-md">
        <div>
          <dt className="text-ink-muted">Total</dt>
          <dd className="font-semibold tabular-nums">{formatUsd(invoice.totalCents)}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Paid</dt>
          <dd className="font-semibold tabular-nums">{formatUsd(invoice.paidCents)}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Due</dt>
          <dd className="font-semibold tabular-nums">{formatUsd(invoice.dueCents)}</dd>
        </div>
      </dl>
      <p className="mt-1 text-xs text-ink-muted">
        Made <LocalTime iso={invoice.createdAt} />
        {invoice.sentAt ? (
          <>
            {" "}
            · sent <LocalTime iso={invoice.sentAt} />
          </>
        ) : null}
        {invoice.paidAt ? (
          <>
            {" "}
            · paid in full <LocalTime iso={invoice.paidAt} />
          </>
        ) : null}
      </p>
      <p className="mt-2 flex flex-wrap gap-x-4 text-sm">
        {/* Plain links: the browser downloads the PDFs. */}
        <a href={staffInvoiceFileUrl(clientId, invoice.id, "invoice")} download className="font-semibold text-primary-700 underline">
          Invoice PDF<span className="sr-only">{` ${invoice.number}`}</span>
        </a>
        {invoice.paidAt ? (
          <a href={staffInvoiceFileUrl(clientId, invoice.id, "receipt")} download className="font-semibold text-primary-700 underline">
            Receipt PDF<span className="sr-only">{` ${invoice.number}`}</span>
          </a>
        ) : null}
      </p>
      {invoice.toRefundCents > 0 ? (
        <p className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-sm font-semibold text-red-800">
          {toRefundText(invoice)}
        </p>
      ) : null}
      {invoice.clientNotifiedAt && isPayable(invoice.status) ? (
        <p className="mt-2 rounded-lg bg-accent-50 px-3 py-2 text-sm font-medium text-accent-700">
          The client said they sent the payment by wire or Zelle <LocalTime iso={invoice.clientNotifiedAt} />.
        </p>
      ) : null}
      {invoice.status === "void" ? (
        <p className="mt-2 text-sm">
          Voided{invoice.voidedAt ? <> <LocalTime iso={invoice.voidedAt} /></> : null}: {invoice.voidReason}
        </p>
      ) : null}

      {/* As wide as the card: the description wraps (a long word too), the figures keep to one
          line with a gap before each, so that nothing is cut or runs together on a phone. */}
      <table className="mt-3 w-full text-left text-sm">
        <caption className="sr-only">Lines of {invoice.number}</caption>
        <thead className="text-xs text-ink-muted">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">Description</th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">Qty</th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">Unit</th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((l) => (
            <tr key={l.position} className="border-t border-line">
              <td className="py-1 pr-3 [overflow-wrap:anywhere]">{l.description}</td>
              <td className="py-1 pl-3 text-right tabular-nums">{l.quantity}</td>
              <td className="whitespace-nowrap py-1 pl-3 text-right tabular-nums">{formatUsd(l.unitCents)}</td>
              <td className="whitespace-nowrap py-1 pl-3 text-right tabular-nums">{formatUsd(l.amountCents)}</td>
            </tr>
          ))}
          {invoice.discountCents > 0 ? (
            <tr className="border-t border-line">
              <td colSpan={3} className="py-1 text-right">Discount</td>
              <td className="whitespace-nowrap py-1 pl-3 text-right tabular-nums">{formatUsd(-invoice.discountCents)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {invoice.notes ? <p className="mt-2 whitespace-pre-wrap break-words text-sm">Notes: {invoice.notes}</p> : null}

      {invoice.payments.length > 0 ? (
        <div className="mt-3">
          <h4 className="text-sm font-semibold text-ink">Payments</h4>
          <ul className="mt-1 space-y-2" aria-label={`Payments of ${invoice.number}`}>
            {invoice.payments.map((p) => (
              <PaymentItem key={p.id} payment={p} isAdmin={isAdmin} result={result} />
            ))}
          </ul>
        </div>
      ) : null}

      <div className="mt-3 space-y-2">
        {invoice.status === "draft" ? (
          <>
            <details open={refusal("update-invoice") !== undefined} className="rounded-lg border border-line p-3">
              <summary className="cursor-pointer text-sm font-semibold text-primary-700">Edit the draft</summary>
              <div className="mt-3">
                <InvoiceEditor
                  idPrefix={`${prefix}-edit`}
                  intent="update-invoice"
                  invoiceId={invoice.id}
                  today={today}
                  initial={{
                    lines: invoice.lines.map((l) => ({ description: l.description, quantity: String(l.quantity), unitCents: centsToInput(l.unitCents), priceListId: l.priceListId })),
                    discountCents: invoice.discountCents > 0 ? centsToInput(invoice.discountCents) : "",
                    notes: invoice.notes,
                    dueOn: invoice.dueOn < today ? today : invoice.dueOn,
                  }}
                  refused={refusal("update-invoice")}
                />
              </div>
            </details>
            <Form method="post" preventScrollReset aria-label={`Send ${invoice.number}`}>
              <input type="hidden" name="intent" value="send-invoice" />
              <input type="hidden" name="invoiceId" value={invoice.id} />
              <Refusal result={refusal("send-invoice")} id={`${prefix}-send-error`} />
              <Submit intent="send-invoice">Send to the client</Submit>
            </Form>
          </>
        ) : null}

        {isPayable(invoice.status) ? (
          <details open={refusal("record-payment") !== undefined} className="rounded-lg border border-line p-3">
            <summary className="cursor-pointer text-sm font-semibold text-primary-700">Record a payment</summary>
            <PaymentForm invoice={invoice} today={today} refused={refusal("record-payment")} />
          </details>
        ) : null}

        {mayVoid ? (
          <details open={refusal("void-invoice") !== undefined} className="rounded-lg border border-line p-3">
            <summary className="cursor-pointer text-sm font-semibold text-red-700">Void this invoice</summary>
            <Form method="post" preventScrollReset className="mt-3 space-y-3" aria-label={`Void ${invoice.number}`}>
              <input type="hidden" name="intent" value="void-invoice" />
              <input type="hidden" name="invoiceId" value={invoice.id} />
              <p className="text-sm">Its number stays used; the client no longer sees it. Make a new invoice if something is still owed.</p>
              <div>
                <label htmlFor={`${prefix}-void-reason`} className={labelClass}>
                  Reason
                </label>
                <Input id={`${prefix}-void-reason`} name="reason" required maxLength={500} defaultValue={refusal("void-invoice")?.values?.reason ?? ""} />
              </div>
              <Refusal result={refusal("void-invoice")} id={`${prefix}-void-error`} />
              <Submit intent="void-invoice" variant="secondary">
                Void {invoice.number}
              </Submit>
            </Form>
          </details>
        ) : null}
      </div>
    </li>
  );
}

function PaymentForm({ invoice, today, refused }: { invoice: FeeInvoiceView; today: string; refused?: FeeActionResult }) {
  const v = refused?.values ?? {};
  const prefix = `invoice-${invoice.id}-pay`;
  return (
    <Form method="post" preventScrollReset className="mt-3 space-y-3" aria-label={`Record a payment of ${invoice.number}`}>
      <input type="hidden" name="intent" value="record-payment" />
      <input type="hidden" name="invoiceId" value={invoice.id} />
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${prefix}-method`} className={labelClass}>
            Method
          </label>
          <select id={`${prefix}-method`} name="method" required defaultValue={v.method ?? "wire"} className={selectClass}>
            {OFFLINE_METHODS.map((m) => (
              <option key={m} value={m}>
                {PAYMENT_METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${prefix}-amount`} className={labelClass}>
            Amount received ($)
          </label>
          <Input id={`${prefix}-amount`} name="amount" required inputMode="decimal" autoComplete="off" defaultValue={v.amount ?? centsToInput(invoice.dueCents)} />
        </div>
        <div>
          <label htmlFor={`${prefix}-reference`} className={labelClass}>
            Reference (optional: the bank's or Zelle's, a check number)
          </label>
          <Input id={`${prefix}-reference`} name="reference" maxLength={120} autoComplete="off" defaultValue={v.reference ?? ""} />
        </div>
        <div>
          <label htmlFor={`${prefix}-date`} className={labelClass}>
            Received on
          </label>
          <Input id={`${prefix}-date`} name="receivedOn" type="date" required max={today} defaultValue={v.receivedOn ?? today} />
        </div>
      </div>
      <Refusal result={refused} id={`${prefix}-error`} />
      <Submit intent="record-payment">Record the payment</Submit>
    </Form>
  );
}

function PaymentItem({ payment, isAdmin, result }: { payment: FeePaymentView; isAdmin: boolean; result?: FeeActionResult }) {
  const refused = result?.intent === "refund-payment" && result.target === payment.id ? result : undefined;
  const prefix = `payment-${payment.id}`;
  return (
    <li className="rounded-lg border border-line bg-surface p-2 text-sm">
      <p>
        <span className="font-semibold">{formatUsd(payment.amountCents)}</span> · {PAYMENT_METHOD_LABELS[payment.method]} · {payment.receivedOn}
        {payment.reference ? ` · ${payment.reference}` : ""} · {PAYMENT_STATUS_LABELS[payment.status]}
        {payment.recordedBy ? ` · recorded by ${payment.recordedBy}` : payment.throughStripe ? " · through Stripe" : ""}
        {payment.excessCents > 0 ? <span className="font-semibold text-red-800">{` · ${formatUsd(payment.excessCents)} of it was not owed`}</span> : null}
      </p>
      {payment.refunds.length > 0 ? (
        <ul className="mt-1 space-y-1 pl-4" aria-label="Refunds">
          {payment.refunds.map((r) => (
            <li key={r.id}>
              Refund {formatUsd(r.amountCents)} · {REFUND_STATUS_LABELS[r.status]} · <LocalTime iso={r.confirmedAt ?? r.createdAt} />
              {r.requestedBy ? ` · by ${r.requestedBy}` : ""}
              {r.reason ? ` · ${r.reason}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {isAdmin && payment.refundableCents > 0 ? (
        <details open={refused !== undefined} className="mt-2">
          <summary className="cursor-pointer font-semibold text-primary-700">Refund</summary>
          <Form method="post" preventScrollReset className="mt-2 space-y-2" aria-label={`Refund the payment of ${formatUsd(payment.amountCents)}`}>
            <input type="hidden" name="intent" value="refund-payment" />
            <input type="hidden" name="paymentId" value={payment.id} />
            {payment.throughStripe ? <p>The refund is asked of Stripe; it shows as refunded once Stripe confirms it.</p> : <p>Record a refund you made outside Stripe (wire, Zelle, check or cash back).</p>}
            <div className="grid gap-2 sm:grid-cols-2">
              <div>
                <label htmlFor={`${prefix}-amount`} className={labelClass}>
                  Amount to refund ($, up to {formatUsd(payment.refundableCents)})
                </label>
                <Input id={`${prefix}-amount`} name="amount" required inputMode="decimal" autoComplete="off" defaultValue={refused?.values?.amount ?? centsToInput(payment.refundableCents)} />
              </div>
              <div>
                <label htmlFor={`${prefix}-reason`} className={labelClass}>
                  Reason (optional)
                </label>
                <Input id={`${prefix}-reason`} name="reason" maxLength={120} defaultValue={refused?.values?.reason ?? ""} />
              </div>
            </div>
            <Refusal result={refused} id={`${prefix}-error`} />
            <Submit intent="refund-payment" variant="secondary">
              Refund
            </Submit>
          </Form>
        </details>
      ) : null}
    </li>
  );
}
