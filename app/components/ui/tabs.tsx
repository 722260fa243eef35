import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ComponentProps } from "react";

/**
 * Radix Tabs with the site's look (arrow keys, Home and End move between tabs).
 *
 * Every panel is always rendered (forceMount), so the server HTML holds the whole content:
 * - with JavaScript, inactive panels get `display: none` and are hidden from users and from
 *   assistive technology;
 * - without JavaScript, the <noscript> style hides the tab list and shows every panel, one after
 *   the other, so the page reads top to bottom. Give each panel its own heading for that case.
 */
export function Tabs({ className = "", children, ...props }: ComponentProps<typeof TabsPrimitive.Root>) {
  return (
    <TabsPrimitive.Root data-tabs="" className={className} {...props}>
      <noscript>
        <style>{`[data-tabs] [role="tablist"]{display:none!important}[data-tabs] [role="tabpanel"]{display:block!important}`}</style>
      </noscript>
      {children}
    </TabsPrimitive.Root>
  );
}

export function TabsList({ className = "", ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={`grid grid-cols-2 gap-1 rounded-xl border border-line bg-surface p-1 sm:inline-grid sm:auto-cols-fr sm:grid-flow-col sm:grid-cols-none ${className}`}
      {...props}
    />
  );
}

export function TabsTrigger({ className = "", ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={`rounded-lg px-4 py-2.5 text-sm font-semibold whitespace-nowrap text-ink-soft transition-colors hover:bg-white/70 hover:text-ink data-[state=active]:bg-white data-[state=active]:text-primary-700 data-[state=active]:shadow-card sm:px-6 ${className}`}
      {...props}
    />
  );
}

type TabsContentProps = Omit<ComponentProps<typeof TabsPrimitive.Content>, "forceMount">;

export function TabsContent({ className = "", ...props }: TabsContentProps) {
  return (
    <TabsPrimitive.Content
      forceMount
      className={`rounded-lg data-[state=inactive]:hidden ${className}`}
      {...props}
    />
  );
}
