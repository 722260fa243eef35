import { CheckCircle2, Lock, Phone, UserRound } from "lucide-react";
import { useEffect, useState } from "react";
import type { ComponentProps, FormEvent, ReactNode } from "react";
import { Form } from "react-router";
import { Select } from "./select-field";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input, Textarea } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { newYorkDay } from "~/domain/business-days";
import type { DashboardResult } from "~/domain/portal";
import {
  COUNTRY_CODES,
  FILING_STATUSES,
  FILING_STATUS_PLACEHOLDER,
  REQUIRED_TAXPAYER_FIELDS,
  TAXPAYER_FIELDS,
  TAXPAYER_LABELS,
  TAXPAYER_MESSAGES,
  TIME_ZONES,
  VISA_TYPES,
  VISA_TYPE_PLACEHOLDER,
  formatSsnInput,
  validateTaxpayer,
} from "~/domain/taxpayer";
import type { TaxpayerField, TaxpayerValues } from "~/domain/taxpayer";
import type { FieldErrors } from "~/domain/validation";

export type TaxpayerFormProps = {
  /** The saved record (or the empty defaults) from the loader. */
  initialValues: TaxpayerValues;
  /** The action's answer, if any. */
  result: DashboardResult | undefined;
  /** True while the form is being posted. */
  submitting: boolean;
  /** Where the form is posted (the tax year's /dashboard?year=…); the current URL when not given. */
  action?: string;
};

const FORM_ERROR_ID = "taxpayer-form-error";
const SUCCESS_TITLE_ID = "taxpayer-success-title";
const SUCCESS_BODY_ID = "taxpayer-success-body";
const SUBMIT_ID = "taxpayer-submit";
/** The earliest date of birth the shared schema accepts. */
const EARLIEST_BIRTH_DATE = "1900-01-02";

export const taxpayerFieldId = (field: TaxpayerField) => `taxpayer-${field.replaceAll("_", "-")}`;

/**
 * The red banner's text for a refused save: the server's message, or the fallback
 * (docs/product/taxpayer-information.md#checks).
 */
function refusalMessage(result: DashboardResult | undefined): string | undefined {
  if (!result || result.ok) return undefined;
  if (result.formError) return result.formError;
  const hasFieldErrors = Object.values(result.errors ?? {}).some(Boolean);
  return hasFieldErrors ? undefined : TAXPAYER_MESSAGES.saveFailed;
}

function firstInvalidField(errors: FieldErrors<TaxpayerField>): TaxpayerField | undefined {
  return TAXPAYER_FIELDS.find((field) => errors[field]);
}

/**
 * The taxpayer information form of /dashboard. A normal form post (it works without JavaScript);
 * with JavaScript the shared schema checks it first and only a valid form is sent.
 */
export function TaxpayerForm({ initialValues, result, submitting, action }: TaxpayerFormProps) {
  const [values, setValues] = useState<TaxpayerValues>(() =>
    result && !result.ok ? result.values : initialValues,
  );
  const [errors, setErrors] = useState<FieldErrors<TaxpayerField>>(() =>
    result && !result.ok ? (result.errors ?? {}) : {},
  );
  const [formError, setFormError] = useState<string | undefined>(() => refusalMessage(result));
  const [successOpen, setSuccessOpen] = useState(result?.ok === true);
  // A request to move focus, applied after the render that shows the messages (new object = new request).
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);

  // Each answer from the server: success opens the modal and keeps the saved values; a refusal shows its messages.
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      setErrors({});
      setFormError(undefined);
      setSuccessOpen(true);
      return;
    }
    const serverErrors = result.errors ?? {};
    const message = refusalMessage(result);
    setErrors(serverErrors);
    setFormError(message);
    const first = firstInvalidField(serverErrors);
    if (message) setFocusRequest({ id: FORM_ERROR_ID });
    else if (first) setFocusRequest({ id: taxpayerFieldId(first) });
  }, [result]);

  useEffect(() => {
    if (focusRequest) document.getElementById(focusRequest.id)?.focus();
  }, [focusRequest]);

  // The modal leaves the page when closed, so focus goes back to the button that opened it by saving.
  function closeSuccess() {
    setSuccessOpen(false);
    setFocusRequest({ id: SUBMIT_ID });
  }

  function update(field: TaxpayerField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    // Editing a field clears its error (docs/product/taxpayer-information.md#checks); a new entry
    // date also settles the birth-date order message.
    setErrors((e) => {
      const clearBirthOrder =
        field === "first_entry_date_usa" && e.date_of_birth === TAXPAYER_MESSAGES.dobAfterEntry;
      if (!e[field] && !clearBirthOrder) return e;
      return { ...e, [field]: undefined, ...(clearBirthOrder ? { date_of_birth: undefined } : {}) };
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setFormError(undefined);
    const checked = validateTaxpayer(values);
    if (checked.ok) {
      setErrors({});
      return;
    }
    event.preventDefault();
    setErrors(checked.errors);
    const first = firstInvalidField(checked.errors);
    if (first) setFocusRequest({ id: taxpayerFieldId(first) });
  }

  const today = newYorkDay();

  /** One labelled control; `render` gets the ARIA wiring plus the field's name, value and required flag. */
  function field(
    name: TaxpayerField,
    render: (control: {
      id: string;
      name: TaxpayerField;
      "aria-invalid": boolean;
      "aria-describedby"?: string;
      required: boolean;
    }) => ReactNode,
    hint?: ReactNode,
  ) {
    const required = REQUIRED_TAXPAYER_FIELDS.has(name);
    return (
      <Field
        id={taxpayerFieldId(name)}
        label={TAXPAYER_LABELS[name]}
        required={required}
        error={errors[name]}
        hint={hint}
      >
        {(aria) => render({ ...aria, name, required })}
      </Field>
    );
  }

  const textInput = (name: TaxpayerField, props: ComponentProps<"input"> = {}, hint?: ReactNode) =>
    field(
      name,
      (control) => (
        <Input
          {...control}
          type="text"
          value={values[name]}
          onChange={(e) => update(name, e.target.value)}
          {...props}
        />
      ),
      hint,
    );

  const dateInput = (name: TaxpayerField, props: ComponentProps<"input"> = {}) =>
    field(name, (control) => (
      <Input
        {...control}
        type="date"
        max={today}
        value={values[name]}
        onChange={(e) => update(name, e.target.value)}
        {...props}
      />
    ));

  const selectInput = (name: TaxpayerField, options: readonly string[], placeholder?: string) =>
    field(name, (control) => (
      <Select {...control} value={values[name]} onChange={(e) => update(name, e.target.value)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </Select>
    ));

  const phonePair = (code: TaxpayerField, contact: TaxpayerField) => (
    <div className="@container @xl:col-span-2 @4xl:col-span-1">
      <div className="grid gap-5 @sm:grid-cols-[11rem_minmax(0,1fr)] @sm:gap-3">
        {selectInput(code, COUNTRY_CODES)}
        {textInput(contact, {
          type: "tel",
          inputMode: "tel",
          autoComplete: contact === "primary_contact" ? "tel-national" : "off",
        })}
      </div>
    </div>
  );

  return (
    <>
      <Form method="post" action={action} noValidate onSubmit={onSubmit} className="space-y-8">
        {formError ? (
          <div id={FORM_ERROR_ID} tabIndex={-1} className="focus:outline-none">
            <Alert tone="error">{formError}</Alert>
          </div>
        ) : null}

        <p className="text-sm text-ink-muted">
          Fields marked{" "}
          <span className="font-semibold text-red-700" aria-hidden="true">
            *
          </span>
          <span className="sr-only">with a star</span> are required.
        </p>

        <FormSection
          id="taxpayer-info-title"
          title="Tax Payer Information"
          icon={<UserRound className="size-5" aria-hidden="true" />}
        >
          <div className="grid gap-5 @xl:grid-cols-2 @4xl:grid-cols-3">
            {textInput("name_as_per_ssn", { autoComplete: "given-name" })}
            {textInput("middle_name", { autoComplete: "additional-name" })}
            {textInput("last_name", { autoComplete: "family-name" })}
            {field(
              "ssn_tin",
              (control) => (
                <Input
                  {...control}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="XXX-XX-XXXX"
                  maxLength={11}
                  className="tabular-nums"
                  value={values.ssn_tin}
                  onChange={(e) => update("ssn_tin", formatSsnInput(e.target.value))}
                />
              ),
              <span className="inline-flex items-start gap-1.5">
                <Lock className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                <span>9 digits. Stored encrypted; shown elsewhere with only the last 4 digits.</span>
              </span>,
            )}
            {dateInput("date_of_birth", { autoComplete: "bday", min: EARLIEST_BIRTH_DATE })}
            {textInput("occupation", { autoComplete: "organization-title" })}
            {selectInput("time_zone", TIME_ZONES)}
            {selectInput("filing_status", FILING_STATUSES, FILING_STATUS_PLACEHOLDER)}
            {dateInput("first_entry_date_usa")}
            {selectInput("visa_type", VISA_TYPES, VISA_TYPE_PLACEHOLDER)}
          </div>
        </FormSection>

        <FormSection
          id="taxpayer-contact-title"
          title="Contact Information"
          icon={<Phone className="size-5" aria-hidden="true" />}
        >
          <div className="grid gap-5 @xl:grid-cols-2">
            {phonePair("primary_country_code", "primary_contact")}
            {phonePair("secondary_country_code", "secondary_contact")}
            {textInput("alternate_email", { type: "email", autoComplete: "email", spellCheck: false })}
            {textInput("city", { autoComplete: "address-level2" })}
            {textInput("state", { autoComplete: "address-level1" })}
            {textInput("zipcode", { autoComplete: "postal-code", maxLength: 10 })}
            <div className="@xl:col-span-2">
              {field("current_mailing_address", (control) => (
                <Textarea
                  {...control}
                  rows={3}
                  autoComplete="street-address"
                  maxLength={300}
                  value={values.current_mailing_address}
                  onChange={(e) => update("current_mailing_address", e.target.value)}
                />
              ))}
            </div>
          </div>
        </FormSection>

        <div className="flex justify-end">
          <Button
            id={SUBMIT_ID}
            type="submit"
            size="lg"
            disabled={submitting}
            busy={submitting}
            className="w-full sm:w-auto sm:min-w-40"
          >
            {submitting ? "Submitting..." : "Submit"}
          </Button>
        </div>
      </Form>

      <Modal
        open={successOpen}
        onClose={closeSuccess}
        labelledBy={SUCCESS_TITLE_ID}
        describedBy={SUCCESS_BODY_ID}
        closeOnBackdrop
      >
        <div className="flex flex-col items-center text-center">
          <CheckCircle2 className="size-14 text-green-700" aria-hidden="true" />
          <h2 id={SUCCESS_TITLE_ID} className="mt-4 text-2xl font-bold">
            Success!
          </h2>
          <p id={SUCCESS_BODY_ID} className="mt-2 text-ink-soft">
            {TAXPAYER_MESSAGES.saved}
          </p>
          {/* method="dialog" closes the dialog even before JavaScript has loaded. */}
          <form method="dialog" className="mt-6">
            <Button
              type="submit"
              className="min-w-28"
              onClick={(event) => {
                // With JavaScript, React closes the dialog; the native form submission is not needed.
                event.preventDefault();
                closeSuccess();
              }}
            >
              OK
            </Button>
          </form>
        </div>
      </Modal>
    </>
  );
}

function FormSection({
  id,
  title,
  icon,
  children,
}: {
  id: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="@container rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-8"
    >
      <div className="flex items-center gap-3 border-b border-line pb-4">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          {icon}
        </span>
        <h2 id={id} className="text-xl font-semibold tracking-tight text-ink">
          {title}
        </h2>
      </div>
      <div className="mt-6">{children}</div>
    </section>
  );
}
