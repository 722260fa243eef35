import { CheckCircle2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useEnhancement } from "~/components/use-enhancement";
import { CONTACT_MESSAGES, CONTACT_SUCCESS_MS } from "~/domain/contact";
import { attr, DIALOG, widget } from "~/enhance/contract";
import { bindDialog } from "~/enhance/dialog";

/**
 * The contact form's success message. Rendered open: without JavaScript it shows in the page and
 * its Close button (a dialog form) closes it; app/enhance/dialog.ts makes it modal and closes it
 * after 5 seconds.
 */
export function ContactSentDialog() {
  const dialogRef = useEnhancement<HTMLDialogElement>(bindDialog);
  return (
    <dialog
      ref={dialogRef}
      open
      aria-labelledby="contact-success-title"
      aria-describedby="contact-success-body"
      {...widget("dialog")}
      {...attr(DIALOG.autoClose, CONTACT_SUCCESS_MS)}
      className="fixed inset-0 z-50 m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-ink shadow-card backdrop:bg-ink/60"
    >
      <div className="flex flex-col items-center p-6 text-center sm:p-8">
        <CheckCircle2 className="size-14 text-green-700" aria-hidden="true" />
        <h2 id="contact-success-title" className="mt-4 text-2xl font-bold">
          {CONTACT_MESSAGES.successTitle}
        </h2>
        <p id="contact-success-body" className="mt-2 text-ink-soft">
          {CONTACT_MESSAGES.successBody}
        </p>
        <form method="dialog">
          <Button type="submit" className="mt-6">
            Close
          </Button>
        </form>
      </div>
    </dialog>
  );
}
