import { ArrowRight, Gauge, History } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { LocalTime } from "~/components/ui/local-time";
import { caseHref } from "~/domain/admin-links";
import { CASE_SECTIONS } from "~/domain/case-sections";
import type { CaseSectionKey, StaffNextStep } from "~/domain/case-sections";
import type { ActivityEntry } from "~/domain/cases";
import type { ResidencyStatus } from "~/domain/residency/rules";
import { STAGES, stageLabel } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { plural } from "../format";
import { ActivityList } from "./activity-section";
import { CaseSection } from "./case-section";
import { residencyGlance } from "./residency/words";

export type CaseOverview = {
  stage: StageKey;
  flags: WorkflowFlags;
  assignee: string | null;
  next: StaffNextStep;
  taxInfo: { submittedAt: string; updatedAt: string } | null;
  /** The client's residency status of the year as computed, and as staff confirmed it (null: none). */
  residency: { status: ResidencyStatus | null; confirmed: ResidencyStatus | null };
  documents: { total: number; fresh: number; shared: number };
  requestsSummary: string;
  notes: number;
  latest: readonly ActivityEntry[];
};

/**
 * The case at a glance: what to do next, the key facts of each section (each a link to it), and
 * the latest activity. The rest is in the sections.
 */
export function OverviewSection({
  clientId,
  taxYear,
  back,
  overview: o,
  children,
}: {
  clientId: string;
  taxYear: number;
  back: string;
  overview: CaseOverview;
  /** What else the overview shows (the conversation's summary), after the next step. */
  children?: ReactNode;
}) {
  const href = (section: CaseSectionKey) => caseHref(clientId, taxYear, back, section);
  const label = (section: CaseSectionKey) => CASE_SECTIONS.find((s) => s.key === section)!.label;
  const done = STAGES.filter((s) => o.flags[s.key]).length;
  return (
    <>
      <CaseSection id="overview" title="Overview" icon={<Gauge className="size-5" aria-hidden="true" />}>
        <div className="rounded-xl border border-primary-200 bg-primary-50 p-4">
          <h3 className="text-sm font-semibold tracking-wide text-primary-800 uppercase">Next step</h3>
          <div className="mt-1 flex flex-wrap items-center justify-between gap-3">
            <p className="font-medium text-ink">{o.next.text}</p>
            <ButtonLink to={href(o.next.section)} variant="secondary" size="sm" className="min-h-11 sm:min-h-0">
              {`Open ${label(o.next.section)}`}
              <ArrowRight className="size-4" aria-hidden="true" />
            </ButtonLink>
          </div>
        </div>

        <dl className="mt-5 grid gap-x-6 gap-y-4 sm:grid-cols-2" aria-label="Key facts">
          <Fact term="Stage" to={href("workflow")} link="Workflow">
            {`${stageLabel(o.stage)}, ${done} of ${STAGES.length} stages completed`}
          </Fact>
          <Fact term="Assigned to" to={href("workflow")} link="Workflow">
            {o.assignee ?? "Nobody"}
          </Fact>
          <Fact term="Taxpayer information" to={href("taxpayer")} link={label("taxpayer")}>
            {o.taxInfo ? (
              <>
                Submitted <LocalTime iso={o.taxInfo.submittedAt} />
              </>
            ) : (
              "Not submitted yet"
            )}
          </Fact>
          <Fact term="Residency" to={href("residency")} link={label("residency")}>
            {residencyGlance(o.residency)}
          </Fact>
          <Fact term="Documents" to={href("documents")} link={label("documents")}>
            {o.documents.total === 0
              ? "No documents yet"
              : `${plural(o.documents.total, "document", "documents")}, ${o.documents.shared} shared with the client${
                  o.documents.fresh > 0 ? `, ${o.documents.fresh} new since you last opened the documents` : ""
                }`}
          </Fact>
          <Fact term="Requests" to={href("requests")} link={label("requests")}>
            {o.requestsSummary}
          </Fact>
          <Fact term="Internal notes" to={href("notes")} link={label("notes")}>
            {o.notes === 0 ? "No notes yet" : plural(o.notes, "note", "notes")}
          </Fact>
        </dl>
      </CaseSection>

      {children}

      <CaseSection
        id="latest-activity"
        title="Latest activity"
        icon={<History className="size-5" aria-hidden="true" />}
        actions={
          <Link to={href("notes")} className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 hover:underline sm:min-h-0">
            All activity and notes
          </Link>
        }
      >
        <ActivityList activity={o.latest} label="Latest activity, newest first" />
      </CaseSection>
    </>
  );
}

function Fact({ term, to, link, children }: { term: string; to: string; link: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-ink-muted">{term}</dt>
      <dd className="mt-0.5 flex flex-wrap items-center justify-between gap-x-3 font-medium break-words text-ink">
        <span>{children}</span>
        <Link to={to} className="inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 hover:underline sm:min-h-0">
          {link}
          <span className="sr-only">{`: ${term}`}</span>
        </Link>
      </dd>
    </div>
  );
}
