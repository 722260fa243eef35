import { data, Link, Outlet, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/case";
import { CaseHeader } from "~/components/admin/case/case-header";
import { CaseSectionNav } from "~/components/admin/case/section-nav";
import { Alert } from "~/components/ui/field";
import { caseHref, dashboardReturn } from "~/domain/admin-links";
import { CASE_SECTIONS, caseSectionOfPath } from "~/domain/case-sections";
import { LETTER_MARKS, letterMarkOf } from "~/domain/engagement";
import { openableYears } from "~/domain/tax-year";
import { seo } from "~/seo";
import { invitationStanding } from "~/server/clients/invitations.server";
import { recordAudit } from "~/server/audit/audit.server";
import { clientCaseYears } from "~/server/cases/case-page.server";
import { caseAction, caseOfRoute } from "~/server/cases/case-action.server";
import { NO_STORE } from "~/server/auth/session.server";
import { letterRequired, letterState } from "~/server/engagement/letters.server";

// A client's case of one tax year (docs/product/workflow.md#the-case-page): the frame every
// section shares (who the case is about, its years, the section navigation). Each section is a
// route of its own under this one (app/routes.ts) and loads only its own data.

/** The case's title, after the section's name (a section without a meta of its own shows this one). */
export const meta: Route.MetaFunction = (args) => {
  const section = CASE_SECTIONS.find((s) => s.key === caseSectionOfPath(args.location.pathname));
  const prefix = section && section.key !== "overview" ? `${section.label}, case` : "Case";
  return seo(args, {
    title: args.loaderData
      ? `${prefix} ${args.loaderData.client.code}, tax year ${args.loaderData.taxYear}`
      : "Client case",
    description: "A client's case of one tax year.",
    noindex: true,
  });
};

export function headers() {
  return NO_STORE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const back = dashboardReturn(new URL(request.url).searchParams.get("back"));
  const [years, invitation, letter, letterNeeded] = await Promise.all([
    clientCaseYears(client.id),
    invitationStanding(client.id),
    letterState({ clientId: client.id, taxYear }),
    letterRequired(),
  ]);
  // Once per visit to the case (moving between its sections does not load this frame again).
  await recordAudit({ actor: staff, action: "case-viewed", clientId: client.id, taxYear, ip: context.clientIp });
  const mark = letterMarkOf(letter, letterNeeded);
  return data(
    {
      client: { id: client.id, code: client.code, name: client.name, email: client.email },
      taxYear,
      back,
      years,
      openable: openableYears().filter((y) => !years.includes(y)),
      stage: client.stage,
      invitationPending: invitation === "pending",
      // The case is marked while its engagement letter is not accepted and the firm requires one.
      letterMark: mark ? LETTER_MARKS[mark] : null,
    },
    { headers: NO_STORE },
  );
}

/**
 * The case's own address takes every change of the case page: the header's forms (send the
 * invitation again, open another year) post here, and so may a form of a section.
 */
export function action(args: Route.ActionArgs) {
  return caseAction(args);
}

export default function CaseLayout() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // A section's change sent to the case's own address (a page from before the sections): its answer.
  const other =
    result && result.intent !== "open-year" && result.intent !== "resend-invitation" && "message" in result
      ? result
      : undefined;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <CaseHeader
        client={d.client}
        taxYear={d.taxYear}
        back={d.back}
        years={d.years}
        openable={d.openable}
        stage={d.stage}
        result={result?.intent === "open-year" ? result : undefined}
        invitationPending={d.invitationPending}
        invitationResult={result?.intent === "resend-invitation" ? result : undefined}
        aside={
          d.letterMark ? (
            <Link
              to={caseHref(d.client.id, d.taxYear, d.back, "engagement")}
              className="inline-flex min-h-11 max-w-64 items-center rounded-lg border border-accent-500 bg-accent-50 px-3 py-1.5 text-right text-sm font-semibold text-ink hover:underline sm:min-h-0"
            >
              {d.letterMark}
            </Link>
          ) : null
        }
      />
      <CaseSectionNav clientId={d.client.id} taxYear={d.taxYear} back={d.back} />

      {other ? <Alert tone={other.ok ? "success" : "error"}>{other.message}</Alert> : null}
      <Outlet />
    </div>
  );
}
