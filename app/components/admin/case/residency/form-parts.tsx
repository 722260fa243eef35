import type { ReactNode } from "react";
import { Alert } from "~/components/ui/field";
import type { ResidencyIntent } from "./words";
import { IntentSubmit } from "../intent-submit";

export const labelClass = "mb-1.5 block text-sm font-medium text-ink";

/** A form's message about the whole of it (`form`), above its fields. */
export function FormError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <div id={id}>
      <Alert tone="error">{message}</Alert>
    </div>
  ) : null;
}

/** A field's message, beside it. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  ) : null;
}

/** A submit button busy while its own form (its intent, and `value` of `name` when given) is being sent. */
export function Submit(props: { intent: ResidencyIntent; children: ReactNode; variant?: "primary" | "secondary" | "ghost"; name?: string; value?: string }) {
  return <IntentSubmit {...props} className="min-h-11 whitespace-normal text-left sm:min-h-0" />;
}

/** A checkbox with its label, and its message when refused. */
export function Checkbox({
  id,
  name,
  label,
  defaultChecked,
  error,
}: {
  id: string;
  name: string;
  label: string;
  defaultChecked: boolean;
  error?: string;
}) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="flex min-h-11 items-start gap-3 text-ink sm:min-h-0">
        <input
          id={id}
          type="checkbox"
          name={name}
          defaultChecked={defaultChecked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-1 size-4 shrink-0 rounded border-line text-primary-600 focus:ring-primary-200"
        />
        <span>{label}</span>
      </label>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
