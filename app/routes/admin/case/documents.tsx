import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/documents";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { DocumentsSection } from "~/components/admin/case/documents-section";
import { Alert } from "~/components/ui/field";
import { caseAction, caseOfRoute } from "~/server/cases/case-action.server";
import { markCaseViewed } from "~/server/cases/cases.server";
import { listCaseDocuments } from "~/server/documents/listing.server";
import { caseLetters, signedLettersOf } from "~/server/engagement/letters.server";
import { NO_STORE } from "~/server/auth/session.server";

// The case's documents (/admin/clients/:clientId/:year/documents): Share and Stop sharing post here.

export function headers() {
  return NO_STORE;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  // The documents are read before the view is recorded: the client's uploads since this staff
  // member last opened the documents are marked new on this visit.
  const [documents, letters] = await Promise.all([listCaseDocuments(staff, client.id, taxYear), caseLetters({ clientId: client.id, taxYear })]);
  await markCaseViewed(staff.id, client.id, taxYear);
  return data({ documents, signedLetters: signedLettersOf(letters) }, { headers: NO_STORE });
}

export function action(args: Route.ActionArgs) {
  return caseAction(args, ["share", "unshare"]);
}

export default function CaseDocuments() {
  const { documents, signedLetters } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  return (
    <>
      {result?.intent === "unknown" ? <Alert tone="error">{result.message}</Alert> : null}
      <DocumentsSection
        key={`${frame.client.id}/${frame.taxYear}`}
        clientId={frame.client.id}
        taxYear={frame.taxYear}
        back={frame.back}
        documents={documents}
        signedLetters={signedLetters}
        result={result?.intent === "share" || result?.intent === "unshare" ? result : undefined}
      />
    </>
  );
}
