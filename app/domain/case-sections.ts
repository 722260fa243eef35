/**
 * The sections of the staff's case page (docs/product/workflow.md#the-case-page): each has its own
 * address under /admin/clients/:clientId/:year, and the case's section navigation lists them in
 * this order. Pure rules shared by the browser and the server.
 */
import type { StageKey } from "./workflow";
import { stageLabel } from "./workflow";

export type CaseSectionKey = "overview" | "taxpayer" | "residency" | "documents" | "requests" | "messages" | "workflow" | "return" | "fee" | "engagement" | "notes";

export type CaseSectionLink = {
  key: CaseSectionKey;
  /** The section's last path segment after /admin/clients/:clientId/:year ("" for the overview). */
  path: string;
  label: string;
};

/**
 * The section navigation, in order. A new part of the case (the return's versions and signature,
 * the fee) becomes a section here, with its route under the case layout in app/routes.ts and its
 * pattern in domain/policy.ts STAFF_ROUTES; a section is listed only once its page exists.
 */
export const CASE_SECTIONS: readonly CaseSectionLink[] = [
  { key: "overview", path: "", label: "Overview" },
  { key: "taxpayer", path: "taxpayer", label: "Taxpayer information" },
  { key: "residency", path: "residency", label: "Residency" },
  { key: "documents", path: "documents", label: "Documents" },
  { key: "requests", path: "requests", label: "Requests" },
  { key: "messages", path: "messages", label: "Messages" },
  { key: "workflow", path: "workflow", label: "Workflow" },
  { key: "return", path: "return", label: "Return" },
  { key: "fee", path: "fee", label: "Fee" },
  { key: "engagement", path: "engagement", label: "Engagement" },
  { key: "notes", path: "notes", label: "Notes & activity" },
];

/** The path of a case's section, without any search. */
export function caseSectionPath(clientId: string, taxYear: number, section: CaseSectionKey = "overview"): string {
  const base = `/admin/clients/${encodeURIComponent(clientId)}/${taxYear}`;
  const path = CASE_SECTIONS.find((s) => s.key === section)?.path ?? "";
  return path === "" ? base : `${base}/${path}`;
}

/** The section a case page's path shows (its last segment), or null for a path of no section. */
export function caseSectionOfPath(pathname: string): CaseSectionKey | null {
  const match = /^\/admin\/clients\/[^/]+\/\d{4}(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return null;
  const segment = (match[1] ?? "").toLowerCase();
  return CASE_SECTIONS.find((s) => s.path === segment)?.key ?? null;
}

/** What the overview says staff should do next on a case, and the section where it is done. */
export type StaffNextStep = { text: string; section: CaseSectionKey };

/**
 * The overview's next step, the most pressing first: a client waiting for a reply, answers to
 * requested items waiting for review, the client's uploads not yet looked at, taxpayer information
 * not sent yet (nothing to prepare without it), else the current stage's work.
 */
export function staffNextStep(facts: {
  stage: StageKey;
  complete: boolean;
  clientWaiting: boolean;
  requestsToReview: number;
  newDocuments: number;
  taxpayerSent: boolean;
}): StaffNextStep {
  if (facts.clientWaiting) return { text: "Reply to the client: they are waiting for an answer.", section: "messages" };
  if (facts.requestsToReview > 0)
    return {
      text:
        facts.requestsToReview === 1
          ? "Review the client's answer to a requested item."
          : `Review the client's answers to ${facts.requestsToReview} requested items.`,
      section: "requests",
    };
  if (facts.newDocuments > 0)
    return {
      text:
        facts.newDocuments === 1
          ? "Look at the document the client uploaded."
          : `Look at the ${facts.newDocuments} documents the client uploaded.`,
      section: "documents",
    };
  if (facts.complete) return { text: "Nothing to do: every stage of this case is complete.", section: "workflow" };
  if (!facts.taxpayerSent)
    return { text: "Wait for the client's taxpayer information: they have not sent it yet.", section: "taxpayer" };
  return {
    text: `Work on ${stageLabel(facts.stage)}, then mark it completed in the workflow.`,
    section: "workflow",
  };
}
