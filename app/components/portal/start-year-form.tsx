import { CalendarPlus } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { Select } from "./select-field";
import { Button } from "~/components/ui/button";

const FIELD_ID = "start-year";
const ERROR_ID = "start-year-error";

/**
 * "Start a tax year": a year the client has no filing for yet, chosen from the years open (the
 * season's and three before it). A plain form post; the server opens the case and goes on to
 * that year's taxpayer form.
 */
export function StartYearForm({
  years,
  error,
  submitting,
}: {
  years: number[];
  error?: string;
  submitting: boolean;
}) {
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (error) select.current?.focus();
  }, [error]);
  if (years.length === 0) return null;
  return (
    <section
      aria-labelledby="start-year-title"
      className="rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card sm:p-6"
    >
      <div className="flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          <CalendarPlus className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h2 id="start-year-title" className="text-xl font-semibold tracking-tight text-ink">
            Start a tax year
          </h2>
          <p className="mt-1 text-ink-soft">
            Need to file for another year? Choose the tax year, then fill in your taxpayer information for it.
          </p>
        </div>
      </div>
      <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value="start-year" />
        <div className="sm:w-48">
          <label htmlFor={FIELD_ID} className="mb-1.5 block text-sm font-medium text-ink">
            Tax year
          </label>
          <Select
            ref={select}
            id={FIELD_ID}
            name="taxYear"
            defaultValue={years[0]}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? ERROR_ID : undefined}
            className="min-h-11"
          >
            {years.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" disabled={submitting} busy={submitting} className="min-h-11">
          {submitting ? "Starting..." : "Start this tax year"}
        </Button>
      </Form>
      {error ? (
        <p id={ERROR_ID} role="alert" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}
