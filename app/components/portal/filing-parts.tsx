import { CheckCircle2, CircleDashed } from "lucide-react";
import type { ReactNode } from "react";
import type { FilingView } from "~/domain/portal";
import type { FilingStatus } from "~/domain/taxpayer";

export const NOT_AVAILABLE = "N/A";

/** A filing's title: the full name, or a neutral fallback. */
export function filingTitle(filing: FilingView): string {
  return filing.fullName.trim() || "Filing details";
}

/** A value as shown to the client: N/A when empty. */
export function displayValue(value: string | null | undefined): string {
  const text = (value ?? "").trim();
  return text === "" ? NOT_AVAILABLE : text;
}

/** Submitted (green) or Incomplete (amber); the word and an icon carry the meaning, not the colour alone. */
export function FilingStatusBadge({ status }: { status: FilingStatus }) {
  const submitted = status === "Submitted";
  const Icon = submitted ? CheckCircle2 : CircleDashed;
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-semibold ${
        submitted
          ? "border-green-200 bg-green-50 text-green-800"
          : "border-accent-100 bg-accent-50 text-accent-700"
      }`}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {status}
    </span>
  );
}

/**
 * A masked SSN as the server sent it (only the last 4 visible). Screen readers hear
 * "ending in 1234" instead of a string of asterisks.
 */
export function MaskedSsn({ value }: { value: string }) {
  const last4 = /(\d{4})$/.exec(value)?.[1];
  if (!last4) return <>{displayValue(value)}</>;
  return (
    <>
      <span aria-hidden="true" className="tabular-nums">
        {value}
      </span>
      <span className="sr-only">ending in {last4}</span>
    </>
  );
}

/** One term and its value inside a <dl>. */
export function DetailRow({
  label,
  children,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`min-w-0 ${wide ? "@sm:col-span-2" : ""}`}>
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-ink">{children}</dd>
    </div>
  );
}
