import { PAYMENT, read, sel } from "./contract";
import type { BusyState } from "./contract";
import { Listeners, one, showWhen } from "./dom";

/**
 * The payment button stub (docs/product/public-site.md#payment-offer): it reads PROCESSING... for
 * `data-delay` ms, then says the payment gateway would open. It makes no network call. The button
 * keeps keyboard focus while busy (aria-disabled rather than disabled).
 *
 * Markup: `button[data-enhance="pay-button"]` with `data-delay`, `data-busy-label`,
 * `data-gateway-message`, `data-failure-message`; inside it `[data-label]` and parts shown
 * per state with `data-when="idle|busy"`; `[data-pay-status]` (a status region) after it.
 */
export function bindPayButton(button: HTMLElement): () => void {
  const label = one(button, sel(PAYMENT.label));
  const status = button.parentElement ? one(button.parentElement, sel(PAYMENT.status)) : null;
  const idleLabel = label?.textContent ?? "";
  const delay = Number(read(button, PAYMENT.delay)) || 2_000;
  const listeners = new Listeners();
  let busy = false;
  let timer: number | undefined;

  function setBusy(value: boolean) {
    busy = value;
    if (value) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
    if (label) label.textContent = value ? (read(button, PAYMENT.busyLabel) ?? idleLabel) : idleLabel;
    const state: BusyState = value ? "busy" : "idle";
    showWhen(button, state);
    if (status) status.textContent = value ? "Please wait." : "";
  }

  listeners.on(button, "click", () => {
    if (busy) return;
    setBusy(true);
    timer = window.setTimeout(() => {
      timer = undefined;
      try {
        window.alert(read(button, PAYMENT.gatewayMessage) ?? "");
      } catch {
        window.alert(read(button, PAYMENT.failureMessage) ?? "");
      } finally {
        setBusy(false);
      }
    }, delay);
  });

  return () => {
    window.clearTimeout(timer);
    listeners.removeAll();
  };
}
