/**
 * A thin styled wrapper around @radix-ui/react-accordion. Radix supplies the behaviour
 * (one or many open, Enter/Space to toggle, arrow keys between headers, aria-expanded);
 * this file supplies the look.
 */
import * as AccordionPrimitive from "@radix-ui/react-accordion";
import { ChevronDown } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";

export const Accordion = AccordionPrimitive.Root;

export function AccordionItem({ className = "", ...props }: ComponentProps<typeof AccordionPrimitive.Item>) {
  return (
    <AccordionPrimitive.Item
      className={`rounded-card border border-line bg-white shadow-card transition-colors data-[state=open]:border-primary-200 ${className}`}
      {...props}
    />
  );
}

type AccordionTriggerProps = ComponentProps<typeof AccordionPrimitive.Trigger> & {
  /** Shown at the right of the header, before the chevron (e.g. a price). */
  aside?: ReactNode;
};

/** The item's header: an h3 holding the toggle button. */
export function AccordionTrigger({ className = "", children, aside, ...props }: AccordionTriggerProps) {
  return (
    <AccordionPrimitive.Header className="m-0">
      <AccordionPrimitive.Trigger
        className={`group flex w-full cursor-pointer items-center gap-3 rounded-card px-4 py-4 text-left sm:px-6 sm:py-5 hover:bg-surface focus-visible:bg-surface data-[state=open]:rounded-b-none ${className}`}
        {...props}
      >
        <span className="min-w-0 flex-1 text-base font-semibold text-ink sm:text-lg">{children}</span>
        {aside}
        <ChevronDown
          className="size-5 shrink-0 text-primary-700 transition-transform duration-200 group-data-[state=open]:rotate-180"
          aria-hidden="true"
        />
      </AccordionPrimitive.Trigger>
    </AccordionPrimitive.Header>
  );
}

export function AccordionContent({
  className = "",
  children,
  ...props
}: ComponentProps<typeof AccordionPrimitive.Content>) {
  return (
    <AccordionPrimitive.Content {...props}>
      <div className={`border-t border-line px-4 pt-4 pb-6 sm:px-6 ${className}`}>{children}</div>
    </AccordionPrimitive.Content>
  );
}
