import { useEffect, useRef } from "react";
import type { ReactNode } from "react";

type ModalProps = {
  open: boolean;
  onClose: () => void;
  /** Id of the element that names the dialog (its title). */
  labelledBy: string;
  describedBy?: string;
  children: ReactNode;
  /** Clicking outside the panel closes the dialog. */
  closeOnBackdrop?: boolean;
  className?: string;
};

/**
 * A modal on the native <dialog> element: the browser traps focus, closes on Escape
 * and restores focus. Rendered open on the server, it still shows without JavaScript.
 */
export function Modal({ open, onClose, labelledBy, describedBy, children, closeOnBackdrop = true, className = "" }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);

  // Focus goes back where it was when the dialog closes.
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
      className={`fixed inset-0 z-50 m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-ink shadow-card backdrop:bg-ink/60 ${className}`}
    >
      <div className="p-6 sm:p-8">{children}</div>
    </dialog>
  );
}
