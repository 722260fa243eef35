import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/notes";
import { ActivitySection } from "~/components/admin/case/activity-section";
import { NotesSection } from "~/components/admin/case/notes-section";
import { Alert } from "~/components/ui/field";
import { caseActivity } from "~/server/cases/case-page.server";
import { caseAction, caseOfRoute } from "~/server/cases/case-action.server";
import { listNotes } from "~/server/cases/cases.server";
import { NO_STORE } from "~/server/auth/session.server";

// The case's internal notes and its activity (/admin/clients/:clientId/:year/notes): Add note
// posts here.

export function headers() {
  return NO_STORE;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { client, taxYear } = await caseOfRoute({ params, context });
  const [notes, activity] = await Promise.all([listNotes(client.id, taxYear), caseActivity(client.id, taxYear)]);
  return data({ notes, activity }, { headers: NO_STORE });
}

export function action(args: Route.ActionArgs) {
  return caseAction(args, ["add-note"]);
}

export default function CaseNotes() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      {result?.intent === "unknown" ? <Alert tone="error">{result.message}</Alert> : null}
      <NotesSection notes={d.notes} result={result?.intent === "add-note" ? result : undefined} />
      <ActivitySection activity={d.activity} />
    </>
  );
}
