import type { ReactNode } from "react";

/** One part of the case page: a card with a heading (its landmark's name) and optional actions beside it. */
export function CaseSection({
  id,
  title,
  icon,
  lead,
  actions,
  children,
}: {
  id: string;
  title: string;
  icon: ReactNode;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-title`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
            {icon}
          </span>
          <div className="min-w-0">
            <h2 id={headingId} className="text-lg font-semibold tracking-tight text-ink">
              {title}
            </h2>
            {lead ? <div className="mt-0.5 text-sm text-ink-muted">{lead}</div> : null}
          </div>
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}
