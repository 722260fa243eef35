import { ACCORDION, read, sel } from "./contract";
import { all, Listeners } from "./dom";

/**
 * A single-open, collapsible accordion bound to server-rendered markup (see
 * app/components/ui/accordion.tsx): `[data-accordion-item]` (id = the item's value) holding
 * a `[data-accordion-trigger]` button and its `[data-accordion-panel]`.
 * Clicking a header (or Enter/Space on it) opens its item and closes the others; clicking
 * the open item closes it. Arrow keys, Home and End move between headers. An address
 * fragment naming an item (/services#fica-refund) opens it, on load and when it changes.
 */
export function bindAccordion(root: HTMLElement): () => void {
  const items = all(root, sel(ACCORDION.item));
  const triggers = items.map((item) => item.querySelector<HTMLButtonElement>(sel(ACCORDION.trigger)));
  const listeners = new Listeners();

  function setOpen(value: string | null) {
    for (const item of items) {
      const open = item.id === value;
      const state = open ? "open" : "closed";
      item.setAttribute(ACCORDION.state, state);
      const trigger = item.querySelector<HTMLElement>(sel(ACCORDION.trigger));
      trigger?.setAttribute("aria-expanded", String(open));
      trigger?.setAttribute(ACCORDION.state, state);
      const panel = item.querySelector<HTMLElement>(sel(ACCORDION.panel));
      if (panel) panel.hidden = !open;
    }
  }

  items.forEach((item, i) => {
    const trigger = triggers[i];
    if (!trigger) return;
    listeners.on(trigger, "click", () => setOpen(read(item, ACCORDION.state) === "open" ? null : item.id));
    listeners.on(trigger, "keydown", (event) => {
      const buttons = triggers.filter((t): t is HTMLButtonElement => t !== null);
      const at = buttons.indexOf(trigger);
      let next: number | undefined;
      if (event.key === "ArrowDown") next = (at + 1) % buttons.length;
      else if (event.key === "ArrowUp") next = (at - 1 + buttons.length) % buttons.length;
      else if (event.key === "Home") next = 0;
      else if (event.key === "End") next = buttons.length - 1;
      if (next === undefined) return;
      event.preventDefault();
      buttons[next]?.focus();
    });
  });

  function openFromHash() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (items.some((item) => item.id === id)) setOpen(id);
  }
  openFromHash();
  listeners.onWindow("hashchange", openFromHash);

  return () => listeners.removeAll();
}
