import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/overview";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { CaseMessagesLink } from "~/components/admin/case/messages-link";
import { OverviewSection } from "~/components/admin/case/overview-section";
import { staffNextStep } from "~/domain/case-sections";
import { caseComplete } from "~/domain/workflow";
import { awaitingReview, staffRequestSummary } from "~/domain/requests";
import { caseActivity } from "~/server/cases/case-page.server";
import { caseOfRoute } from "~/server/cases/case-action.server";
import { listNotes } from "~/server/cases/cases.server";
import { listCaseDocuments } from "~/server/documents/listing.server";
import { caseMessagesSummary } from "~/server/messages/unread.server";
import { listCaseRequests } from "~/server/requests/requests.server";
import { NO_STORE } from "~/server/auth/session.server";

// The case's overview (/admin/clients/:clientId/:year): the next step, the key facts of each
// section and the latest activity. Reading it marks nothing seen: the client's uploads stay new
// until the Documents section is opened.

/** How many of the latest activity entries the overview shows (the rest are under Notes & activity). */
const LATEST = 5;

export function headers() {
  return NO_STORE;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const [documents, requests, messages, notes, activity] = await Promise.all([
    listCaseDocuments(staff, client.id, taxYear),
    listCaseRequests(staff, client.id, taxYear),
    caseMessagesSummary(client.id, taxYear),
    listNotes(client.id, taxYear),
    caseActivity(client.id, taxYear),
  ]);
  const fresh = documents.filter((d) => d.isNew).length;
  return data(
    {
      messages,
      overview: {
        stage: client.stage,
        flags: client.flags,
        assignee: client.assignee?.name ?? null,
        next: staffNextStep({
          stage: client.stage,
          complete: caseComplete(client.flags),
          clientWaiting: messages.waitingSince !== null,
          requestsToReview: awaitingReview(requests),
          newDocuments: fresh,
          taxpayerSent: client.taxInfo !== null,
        }),
        taxInfo: client.taxInfo,
        // The stored residency status of the year and its confirmation: columns of the case row the page already read (caseOfRoute).
        residency: client.residency,
        documents: {
          total: documents.length,
          fresh,
          shared: documents.filter((d) => !d.uploadedBy?.client && d.sharedAt !== null).length,
        },
        requestsSummary: staffRequestSummary(requests),
        notes: notes.length,
        latest: activity.slice(0, LATEST),
      },
    },
    { headers: NO_STORE },
  );
}

export default function CaseOverview() {
  const d = useLoaderData<typeof loader>();
  const frame = useCaseFrame();
  return (
    <OverviewSection clientId={frame.client.id} taxYear={frame.taxYear} back={frame.back} overview={d.overview}>
      <CaseMessagesLink clientId={frame.client.id} taxYear={frame.taxYear} summary={d.messages} />
    </OverviewSection>
  );
}
