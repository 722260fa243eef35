import { Info } from "lucide-react";
import { data, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/taxpayer-information";
import { filingPath, taxpayerFormPath } from "~/components/portal/filing-card";
import { TaxpayerForm } from "~/components/portal/taxpayer-form";
import { Container } from "~/components/ui/container";
import { Alert } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import { CLIENT_LIMIT_MESSAGES } from "~/domain/client-limits";
import type { DashboardData, DashboardResult } from "~/domain/portal";
import { CASE_MESSAGES } from "~/domain/portal-forms";
import { parseTaxYear } from "~/domain/tax-year";
import { emptyTaxpayerValues, TAXPAYER_FIELDS, TAXPAYER_MESSAGES, TaxpayerSchema } from "~/domain/taxpayer";
import type { TaxpayerValues } from "~/domain/taxpayer";
import { logError } from "~/log";
import { seo } from "~/seo";
import { parseForm, sentTexts } from "~/server/http/form.server";
import { hitClientLimit, retryAfter } from "~/server/limits/client-limits.server";
import { notifyStaff } from "~/server/notices/notices.server";
import { ownCaseYears } from "~/server/cases/cases.server";
import { clientsOnly } from "~/server/auth/client-pages.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import { saveTaxpayerRecord, taxpayerFormValues } from "~/server/cases/taxpayer.server";

// A client's own page: staff are sent to the panel.
export const middleware: Route.MiddlewareFunction[] = [clientsOnly];

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Tax Filing Dashboard", description: "Your taxpayer information.", noindex: true });

export function headers() {
  return NO_STORE;
}

/**
 * The tax year `/dashboard?year=` names; without one, the client's newest year. null when the
 * URL names no year the product knows.
 */
function askedYear(request: Request, years: readonly number[]): number | null {
  const raw = new URL(request.url).searchParams.get("year");
  return raw === null ? (years[0] ?? null) : parseTaxYear(raw);
}

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The form of one of the user's own tax years: its record, or a copy of the latest earlier year's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const failed = (error: unknown) => {
    // The error is logged; the page says so and shows no form (an empty form, saved, would
    // replace the stored record).
    logError("portal", "could not load taxpayer record", error);
    return data<DashboardData>({ email: user.email, loadFailed: true }, { headers: NO_STORE });
  };
  let years: number[];
  try {
    years = await ownCaseYears(user.id);
  } catch (error) {
    return failed(error);
  }
  const taxYear = askedYear(request, years);
  // A year without a case of this user is a page that does not exist, whoever else has one.
  if (taxYear === null || !years.includes(taxYear)) notFound();
  let form: Awaited<ReturnType<typeof taxpayerFormValues>>;
  try {
    form = await taxpayerFormValues(user.id, taxYear);
  } catch (error) {
    return failed(error);
  }
  return data<DashboardData>(
    {
      email: user.email,
      loadFailed: false,
      values: form.values ?? emptyTaxpayerValues,
      hasRecord: form.hasRecord,
      taxYear,
      prefilledFrom: form.prefilledFrom,
      otherYears: years.filter((y) => y !== taxYear),
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  // The record always belongs to the signed-in user: no id from the browser is read.
  const user = context.get(userContext);
  const parsed = await parseForm(request, TaxpayerSchema);
  const values: TaxpayerValues = sentTexts(parsed.raw, TAXPAYER_FIELDS);
  if (!parsed.ok)
    return data<DashboardResult>(
      { ok: false, errors: parsed.errors, values },
      { status: 400, headers: NO_STORE },
    );
  // Counted once the form is valid; past the limit nothing is saved and the form keeps its values.
  const limit = await hitClientLimit("taxInfo", user.id);
  if (!limit.allowed)
    return data<DashboardResult>(
      { ok: false, errors: {}, formError: CLIENT_LIMIT_MESSAGES.taxInfo, values },
      { status: 429, headers: { ...NO_STORE, ...retryAfter(limit) } },
    );
  let outcome: Awaited<ReturnType<typeof saveTaxpayerRecord>> | "no-year";
  let taxYear: number | null = null;
  try {
    taxYear = askedYear(request, await ownCaseYears(user.id));
    outcome = taxYear === null ? "no-year" : await saveTaxpayerRecord(user.id, parsed.values, taxYear, { actor: user, ip: context.clientIp });
  } catch (error) {
    logError("portal", "could not save taxpayer record", error);
    return data<DashboardResult>(
      { ok: false, errors: {}, formError: TAXPAYER_MESSAGES.saveFailed, values },
      { status: 500, headers: NO_STORE },
    );
  }
  if (outcome === "no-year" || outcome === "no-case" || taxYear === null) {
    return data<DashboardResult>(
      { ok: false, errors: {}, formError: CASE_MESSAGES.noCase(taxYear), values },
      { status: 404, headers: NO_STORE },
    );
  }
  // Stored: the trail and the staff's notice follow; neither carries any value of the form.
  const first = outcome === "created";
  try {
    await notifyStaff(user.id, taxYear, first ? "tax-info-submitted" : "tax-info-changed");
  } catch (error) {
    logError("portal", "could not announce a taxpayer save", error);
  }
  return data<DashboardResult>({ ok: true }, { headers: NO_STORE });
}

export default function Dashboard() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" &&
    navigation.location?.pathname === "/dashboard" &&
    !navigation.formMethod;
  const submitting = navigation.state === "submitting";
  const taxYear = loaded.loadFailed ? null : loaded.taxYear;

  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-4xl">
        <h1 className="text-3xl font-bold tracking-tight">
          Tax Filing Dashboard
          {taxYear !== null ? (
            <span className="mt-1 block text-xl font-semibold text-primary-700">{`Tax year ${taxYear}`}</span>
          ) : null}
        </h1>
        <p className="mt-2 text-ink-soft">
          Welcome, <span className="font-semibold text-ink">{loaded.email}</span>
        </p>
        {!loaded.loadFailed ? <YearLinks taxYear={loaded.taxYear} otherYears={loaded.otherYears} /> : null}
        <div className="mt-8">
          {loading ? (
            <div className="flex justify-center py-20">
              <Spinner className="size-8 text-primary-600" label="Loading your details..." />
            </div>
          ) : loaded.loadFailed ? (
            <Alert tone="error">{TAXPAYER_MESSAGES.loadFailed}</Alert>
          ) : (
            <>
              {loaded.prefilledFrom !== null ? (
                <p
                  role="note"
                  className="mb-6 flex items-start gap-2 rounded-lg border border-accent-500 bg-accent-50 px-4 py-3 text-sm font-medium text-accent-700"
                >
                  <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <span>{CASE_MESSAGES.prefilled(loaded.prefilledFrom)}</span>
                </p>
              ) : null}
              <TaxpayerForm
                // A new year's form starts again from that year's values.
                key={loaded.taxYear}
                action={taxpayerFormPath(loaded.taxYear)}
                initialValues={loaded.values}
                result={result}
                submitting={submitting}
              />
            </>
          )}
        </div>
      </Container>
    </main>
  );
}

/** Where this year's filing stands, and the client's other years' forms. */
function YearLinks({ taxYear, otherYears }: { taxYear: number; otherYears: number[] }) {
  const link =
    "inline-flex min-h-11 items-center font-semibold text-primary-700 underline-offset-4 hover:underline sm:min-h-0";
  return (
    <nav aria-label="Your tax years" className="mt-3 flex flex-wrap items-center gap-x-6 gap-y-1 text-sm">
      <Link to={filingPath(taxYear)} className={link}>
        {`Where your ${taxYear} filing stands`}
      </Link>
      {otherYears.length > 0 ? (
        <span className="flex flex-wrap items-center gap-x-3 text-ink-muted">
          <span>Other years:</span>
          {otherYears.map((year) => (
            <Link
              key={year}
              to={taxpayerFormPath(year)}
              className={`${link} min-w-11 justify-center`}
              aria-label={`Taxpayer information for ${year}`}
            >
              {year}
            </Link>
          ))}
        </span>
      ) : null}
    </nav>
  );
}
