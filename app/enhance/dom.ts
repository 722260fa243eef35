/**
 * Small DOM helpers shared by the enhancement binders. Binders find their parts through
 * data attributes rendered on the server (named in ./contract.ts); state classes live in the
 * markup as `data-on` / `data-off` class lists, so the look stays defined next to the markup.
 */
import { read, sel, STATE, SUBMIT } from "./contract";
import type { BusyState, WhenState } from "./contract";

/** Every element under `root` (and `root` itself) matching `selector`. */
export function all<T extends Element = HTMLElement>(root: ParentNode, selector: string): T[] {
  return Array.from(root.querySelectorAll<T>(selector) as unknown as Iterable<T>);
}

export function one<T extends Element = HTMLElement>(root: ParentNode, selector: string): T | null {
  return root.querySelector<T>(selector) as T | null;
}

function tokens(value: string | undefined): string[] {
  return value ? value.split(/\s+/).filter(Boolean) : [];
}

/** Applies the element's `data-on` classes when `on`, its `data-off` classes otherwise. */
export function setOn(el: HTMLElement | SVGElement, on: boolean): void {
  // Only touch the class list when it changes: every write costs a style recalculation.
  const onClasses = read(el, STATE.on);
  const offClasses = read(el, STATE.off);
  const add = tokens(on ? onClasses : offClasses).filter((c) => !el.classList.contains(c));
  const remove = tokens(on ? offClasses : onClasses).filter((c) => el.classList.contains(c));
  if (remove.length > 0) el.classList.remove(...remove);
  if (add.length > 0) el.classList.add(...add);
}

/** Adds or removes one class, touching the class list only when it changes. */
export function toggleClass(el: Element, name: string, on: boolean): void {
  if (el.classList.contains(name) !== on) el.classList.toggle(name, on);
}

/** Sets an attribute only when its value changes (null removes it). */
export function setAttr(el: Element, name: string, value: string | null): void {
  if (el.getAttribute(name) === value) return;
  if (value === null) el.removeAttribute(name);
  else el.setAttribute(name, value);
}

/** `setOn` for `el` and every element below it that declares state classes. */
export function setOnDeep(el: HTMLElement, on: boolean): void {
  if (el.hasAttribute(STATE.on) || el.hasAttribute(STATE.off)) setOn(el, on);
  for (const child of all<HTMLElement>(el, `${sel(STATE.on)},${sel(STATE.off)}`)) setOn(child, on);
}

/** Shows the elements marked `data-when="<state>"` for the given state and hides the others. */
export function showWhen(root: ParentNode, state: WhenState): void {
  for (const el of all<HTMLElement>(root, sel(STATE.when))) {
    const hidden = read(el, STATE.when) !== state;
    if (el.hidden !== hidden) el.hidden = hidden;
  }
}

type Listener<K extends keyof HTMLElementEventMap> = (event: HTMLElementEventMap[K]) => void;

/** Collects listeners so a binder can remove everything it added in one call. */
export class Listeners {
  private removers: (() => void)[] = [];

  on<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    listener: Listener<K>,
    options?: AddEventListenerOptions,
  ): void {
    target.addEventListener(type, listener, options);
    this.removers.push(() => target.removeEventListener(type, listener, options));
  }

  onWindow<K extends keyof WindowEventMap>(
    type: K,
    listener: (event: WindowEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void {
    window.addEventListener(type, listener, options);
    this.removers.push(() => window.removeEventListener(type, listener, options));
  }

  onDocument<K extends keyof DocumentEventMap>(type: K, listener: (event: DocumentEventMap[K]) => void): void {
    document.addEventListener(type, listener);
    this.removers.push(() => document.removeEventListener(type, listener));
  }

  add(remove: () => void): void {
    this.removers.push(remove);
  }

  removeAll(): void {
    for (const remove of this.removers.splice(0)) remove();
  }
}

/** Focus that came from the keyboard (a mouse click on a button is not :focus-visible). */
export function isKeyboardFocus(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  try {
    return target.matches(":focus-visible");
  } catch {
    return true;
  }
}

/** A binder enhances one server-rendered widget and returns a function that undoes the binding. */
export type Binder = (root: HTMLElement) => () => void;

/**
 * The busy state of a form's submit button (`button[data-submit]`): disabled, its label
 * (`[data-label]`) swapped for `data-busy-label`, and its `data-when="busy"` parts shown.
 */
export function submitButton(form: HTMLFormElement): (busy: boolean) => void {
  const submit = one<HTMLButtonElement>(form, `button${sel(SUBMIT.button)}`);
  const label = submit ? one(submit, sel(SUBMIT.label)) : null;
  const idle = label?.textContent ?? "";
  return (busy) => {
    if (!submit) return;
    submit.disabled = busy;
    if (label) label.textContent = busy ? (read(submit, SUBMIT.busyLabel) ?? idle) : idle;
    const state: BusyState = busy ? "busy" : "idle";
    showWhen(submit, state);
  };
}

/**
 * Posts a form with fetch and reads the answer, which is the same page rendered by the server:
 * the element of that page matching `selector` (to put in place of the current one) and the
 * whole page. Throws when the answer does not hold that element.
 */
export async function postForAnswer<T extends Element>(form: HTMLFormElement, selector: string): Promise<{ next: T; page: Document }> {
  const response = await fetch(form.action, { method: "POST", body: new FormData(form), headers: { Accept: "text/html" } });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const next = page.querySelector<T>(selector);
  if (!next) throw new Error(`unexpected answer (${response.status})`);
  return { next, page };
}
