import type { ReactNode } from "react";
import { Field, Input } from "~/components/ui/field";
import {
  categoryOptions,
  excludedLabels,
  residencyForm,
  yearNames,
} from "~/content/residency";
import { dayField, EXCLUDED_KINDS, YEAR_OFFSETS } from "~/domain/residency";
import type { DayField, DayKind, ResidencyField, ResidencyValues, YearOffset } from "~/domain/residency";
import type { FieldErrors } from "~/domain/validation";
import { attr, part, RESIDENCY, residencyErrorId, residencyId } from "~/enhance/contract";

type Errors = FieldErrors<ResidencyField>;

/** The id of a field's control (the first radio button for the status). */
export function residencyControlId(field: ResidencyField): string {
  return field === "category" ? residencyId(`category-${categoryOptions[0]!.value}`) : residencyId(field);
}

/** The fields in the order the form shows them, for the error summary. */
export const FIELD_ORDER: readonly ResidencyField[] = [
  "taxYear",
  "category",
  "studentYears",
  "teacherYears",
  ...YEAR_OFFSETS.map((offset) => dayField("otherStatus", offset)),
  ...YEAR_OFFSETS.flatMap((offset) => [dayField("present", offset), ...EXCLUDED_KINDS.map((kind) => dayField(kind, offset))]),
];

/** "The year before (2024)" once the calendar year is known; the relative name alone otherwise. */
function yearName(offset: YearOffset, taxYear: number | null): string {
  return taxYear === null ? yearNames[offset] : `${yearNames[offset]} (${taxYear - offset})`;
}

/**
 * A year's relative name in a label ("The year before"). The page's script adds the calendar
 * year in the empty part and follows the year chosen (app/enhance/residency.ts); without
 * JavaScript the relative name alone stays true whatever is chosen.
 */
function YearName({ offset }: { offset: YearOffset }) {
  return (
    <>
      {yearNames[offset]}
      <span {...attr(RESIDENCY.yearOffset, offset)} />
    </>
  );
}

/** A short name for each field, to say in the error summary which answer needs a change. */
export function fieldName(field: ResidencyField, taxYear: number | null): string {
  switch (field) {
    case "taxYear":
      return residencyForm.taxYearLabel;
    case "category":
      return residencyForm.statusSection;
    case "studentYears":
      return residencyForm.studentYearsLabel;
    case "teacherYears":
      return residencyForm.teacherYearsLabel;
  }
  const offset = Number(field.slice(-1)) as YearOffset;
  const kind = field.slice(0, -1) as DayKind;
  const label =
    kind === "present" ? residencyForm.presentLabel : kind === "otherStatus" ? residencyForm.otherStatusLabel : excludedLabels[kind];
  return `${yearName(offset, taxYear)}: ${label}`;
}

function isFilled(value: string | undefined): boolean {
  const v = (value ?? "").trim();
  return v !== "" && v !== "0";
}

function DayInput({
  field,
  label,
  hint,
  required,
  values,
  errors,
}: {
  field: DayField;
  label: ReactNode;
  hint?: string;
  required?: boolean;
  values: ResidencyValues;
  errors: Errors;
}) {
  return (
    <Field id={residencyControlId(field)} label={label} hint={hint} required={required} error={errors[field]}>
      {(aria) => (
        <Input
          {...aria}
          name={field}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={values[field]}
          className="max-w-40 scroll-mt-28"
        />
      )}
    </Field>
  );
}

/** Step 1: the year to check. */
export function TaxYearSelect({
  choices,
  values,
  errors,
}: {
  choices: readonly number[];
  values: ResidencyValues;
  errors: Errors;
}) {
  return (
    <Field id={residencyControlId("taxYear")} label={residencyForm.taxYearLabel} hint={residencyForm.taxYearHint} required error={errors.taxYear}>
      {(aria) => (
        <select
          {...aria}
          name="taxYear"
          defaultValue={values.taxYear}
          className="block w-full max-w-72 scroll-mt-28 rounded-lg border border-line bg-white px-3.5 py-2.5 text-base text-ink shadow-sm focus:border-primary-600 focus:ring-2 focus:ring-primary-200 focus:outline-none aria-[invalid=true]:border-red-600"
        >
          {choices.map((year) => (
            <option key={year} value={year}>
              {year} (with {year - 1} and {year - 2})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * Step 2: the visa status, and for students, teachers and trainees the years in that status.
 * Those extra questions hide (with CSS alone, so also without JavaScript) once a status that does
 * not use them is chosen.
 */
export function StatusFields({ values, errors }: { values: ResidencyValues; errors: Errors }) {
  const errorId = residencyErrorId("category");
  const changeOpen = YEAR_OFFSETS.some((o) => isFilled(values[dayField("otherStatus", o)]) || errors[dayField("otherStatus", o)]);
  return (
    <div className="space-y-6">
      <fieldset>
        <legend className="text-sm font-medium text-ink">
          {residencyForm.categoryLegend}
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        </legend>
        {errors.category ? (
          <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
            {errors.category}
          </p>
        ) : null}
        <div className="mt-3 grid gap-3">
          {categoryOptions.map((option) => {
            const id = residencyId(`category-${option.value}`);
            return (
              <label
                key={option.value}
                htmlFor={id}
                className="flex cursor-pointer gap-3 rounded-lg border border-line bg-white p-3.5 transition-colors hover:border-primary-500 has-[:checked]:border-primary-600 has-[:checked]:bg-primary-50"
              >
                <input
                  id={id}
                  type="radio"
                  name="category"
                  value={option.value}
                  defaultChecked={values.category === option.value}
                  aria-invalid={Boolean(errors.category)}
                  aria-describedby={[`${id}-description`, errors.category ? errorId : null].filter(Boolean).join(" ")}
                  className="mt-1 size-4 shrink-0 scroll-mt-28 accent-primary-600"
                />
                <span>
                  <span className="block font-medium text-ink">{option.label}</span>
                  <span id={`${id}-description`} className="block text-sm text-ink-muted">
                    {option.description}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <div
        data-status-years
        className="space-y-5 rounded-card border border-line bg-surface p-4 group-has-[[name=category][value=green-card]:checked]/calc:hidden group-has-[[name=category][value=not-exempt]:checked]/calc:hidden sm:p-5"
      >
        <div>
          <h3 className="font-semibold text-ink">{residencyForm.statusYearsTitle}</h3>
          <p className="mt-1 text-sm text-ink-soft">{residencyForm.statusYearsIntro}</p>
        </div>
        {(["studentYears", "teacherYears"] as const).map((field) => (
          <Field
            key={field}
            id={residencyControlId(field)}
            label={field === "studentYears" ? residencyForm.studentYearsLabel : residencyForm.teacherYearsLabel}
            hint={residencyForm.yearsHint}
            error={errors[field]}
          >
            {(aria) => <Input {...aria} name={field} type="text" autoComplete="off" defaultValue={values[field]} className="max-w-96 scroll-mt-28" />}
          </Field>
        ))}
        <details open={changeOpen} className="rounded-lg border border-line bg-white p-4">
          <summary className="cursor-pointer font-medium text-primary-700">{residencyForm.statusChangeSummary}</summary>
          <p className="mt-3 text-sm text-ink-soft">{residencyForm.statusChangeText}</p>
          <div className="mt-4 grid gap-4 sm:grid-cols-3">
            {YEAR_OFFSETS.map((offset) => (
              <DayInput
                key={offset}
                field={dayField("otherStatus", offset)}
                label={
                  <>
                    {residencyForm.otherStatusLabel}: <YearName offset={offset} />
                  </>
                }
                values={values}
                errors={errors}
              />
            ))}
          </div>
        </details>
      </div>
    </div>
  );
}

/** Step 3: one year's days in the US, and the days that don't count. */
export function YearDaysFieldset({
  offset,
  values,
  errors,
}: {
  offset: YearOffset;
  values: ResidencyValues;
  errors: Errors;
}) {
  const excludedOpen = EXCLUDED_KINDS.some((kind) => isFilled(values[dayField(kind, offset)]) || errors[dayField(kind, offset)]);
  return (
    <fieldset className="rounded-card border border-line bg-white p-4 sm:p-5">
      <legend className="px-1 font-semibold text-ink">
        <YearName offset={offset} />
      </legend>
      <DayInput field={dayField("present", offset)} label={residencyForm.presentLabel} required values={values} errors={errors} />
      <details open={excludedOpen} className="mt-4">
        <summary className="cursor-pointer font-medium text-primary-700">{residencyForm.excludedSummary}</summary>
        <p className="mt-2 text-sm text-ink-soft">{residencyForm.excludedIntro}</p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          {EXCLUDED_KINDS.map((kind) => (
            <DayInput key={kind} field={dayField(kind, offset)} label={excludedLabels[kind]} values={values} errors={errors} />
          ))}
        </div>
      </details>
    </fieldset>
  );
}

/**
 * The list of answers to fix, each a link to its field; the page's script focuses it when it
 * appears. `taxYear` is the year of the answers sent, which the messages are about.
 */
export function ErrorSummary({ errors, taxYear }: { errors: Errors; taxYear: number | null }) {
  const fields = FIELD_ORDER.filter((field) => errors[field]);
  if (fields.length === 0) return null;
  return (
    <div
      {...part(RESIDENCY.errorSummary)}
      {...part(RESIDENCY.answerFocus)}
      tabIndex={-1}
      aria-labelledby="residency-errors-title"
      className="scroll-mt-28 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-800"
    >
      <h2 id="residency-errors-title" className="text-base font-semibold">
        {residencyForm.errorSummaryTitle}
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {fields.map((field) => (
          <li key={field} {...attr(RESIDENCY.field, field)}>
            <a href={`#${residencyControlId(field)}`} className="font-medium underline underline-offset-2">
              {fieldName(field, taxYear)}: {errors[field]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
