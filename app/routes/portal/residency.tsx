import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/residency";
import { HistoryPage } from "~/components/portal/residency/history-page";
import { RESIDENCY_PAGE_TEXTS as T } from "~/components/portal/residency/history-edit";
import type { PageResult, ResidencyPageData } from "~/components/portal/residency/history-edit";
import { Container } from "~/components/ui/container";
import { seo } from "~/seo";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { historyAction, historyPeople } from "~/server/residency/history-action.server";
import { ownCaseFacts, readHistory } from "~/server/residency/history.server";

// The client's own visa and travel history (docs/product/residency.md#the-history): their status
// periods and stays, and their household's, which decide the residency of each of their cases.
// Plain forms that work without JavaScript, each posting here with its intent, answered by the
// action staff's page shares (app/server/residency/history-action.server.ts): every change reads
// the whole history, makes the one change and saves the whole of it (saveHistory checks every
// field: nothing is saved when one is wrong). Only ever the signed-in client's own history: no
// client id is read from the browser. Staff edit a client's history from the case page
// (/admin/clients/:clientId/:year/residency/history): here they get a 404.

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: T.title, description: "Your visa and travel history, which decides your residency for tax.", noindex: true });

export function headers() {
  return NO_STORE;
}

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The signed-in client; anyone else (staff) finds no such page. */
function ownClient(context: Route.LoaderArgs["context"]): SessionUser {
  const user = context.get(userContext);
  if (user.role !== "user") notFound();
  return user;
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = ownClient(context);
  const [view, facts] = await Promise.all([readHistory(user, user.id), ownCaseFacts(user.id)]);
  if (!view) notFound();
  return data<ResidencyPageData>(
    {
      people: historyPeople(view),
      savedAt: view.savedAt,
      years: facts.map((f) => f.taxYear),
      foreign: facts.map((f) => ({ year: f.taxYear, highestCents: f.foreignAccountsHighestCents })),
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  // The history is always the signed-in client's own: no id from the browser is read.
  const user = ownClient(context);
  const answer = await historyAction(user, user.id, request, context.clientIp, { texts: T, foreign: true, scope: "portal" });
  if (!answer) notFound();
  return data<PageResult>(answer.result, { status: answer.status, headers: NO_STORE });
}

export default function Residency() {
  const { people, years, foreign } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-4xl">
        <HistoryPage texts={T} backTo="/my-tax-filing" level={1} people={people} years={years} foreign={foreign} result={result} />
      </Container>
    </main>
  );
}
