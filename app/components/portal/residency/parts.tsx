import { createContext, use } from "react";
import type { ComponentProps, ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input } from "~/components/ui/field";
import { RESIDENCY_PAGE_TEXTS } from "./history-edit";
import type { Area, HistoryTexts, PageFailure, PageIntent, PageResult } from "./history-edit";

/**
 * The words the forms of the page show (history-texts.ts): the client's own unless the page
 * gives staff's (`<HistoryTextsContext value={staffHistoryTexts(…)}>`).
 */
export const HistoryTextsContext = createContext<HistoryTexts>(RESIDENCY_PAGE_TEXTS);

/** The words of the page this form is on. */
export function useHistoryTexts(): HistoryTexts {
  return use(HistoryTextsContext);
}

/** The failure `result` holds for the form of `intent` (and of the person `person`, when given). */
export function failureOf(result: PageResult | undefined, intent: PageIntent, person?: string): PageFailure | null {
  if (!result || result.ok || result.intent !== intent) return null;
  if (person !== undefined && (result.values.person ?? "") !== person) return null;
  return result;
}

/** Whether the form of `intent` (for `person`, when given) is being sent. */
export function useSending(intent: PageIntent, person?: string): boolean {
  const navigation = useNavigation();
  const sent = navigation.formData;
  return (
    navigation.state === "submitting" &&
    sent?.get("intent") === intent &&
    (person === undefined || sent.get("person") === person)
  );
}

/** Where each year's residency shows: the client's filing pages, or (staff) each case's Residency section. */
export function ResidencyYears({ years }: { years: readonly number[] }) {
  const T = useHistoryTexts();
  if (years.length === 0) return <p className="mt-1 font-normal">{T.residencyNoYears}</p>;
  return (
    <p className="mt-1 font-normal">
      {T.residencyLine}{" "}
      {years.map((year, i) => {
        const link = T.yearLink(year);
        return (
          <span key={year}>
            {i > 0 ? ", " : null}
            <Link to={link.to} className="font-semibold underline underline-offset-4" aria-label={link.label}>
              {year}
            </Link>
          </span>
        );
      })}
      .
    </p>
  );
}

/** What the last form of this section answered: saved (with where the residency now shows), or refused as a whole. */
export function ResultNotice({ result, area, years }: { result: PageResult | undefined; area: Area; years: readonly number[] }) {
  if (!result || result.area !== area) return null;
  if (result.ok && "message" in result)
    return (
      <div className="mt-4">
        <Alert tone="success">
          <p>{result.message}</p>
          <ResidencyYears years={years} />
        </Alert>
      </div>
    );
  if (!result.ok && result.formError)
    return (
      <div className="mt-4">
        <Alert tone="error">{result.formError}</Alert>
      </div>
    );
  return null;
}

/** A card of the page: a heading, a lead and what follows. */
export function Card({ id, title, lead, children, aside }: { id: string; title: ReactNode; lead?: ReactNode; children: ReactNode; aside?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={id} className="text-xl font-semibold tracking-tight break-words text-ink">
            {title}
          </h2>
          {lead ? <div className="mt-1 text-ink-soft">{lead}</div> : null}
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}

type TextFieldProps = {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  defaultValue?: string;
} & Omit<ComponentProps<"input">, "id" | "name" | "defaultValue">;

export function TextField({ id, name, label, hint, error, required, defaultValue, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} required={required}>
      {(aria) => <Input {...aria} {...input} name={name} defaultValue={defaultValue} className="min-h-11" />}
    </Field>
  );
}

export function SelectField({
  id,
  name,
  label,
  hint,
  error,
  required,
  defaultValue,
  onChange,
  children,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  defaultValue?: string;
  onChange?: ComponentProps<"select">["onChange"];
  children: ReactNode;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error} required={required}>
      {(aria) => (
        <Select {...aria} name={name} defaultValue={defaultValue} onChange={onChange} className="min-h-11">
          {children}
        </Select>
      )}
    </Field>
  );
}

/** A check box with its label beside it, a hint and an error below. */
export function CheckField({
  id,
  name,
  label,
  hint,
  error,
  defaultChecked,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  defaultChecked?: boolean;
}) {
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <div className="flex min-h-11 items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          defaultChecked={defaultChecked}
          aria-invalid={Boolean(error)}
          aria-describedby={described}
          className="mt-0.5 size-5 shrink-0 rounded border-line accent-primary-600"
        />
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="ml-8 text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 ml-8 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The hidden fields of a form: its intent and what names the thing it changes. */
export function Hidden({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** A one-button form: "Remove", its accessible name saying what. */
export function ButtonForm({
  intent,
  fields,
  label,
  what,
  variant = "secondary",
}: {
  intent: PageIntent;
  fields: Record<string, string>;
  label: string;
  /** Read after the label by screen readers ("Remove" + " the stay from …"). */
  what?: string;
  variant?: "secondary" | "ghost" | "primary";
}) {
  const navigation = useNavigation();
  const sent = navigation.formData;
  const sending =
    navigation.state === "submitting" &&
    sent?.get("intent") === intent &&
    Object.entries(fields).every(([name, value]) => sent.get(name) === value);
  return (
    <Form method="post" preventScrollReset className="shrink-0">
      <Hidden fields={{ intent, ...fields }} />
      <Button type="submit" variant={variant} size="sm" className="min-h-11 sm:min-h-9" disabled={sending} busy={sending}>
        {label}
        {what ? <span className="sr-only"> {what}</span> : null}
      </Button>
    </Form>
  );
}

/** A form's submit button, busy while it is sent. */
export function SubmitButton({ label, busyLabel, sending }: { label: string; busyLabel: string; sending: boolean }) {
  return (
    <Button type="submit" className="min-h-11 w-full sm:w-auto" disabled={sending} busy={sending}>
      {sending ? busyLabel : label}
    </Button>
  );
}
