import { read, sel, TABS } from "./contract";
import { all, Listeners } from "./dom";

/**
 * Tabs bound to server-rendered markup (app/components/ui/tabs.tsx): `[role=tab]` buttons
 * with `data-tab="<value>"`, `[role=tabpanel]` with `data-tab-panel="<value>"`.
 * A click, or the arrow keys (wrapping), Home and End select a tab (automatic activation,
 * one tab stop). An address fragment "#<value>" or "#<prefix>-<value>" selects that tab, on
 * load and when it changes; in-page links to such fragments select the tab before the browser
 * scrolls to it.
 */
export function bindTabs(root: HTMLElement): () => void {
  const tabs = all<HTMLButtonElement>(root, `[role="tab"]${sel(TABS.tab)}`);
  const panels = all(root, `[role="tabpanel"]${sel(TABS.panel)}`);
  const prefix = read(root, TABS.idPrefix) ?? "";
  const values = tabs.map((tab) => read(tab, TABS.tab) ?? "");
  const listeners = new Listeners();

  function select(value: string) {
    for (const tab of tabs) {
      const on = read(tab, TABS.tab) === value;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      tab.setAttribute(TABS.state, on ? "active" : "inactive");
    }
    for (const panel of panels) panel.setAttribute(TABS.state, read(panel, TABS.panel) === value ? "active" : "inactive");
  }

  function valueFromHash(hash: string): string | undefined {
    let key = decodeURIComponent(hash.replace(/^#/, ""));
    if (prefix && key.startsWith(`${prefix}-`)) key = key.slice(prefix.length + 1);
    return values.find((v) => v === key);
  }

  tabs.forEach((tab, i) => {
    listeners.on(tab, "click", () => select(values[i] ?? ""));
    listeners.on(tab, "keydown", (event) => {
      let next: number | undefined;
      if (event.key === "ArrowRight") next = (i + 1) % tabs.length;
      else if (event.key === "ArrowLeft") next = (i - 1 + tabs.length) % tabs.length;
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = tabs.length - 1;
      if (next === undefined) return;
      event.preventDefault();
      tabs[next]?.focus();
      select(values[next] ?? "");
    });
  });

  // Links to a panel's heading ("See pricing") open that tab; the browser then scrolls to it.
  listeners.on(root, "click", (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="#"]') : null;
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    const value = valueFromHash(link.hash);
    if (value) select(value);
  });

  const sync = () => {
    const value = valueFromHash(window.location.hash);
    if (value) select(value);
  };
  sync();
  listeners.onWindow("hashchange", sync);

  return () => listeners.removeAll();
}
