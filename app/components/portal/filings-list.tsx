import { CheckCircle2, Clock, FilePlus2, FileText } from "lucide-react";
import { useEffect, useState } from "react";
import type { ReactNode } from "react";
import { AwaitingCard, FilingCard, viewDetailsButtonId } from "./filing-card";
import { FilingDetailsModal } from "./filing-details-modal";
import { ButtonLink } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { filingCounters } from "~/domain/portal";
import type { AwaitingFiling, FilingEntry } from "~/domain/portal";

export type FilingsListProps = {
  /** The client's own filings whose taxpayer information was sent, newest first, SSNs already masked. */
  filings: FilingEntry[];
  /** The client's tax years whose taxpayer information is not sent yet, newest first. */
  awaitingInfo?: AwaitingFiling[];
  /** True while the list is being (re)loaded. */
  loading: boolean;
  /** Each tax year's messages from the firm the client has not read (years with none left out). */
  unreadMessages?: Readonly<Record<number, number>>;
  /** Each year's return step waiting for the client, if any ("Signature needed"). */
  returnWaiting?: Readonly<Record<number, string>>;
  /** Each year's fee still owed, in cents (years with nothing owed left out). */
  feeDue?: Readonly<Record<number, number>>;
};

type YearCard = { kind: "filing"; filing: FilingEntry } | { kind: "awaiting"; entry: AwaitingFiling };

/**
 * My Tax Filings: the three counters (of the filings sent), then the loading message, or the
 * empty state when nothing was sent yet, and one card per tax year, newest first: the filings
 * sent, and the years still waiting for their taxpayer information.
 */
export function FilingsList({ filings, awaitingInfo = [], loading, unreadMessages = {}, returnWaiting = {}, feeDue = {} }: FilingsListProps) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // The dialog leaves the page when closed, so focus is handed back to the button that opened it.
  const [returnFocusTo, setReturnFocusTo] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (returnFocusTo) document.getElementById(returnFocusTo.id)?.focus();
  }, [returnFocusTo]);
  const selected = filings.find((filing) => filing.id === selectedId) ?? null;
  const counters = filingCounters(filings);
  const cards: YearCard[] = [
    ...filings.map((filing): YearCard => ({ kind: "filing", filing })),
    ...awaitingInfo.map((entry): YearCard => ({ kind: "awaiting", entry })),
  ].sort((a, b) => yearOf(b) - yearOf(a));

  return (
    <div className="space-y-8">
      <section aria-label="Filing summary">
        {/* Side by side and small on a phone, so the first filing starts on the first screen. */}
        <dl className="grid grid-cols-3 gap-2 sm:gap-4">
          <Counter
            label="Total Filings"
            value={counters.total}
            loading={loading}
            tone="primary"
            icon={<FileText className="size-6" aria-hidden="true" />}
          />
          <Counter
            label="Completed"
            value={counters.completed}
            loading={loading}
            tone="green"
            icon={<CheckCircle2 className="size-6" aria-hidden="true" />}
          />
          <Counter
            label="In Progress"
            value={counters.inProgress}
            loading={loading}
            tone="amber"
            icon={<Clock className="size-6" aria-hidden="true" />}
          />
        </dl>
      </section>

      {loading ? (
        <div
          role="status"
          className="flex items-center justify-center gap-3 rounded-[var(--radius-card)] bg-white px-6 py-16 text-ink-soft shadow-card"
        >
          <Spinner className="size-6 text-primary-600" />
          <span>Loading your tax filings...</span>
        </div>
      ) : (
        <>
          {filings.length === 0 ? <EmptyState /> : null}
          {cards.length > 0 ? (
            <section aria-labelledby="filings-list-title" className="@container">
              <h2
                id="filings-list-title"
                className={filings.length === 0 ? "text-xl font-semibold tracking-tight text-ink" : "sr-only"}
              >
                {filings.length === 0 ? "Your tax years" : "Your filings"}
              </h2>
              <ul className={`grid gap-6 @3xl:grid-cols-2 ${filings.length === 0 ? "mt-4" : ""}`}>
                {cards.map((card) =>
                  card.kind === "filing" ? (
                    <li key={card.filing.taxYear}>
                      <FilingCard
                        filing={card.filing}
                        unreadMessages={unreadMessages[card.filing.taxYear] ?? 0}
                        waiting={returnWaiting[card.filing.taxYear]}
                        feeDueCents={feeDue[card.filing.taxYear]}
                        onViewDetails={() => setSelectedId(card.filing.id)}
                      />
                    </li>
                  ) : (
                    <li key={card.entry.taxYear}>
                      <AwaitingCard
                        entry={card.entry}
                        unreadMessages={unreadMessages[card.entry.taxYear] ?? 0}
                        waiting={returnWaiting[card.entry.taxYear]}
                        feeDueCents={feeDue[card.entry.taxYear]}
                      />
                    </li>
                  ),
                )}
              </ul>
            </section>
          ) : null}
        </>
      )}

      <FilingDetailsModal
        filing={selected}
        onClose={() => {
          if (selectedId) setReturnFocusTo({ id: viewDetailsButtonId(selectedId) });
          setSelectedId(null);
        }}
      />
    </div>
  );
}

function yearOf(card: YearCard): number {
  return card.kind === "filing" ? card.filing.taxYear : card.entry.taxYear;
}

const counterTones = {
  primary: "bg-primary-50 text-primary-700",
  green: "bg-green-50 text-green-700",
  amber: "bg-accent-50 text-accent-700",
} as const;

function Counter({
  label,
  value,
  loading,
  tone,
  icon,
}: {
  label: string;
  value: number;
  loading: boolean;
  tone: keyof typeof counterTones;
  icon: ReactNode;
}) {
  return (
    // Only <dt> and <dd> may sit in a <dl> group, so the icon lives in the <dt>, placed against the card.
    <div className="relative flex flex-col-reverse justify-center rounded-[var(--radius-card)] bg-white px-3 py-2.5 shadow-card sm:min-h-22 sm:py-5 sm:pr-5 sm:pl-21">
      <dt className="text-xs font-medium text-ink-muted sm:text-sm">
        <span
          className={`absolute top-1/2 left-5 hidden size-12 -translate-y-1/2 items-center justify-center rounded-full sm:inline-flex ${counterTones[tone]}`}
        >
          {icon}
        </span>
        {label}
      </dt>
      <dd className="text-2xl font-bold tracking-tight text-ink tabular-nums sm:text-3xl">
        {loading ? (
          <>
            <span aria-hidden="true">–</span>
            <span className="sr-only">Loading</span>
          </>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}

function EmptyState() {
  return (
    <section
      aria-labelledby="filings-empty-title"
      className="flex flex-col items-center rounded-[var(--radius-card)] bg-white px-6 py-14 text-center shadow-card"
    >
      <span className="inline-flex size-16 items-center justify-center rounded-full bg-primary-50 text-primary-700">
        <FilePlus2 className="size-8" aria-hidden="true" />
      </span>
      <h2 id="filings-empty-title" className="mt-5 text-2xl font-bold tracking-tight text-ink">
        No Tax Filings Yet
      </h2>
      <p className="mt-2 max-w-md text-ink-soft">
        You have not sent us your tax information yet. Fill in the taxpayer form and your filing will appear
        here.
      </p>
      <ButtonLink to="/dashboard" size="lg" className="mt-6">
        Submit Tax Information
      </ButtonLink>
    </section>
  );
}
