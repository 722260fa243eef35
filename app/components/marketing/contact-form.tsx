import { SectionHeading } from "~/components/ui/container";
import { Alert, Field, Input, Textarea } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useEnhancement } from "~/components/use-enhancement";
import { CONTACT_MESSAGES, DESCRIPTION_MAX, HONEYPOT_FIELD } from "~/domain/contact";
import type { ContactField, ContactValues } from "~/domain/contact";
import type { FieldErrors } from "~/domain/validation";
import { bindContactForm } from "~/enhance/contact-form";
import { attr, CONTACT, IDS, part, widget } from "~/enhance/contract";

/**
 * The contact page's form, filled with what was sent and the server's verdict on it when the
 * page answers a refused POST (`values`, `errors`, `formError`).
 */
export function ContactForm({
  values,
  errors,
  formError,
}: {
  values: ContactValues;
  errors: FieldErrors<ContactField>;
  formError?: string;
}) {
  const hasErrors = Object.values(errors).some(Boolean);
  const formRef = useEnhancement<HTMLFormElement>(bindContactForm);
  return (
    <section aria-labelledby="contact-form-title" className="rounded-[var(--radius-card)] bg-white p-6 shadow-card sm:p-8">
      <SectionHeading id="contact-form-title" title="Send us a message" align="left" />
      <p className="mt-2 text-sm text-ink-muted">
        Fields marked <span className="text-red-700">*</span> are required. Please do not send your SSN or
        passport number here: we ask for them later through your secure client portal.
      </p>
      {/* A plain form: the browser posts it and shows the server's answer. app/enhance/contact-form.ts
          checks the fields first, counts characters and shows the sending state. */}
      <form
        ref={formRef}
        method="post"
        action="/contact"
        noValidate
        className="mt-6 space-y-5"
        aria-describedby={hasErrors ? IDS.contactBanner : undefined}
        {...widget("contact-form")}
      >
        {formError ? (
          <div id={IDS.contactFormError}>
            <Alert tone="error">{formError}</Alert>
          </div>
        ) : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id="contact-name" label="Full Name" required error={errors.name} reserveError>
            {(aria) => <Input {...aria} name="name" autoComplete="name" defaultValue={values.name} />}
          </Field>
          <Field id="contact-email" label="Email Address" required error={errors.email} reserveError>
            {(aria) => (
              <Input {...aria} name="email" type="email" autoComplete="email" defaultValue={values.email} />
            )}
          </Field>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id="contact-phone" label="Phone Number (Optional)" error={errors.phone} reserveError>
            {(aria) => (
              <div className="flex">
                <span className="inline-flex items-center rounded-l-lg border border-r-0 border-line bg-surface px-3 text-ink-soft" aria-hidden="true">
                  +1
                </span>
                <Input
                  {...aria}
                  name="phone"
                  type="tel"
                  autoComplete="tel-national"
                  className="rounded-l-none"
                  defaultValue={values.phone}
                />
              </div>
            )}
          </Field>
          <Field id="contact-subject" label="Subject" required error={errors.subject} reserveError>
            {(aria) => <Input {...aria} name="subject" defaultValue={values.subject} />}
          </Field>
        </div>
        <Field
          id="contact-description"
          label="Message"
          required
          error={errors.description}
          reserveError
          hint={
            <span className="flex justify-between gap-4">
              <span>At least 10 characters.</span>
              <span aria-live="polite" {...part(CONTACT.counter)} {...attr(CONTACT.max, DESCRIPTION_MAX)}>
                {`${values.description.length}/${DESCRIPTION_MAX}`}
              </span>
            </span>
          }
        >
          {(aria) => (
            <Textarea
              {...aria}
              name="description"
              rows={6}
              maxLength={DESCRIPTION_MAX}
              defaultValue={values.description}
            />
          )}
        </Field>
        <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
          <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
          <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <Alert tone="warning" id={IDS.contactBanner} hidden={!hasErrors}>
          {CONTACT_MESSAGES.banner}
        </Alert>
        <SubmitButton label={CONTACT_MESSAGES.submit} busyLabel={CONTACT_MESSAGES.submitting} />
      </form>
    </section>
  );
}
