import { data, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/taxpayer-information";
import { TaxpayerForm } from "~/components/portal/taxpayer-form";
import { Container } from "~/components/ui/container";
import { Alert } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import type { DashboardData, DashboardResult } from "~/domain/portal";
import { emptyTaxpayerValues, TAXPAYER_FIELDS, TAXPAYER_MESSAGES, TaxpayerSchema } from "~/domain/taxpayer";
import type { TaxpayerValues } from "~/domain/taxpayer";
import { logError } from "~/log";
import { seo } from "~/seo";
import { parseForm, sentTexts } from "~/server/form.server";
import { NO_STORE, userContext } from "~/server/session.server";
import { getOwnTaxpayerValues, saveTaxpayerRecord } from "~/server/taxpayer.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Tax Filing Dashboard", description: "Your taxpayer information.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  let values: TaxpayerValues | null;
  try {
    values = await getOwnTaxpayerValues(user.id);
  } catch (error) {
    // The error is logged; the page says so and shows no form (an empty form, saved, would
    // replace the stored record).
    logError("portal", "could not load taxpayer record", error);
    return data<DashboardData>({ email: user.email, loadFailed: true }, { headers: NO_STORE });
  }
  return data<DashboardData>(
    { email: user.email, loadFailed: false, values: values ?? emptyTaxpayerValues, hasRecord: values !== null },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  // The record always belongs to the signed-in user: no id from the browser is read.
  const user = context.get(userContext);
  const parsed = await parseForm(request, TaxpayerSchema);
  const values: TaxpayerValues = sentTexts(parsed.raw, TAXPAYER_FIELDS);
  if (!parsed.ok) return data<DashboardResult>({ ok: false, errors: parsed.errors, values }, { status: 400, headers: NO_STORE });
  try {
    await saveTaxpayerRecord(user.id, parsed.values);
  } catch (error) {
    logError("portal", "could not save taxpayer record", error);
    return data<DashboardResult>(
      { ok: false, errors: {}, formError: TAXPAYER_MESSAGES.saveFailed, values },
      { status: 500, headers: NO_STORE },
    );
  }
  return data<DashboardResult>({ ok: true }, { headers: NO_STORE });
}

export default function Dashboard() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/dashboard" && !navigation.formMethod;
  const submitting = navigation.state === "submitting";

  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-4xl">
        <h1 className="text-3xl font-bold tracking-tight">Tax Filing Dashboard</h1>
        <p className="mt-2 text-ink-soft">
          Welcome, <span className="font-semibold text-ink">{loaded.email}</span>
        </p>
        <div className="mt-8">
          {loading ? (
            <div className="flex justify-center py-20">
              <Spinner className="size-8 text-primary-600" label="Loading your details..." />
            </div>
          ) : loaded.loadFailed ? (
            <Alert tone="error">{TAXPAYER_MESSAGES.loadFailed}</Alert>
          ) : (
            <TaxpayerForm initialValues={loaded.values} result={result} submitting={submitting} />
          )}
        </div>
      </Container>
    </main>
  );
}
