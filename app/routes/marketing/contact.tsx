import { data, useActionData } from "react-router";
import type { Route } from "./+types/contact";
import { ContactDirect } from "~/components/marketing/contact-direct";
import { ContactForm } from "~/components/marketing/contact-form";
import { ContactSentDialog } from "~/components/marketing/contact-sent-dialog";
import { Container } from "~/components/ui/container";
import { business } from "~/content/business";
import { CONTACT_FIELDS, CONTACT_MESSAGES, emptyContactValues, HONEYPOT_FIELD } from "~/domain/contact";
import type { ContactField, ContactValues } from "~/domain/contact";
import { ContactFormSchema } from "~/domain/contact-schema";
import { IDS } from "~/enhance/contract";
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
        <ContactForm values={values} errors={errors} formError={formError} />
        <ContactDirect />
      </Container>

      {sent ? <ContactSentDialog /> : null}
    </main>
  );
}
