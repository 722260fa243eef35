import { Download } from "lucide-react";
import { Form, Link } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { caseSectionPath } from "~/domain/case-sections";
import { formatUsd, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/domain/fees";
import { toRefundText } from "~/domain/fee-section";
import type { AgingSummary, InvoiceToRefund, MonthPayment, MonthRefund, OutstandingInvoice } from "~/domain/fee-section";
import { StatusBadge } from "./fee-form-parts";

const REFUND_STATUS_LABELS = { pending: "Pending", succeeded: "Refunded", failed: "Failed" } as const;

/**
 * The Payments page (docs/product/fees.md#who-may-do-what): money received that is not owed
 * (to give back), the invoices still owed by age (0-30, 31-60, over 60 days since they were
 * sent), this month's payments and refunds, the CSV for the books, and the firm's setting
 * "Final copies wait for payment".
 */
export function PaymentsPage({
  outstanding,
  month,
  toRefund,
  waitForPayment,
  answer,
}: {
  outstanding: { invoices: OutstandingInvoice[]; buckets: AgingSummary[] };
  month: { month: string; payments: MonthPayment[]; receivedCents: number; refunds: MonthRefund[]; refundedCents: number };
  toRefund: InvoiceToRefund[];
  waitForPayment: boolean;
  answer?: { ok: boolean; message: string };
}) {
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Payments</h1>
          <p className="mt-1 text-ink-soft">Invoices still owed, this month's payments, and the CSV for the books.</p>
        </div>
        <a href="/admin/payments.csv" download className={buttonClass("secondary", "md", "min-h-11 sm:min-h-0")}>
          <Download className="size-4" aria-hidden="true" />
          Download CSV
        </a>
      </div>
      {answer ? <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert> : null}

      {toRefund.length > 0 ? (
        <section aria-labelledby="to-refund-title" className="rounded-2xl border border-red-200 bg-red-50 p-4 shadow-sm sm:p-6">
          <h2 id="to-refund-title" className="text-lg font-semibold text-red-800">
            Money to give back
          </h2>
          <p className="mt-1 text-sm">A card page was paid after the invoice stopped owing it. Refund it from the case's Fee section.</p>
          <ul className="mt-3 space-y-2" aria-label="Invoices that received money they do not owe">
            {toRefund.map((i) => (
              <li key={i.id} className="rounded-xl border border-red-200 bg-white p-3 text-sm">
                <Link to={caseSectionPath(i.clientId, i.taxYear, "fee")} className="font-semibold text-primary-700 underline">
                  {i.number}
                </Link>{" "}
                <StatusBadge status={i.status} /> · {i.clientName} · {i.taxYear}: <span className="font-semibold">{toRefundText(i)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="outstanding-title" className="rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 id="outstanding-title" className="text-lg font-semibold text-ink">
          Outstanding invoices
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-3" aria-label="By age">
          {outstanding.buckets.map((b) => (
            <li key={b.key} className="rounded-xl border border-line bg-surface p-3">
              <p className="text-sm text-ink-muted">{b.label}</p>
              <p className="text-xl font-bold tabular-nums text-ink">{formatUsd(b.dueCents)}</p>
              <p className="text-sm">{b.count === 1 ? "1 invoice" : `${b.count} invoices`}</p>
            </li>
          ))}
        </ul>
        {outstanding.invoices.length === 0 ? (
          <p className="mt-4 text-ink-soft">Nothing is owed.</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Outstanding invoices, oldest first</caption>
              <thead className="text-xs text-ink-muted">
                <tr>
                  <th scope="col" className="py-2 font-medium">Invoice</th>
                  <th scope="col" className="py-2 font-medium">Client</th>
                  <th scope="col" className="py-2 font-medium">Tax year</th>
                  <th scope="col" className="py-2 font-medium">Sent</th>
                  <th scope="col" className="py-2 font-medium">Due date</th>
                  <th scope="col" className="py-2 text-right font-medium">Amount due</th>
                </tr>
              </thead>
              <tbody>
                {outstanding.invoices.map((i) => (
                  <tr key={i.id} className="border-t border-line">
                    <td className="py-2">
                      <Link to={caseSectionPath(i.clientId, i.taxYear, "fee")} className="font-semibold text-primary-700 underline">
                        {i.number}
                      </Link>{" "}
                      <StatusBadge status={i.status} />
                    </td>
                    <td className="py-2">{i.clientName}</td>
                    <td className="py-2">{i.taxYear}</td>
                    <td className="py-2">
                      {i.sentOn} ({i.days === 1 ? "1 day" : `${i.days} days`})
                    </td>
                    <td className="py-2">{i.dueOn}</td>
                    <td className="py-2 text-right tabular-nums">{formatUsd(i.dueCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="month-title" className="rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 id="month-title" className="text-lg font-semibold text-ink">
          Payments in {month.month}
        </h2>
        <p className="mt-1 text-sm">
          Received: <span className="font-semibold tabular-nums">{formatUsd(month.receivedCents)}</span>
          {month.refundedCents > 0 ? (
            <>
              {" "}
              · refunded: <span className="font-semibold tabular-nums">{formatUsd(month.refundedCents)}</span> · net:{" "}
              <span className="font-semibold tabular-nums">{formatUsd(month.receivedCents - month.refundedCents)}</span>
            </>
          ) : null}
        </p>
        {month.payments.length === 0 && month.refunds.length === 0 ? (
          <p className="mt-3 text-ink-soft">No payment this month yet.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Payments and refunds this month, newest first</caption>
              <thead className="text-xs text-ink-muted">
                <tr>
                  <th scope="col" className="py-2 font-medium">Date</th>
                  <th scope="col" className="py-2 font-medium">Invoice</th>
                  <th scope="col" className="py-2 font-medium">Client</th>
                  <th scope="col" className="py-2 font-medium">Method</th>
                  <th scope="col" className="py-2 font-medium">Reference</th>
                  <th scope="col" className="py-2 font-medium">Status</th>
                  <th scope="col" className="py-2 text-right font-medium">Amount</th>
                </tr>
              </thead>
              <tbody>
                {month.payments.map((p) => (
                  <tr key={p.id} className="border-t border-line">
                    <td className="py-2">{p.receivedOn}</td>
                    <td className="py-2">{p.number}</td>
                    <td className="py-2">{p.clientName}</td>
                    <td className="py-2">{p.methodLabel}</td>
                    <td className="py-2 break-words">{p.reference}</td>
                    <td className="py-2">
                      {PAYMENT_STATUS_LABELS[p.status]}
                      {p.excessCents > 0 ? <span className="block font-semibold text-red-800">{`${formatUsd(p.excessCents)} of it not owed`}</span> : null}
                    </td>
                    <td className="py-2 text-right tabular-nums">{formatUsd(p.amountCents)}</td>
                  </tr>
                ))}
                {month.refunds.map((r) => (
                  <tr key={r.id} className="border-t border-line">
                    <td className="py-2">{r.on}</td>
                    <td className="py-2">{r.number}</td>
                    <td className="py-2">{r.clientName}</td>
                    <td className="py-2">Refund ({PAYMENT_METHOD_LABELS[r.method]})</td>
                    <td className="py-2" />
                    <td className="py-2">{REFUND_STATUS_LABELS[r.status]}</td>
                    <td className="py-2 text-right tabular-nums">{formatUsd(-r.amountCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="gate-title" className="rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 id="gate-title" className="text-lg font-semibold text-ink">
          Final copies wait for payment
        </h2>
        <p className="mt-1 text-sm">
          {waitForPayment
            ? "On: while a case's invoice is sent and not paid in full, its client cannot download the final copies (a case's Fee section can release them before payment)."
            : "Off: clients download their final copies whether or not the fee is paid."}
        </p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="final-copies-gate" />
          <input type="hidden" name="waitForPayment" value={waitForPayment ? "off" : "on"} />
          <Button type="submit" variant="secondary" className="min-h-11 sm:min-h-0">
            {waitForPayment ? "Turn off: release final copies without payment" : "Turn on: final copies wait for payment"}
          </Button>
        </Form>
      </section>
    </div>
  );
}
