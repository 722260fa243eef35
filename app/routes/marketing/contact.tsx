import { CheckCircle2, Clock, Mail, MessageCircle, Phone } from "lucide-react";
import { data, useActionData } from "react-router";
import type { Route } from "./+types/contact";
import { Button } from "~/components/ui/button";
import { Container, SectionHeading } from "~/components/ui/container";
import { Alert, Field, Input, Textarea } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { useEnhancement } from "~/components/use-enhancement";
import { business, mailtoLink, telLink, whatsappLink } from "~/content/business";
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  CONTACT_SUCCESS_MS,
  DESCRIPTION_MAX,
  emptyContactValues,
  HONEYPOT_FIELD,
} from "~/domain/contact";
import type { ContactField, ContactValues } from "~/domain/contact";
import { ContactFormSchema } from "~/domain/contact-schema";
import { bindContactForm } from "~/enhance/contact-form";
import { attr, CONTACT, DIALOG, IDS, part, widget } from "~/enhance/contract";
import { bindDialog } from "~/enhance/dialog";
import type { FieldErrors } from "~/domain/validation";
import { logError } from "~/log";
import { seo } from "~/seo";
import { contactRateLimit, createContactMessage } from "~/server/contact/contact.server";
import { parseForm, sentTexts } from "~/server/http/form.server";
import { hitRateLimit } from "~/server/limits/rate-limit.server";

export { HONEYPOT_FIELD };

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Contact us",
    description: `Ask ${business.name} about ITIN, FBAR, 1040-NR returns and more. We answer within 24 hours, ${business.hoursLong}.`,
  });

type ActionResult =
  | { ok: true }
  | { ok: false; errors?: FieldErrors<ContactField>; formError?: string; values: ContactValues };

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = await parseForm(request, ContactFormSchema);
  const values: ContactValues = sentTexts(parsed.raw, CONTACT_FIELDS);
  if (!parsed.ok) return data<ActionResult>({ ok: false, errors: parsed.errors, values }, { status: 400 });
  // Answer as if sent, store nothing: a bot learns nothing from the reply.
  if (parsed.values.trapped) return data<ActionResult>({ ok: true });

  const limit = await hitRateLimit(contactRateLimit, context.clientIp);
  if (!limit.allowed) {
    return data<ActionResult>(
      { ok: false, formError: CONTACT_MESSAGES.rateLimited, values },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  try {
    await createContactMessage(parsed.values.message, context.clientIp);
  } catch (error) {
    logError("contact", "could not store message", error);
    return data<ActionResult>({ ok: false, formError: CONTACT_MESSAGES.sendFailed, values }, { status: 500 });
  }
  return data<ActionResult>({ ok: true });
}

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export default function Contact() {
  // Set only when this page answers a POST of the form (a plain form POST, with or without
  // JavaScript): the server's verdict is rendered into the page.
  const actionData = useActionData<typeof action>();
  const refused = actionData && !actionData.ok ? actionData : undefined;
  const values = refused?.values ?? emptyContactValues;
  const errors: FieldErrors<ContactField> = refused?.errors ?? {};
  const formError = refused?.formError;
  const sent = actionData?.ok === true;
  const hasErrors = Object.values(errors).some(Boolean);
  const formRef = useEnhancement<HTMLFormElement>(bindContactForm);
  const dialogRef = useEnhancement<HTMLDialogElement>(bindDialog);

  return (
    <main id={IDS.main} className="bg-surface">
      <section className="bg-gradient-to-br from-ink via-primary-800 to-primary-700 py-16 text-white sm:py-20">
        <Container>
          <p className="text-sm font-semibold tracking-wide text-primary-100 uppercase">Contact</p>
          <h1 className="mt-2 max-w-2xl text-4xl font-bold tracking-tight sm:text-5xl">Talk to a tax professional</h1>
          <p className="mt-4 max-w-2xl text-lg text-primary-50">
            Tell us about your visa, your income and what you need filed. A member of our team answers{" "}
            {business.responsePromise}, {business.hoursLong}.
          </p>
        </Container>
      </section>

      <Container className="grid gap-10 py-14 lg:grid-cols-[1fr_22rem]">
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

        <aside aria-labelledby="contact-direct" className="space-y-6">
          <div className="rounded-[var(--radius-card)] bg-white p-6 shadow-card">
            <h2 id="contact-direct" className="text-lg font-semibold">
              Reach us directly
            </h2>
            <ul className="mt-4 space-y-4 text-sm">
              <li>
                <a href={telLink} className="inline-flex items-center gap-3 font-medium text-primary-700 hover:underline">
                  <Phone className="size-5" aria-hidden="true" />
                  {business.phone.display}
                </a>
              </li>
              <li>
                <a
                  href={whatsappLink(`Hello ${business.name}, I would like to talk about my US taxes.`)}
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-3 font-medium text-primary-700 hover:underline"
                >
                  <MessageCircle className="size-5" aria-hidden="true" />
                  WhatsApp {business.whatsapp.display}
                </a>
              </li>
              <li>
                <a href={mailtoLink} className="inline-flex items-center gap-3 font-medium text-primary-700 hover:underline">
                  <Mail className="size-5" aria-hidden="true" />
                  {business.email}
                </a>
              </li>
              <li className="inline-flex items-center gap-3 text-ink-soft">
                <Clock className="size-5" aria-hidden="true" />
                {business.hoursLong}
              </li>
            </ul>
          </div>
          <div className="rounded-[var(--radius-card)] border border-primary-100 bg-primary-50 p-6 text-sm text-ink-soft">
            <h2 className="text-base font-semibold text-ink">Your first 30 minutes are free</h2>
            <p className="mt-2">
              The first consultation costs nothing. We look at your visa history and tell you which forms you need
              and what they cost, before any work starts.
            </p>
          </div>
        </aside>
      </Container>

      {sent ? (
        // Rendered open: without JavaScript it shows in the page and its Close button (a dialog
        // form) closes it; app/enhance/dialog.ts makes it modal and closes it after 5 seconds.
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
      ) : null}
    </main>
  );
}
