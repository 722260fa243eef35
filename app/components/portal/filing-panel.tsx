import { CheckCircle2, ChevronDown } from "lucide-react";
import type { ReactNode } from "react";

/**
 * One part of the filing page: a card with its heading (the region's name). A part the client
 * has finished (`done`: its one-line summary) is folded into a closed disclosure that a click
 * opens, without JavaScript too; `open` shows it opened (an answer posted about it, say).
 */
export function FilingPanel({
  id,
  anchor,
  title,
  icon,
  done,
  open = false,
  children,
}: {
  /** The heading's id, which names the region. */
  id: string;
  /** The section's own id, for links to it ("#documents"). */
  anchor?: string;
  title: string;
  icon: ReactNode;
  done?: string | null;
  open?: boolean;
  children: ReactNode;
}) {
  const iconMark = (
    <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
      {icon}
    </span>
  );
  const heading = (
    <h2 id={id} className="text-xl font-semibold tracking-tight text-ink">
      {title}
    </h2>
  );
  return (
    <section
      id={anchor}
      aria-labelledby={id}
      className="scroll-mt-24 rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-6"
    >
      {done ? (
        <details className="group/panel" open={open || undefined}>
          <summary className="-m-2 flex min-h-11 cursor-pointer list-none items-center gap-3 rounded-xl p-2 hover:bg-surface [&::-webkit-details-marker]:hidden">
            {iconMark}
            <span className="min-w-0 flex-1">
              {heading}
              <span className="mt-0.5 flex items-start gap-1.5 text-sm text-ink-soft" data-testid="folded-summary">
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
                {done}
              </span>
            </span>
            <span className="hidden text-sm font-semibold text-primary-700 group-open/panel:hidden sm:inline">Show</span>
            <ChevronDown
              className="size-5 shrink-0 text-ink-muted transition-transform group-open/panel:rotate-180 motion-reduce:transition-none"
              aria-hidden="true"
            />
          </summary>
          <div className="mt-5">{children}</div>
        </details>
      ) : (
        <>
          <div className="mb-4 flex items-center gap-3">
            {iconMark}
            {heading}
          </div>
          {children}
        </>
      )}
    </section>
  );
}
