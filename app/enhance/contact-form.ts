import { CONTACT_FIELDS, CONTACT_MESSAGES, validateContact } from "~/domain/contact";
import type { ContactField } from "~/domain/contact";
import { CONTACT, errorId, hintId, IDS, read, sel, SUBMIT, widgetSel } from "./contract";
import { bindDialog } from "./dialog";
import { Listeners, one, postForAnswer, submitButton } from "./dom";

type Options = {
  /**
   * Send the form with fetch and put the server's answer (the same page, with its messages or
   * the success dialog) in place of the form, rather than letting the browser load that page.
   * Only where no other script owns the markup (the public page's enhancement module).
   */
  inPlace?: boolean;
};

/**
 * The contact form (app/routes/marketing/contact.tsx) is a plain form POST whose answer is the
 * page with the server's messages. This adds: the same checks as the server before sending
 * (one message under each field, and the banner), editing a field clears its message, the live
 * character counter, and the sending state of the submit button while the server answers.
 */
export function bindContactForm(root: HTMLElement, options: Options = {}): () => void {
  if (!(root instanceof HTMLFormElement)) return () => {};
  const form = root;
  const listeners = new Listeners();
  const banner = document.getElementById(IDS.contactBanner);
  const setSending = submitButton(form);
  const counter = one(form, sel(CONTACT.counter));
  const control = (field: ContactField) =>
    form.elements.namedItem(field) as HTMLInputElement | HTMLTextAreaElement | null;

  function setError(field: ContactField, message: string | undefined) {
    const input = control(field);
    if (!input) return;
    const error = document.getElementById(errorId(input.id));
    if (error) {
      error.textContent = message ?? "";
      error.hidden = !message;
    }
    input.setAttribute("aria-invalid", String(Boolean(message)));
    const hint = document.getElementById(hintId(input.id));
    const describedBy = [message ? errorId(input.id) : null, hint ? hint.id : null].filter(Boolean).join(" ");
    if (describedBy) input.setAttribute("aria-describedby", describedBy);
    else input.removeAttribute("aria-describedby");
  }

  function updateBanner() {
    const anyError = CONTACT_FIELDS.some((field) => control(field)?.getAttribute("aria-invalid") === "true");
    if (banner) banner.hidden = !anyError;
    if (anyError) form.setAttribute("aria-describedby", IDS.contactBanner);
    else form.removeAttribute("aria-describedby");
  }

  function updateCounter() {
    const description = control("description");
    if (counter && description) counter.textContent = `${description.value.length}/${read(counter, CONTACT.max) ?? ""}`;
  }

  for (const field of CONTACT_FIELDS) {
    const input = control(field);
    if (!input) continue;
    // Editing a field clears its error (docs/product/public-site.md#contact-form).
    listeners.on(input, "input", () => {
      if (input.getAttribute("aria-invalid") === "true") {
        setError(field, undefined);
        updateBanner();
      }
      if (field === "description") updateCounter();
    });
  }

  listeners.on(form, "submit", (event) => {
    const values: Record<string, string> = {};
    for (const field of CONTACT_FIELDS) values[field] = control(field)?.value ?? "";
    const checked = validateContact(values);
    if (!checked.ok) {
      event.preventDefault();
      for (const field of CONTACT_FIELDS) setError(field, checked.errors[field]);
      document.getElementById(IDS.contactFormError)?.remove();
      updateBanner();
      return;
    }
    setSending(true);
    if (options.inPlace) {
      event.preventDefault();
      void sendInPlace();
    }
  });

  async function sendInPlace() {
    try {
      const { next: nextForm, page } = await postForAnswer<HTMLFormElement>(form, `form${widgetSel("contact-form")}`);
      listeners.removeAll();
      const adopted = document.adoptNode(nextForm);
      form.replaceWith(adopted);
      bindContactForm(adopted, options);
      const dialog = page.querySelector<HTMLDialogElement>(`dialog${widgetSel("dialog")}`);
      if (dialog) {
        const main = document.getElementById(IDS.main) ?? document.body;
        main.append(document.adoptNode(dialog));
        bindDialog(dialog);
      } else {
        (adopted.querySelector<HTMLElement>('[aria-invalid="true"]') ?? adopted.querySelector<HTMLElement>(`button${sel(SUBMIT.button)}`))?.focus();
      }
    } catch (error) {
      console.error(error);
      setSending(false);
      showFormError(CONTACT_MESSAGES.sendFailed);
    }
  }

  function showFormError(message: string) {
    let box = document.getElementById(IDS.contactFormError);
    if (!box) {
      box = document.createElement("div");
      box.id = IDS.contactFormError;
      box.setAttribute("role", "alert");
      box.className = "rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800";
      form.prepend(box);
    }
    box.textContent = message;
  }

  // Coming back to this page from the browser's history shows the form ready again.
  listeners.onWindow("pageshow", (event) => {
    if (event.persisted) setSending(false);
  });
  updateCounter();

  return () => listeners.removeAll();
}
