import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/my-consent";
import { Button } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { Alert, Field, Input, inputClass } from "~/components/ui/field";
import { CONSENT_MESSAGES, CONSENT_MONTHS, CONSENT_PAGE, ConsentAnswerForm, DEFAULT_CONSENT_MONTHS, isConsentKind, monthsLabel } from "~/domain/consents";
import { seo } from "~/seo";
import { NO_STORE } from "~/server/auth/session.server";
import { ownClientOr404 } from "~/server/auth/client-pages.server";
import { answerConsent, consentPage } from "~/server/consents/consents.server";
import { parseForm } from "~/server/http/form.server";

// One consent's own page (/my-consents/use, /my-consents/disclose;
// docs/product/engagement.md#consents-under-section-7216): nothing but the consent's text and its
// two equal buttons, "I consent" (with the client's typed legal name as their signature and how
// long) and "I do not consent". The page has no site header or footer (components/layout/site-shell.tsx).
// The answer records the exact text shown, its SHA-256 and version, the time, IP and browser.
// Only the signed-in client's own consent: no client id is read from the browser. Staff, and a
// kind that is not one, get a 404.

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: isConsentKind(args.params.kind) ? CONSENT_PAGE.kindTitle[args.params.kind] : CONSENT_PAGE.title, description: "A consent under section 7216.", noindex: true });

export function headers() {
  return NO_STORE;
}



function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const client = ownClientOr404(context);
  if (!isConsentKind(params.kind)) notFound();
  const page = await consentPage(client, params.kind);
  if (!page) notFound();
  return data({ text: page.text, sha256: page.sha256, title: page.title }, { headers: NO_STORE });
}

type Answer = { ok: false; message: string; field?: "typedName" | "months"; typedName: string; months: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const client = ownClientOr404(context);
  if (!isConsentKind(params.kind)) notFound();
  const parsed = await parseForm(request, ConsentAnswerForm);
  const values = parsed.ok ? parsed.values : { decision: "", typedName: "", months: "", sha256: "" };
  const refuse = (message: string, status: number, field?: Answer["field"]) =>
    data<Answer>({ ok: false, message, field, typedName: values.typedName, months: values.months }, { status, headers: NO_STORE });
  if (values.decision !== "given" && values.decision !== "refused") return refuse(CONSENT_MESSAGES.unknownAnswer, 400);
  const months = /^\d{1,3}$/.test(values.months) ? Number(values.months) : null;
  const outcome = await answerConsent(
    client,
    { kind: params.kind, decision: values.decision, typedName: values.typedName, months, shownSha256: values.sha256 },
    context.clientIp,
    request.headers.get("user-agent"),
  );
  if (!outcome.ok) return refuse(outcome.message, outcome.status, outcome.field);
  throw redirect(`/my-consents?answered=${params.kind}-${values.decision}`, { headers: NO_STORE });
}

export default function MyConsent() {
  const { text, sha256, title } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [heading, ...rest] = text.split("\n");
  const paragraphs = rest.filter((line) => line.trim() !== "");
  const button = "min-h-12 w-full justify-center text-base";
  return (
    <main id="main" className="bg-white py-8 sm:py-12">
      <Container className="max-w-3xl">
        <article aria-labelledby="consent-title" className="space-y-4 text-base leading-relaxed text-ink" data-testid="consent-text">
          <h1 id="consent-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
            {heading}
          </h1>
          {paragraphs.map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </article>
        <Form method="post" className="mt-8 space-y-5 border-t border-line pt-6" aria-label={title}>
          <input type="hidden" name="sha256" value={sha256} />
          {answer && !answer.field ? <Alert tone="error">{answer.message}</Alert> : null}
          <Field id="typed-name" label={CONSENT_PAGE.typedName} error={answer?.field === "typedName" ? answer.message : undefined}>
            {(props) => <Input {...props} name="typedName" autoComplete="name" defaultValue={answer?.typedName ?? ""} />}
          </Field>
          <Field id="months" label={CONSENT_PAGE.period} error={answer?.field === "months" ? answer.message : undefined}>
            {(props) => (
              <select {...props} name="months" defaultValue={answer?.months || String(DEFAULT_CONSENT_MONTHS)} className={`${inputClass} border-line`}>
                {CONSENT_MONTHS.map((m) => (
                  <option key={m} value={m}>
                    {monthsLabel(m)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {/* The two answers side by side, the same size and look: refusing is as easy as consenting. */}
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Button type="submit" name="decision" value="given" className={button} disabled={busy}>
              {CONSENT_PAGE.consent}
            </Button>
            <Button type="submit" name="decision" value="refused" className={button} disabled={busy}>
              {CONSENT_PAGE.refuse}
            </Button>
          </div>
        </Form>
      </Container>
    </main>
  );
}
