import { CalendarDays } from "lucide-react";
import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/residency-calculator";
import { Breadcrumbs } from "~/components/marketing/breadcrumbs";
import {
  ErrorSummary,
  StatusFields,
  TaxYearSelect,
  YearDaysFieldset,
} from "~/components/tools/residency-fields";
import { ResidencyResultView } from "~/components/tools/residency-result";
import { Container } from "~/components/ui/container";
import { SubmitButton } from "~/components/ui/submit-button";
import { useEnhancement } from "~/components/use-enhancement";
import { residencyForm, residencyPage, residencyRules } from "~/content/residency";
import { residencyTool } from "~/content/tools";
import {
  decideResidency,
  emptyResidencyValues,
  lastCompletedTaxYear,
  RESIDENCY_FIELDS,
  residencySchema,
  taxYearChoices,
  YEAR_OFFSETS,
} from "~/domain/residency";
import type { ResidencyField, ResidencyResult, ResidencyValues } from "~/domain/residency";
import type { FieldErrors } from "~/domain/validation";
import { attr, part, RESIDENCY, widget } from "~/enhance/contract";
import { bindResidency } from "~/enhance/residency";
import { seo } from "~/seo";
import { parseForm, sentTexts } from "~/server/http/form.server";

export const meta: Route.MetaFunction = (args) => seo(args, residencyPage.seo);

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

/** The server's "today" decides the default year and the years on offer, for the form and its checks. */
export function loader() {
  const today = new Date();
  return { defaultYear: lastCompletedTaxYear(today), yearChoices: taxYearChoices(today) };
}

export type ResidencyAnswer =
  | { ok: true; values: ResidencyValues; result: ResidencyResult }
  | { ok: false; values: ResidencyValues; errors: FieldErrors<ResidencyField> };

export async function action({ request }: Route.ActionArgs) {
  const parsed = await parseForm(request, residencySchema(new Date().getFullYear()));
  const values: ResidencyValues = sentTexts(parsed.raw, RESIDENCY_FIELDS);
  if (!parsed.ok) return data<ResidencyAnswer>({ ok: false, values, errors: parsed.errors }, { status: 400 });
  return data<ResidencyAnswer>({ ok: true, values, result: decideResidency(parsed.values) });
}

function submittedYear(values: ResidencyValues): number | null {
  const year = Number(values.taxYear);
  return Number.isInteger(year) && year > 0 ? year : null;
}

export default function ResidencyCalculator() {
  const { defaultYear, yearChoices } = useLoaderData<typeof loader>();
  // Set only when this page answers a POST of the form (a plain form POST, with or without
  // JavaScript): the result or the errors are rendered into the page, with the answers as sent.
  const answer = useActionData<typeof action>();
  const values = answer?.values ?? { ...emptyResidencyValues, taxYear: String(defaultYear) };
  const errors: FieldErrors<ResidencyField> = answer && !answer.ok ? answer.errors : {};
  const result = answer?.ok ? answer.result : null;
  const regionRef = useEnhancement<HTMLDivElement>(bindResidency);

  return (
    <main id="main" className="bg-surface">
      <section className="border-b border-line bg-linear-to-b from-primary-50 to-white">
        <Container className="py-10 sm:py-14">
          <Breadcrumbs
            trail={[{ label: "Home", to: "/" }]}
            current={`${residencyPage.overline}: residency calculator`}
          />
          <p className="mt-6 text-sm font-semibold tracking-wide text-primary-700 uppercase">
            {residencyPage.overline}
          </p>
          <h1 className="mt-2 max-w-3xl text-3xl font-bold tracking-tight text-ink sm:text-4xl lg:text-5xl">
            {residencyPage.title}
          </h1>
          <p className="mt-4 max-w-[70ch] text-lg text-ink-soft">{residencyPage.lead}</p>
          <p className="mt-3 max-w-[70ch] text-ink-soft">
            <strong className="font-semibold text-ink">{residencyPage.definition.term}:</strong>{" "}
            {residencyPage.definition.meaning}
          </p>
        </Container>
      </section>

      <Container className="grid gap-10 py-10 sm:py-14 lg:grid-cols-[minmax(0,1fr)_20rem]">
        {/* The result and the form: a plain form whose answer is this page. app/enhance/residency.ts
            focuses the answer, adds the calendar years to the labels and, on this public page,
            sends the form with fetch and puts the server's answer in place of this region. */}
        <div ref={regionRef} className="min-w-0 space-y-8" {...widget("residency")}>
          {result ? <ResidencyResultView result={result} /> : null}

          <form
            method="post"
            action={residencyTool.path}
            noValidate
            aria-labelledby="residency-form-title"
            className="group/calc space-y-8 rounded-card bg-white p-5 shadow-card sm:p-8"
            {...attr(RESIDENCY.sendFailed, residencyForm.sendFailed)}
          >
            <div>
              <h2 id="residency-form-title" className="text-2xl font-bold tracking-tight text-ink">
                {residencyForm.title}
              </h2>
              <p className="mt-2 text-sm text-ink-muted">
                Fields marked <span className="text-red-700">*</span> are required. {residencyPage.privacy}
              </p>
            </div>

            <ErrorSummary errors={errors} taxYear={answer ? submittedYear(answer.values) : null} />

            <section aria-labelledby="residency-step-year" className="space-y-4">
              <h3 id="residency-step-year" className="text-lg font-semibold text-ink">
                1. {residencyForm.yearSection}
              </h3>
              <TaxYearSelect choices={yearChoices} values={values} errors={errors} />
            </section>

            <section aria-labelledby="residency-step-status" className="space-y-4">
              <h3 id="residency-step-status" className="text-lg font-semibold text-ink">
                2. {residencyForm.statusSection}
              </h3>
              <StatusFields values={values} errors={errors} />
            </section>

            <section aria-labelledby="residency-step-days" className="space-y-4">
              <h3 id="residency-step-days" className="text-lg font-semibold text-ink">
                3. {residencyForm.daysSection}
              </h3>
              <p className="text-sm text-ink-soft">{residencyForm.daysIntro}</p>
              {YEAR_OFFSETS.map((offset) => (
                <YearDaysFieldset key={offset} offset={offset} values={values} errors={errors} />
              ))}
            </section>

            <div className="space-y-3">
              <p
                role="alert"
                hidden
                {...part(RESIDENCY.sendError)}
                className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
              />
              <SubmitButton label={residencyForm.submit} busyLabel={residencyForm.submitting} />
            </div>
          </form>
        </div>

        <aside aria-labelledby="residency-rules" className="space-y-6">
          <div className="rounded-card bg-white p-6 shadow-card lg:sticky lg:top-24">
            <h2 id="residency-rules" className="flex items-center gap-2 text-lg font-semibold text-ink">
              <CalendarDays className="size-5 text-primary-700" aria-hidden="true" />
              {residencyRules.title}
            </h2>
            <p className="mt-3 text-sm text-ink-soft">{residencyRules.intro}</p>
            <dl className="mt-3 space-y-3 text-sm">
              {residencyRules.tests.map((t) => (
                <div key={t.name}>
                  <dt className="font-semibold text-ink">{t.name}</dt>
                  <dd className="text-ink-soft">{t.text}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 rounded-lg bg-primary-50 p-3 text-sm text-ink-soft">
              {residencyRules.example}
            </p>
            <h3 className="mt-5 text-sm font-semibold text-ink">{residencyRules.exemptTitle}</h3>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-ink-soft">
              {residencyRules.exempt.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="mt-4 text-xs text-ink-muted">{residencyRules.source}</p>
          </div>
        </aside>
      </Container>
    </main>
  );
}
