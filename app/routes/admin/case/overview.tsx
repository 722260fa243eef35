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
import { consentStandings } from "~/server/consents/consents.server";
import type { ConsentStanding } from "~/server/consents/consents.server";

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
  const [documents, requests, messages, notes, activity, consents] = await Promise.all([
    listCaseDocuments(staff, client.id, taxYear),
    listCaseRequests(staff, client.id, taxYear),
    caseMessagesSummary(client.id, taxYear),
    listNotes(client.id, taxYear),
    caseActivity(client.id, taxYear),
    consentStandings(client.id),
  ]);
  const fresh = documents.filter((d) => d.isNew).length;
  return data(
    {
      messages,
      consents,
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
      <ConsentsGlance consents={d.consents} />
    </OverviewSection>
  );
}

/**
 * The client's consents under section 7216 at a glance (docs/product/engagement.md#consents-under-section-7216):
 * without the consent to use in force, the firm mails them no offers of other services.
 */
function ConsentsGlance({ consents }: { consents: ConsentStanding[] }) {
  const use = consents.find((c) => c.kind === "use");
  return (
    <p className="rounded-xl bg-surface px-4 py-2 text-sm text-ink" data-testid="consents-glance">
      <span className="font-semibold">Consents under section 7216: </span>
      {consents.map((c, i) => (
        <span key={c.kind}>
          {i > 0 ? "; " : ""}
          <span className="font-medium">{c.title}:</span> {c.inForce ? c.note : "Not in force."}
        </span>
      ))}{" "}
      <span className="text-ink-muted">{use?.inForce ? "Offers of the firm's other services may be mailed to this client." : "No offers of the firm's other services are mailed to this client."}</span>
    </p>
  );
}
