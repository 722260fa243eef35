import { data, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/my-tax-filing";
import { taxpayerFormPath } from "~/components/portal/filing-card";
import { FilingsList } from "~/components/portal/filings-list";
import { StartYearForm as StartYear } from "~/components/portal/start-year-form";
import { Container } from "~/components/ui/container";
import { Alert } from "~/components/ui/field";
import type { ClientCaseView } from "~/domain/cases";
import type { AwaitingFiling, FilingEntry, MyFilingsData, StartYearResult } from "~/domain/portal";
import { CASE_MESSAGES, StartYearForm } from "~/domain/portal-forms";
import { openableYears } from "~/domain/tax-year";
import { caseComplete } from "~/domain/workflow";
import { logError } from "~/log";
import { seo } from "~/seo";
import { listOwnCases, openCase } from "~/server/cases/cases.server";
import { clientDueByYear } from "~/server/fees/client-view.server";
import { clientUnreadByYear } from "~/server/messages/unread.server";
import { parseForm } from "~/server/http/form.server";
import { clientsOnly } from "~/server/auth/client-pages.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { waitingSignerView } from "~/server/returns/signer-view.server";
import { currentReturnVersion } from "~/server/returns/versions.server";

// A client's own page: staff are sent to the panel.
export const middleware: Route.MiddlewareFunction[] = [clientsOnly];

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "My Tax Filings", description: "Your tax filings with TaxBridge.", noindex: true });

export function headers() {
  return NO_STORE;
}

/** One filing per tax year (the signed-in user's own cases only), newest first. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  let cases: ClientCaseView[] = [];
  // Each year's messages from the firm the client has not read (shown on the year's card).
  let unreadMessages: Record<number, number> = {};
  // Each year's return step that waits for the client (its card says so).
  let returnWaiting: Record<number, string> = {};
  // Each year's fee still owed ("Fee due: $299.00" on its card).
  let feeDue: Record<number, number> = {};
  let loaded = true;
  try {
    cases = await listOwnCases(user.id);
    unreadMessages = Object.fromEntries(await clientUnreadByYear(user.id, context));
    feeDue = Object.fromEntries(await clientDueByYear(user.id));
    returnWaiting = Object.fromEntries(
      (await Promise.all(cases.map(async (c) => [c.taxYear, await returnStepWaiting(user, c.taxYear)] as const))).filter(
        (entry): entry is readonly [number, string] => entry[1] !== null,
      ),
    );
  } catch (error) {
    // A load error is logged only; the list stays empty
    // (docs/product/workflow.md#what-the-client-sees).
    logError("portal", "could not load filings", error);
    loaded = false;
  }
  const filings: FilingEntry[] = cases.flatMap((c) =>
    c.filing ? [{ ...c.filing, taxYear: c.taxYear, stage: c.stage, complete: caseComplete(c.flags) }] : [],
  );
  const awaitingInfo: AwaitingFiling[] = cases
    .filter((c) => !c.filing)
    .map((c) => ({ taxYear: c.taxYear, stage: c.stage }));
  const open = new Set(cases.map((c) => c.taxYear));
  // The list must have loaded to know which years are left to start.
  const startYears = loaded ? openableYears().filter((year) => !open.has(year)) : [];
  return data<MyFilingsData & { unreadMessages: Record<number, number>; returnWaiting: Record<number, string>; feeDue: Record<number, number> }>(
    { filings, awaitingInfo, startYears, unreadMessages, returnWaiting, feeDue },
    { headers: NO_STORE },
  );
}

/** What of a year's return waits for the client: the draft to review, or the form to sign (not while their hand-signed form waits for our check). */
async function returnStepWaiting(user: SessionUser, taxYear: number): Promise<string | null> {
  const version = await currentReturnVersion(user.id, taxYear);
  if (version && version.approvedAt === null) return "Draft ready for your review";
  const waiting = await waitingSignerView(user, taxYear);
  return waiting && !waiting.signing.waiting ? "Signature needed" : null;
}

/** Start a tax year: opens the client's own case for the chosen year, then goes on to its form. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const parsed = await parseForm(request, StartYearForm);
  const refuse = (message: string, status: number) =>
    data<StartYearResult>({ ok: false, message }, { status, headers: NO_STORE });
  if (!parsed.ok)
    return refuse(
      parsed.first.field === "intent" ? CASE_MESSAGES.badForm : CASE_MESSAGES.yearNotOffered,
      400,
    );
  const year = parsed.values.taxYear;
  if (year === null) return refuse(CASE_MESSAGES.yearNotOffered, 400);
  let outcome: Awaited<ReturnType<typeof openCase>>;
  try {
    outcome = await openCase(user, user.id, year, context.clientIp);
  } catch (error) {
    logError("portal", "could not open a case", error);
    return refuse(CASE_MESSAGES.startFailed, 500);
  }
  switch (outcome) {
    case "opened":
      return redirect(taxpayerFormPath(year), { headers: NO_STORE });
    case "exists":
      return refuse(CASE_MESSAGES.yearExists(year), 409);
    case "year-not-open":
      return refuse(CASE_MESSAGES.yearNotOffered, 400);
    case "no-such-client":
      // Staff have no filings of their own to start.
      return refuse(CASE_MESSAGES.yearNotOffered, 403);
  }
}

export default function MyTaxFiling() {
  const { filings, awaitingInfo, startYears, unreadMessages, returnWaiting, feeDue } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" &&
    navigation.location?.pathname === "/my-tax-filing" &&
    !navigation.formMethod;
  const starting =
    navigation.state !== "idle" &&
    navigation.formMethod === "POST" &&
    navigation.formAction?.startsWith("/my-tax-filing") === true;
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-5xl">
        <h1 className="text-3xl font-bold tracking-tight">My Tax Filings</h1>
        <p className="mt-2 text-ink-soft">
          Your filings with us, one for each tax year, newest first: the taxpayer information you sent us, and
          where each filing stands.
        </p>
        <div className="mt-8">
          <FilingsList
            filings={filings}
            awaitingInfo={awaitingInfo}
            loading={loading}
            unreadMessages={unreadMessages}
            returnWaiting={returnWaiting}
            feeDue={feeDue}
          />
        </div>
        {startYears.length > 0 ? (
          <div className="mt-8">
            <StartYear years={startYears} error={result?.message} submitting={starting} />
          </div>
        ) : result ? (
          // The last year left was started meanwhile (another tab): the form is gone, the answer stays.
          <div className="mt-8">
            <Alert tone="error">{result.message}</Alert>
          </div>
        ) : null}
      </Container>
    </main>
  );
}
