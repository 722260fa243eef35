/**
 * The contract between the public pages' markup and the enhancement module: every widget name,
 * data attribute and element id that a binder in app/enhance looks for is named here, once.
 * Components render them with `widget()`, `part()` and `attr()`; binders find them with `sel()`
 * and read them with `read()`. Both sides name the same constant, so renaming or removing one
 * fails the type check instead of silently breaking a widget in the browser.
 *
 * Plain constants and functions with no imports: the enhancement module bundles only the names
 * it uses.
 */

/** A data attribute, as written in the markup. */
export type DataAttr = `data-${string}`;

/** Set on `<html>` once the page's widgets are bound (the browser tests wait for it). */
export const HYDRATED = "data-hydrated";

/** The attribute that names a widget; each widget has one binder in app/enhance/index.ts. */
export const ENHANCE = "data-enhance";

export type Widget =
  "header" | "carousel" | "pay-button" | "accordion" | "tabs" | "contact-form" | "dialog" | "residency";

/**
 * State classes and state-dependent parts, shared by every widget: an element's `data-on` classes
 * apply in the "on" state, its `data-off` classes otherwise; `data-when="<state>"` parts show
 * only in that state.
 */
export const STATE = { on: "data-on", off: "data-off", when: "data-when" } as const;

/** The states `data-when` parts are shown in: a carousel, a menu, a button that waits for an answer. */
export type CarouselState = "playing" | "paused";
export type MenuState = "open" | "closed";
export type BusyState = "busy" | "idle";
export type WhenState = CarouselState | MenuState | BusyState;

/** A form's submit button with its busy state (app/components/ui/submit-button.tsx). */
export const SUBMIT = { button: "data-submit", label: "data-label", busyLabel: "data-busy-label" } as const;

export const HEADER = {
  scrolled: "data-scrolled",
  servicesMenu: "data-services-menu",
  userMenu: "data-user-menu",
  menuButton: "data-menu-button",
  menuPanel: "data-menu-panel",
  mobileToggle: "data-mobile-toggle",
  label: "data-label",
  labelOpen: "data-label-open",
  labelClosed: "data-label-closed",
} as const;

export const CAROUSEL = {
  interval: "data-interval",
  pauseOnHover: "data-pause-on-hover",
  slideAnimation: "data-slide-animation",
  controls: "data-carousel-controls",
  toggle: "data-carousel-toggle",
  labelPause: "data-label-pause",
  labelPlay: "data-label-play",
  prev: "data-carousel-prev",
  next: "data-carousel-next",
  dot: "data-carousel-dot",
  counter: "data-carousel-counter",
  progress: "data-carousel-progress",
  slides: "data-carousel-slides",
  slide: "data-carousel-slide",
  tint: "data-tint",
  image: "data-hero-image",
  imageShade: "data-hero-image-shade",
  imageFallback: "data-hero-image-fallback",
} as const;

export const PAYMENT = {
  busyLabel: "data-busy-label",
  failureMessage: "data-failure-message",
  label: "data-label",
  status: "data-pay-status",
} as const;

export const ACCORDION = {
  item: "data-accordion-item",
  trigger: "data-accordion-trigger",
  panel: "data-accordion-panel",
  state: "data-state",
} as const;

export const TABS = {
  root: "data-tabs",
  idPrefix: "data-id-prefix",
  tab: "data-tab",
  panel: "data-tab-panel",
  state: "data-state",
} as const;

export const CONTACT = { counter: "data-counter", max: "data-max" } as const;

export const DIALOG = { autoClose: "data-auto-close" } as const;

export const RESIDENCY = {
  sendFailed: "data-send-failed",
  sendError: "data-send-error",
  answerFocus: "data-answer-focus",
  yearOffset: "data-year-offset",
  errorSummary: "data-error-summary",
  field: "data-field",
} as const;

/** Element ids the binders look up. */
export const IDS = {
  main: "main",
  contactBanner: "contact-banner",
  contactFormError: "contact-form-error",
} as const;

/** The id of a form control's error message (app/components/ui/field.tsx). */
export const errorId = (controlId: string) => `${controlId}-error`;

/** The id of a form control's hint (app/components/ui/field.tsx). */
export const hintId = (controlId: string) => `${controlId}-hint`;

/** The id of the residency calculator's control named `name` (its first radio for a choice). */
export const residencyId = (name: string) => `residency-${name}`;

/** The id of the residency calculator's message for the answer named `name`. */
export const residencyErrorId = (name: string) => errorId(residencyId(name));

/** `data-enhance="<name>"`, for a widget's root element. */
export function widget(name: Widget): { [ENHANCE]: Widget } {
  return { [ENHANCE]: name };
}

/** Marks an element as a part of a widget: `{...part(CAROUSEL.slide)}` renders `data-carousel-slide=""`. */
export function part<N extends DataAttr>(name: N): Record<N, ""> {
  return { [name]: "" } as Record<N, "">;
}

/** A data attribute with a value: `{...attr(CAROUSEL.interval, 5000)}`. */
export function attr<N extends DataAttr>(name: N, value: string | number): Record<N, string> {
  return { [name]: String(value) } as Record<N, string>;
}

/** The selector of the elements carrying `name` (`[data-carousel-slide]`), or `name="value"`. */
export function sel(name: DataAttr, value?: string): string {
  return value === undefined ? `[${name}]` : `[${name}="${value}"]`;
}

/** The selector of a widget's root: `[data-enhance="carousel"]`. */
export const widgetSel = (name: Widget) => sel(ENHANCE, name);

/** A data attribute's value, or undefined when the element does not carry it. */
export function read(el: Element, name: DataAttr): string | undefined {
  return el.getAttribute(name) ?? undefined;
}
