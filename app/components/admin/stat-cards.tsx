import { CircleCheck, FolderOpen, Hourglass, Users } from "lucide-react";
import type { AdminCounters } from "~/domain/admin";

export type StatCardsProps = {
  counters: AdminCounters;
  /** The tax year the counters are of (the panel shows one year at a time). */
  year?: number;
};

/** The four counters (docs/product/workflow.md#counters) for one tax year, as a description list of cards. */
export function StatCards({ counters, year }: StatCardsProps) {
  const cards = [
    { label: "Total Clients", value: counters.total, Icon: Users, tint: "bg-primary-50 text-primary-700" },
    { label: "Active Cases", value: counters.active, Icon: Hourglass, tint: "bg-sky-50 text-sky-800" },
    {
      label: "Pending Documents",
      value: counters.pendingDocuments,
      Icon: FolderOpen,
      tint: "bg-amber-50 text-amber-800",
    },
    {
      label: "Completed",
      value: counters.completed,
      Icon: CircleCheck,
      tint: "bg-emerald-50 text-emerald-800",
    },
  ] as const;

  return (
    <section aria-labelledby="stat-cards-title">
      <h2 id="stat-cards-title" className="sr-only">
        {year === undefined ? "Clients in numbers" : `Tax year ${year} in numbers`}
      </h2>
      <dl className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 xl:grid-cols-4">
        {cards.map(({ label, value, Icon, tint }) => (
          // A <dl>'s groups hold only <dt> and <dd>: the icon sits in the <dt>, placed beside both.
          <div
            key={label}
            className="relative flex min-h-21 flex-col justify-center rounded-[var(--radius-card)] border border-line bg-white py-5 pr-5 pl-21 shadow-card"
          >
            <dt className="text-sm font-medium text-ink-muted">
              <span
                className={`absolute top-1/2 left-5 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-xl ${tint}`}
              >
                <Icon className="size-5" aria-hidden="true" />
              </span>
              {label}
            </dt>
            <dd className="mt-0.5 text-2xl leading-tight font-bold text-ink tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
