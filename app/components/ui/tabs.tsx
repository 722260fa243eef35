import type { ComponentProps, ReactNode } from "react";
import { useEnhancement } from "~/components/use-enhancement";
import { attr, part, sel, TABS, widget } from "~/enhance/contract";
import { bindTabs } from "~/enhance/tabs";

/**
 * Tabs (WAI-ARIA APG, automatic activation) rendered in their initial state; the behaviour
 * (click, arrow keys, Home and End, a tab named in the address) is app/enhance/tabs.ts.
 *
 * Every panel is in the server HTML:
 * - with JavaScript, inactive panels have `display: none` and are hidden from users and from
 *   assistive technology;
 * - without JavaScript, the <noscript> style hides the tab list and shows every panel, one after
 *   the other, so the page reads top to bottom. Give each panel its own heading for that case.
 */
export function Tabs({
  idPrefix,
  className = "",
  children,
}: {
  /** Prefix of the tab and panel ids (unique on the page). */
  idPrefix: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useEnhancement<HTMLDivElement>(bindTabs);
  return (
    <div ref={ref} {...widget("tabs")} {...part(TABS.root)} {...attr(TABS.idPrefix, idPrefix)} className={className}>
      <noscript>
        <style>{`${sel(TABS.root)} [role="tablist"]{display:none!important}${sel(TABS.root)} [role="tabpanel"]{display:block!important}`}</style>
      </noscript>
      {children}
    </div>
  );
}

export const tabId = (prefix: string, value: string) => `${prefix}-tab-${value}`;
export const tabPanelId = (prefix: string, value: string) => `${prefix}-panel-${value}`;

export function TabsList({ className = "", ...props }: ComponentProps<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={`grid grid-cols-2 gap-1 rounded-xl border border-line bg-surface p-1 sm:inline-grid sm:auto-cols-fr sm:grid-flow-col sm:grid-cols-none ${className}`}
      {...props}
    />
  );
}

type TriggerProps = { idPrefix: string; value: string; selected: boolean; children: ReactNode };

export function TabsTrigger({ idPrefix, value, selected, children }: TriggerProps) {
  return (
    <button
      type="button"
      role="tab"
      id={tabId(idPrefix, value)}
      aria-selected={selected}
      aria-controls={tabPanelId(idPrefix, value)}
      tabIndex={selected ? 0 : -1}
      {...attr(TABS.state, selected ? "active" : "inactive")}
      {...attr(TABS.tab, value)}
      className="rounded-lg px-4 py-2.5 text-sm font-semibold whitespace-nowrap text-ink-soft transition-colors hover:bg-white/70 hover:text-ink data-[state=active]:bg-white data-[state=active]:text-primary-700 data-[state=active]:shadow-card sm:px-6"
    >
      {children}
    </button>
  );
}

type ContentProps = { idPrefix: string; value: string; selected: boolean; className?: string; children: ReactNode };

export function TabsContent({ idPrefix, value, selected, className = "", children }: ContentProps) {
  return (
    <div
      role="tabpanel"
      id={tabPanelId(idPrefix, value)}
      aria-labelledby={tabId(idPrefix, value)}
      tabIndex={0}
      {...attr(TABS.state, selected ? "active" : "inactive")}
      {...attr(TABS.panel, value)}
      className={`rounded-lg data-[state=inactive]:hidden ${className}`}
    >
      {children}
    </div>
  );
}
