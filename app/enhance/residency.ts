import { read, RESIDENCY, residencyErrorId, sel, widgetSel } from "./contract";
import { all, Listeners, one, postForAnswer, setAttr, submitButton } from "./dom";

type Options = {
  /**
   * Send the form with fetch and put the server's answer (the same region of the page, with the
   * result or the errors) in place of this one, rather than letting the browser load that page.
   * Only where no other script owns the markup (the public page's enhancement module).
   */
  inPlace?: boolean;
};

/**
 * The residency calculator (app/routes/tools/residency-calculator.tsx) is a plain form POST whose
 * answer is the page with the result or the errors. Bound to its region (the result and the
 * form), this adds:
 * - focus on the answer shown (`[data-answer-focus]`: the result heading or the error summary),
 *   so screen readers announce it, after a page load as after an answer put in place;
 * - the calendar years after the years' relative names (`[data-year-offset]`, empty in the
 *   server's markup), following the tax year chosen;
 * - editing an answer clears its message (`#residency-<name>-error`) and its line in the error
 *   summary (`[data-error-summary] [data-field="<name>"]`);
 * - the busy state of the submit button (`button[data-submit]`, `data-busy-label`) while the
 *   server answers.
 */
export function bindResidency(root: HTMLElement, options: Options = {}): () => void {
  const found = one<HTMLFormElement>(root, "form");
  if (!found) return () => {};
  const form = found;
  const listeners = new Listeners();
  const yearSelect = form.elements.namedItem("taxYear");
  const setBusy = submitButton(form);
  const sendError = one(form, sel(RESIDENCY.sendError));
  let sending = false;

  function showYears() {
    const year = yearSelect instanceof HTMLSelectElement ? Number(yearSelect.value) : NaN;
    for (const el of all(root, sel(RESIDENCY.yearOffset))) {
      const text = Number.isInteger(year) && year > 0 ? ` (${year - Number(read(el, RESIDENCY.yearOffset))})` : "";
      if (el.textContent !== text) el.textContent = text;
    }
  }

  function clearError(target: EventTarget | null) {
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement) || !target.name) return;
    const name = target.name;
    const message = one(root, `#${residencyErrorId(name)}`);
    if (!message) return;
    message.remove();
    for (const control of all(form, `[name="${name}"]`)) {
      setAttr(control, "aria-invalid", "false");
      const ids = (control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((id) => id && id !== message.id);
      setAttr(control, "aria-describedby", ids.length > 0 ? ids.join(" ") : null);
    }
    const summary = one(root, sel(RESIDENCY.errorSummary));
    if (!summary) return;
    one(summary, sel(RESIDENCY.field, name))?.remove();
    if (!one(summary, sel(RESIDENCY.field))) summary.remove();
  }

  function setSending(value: boolean) {
    sending = value;
    setBusy(value);
  }

  function showSendError(show: boolean) {
    if (!sendError) return;
    sendError.textContent = show ? (read(form, RESIDENCY.sendFailed) ?? "") : "";
    sendError.hidden = !show;
  }

  async function sendInPlace() {
    try {
      const { next } = await postForAnswer<HTMLElement>(form, widgetSel("residency"));
      listeners.removeAll();
      const adopted = document.adoptNode(next);
      root.replaceWith(adopted);
      // Binding the new region moves focus to its result or its error summary.
      bindResidency(adopted, options);
    } catch (error) {
      console.error(error);
      setSending(false);
      showSendError(true);
    }
  }

  if (yearSelect instanceof HTMLSelectElement) listeners.on(yearSelect, "change", showYears);
  listeners.on(form, "input", (event) => clearError(event.target));
  listeners.on(form, "submit", (event) => {
    if (sending) {
      event.preventDefault();
      return;
    }
    showSendError(false);
    setSending(true);
    if (options.inPlace) {
      event.preventDefault();
      void sendInPlace();
    }
  });
  // Coming back to this page from the browser's history shows the form ready again.
  listeners.onWindow("pageshow", (event) => {
    if (event.persisted) setSending(false);
  });

  showYears();
  one(root, sel(RESIDENCY.answerFocus))?.focus();

  return () => listeners.removeAll();
}
