import { useMemo } from "react";
import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/residency-history";
import { CASE_LAYOUT_ID, useCaseFrame } from "~/components/admin/case/case-frame";
import type { CaseFrame } from "~/components/admin/case/case-frame";
import { staffHistoryTexts } from "~/components/portal/residency/history-edit";
import type { PageResult, PersonShown } from "~/components/portal/residency/history-edit";
import { HistoryPage } from "~/components/portal/residency/history-page";
import { caseHref } from "~/domain/admin-links";
import { seo } from "~/seo";
import { NO_STORE } from "~/server/auth/session.server";
import { caseNotFound, caseOfRoute } from "~/server/cases/case-action.server";
import { historyAction, historyPeople } from "~/server/residency/history-action.server";
import { ownCaseFacts, readHistory } from "~/server/residency/history.server";

// Staff edit a client's visa and travel history from the case
// (/admin/clients/:clientId/:year/residency/history, docs/product/residency.md#where-it-is-kept-and-when-it-is-computed):
// the client's own page's forms (app/components/portal/residency), in staff's words and without
// the foreign balances (a fact of the case, set on the Residency section). Every form posts here
// and is answered by the action the client's page shares
// (app/server/residency/history-action.server.ts): checked field by field, saved whole or not at
// all, audited with the staff member as the actor, and the residency of every case of the client
// computed again. The client is the address's, never the form's.

export const meta: Route.MetaFunction = (args) => {
  const frame = args.matches.find((m) => m?.id === CASE_LAYOUT_ID)?.data as CaseFrame | undefined;
  return seo(args, {
    title: frame ? `Visa and travel history, case ${frame.client.code}, tax year ${frame.taxYear}` : "Visa and travel history",
    description: "A client's visa and travel history.",
    noindex: true,
  });
};

export function headers() {
  return NO_STORE;
}

export type StaffHistoryData = {
  people: PersonShown[];
  savedAt: string | null;
  /** The client's tax years with a case, newest first (each case's Residency section shows that year's). */
  years: number[];
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const { staff, client } = await caseOfRoute({ params, context });
  const [view, facts] = await Promise.all([readHistory(staff, client.id), ownCaseFacts(client.id)]);
  if (!view) caseNotFound();
  return data<StaffHistoryData>({ people: historyPeople(view), savedAt: view.savedAt, years: facts.map((f) => f.taxYear) }, { headers: NO_STORE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { staff, client } = await caseOfRoute({ params, context });
  const answer = await historyAction(staff, client.id, request, context.clientIp, {
    texts: staffHistoryTexts({ id: client.id, name: client.name }),
    foreign: false,
    scope: "admin",
  });
  if (!answer) caseNotFound();
  return data<PageResult>(answer.result, { status: answer.status, headers: NO_STORE });
}

export default function CaseResidencyHistory() {
  const { people, years } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { client, taxYear, back } = useCaseFrame();
  const texts = useMemo(() => staffHistoryTexts(client, back), [client, back]);
  return (
    <div>
      <HistoryPage
        key={`${client.id}/${taxYear}`}
        texts={texts}
        backTo={caseHref(client.id, taxYear, back, "residency")}
        level={2}
        people={people}
        years={years}
        result={result}
      />
    </div>
  );
}
