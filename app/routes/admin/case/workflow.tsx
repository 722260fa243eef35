import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/workflow";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { WorkflowSection } from "~/components/admin/case/workflow-section";
import { Alert } from "~/components/ui/field";
import { caseAction, caseOfRoute } from "~/server/cases/case-action.server";
import { listStaff } from "~/server/team/active-staff.server";
import { NO_STORE } from "~/server/auth/session.server";

// The case's workflow (/admin/clients/:clientId/:year/workflow): the eight stages and the
// assignee; Save Changes posts here.

export function headers() {
  return NO_STORE;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { client } = await caseOfRoute({ params, context });
  return data(
    {
      workflow: { stage: client.stage, flags: client.flags, assignee: client.assignee },
      staff: await listStaff(),
    },
    { headers: NO_STORE },
  );
}

export function action(args: Route.ActionArgs) {
  return caseAction(args, ["save-workflow"]);
}

export default function CaseWorkflow() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  return (
    <>
      {result?.intent === "unknown" ? <Alert tone="error">{result.message}</Alert> : null}
      <WorkflowSection
        key={`${frame.client.id}/${frame.taxYear}`}
        clientId={frame.client.id}
        taxYear={frame.taxYear}
        workflow={d.workflow}
        staff={d.staff}
        result={result?.intent === "save-workflow" ? result : undefined}
      />
    </>
  );
}
