import type { ReactNode } from "react";
import { Alert, inputClass } from "~/components/ui/field";
import type { FeeIntent, InvoiceInput } from "~/domain/fee-section";
import type { InvoiceStatus } from "~/domain/fees";
import { INVOICE_STATUS_LABELS } from "~/domain/fees";
import { IntentSubmit } from "~/components/admin/case/intent-submit";

/** A refused form of the Fee section: its message, the invoice or payment it was about, and what was typed, shown again. */
export type FeeActionResult = {
  intent: FeeIntent | "unknown";
  ok: false;
  message: string;
  /** The invoice (or, for a refund, the payment) the form was about. */
  target?: string;
  values?: Record<string, string>;
  /** The invoice form as it was sent. */
  invoice?: InvoiceInput;
};

export const selectClass = `${inputClass} border-line`;
export const labelClass = "mb-1.5 block text-sm font-medium text-ink";

export function Refusal({ result, id }: { result?: FeeActionResult; id: string }) {
  return result ? (
    <div id={id}>
      <Alert tone="error">{result.message}</Alert>
    </div>
  ) : null;
}

/** A submit button that shows it is busy while its own form (its intent, and `value` of `name` when given) is being sent. */
export function Submit(props: { intent: FeeIntent; children: ReactNode; variant?: "primary" | "secondary" | "ghost"; name?: string; value?: string }) {
  return <IntentSubmit {...props} />;
}

const BADGE: Record<InvoiceStatus, string> = {
  draft: "bg-surface text-ink-muted ring-1 ring-line",
  sent: "bg-primary-50 text-primary-700",
  "partly-paid": "bg-accent-50 text-accent-700",
  paid: "bg-green-50 text-green-800",
  void: "bg-surface text-ink-muted line-through ring-1 ring-line",
};

export function StatusBadge({ status }: { status: InvoiceStatus }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[status]}`}>{INVOICE_STATUS_LABELS[status]}</span>;
}
