// The staff list's residency filter (`?residency=`, docs/product/workflow.md#client-list): which
// of a year's cases it keeps, read from the residency each case stores (client_cases.residency_*,
// app/server/clients/list.server.ts residencyFilterCondition), never computed per request.

/** The staff list's residency filters, in the order the list offers them. */
export const RESIDENCY_FILTERS = ["resident", "nonresident", "dual-status", "first-year-choice", "history-missing", "flagged"] as const;
export type ResidencyFilter = (typeof RESIDENCY_FILTERS)[number];

/** The filters as the staff list names them. */
export const RESIDENCY_FILTER_LABELS: Record<ResidencyFilter, string> = {
  resident: "Resident",
  nonresident: "Nonresident",
  "dual-status": "Dual-status",
  "first-year-choice": "First-year choice open",
  "history-missing": "History missing",
  flagged: "Flagged",
};

export function isResidencyFilter(value: unknown): value is ResidencyFilter {
  return typeof value === "string" && (RESIDENCY_FILTERS as readonly string[]).includes(value);
}
