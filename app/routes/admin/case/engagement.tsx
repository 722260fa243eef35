import { FileSignature } from "lucide-react";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/engagement";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { CaseSection } from "~/components/admin/case/case-section";
import { IntentSubmit } from "~/components/admin/case/intent-submit";
import { EngagementRecord, LetterText } from "~/components/engagement/letter-parts";
import { Alert, inputClass } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { caseHref, dashboardReturn } from "~/domain/admin-links";
import { defaultService, ENGAGEMENT_SERVICES, ENGAGEMENT_SERVICE_INFO, feeOf, staffLetterPdfHref } from "~/domain/engagement";
import { formatUsd } from "~/domain/fees";
import { NO_STORE } from "~/server/auth/session.server";
import { caseOfRoute } from "~/server/cases/case-action.server";
import { caseLetters, letterRequired, sendLetter } from "~/server/engagement/letters.server";
import { caseResidency } from "~/server/residency/outcome.server";

// The case's engagement letter (/admin/clients/:clientId/:year/engagement,
// docs/product/engagement.md): the current letter, where it stands (sent, accepted with the
// client's typed name, declined with their reason), the earlier letters, and "Send a letter" for a
// service (the return the case's residency calls for by default). The client and the year are the
// route's, never the form's.

export function headers() {
  return NO_STORE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const ref = { clientId: client.id, taxYear };
  const [letters, required, residency] = await Promise.all([caseLetters(ref), letterRequired(), caseResidency(staff, client.id, taxYear)]);
  const sent = new URL(request.url).searchParams.get("done") === "sent";
  return data(
    { letters, required, suggested: defaultService(residency?.status ?? null), sent },
    { headers: NO_STORE },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data({ errors: { form: "The form could not be read. Reload the page and try again." } }, { status: 400, headers: NO_STORE });
  }
  if (form.get("intent") !== "send-letter") return data({ errors: { form: "The form could not be read. Reload the page and try again." } }, { status: 400, headers: NO_STORE });
  const service = form.get("service");
  const sent = await sendLetter(staff, { clientId: client.id, taxYear }, typeof service === "string" ? service : "", context.clientIp);
  if (!sent.ok) return data({ errors: sent.errors }, { status: sent.status, headers: NO_STORE });
  const here = caseHref(client.id, taxYear, dashboardReturn(new URL(request.url).searchParams.get("back")), "engagement");
  return redirect(`${here}${here.includes("?") ? "&" : "?"}done=sent`, { headers: NO_STORE });
}

export default function CaseEngagement() {
  const { letters, required, suggested, sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  const [current, ...earlier] = letters;
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  return (
    <div className="space-y-6">
      {sent ? <Alert tone="success">The engagement letter was sent: the client has been e-mailed a link to it.</Alert> : null}
      <CaseSection
        id="engagement"
        title="Engagement letter"
        icon={<FileSignature className="size-5" aria-hidden="true" />}
        lead={`Tax year ${frame.taxYear}: what the firm will do, for what fee, and what the client must do.${required ? " The draft return waits until the client accepts the letter." : ""}`}
      >
        {current ? (
          <div className="space-y-4">
            <p className="text-ink">
              <span className="font-semibold">{current.serviceLabel}</span>
              {`, ${formatUsd(current.feeCents)}, template version ${current.templateVersion}. Sent `}
              <LocalTime iso={current.sentAt} />
              {current.sentBy ? ` by ${current.sentBy}` : " by the season's start"}.
            </p>
            <EngagementRecord letter={current} pdfHref={staffLetterPdfHref(frame.client.id, current.id)} />
            <details className="rounded-xl border border-line p-4">
              <summary className="cursor-pointer font-semibold text-primary-700">The letter as sent</summary>
              <LetterText text={current.text} />
            </details>
          </div>
        ) : (
          <p className="rounded-xl border border-accent-500 bg-accent-50 p-4 text-ink">
            No engagement letter yet: the client has nothing to accept.{required ? " The draft return waits for an accepted letter." : ""}
          </p>
        )}

        <Form method="post" preventScrollReset noValidate className="mt-6 space-y-3 rounded-xl bg-surface p-4">
          <h3 className="font-semibold text-ink">{current ? "Send a new letter (it replaces the current one)" : "Send the engagement letter"}</h3>
          <input type="hidden" name="intent" value="send-letter" />
          <label htmlFor="engagement-service" className="block text-sm font-medium text-ink">
            Service
          </label>
          <select
            id="engagement-service"
            name="service"
            defaultValue={current?.service ?? suggested}
            aria-invalid={errors.service ? true : undefined}
            aria-describedby={errors.service ? "engagement-service-error" : undefined}
            className={inputClass}
          >
            {ENGAGEMENT_SERVICES.map((service) => (
              <option key={service} value={service}>
                {`${ENGAGEMENT_SERVICE_INFO[service].label} (${formatUsd(feeOf(service).cents)})`}
              </option>
            ))}
          </select>
          {errors.service ? (
            <p id="engagement-service-error" className="text-sm font-medium text-red-700">
              {errors.service}
            </p>
          ) : null}
          {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
          <IntentSubmit intent="send-letter">Send the letter</IntentSubmit>
        </Form>
      </CaseSection>

      {earlier.length > 0 ? (
        <CaseSection id="engagement-earlier" title="Earlier letters" icon={<FileSignature className="size-5" aria-hidden="true" />}>
          <ul className="space-y-4">
            {earlier.map((letter) => (
              <li key={letter.id} className="rounded-xl border border-line p-4">
                <p className="text-sm text-ink">
                  {`${letter.serviceLabel}, ${formatUsd(letter.feeCents)}, sent `}
                  <LocalTime iso={letter.sentAt} />
                </p>
                <EngagementRecord letter={letter} replaced pdfHref={staffLetterPdfHref(frame.client.id, letter.id)} />
              </li>
            ))}
          </ul>
        </CaseSection>
      ) : null}
    </div>
  );
}
