import { LockKeyhole, Receipt } from "lucide-react";
import { Form } from "react-router";
import { CaseSection } from "~/components/admin/case/case-section";
import { Alert, Input } from "~/components/ui/field";
import type { CaseFeesData } from "~/domain/fee-section";
import type { FeeActionResult } from "./fee-form-parts";
import { labelClass, Refusal, Submit } from "./fee-form-parts";
import { InvoiceCard } from "./invoice-card";
import { InvoiceEditor } from "./invoice-editor";

export type { FeeActionResult } from "./fee-form-parts";

/**
 * The case's fee, for staff (docs/product/fees.md): its invoices (number, state, total, paid,
 * due, due date) with what can be done with each, a new invoice built from the price list, and
 * whether the case's final copies wait for payment. Every form is a plain POST with its
 * `intent`; a refusal is shown beside its form.
 */
export function FeeSection({
  fees,
  done,
  isAdmin,
  today,
  defaultDueOn,
  result,
  clientId,
}: {
  /** The case's client: the invoices' PDF addresses. */
  clientId: string;
  fees: CaseFeesData;
  done: string | null;
  isAdmin: boolean;
  today: string;
  defaultDueOn: string;
  result?: FeeActionResult;
}) {
  const created = result?.intent === "create-invoice" ? result : undefined;
  return (
    <div className="space-y-6">
      {done ? <Alert tone="success">{done}</Alert> : null}
      {result?.intent === "unknown" || (result && !result.target && result.intent !== "create-invoice" && result.intent !== "final-copies-override") ? (
        <Alert tone="error">{result.message}</Alert>
      ) : null}
      <CaseSection id="fee-invoices" title="Invoices" icon={<Receipt className="size-5" aria-hidden="true" />} lead="The client sees an invoice once it is sent, and pays it by card, wire transfer or Zelle.">
        {fees.invoices.length === 0 ? (
          <p className="text-ink-soft">No invoice yet.</p>
        ) : (
          <ol className="space-y-3" aria-label="Invoices of this case">
            {fees.invoices.map((invoice) => (
              <InvoiceCard key={cardKey(invoice)} clientId={clientId} invoice={invoice} isAdmin={isAdmin} today={today} result={result} />
            ))}
          </ol>
        )}
        <details open={created !== undefined || fees.invoices.length === 0} className="mt-5 rounded-xl border border-line p-4">
          <summary className="cursor-pointer font-semibold text-ink">New invoice</summary>
          <div className="mt-3">
            <InvoiceEditor
              key={fees.invoices.length}
              idPrefix="new-invoice"
              intent="create-invoice"
              today={today}
              initial={{ lines: [], discountCents: "", notes: "", dueOn: defaultDueOn }}
              refused={created}
            />
          </div>
        </details>
      </CaseSection>
      <FinalCopiesPanel fees={fees} result={result?.intent === "final-copies-override" ? result : undefined} />
    </div>
  );
}

/**
 * An invoice card's key: its id and what a form of it changes. After a payment, refund, void or
 * sending is recorded the card starts afresh, its forms folded and holding the new amounts, so
 * that a payment form left open does not offer the amount just recorded a second time.
 */
function cardKey(invoice: CaseFeesData["invoices"][number]): string {
  const refunds = invoice.payments.reduce((n, p) => n + p.refunds.length, 0);
  return `${invoice.id}:${invoice.status}:${invoice.paidCents}:${invoice.payments.length}:${refunds}`;
}

function FinalCopiesPanel({ fees, result }: { fees: CaseFeesData; result?: FeeActionResult }) {
  const { gate } = fees;
  const state = !gate.waitForPayment
    ? "The firm's setting is off: final copies do not wait for payment."
    : gate.releasedBeforePayment
      ? "This case's final copies are released before payment."
      : gate.locked
        ? "Locked: the client sees the final copies as available once the fee is paid."
        : "Not locked now: no invoice of this case is waiting for payment.";
  return (
    <CaseSection
      id="fee-final-copies"
      title="Final copies wait for payment"
      icon={<LockKeyhole className="size-5" aria-hidden="true" />}
      lead="While an invoice of the case is sent and not paid in full, the client cannot download the final copies, unless the case is released before payment."
    >
      <p className="font-medium text-ink">{state}</p>
      <Form method="post" preventScrollReset className="mt-4 space-y-3" aria-label={gate.releasedBeforePayment ? "Make the final copies wait for payment again" : "Release final copies before payment"}>
        <input type="hidden" name="intent" value="final-copies-override" />
        <input type="hidden" name="release" value={gate.releasedBeforePayment ? "off" : "on"} />
        <div>
          <label htmlFor="override-reason" className={labelClass}>
            {gate.releasedBeforePayment ? "Reason (optional)" : "Reason for releasing before payment"}
          </label>
          <Input id="override-reason" name="reason" maxLength={500} required={!gate.releasedBeforePayment} defaultValue={result?.values?.reason ?? ""} />
        </div>
        <Refusal result={result} id="override-error" />
        <Submit intent="final-copies-override" variant="secondary">
          {gate.releasedBeforePayment ? "Make them wait for payment again" : "Release final copies before payment"}
        </Submit>
      </Form>
    </CaseSection>
  );
}
