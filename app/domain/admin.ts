import { formField } from "./auth";
import type { LetterMark } from "./engagement";
import { isResidencyFilter } from "./residency/filters";
import type { ResidencyFilter } from "./residency/filters";
import type { ResidencyStatus } from "./residency/rules";
import { isReturnFilter } from "./returns";
import type { ReturnFilter } from "./returns";
import { currentFilingYear, parseTaxYear } from "./tax-year";
import { UUID_SHAPE } from "./validation";
import { currentStage, isStageKey, STAGE_KEYS } from "./workflow";
import type { StageKey, WorkflowFlags } from "./workflow";
import { z } from "./zod";

export const ADMIN_PAGE_SIZE = 10;

/** One client as the admin panel lists it. */
export type AdminClientRow = {
  id: string;
  /** Short readable client id, e.g. TB-00042. */
  code: string;
  name: string;
  email: string;
  assignee: { id: string; name: string; email: string } | null;
  stage: StageKey;
  flags: WorkflowFlags;
  documentCount: number;
  /** ISO timestamp. */
  createdAt: string;
  /** The case's tax year (the panel shows one year at a time). */
  taxYear: number;
  /** When the client first sent the year's taxpayer information and last changed it (ISO); null before. */
  taxInfo: { submittedAt: string; updatedAt: string } | null;
  /** Documents the client uploaded since the acting staff member last opened the case. */
  newUploads: number;
  /** Items requested from the client that they still owe (requested or returned). */
  outstandingRequests: number;
  /** The client's messages on the case that no staff member has read yet. */
  unreadMessages: number;
  /** Where the case's engagement letter stands while the firm requires an accepted one and it is not (the draft waits); null otherwise. */
  letter: LetterMark | null;
};

/**
 * One case of the export (Export Data): the list's columns but the counts of requested items,
 * messages and new uploads; with the client's residency as the case stores it (computed, and as
 * staff confirmed it: null when not).
 */
export type ExportedCase = Omit<AdminClientRow, "outstandingRequests" | "unreadMessages" | "newUploads" | "letter"> & {
  residency: { status: ResidencyStatus | null; confirmed: ResidencyStatus | null };
};

/** The panel's state, kept in the URL: ?year=&section=&q=&stage=&return=&residency=&page= */
export type AdminQuery = {
  year: number;
  section: StageKey;
  q: string;
  stage: StageKey | "all";
  /** The return filter (`?return=`): cases waiting for approval, for a signature, or rejected. */
  returnFilter: ReturnFilter | "all";
  /** The residency filter (`?residency=`): the client's stored residency status, an open first-year choice, history missing, flagged. */
  residencyFilter: ResidencyFilter | "all";
  page: number;
};

export type AdminCounters = { total: number; active: number; pendingDocuments: number; completed: number };

export type StaffMember = { id: string; name: string; email: string };

/** Add New Client's answers. */
export const ADD_CLIENT_MESSAGES = {
  exists: "An account with this e-mail already exists.",
  sent: (email: string, again: boolean) =>
    again
      ? `This client's account was still waiting for its password: a new invitation is being e-mailed to ${email}.`
      : `The invitation is being e-mailed to ${email}.`,
} as const;

/** The most cases "Assign selected" takes at once (a page holds ADMIN_PAGE_SIZE). */
export const MAX_ASSIGN_AT_ONCE = 100;

/** The value of the bulk bar's "Unassigned" choice (a staff member's id is never this). */
export const UNASSIGNED = "unassigned";

/** What assigning from the client list answers. */
export const ASSIGN_MESSAGES = {
  assigned: (client: string, assignee: string | null) =>
    assignee ? `${client} is now assigned to ${assignee}.` : `${client} is now unassigned.`,
  assignedSelected: (count: number, assignee: string | null) => {
    const clients = count === 1 ? "1 client" : `${count} clients`;
    return assignee ? `${clients} assigned to ${assignee}.` : `${clients} now unassigned.`;
  },
  nothingSelected: "Select at least one client to assign.",
  tooMany: `Select at most ${MAX_ASSIGN_AT_ONCE} clients at a time.`,
  chooseAssignee: "Choose the staff member to assign the selected clients to.",
  noSuchStaff: "This staff member is not on the active staff. Choose someone from the list.",
  otherYear: (year: number) =>
    `Some of the selected clients have no case for tax year ${year}. Nothing was assigned: reload the list and try again.`,
  noSuchCase: (year: number) => `This client has no case for tax year ${year}. Reload the list and try again.`,
} as const;

/** What /admin/dashboard's loader sends. */
export type AdminDashboardData = {
  query: AdminQuery;
  rows: AdminClientRow[];
  /** Clients matching section + search + stage, return and residency filters (before paging). */
  matching: number;
  counters: AdminCounters;
  /** How many of the year's cases each return filter keeps (absent for staff outside the United States: counted over every case). */
  returnCounts?: Record<ReturnFilter, number>;
  /** How many of the year's cases each residency filter keeps (absent as returnCounts is). */
  residencyCounts?: Record<ResidencyFilter, number>;
  staff: StaffMember[];
  pageCount: number;
  /** The tax years the selector offers, newest first (those with cases, and the season's). */
  years: number[];
};

export function clientCode(n: number): string {
  return `TB-${String(n).padStart(5, "0")}`;
}

/**
 * The highest page number the list is asked for: far past any real list (a hundred million
 * clients), and small enough that its offset stays an exact integer. A larger number in the URL
 * reads as this one, and the page past the end shows the last page.
 */
export const MAX_PAGE = 10_000_000;

/** Reads the panel's state from the URL, falling back to defaults for anything unknown. */
export function parseAdminQuery(params: URLSearchParams, now: Date = new Date()): AdminQuery {
  const section = params.get("section");
  const stage = params.get("stage");
  const returnFilter = params.get("return");
  const residencyFilter = params.get("residency");
  const page = Math.min(Number.parseInt(params.get("page") ?? "1", 10), MAX_PAGE);
  return {
    year: parseTaxYear(params.get("year"), now) ?? currentFilingYear(now),
    section: isStageKey(section) ? section : "home",
    q: (params.get("q") ?? "").trim().slice(0, 100),
    stage: isStageKey(stage) ? stage : "all",
    returnFilter: isReturnFilter(returnFilter) ? returnFilter : "all",
    residencyFilter: isResidencyFilter(residencyFilter) ? residencyFilter : "all",
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** The URL search string for a panel state (defaults left out). */
export function adminQueryString(q: AdminQuery, overrides: Partial<AdminQuery> = {}, now: Date = new Date()): string {
  const next = { ...q, ...overrides };
  const params = new URLSearchParams();
  if (next.year !== currentFilingYear(now)) params.set("year", String(next.year));
  if (next.section !== "home") params.set("section", next.section);
  if (next.q) params.set("q", next.q);
  if (next.stage !== "all") params.set("stage", next.stage);
  if (next.returnFilter !== "all") params.set("return", next.returnFilter);
  if (next.residencyFilter !== "all") params.set("residency", next.residencyFilter);
  if (next.page > 1) params.set("page", String(next.page));
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** "Showing 11-20 of 37 clients": pages of 10 (docs/product/workflow.md#client-list). */
export function showingText(page: number, pageSize: number, matching: number): string {
  if (matching === 0) return "Showing 0 of 0 clients";
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, matching);
  return `Showing ${from}-${to} of ${matching} clients`;
}

/** Flags from a workflow form's ticked tiles: each stage key sent is completed; anything else is ignored. */
export function workflowFrom(completed: readonly string[]): { flags: WorkflowFlags; stage: StageKey } {
  const done = new Set(completed);
  const flags = Object.fromEntries(STAGE_KEYS.map((k) => [k, done.has(k)])) as WorkflowFlags;
  return { flags, stage: currentStage(flags) };
}

// ---------------------------------------------------------------------------------------------
// The panel's forms (read by app/server/http/form.server.ts parseForm). A field sent twice counts
// once, as its first value, except the ones that are lists.

/** Every value of a field that may be sent several times (ticked tiles, chosen documents). */
const allValues = z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(z.string()));

/**
 * An account id as sent: null when it cannot name an account. An id with a NUL character in it
 * names none, and the database would refuse it in a query.
 */
const accountId = formField.transform((id) => (id.includes("\u0000") ? null : id));

/**
 * A case's tax year as a form sends it: the filing season's when the form sends none, null when
 * it sends one the product does not know.
 */
export const taxYearField = formField.transform((raw) => (raw === "" ? currentFilingYear() : parseTaxYear(raw)));

/** "View case" on a client's row: the audit trail records that staff opened it. */
export const ViewCaseForm = z.object({ intent: z.literal("view-case"), clientId: accountId, taxYear: taxYearField });

/** A case's workflow: the completed stages and the staff member assigned ("" for nobody). */
export const SaveWorkflowForm = z.object({
  intent: z.literal("save-workflow"),
  clientId: accountId,
  taxYear: taxYearField,
  assigneeId: accountId,
  completed: allValues.transform(workflowFrom),
});

/** "Assigned To" on a client's row: the staff member chosen ("" for nobody). */
export const AssignForm = z.object({
  intent: z.literal("assign"),
  clientId: accountId,
  taxYear: taxYearField,
  assigneeId: accountId,
});

/**
 * The bulk bar's "Assign selected": the ticked rows (`selected`, null when one cannot name an
 * account), the year shown, and the staff member ("" when none was chosen, UNASSIGNED for nobody).
 */
export const AssignSelectedForm = z.object({
  intent: z.literal("assign-selected"),
  taxYear: taxYearField,
  assigneeId: accountId,
  selected: allValues.transform((ids) => (ids.some((id) => id.includes("\u0000")) ? null : [...new Set(ids)])),
});

/**
 * Remove on a client's documents: every id sent. One that holds a NUL character names no
 * document (the database would refuse it in a query) and is left out of the removal.
 */
export const RemoveDocumentsForm = z.object({
  intent: formField,
  documentIds: allValues.transform((ids) => ({ sent: ids.length, usable: ids.filter((id) => !id.includes("\u0000")) })),
});

/**
 * The panel's forms on one page, told apart by their intent (sent twice, the first counts). A
 * form with no known intent is refused on the field "intent".
 */
export function formsByIntent<const O extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(forms: O) {
  return z.preprocess(
    (raw) => (raw && typeof raw === "object" && "intent" in raw ? { ...raw, intent: [raw.intent].flat()[0] } : raw),
    z.discriminatedUnion("intent", forms),
  );
}

/** The contact messages page's one button. A UUID's exact shape: anything else would make the database refuse the query. */
export const MarkHandledForm = z.object({
  intent: formField.pipe(z.literal("mark-handled")),
  messageId: formField.pipe(z.string().regex(UUID_SHAPE)),
});

/** A CSV cell: quoted, and neutralised when a spreadsheet would read it as a formula. */
export function csvCell(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
