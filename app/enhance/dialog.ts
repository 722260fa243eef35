import { DIALOG, read } from "./contract";
import { Listeners } from "./dom";

/**
 * A dialog rendered open by the server (`dialog[open][data-enhance="dialog"]`): it becomes
 * modal (the browser traps focus and closes it on Escape), a click on the backdrop closes it,
 * and with `data-auto-close="<ms>"` it closes by itself after that time.
 */
export function bindDialog(dialog: HTMLElement): () => void {
  if (!(dialog instanceof HTMLDialogElement)) return () => {};
  const listeners = new Listeners();
  if (dialog.open && !dialog.matches(":modal")) {
    dialog.close();
    dialog.showModal();
  }
  listeners.on(dialog, "click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  const closeAfter = Number(read(dialog, DIALOG.autoClose));
  const timer = closeAfter > 0 ? window.setTimeout(() => dialog.close(), closeAfter) : undefined;
  return () => {
    window.clearTimeout(timer);
    listeners.removeAll();
  };
}
