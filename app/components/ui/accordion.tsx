/**
 * The accordion's markup (WAI-ARIA APG accordion), rendered in its initial state. Its
 * behaviour (one item open at a time, clicking the open item closes it, Enter/Space to
 * toggle, arrow keys, Home and End between headers) is app/enhance/accordion.ts; without
 * JavaScript the initially open item shows.
 */
import { ChevronDown } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { useEnhancement } from "~/components/use-enhancement";
import { bindAccordion } from "~/enhance/accordion";
import { ACCORDION, attr, part, widget } from "~/enhance/contract";

export function Accordion({ className = "", children }: { className?: string; children: ReactNode }) {
  const ref = useEnhancement<HTMLDivElement>(bindAccordion);
  return (
    <div ref={ref} {...widget("accordion")} className={className}>
      {children}
    </div>
  );
}

type ItemProps = ComponentProps<"div"> & {
  /** The item's key: its element id and the address fragment that opens it. */
  value: string;
  open: boolean;
};

export function AccordionItem({ value, open, className = "", ...props }: ItemProps) {
  return (
    <div
      id={value}
      {...part(ACCORDION.item)}
      {...attr(ACCORDION.state, open ? "open" : "closed")}
      className={`rounded-card border border-line bg-white shadow-card transition-colors data-[state=open]:border-primary-200 ${className}`}
      {...props}
    />
  );
}

type TriggerProps = {
  value: string;
  open: boolean;
  /** Shown at the right of the header, before the chevron (e.g. a price). */
  aside?: ReactNode;
  children: ReactNode;
};

const triggerId = (value: string) => `accordion-${value}-trigger`;
const panelId = (value: string) => `accordion-${value}-panel`;

/** The item's header: an h3 holding the toggle button. */
export function AccordionTrigger({ value, open, aside, children }: TriggerProps) {
  return (
    <h3 className="m-0">
      <button
        type="button"
        id={triggerId(value)}
        aria-controls={panelId(value)}
        aria-expanded={open}
        {...part(ACCORDION.trigger)}
        {...attr(ACCORDION.state, open ? "open" : "closed")}
        className="group flex w-full cursor-pointer items-center gap-3 rounded-card px-4 py-4 text-left hover:bg-surface focus-visible:bg-surface data-[state=open]:rounded-b-none sm:px-6 sm:py-5"
      >
        <span className="min-w-0 flex-1 text-base font-semibold text-ink sm:text-lg">{children}</span>
        {aside}
        <ChevronDown
          className="size-5 shrink-0 text-primary-700 transition-transform duration-200 group-data-[state=open]:rotate-180"
          aria-hidden="true"
        />
      </button>
    </h3>
  );
}

export function AccordionContent({
  value,
  open,
  className = "",
  children,
}: {
  value: string;
  open: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      id={panelId(value)}
      role="region"
      aria-labelledby={triggerId(value)}
      {...part(ACCORDION.panel)}
      hidden={!open}
    >
      <div className={`border-t border-line px-4 pt-4 pb-6 sm:px-6 ${className}`}>{children}</div>
    </div>
  );
}
