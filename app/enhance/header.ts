import { HEADER, read, sel } from "./contract";
import type { MenuState } from "./contract";
import { all, Listeners, one, setAttr, setOn, setOnDeep, showWhen, toggleClass } from "./dom";

/**
 * Scroll position past which the header takes its "scrolled" look
 * (docs/product/public-site.md#header-and-footer: 20 px).
 */
export const SCROLL_THRESHOLD = 20;

/** Classes that open the Services menu on hover and focus when no script runs. */
const CSS_ONLY_OPEN = ["group-focus-within:block", "group-hover:block"];

/**
 * The site header's behaviour, bound to its server-rendered markup
 * (app/components/layout/header.tsx, user-menu.tsx):
 * - the Services menu (`[data-services-menu]`) opens on hover and on keyboard focus, closes
 *   when the pointer or focus leaves and on Escape (focus returns to its button);
 * - the mobile menu toggle (`[data-mobile-toggle]`) shows and hides the mobile navigation;
 * - each user menu (`[data-user-menu]`) opens on click and closes on Escape or a click
 *   elsewhere; Sign Out inside it is a plain form POST;
 * - past 20 px of scrolling the header takes its scrolled look (`data-scrolled`).
 * Every menu starts closed when bound (the header is bound again after each client-side
 * navigation on signed-in pages).
 */
export function bindHeader(header: HTMLElement): () => void {
  const listeners = new Listeners();

  // Scrolled look.
  const onScroll = () => {
    const scrolled = window.scrollY > SCROLL_THRESHOLD;
    setAttr(header, HEADER.scrolled, String(scrolled));
    setOn(header, scrolled);
  };
  onScroll();
  listeners.onWindow("scroll", onScroll, { passive: true });

  // Services menu.
  for (const menu of all(header, sel(HEADER.servicesMenu))) {
    const button = one<HTMLButtonElement>(menu, sel(HEADER.menuButton));
    const panel = one(menu, sel(HEADER.menuPanel));
    if (!button || !panel) continue;
    panel.classList.remove(...CSS_ONLY_OPEN);
    let open = false;
    const setOpen = (value: boolean) => {
      open = value;
      setAttr(button, "aria-expanded", String(value));
      toggleClass(panel, "hidden", !value);
      toggleClass(panel, "block", value);
      setOnDeep(button, value);
    };
    setOpen(false);
    listeners.on(menu, "mouseenter", () => setOpen(true));
    listeners.on(menu, "mouseleave", () => setOpen(false));
    listeners.on(menu, "focusout", (event) => {
      if (!(event.relatedTarget instanceof Node) || !menu.contains(event.relatedTarget)) setOpen(false);
    });
    listeners.on(menu, "keydown", (event) => {
      if (event.key === "Escape" && open) {
        setOpen(false);
        button.focus();
      }
    });
    // A pointer has already opened it on hover: a click keeps it open; Enter or Space toggles.
    listeners.on(button, "click", (event) => setOpen(event.detail === 0 ? !open : true));
    listeners.on(button, "focus", () => setOpen(true));
  }

  // Mobile menu.
  const toggle = one<HTMLButtonElement>(header, sel(HEADER.mobileToggle));
  const mobile = toggle ? document.getElementById(toggle.getAttribute("aria-controls") ?? "") : null;
  if (toggle && mobile) {
    const label = one(toggle, sel(HEADER.label));
    const setOpen = (value: boolean) => {
      setAttr(toggle, "aria-expanded", String(value));
      toggleClass(mobile, "hidden", !value);
      toggleClass(mobile, "block", value);
      const state: MenuState = value ? "open" : "closed";
      showWhen(toggle, state);
      const text = (label ? read(label, value ? HEADER.labelOpen : HEADER.labelClosed) : undefined) ?? "";
      if (label && label.textContent !== text) label.textContent = text;
    };
    setOpen(false);
    listeners.on(toggle, "click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  }

  // User menus.
  for (const menu of all(header, sel(HEADER.userMenu))) {
    const button = one<HTMLButtonElement>(menu, sel(HEADER.menuButton));
    const panel = one(menu, sel(HEADER.menuPanel));
    if (!button || !panel) continue;
    const setOpen = (value: boolean) => {
      setAttr(button, "aria-expanded", String(value));
      if (panel.hidden === value) panel.hidden = !value;
    };
    setOpen(false);
    listeners.on(button, "click", () => setOpen(panel.hidden));
    listeners.on(menu, "keydown", (event) => {
      if (event.key === "Escape" && !panel.hidden) {
        setOpen(false);
        button.focus();
      }
    });
    listeners.onDocument("pointerdown", (event) => {
      if (!panel.hidden && !(event.target instanceof Node && menu.contains(event.target))) setOpen(false);
    });
  }

  return () => listeners.removeAll();
}
