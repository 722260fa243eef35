import type { ComponentProps, ReactNode } from "react";
import { errorId as errorIdOf, hintId as hintIdOf } from "~/enhance/contract";

export const inputClass =
  "block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-ink placeholder:text-ink-muted/80 shadow-sm transition-colors focus:border-primary-600 focus:ring-2 focus:ring-primary-200 focus:outline-none aria-[invalid=true]:border-red-600";

type FieldProps = {
  id: string;
  label: ReactNode;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  /** Always render the error element (hidden while there is no error) for a script to fill. */
  reserveError?: boolean;
  children: (aria: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => ReactNode;
};

/** A labelled form control with its required mark, hint and error message. */
export function Field({ id, label, required, error, hint, reserveError, children }: FieldProps) {
  const errorId = errorIdOf(id);
  const hintId = hintIdOf(id);
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
        {required ? (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": describedBy })}
      {hint ? (
        <div id={hintId} className="mt-1 text-sm text-ink-muted">
          {hint}
        </div>
      ) : null}
      {error || reserveError ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700" hidden={!error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Input({ className = "", ...props }: ComponentProps<"input">) {
  return <input className={`${inputClass} border-line ${className}`} {...props} />;
}

export function Textarea({ className = "", ...props }: ComponentProps<"textarea">) {
  return <textarea className={`${inputClass} border-line ${className}`} {...props} />;
}

export function Alert({
  tone,
  children,
  id,
  hidden,
}: {
  tone: "error" | "warning" | "success";
  children: ReactNode;
  id?: string;
  hidden?: boolean;
}) {
  const styles = {
    error: "border-red-300 bg-red-50 text-red-800",
    warning: "border-accent-500 bg-accent-50 text-accent-700",
    success: "border-green-300 bg-green-50 text-green-800",
  } as const;
  return (
    <div id={id} hidden={hidden} role={tone === "success" ? "status" : "alert"} className={`rounded-lg border px-4 py-3 text-sm font-medium ${styles[tone]}`}>
      {children}
    </div>
  );
}
