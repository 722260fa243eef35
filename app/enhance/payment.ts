import { PAYMENT, read, sel } from "./contract";
import type { BusyState } from "./contract";
import { Listeners, one, showWhen } from "./dom";

/**
 * The payment offer's button (docs/product/public-site.md#payment-offer). Without JavaScript its
 * form goes to /pay, which sends the visitor on (routes/marketing/pay.ts). With it, the button
 * reads PROCESSING... while /pay is asked where to go (as JSON), then the page goes there; when
 * the server cannot be reached it alerts the failure text and is ready again. The button keeps
 * keyboard focus while busy (aria-disabled rather than disabled).
 *
 * Markup: `form[data-enhance="pay-button"]` with `data-busy-label` and `data-failure-message`;
 * inside it the submit button with `[data-label]` and parts shown per state with
 * `data-when="idle|busy"`, and `[data-pay-status]` (a status region).
 */
export function bindPayButton(form: HTMLElement): () => void {
  const button = one(form, "button");
  const label = one(form, sel(PAYMENT.label));
  const status = one(form, sel(PAYMENT.status));
  const idleLabel = label?.textContent ?? "";
  const listeners = new Listeners();
  let busy = false;

  function setBusy(value: boolean) {
    busy = value;
    if (value) button?.setAttribute("aria-disabled", "true");
    else button?.removeAttribute("aria-disabled");
    if (label) label.textContent = value ? (read(form, PAYMENT.busyLabel) ?? idleLabel) : idleLabel;
    const state: BusyState = value ? "busy" : "idle";
    showWhen(form, state);
    if (status) status.textContent = value ? "Please wait." : "";
  }

  listeners.on(form, "submit", (event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const action = form.getAttribute("action") ?? "/pay";
    fetch(action, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(async (response) => {
        if (!response.ok) throw new Error(`status ${response.status}`);
        const { to } = (await response.json()) as { to?: unknown };
        if (typeof to !== "string" || !to.startsWith("/")) throw new Error("no address");
        window.location.assign(to);
      })
      .catch(() => {
        window.alert(read(form, PAYMENT.failureMessage) ?? "");
        setBusy(false);
      });
  });
  // Back to this page from the next one (the back-forward cache): ready again.
  listeners.onWindow("pageshow", () => {
    if (busy) setBusy(false);
  });

  return () => listeners.removeAll();
}
