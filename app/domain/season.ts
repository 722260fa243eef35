/**
 * The season's start (docs/product/engagement.md#the-seasons-start): an admin opens the new tax
 * year for a chosen set of last year's clients. Pure rules shared by the browser and the server.
 */

/** Which of last year's clients a run opens the year for. */
export const SEASON_FILTERS = ["all", "paid", "filed"] as const;
export type SeasonFilter = (typeof SEASON_FILTERS)[number];

export const SEASON_FILTER_LABELS: Record<SeasonFilter, string> = {
  all: "Every client with a case last year",
  paid: "Clients who paid last year's invoice",
  filed: "Clients whose return was e-filed last year",
};

export function isSeasonFilter(value: unknown): value is SeasonFilter {
  return typeof value === "string" && (SEASON_FILTERS as readonly string[]).includes(value);
}

/**
 * What became of one client of a run: the year opened for them, left alone (they had opened it,
 * or their account is closed), or failed (an error, logged; a later run opens it).
 */
export type SeasonOutcome = "opened" | "had-year" | "gone" | "failed";

/** How a run stands: how many clients it chose, and what became of each so far. */
export type SeasonProgress = { total: number; opened: number; hadYear: number; gone: number; failed: number };

export function doneOf(progress: SeasonProgress): number {
  return progress.opened + progress.hadYear + progress.gone + progress.failed;
}

/** The part done, as a whole percentage rounded down (100 only when every client is done). */
export function percentDone(progress: SeasonProgress): number {
  if (progress.total === 0) return 100;
  return Math.floor((doneOf(progress) * 100) / progress.total);
}

export const SEASON_MESSAGES = {
  badYear: "Choose one of the tax years that can be opened.",
  badFilter: "Choose which of last year's clients to include.",
  nobody: "No client of last year matches: there is nothing to open.",
  running: "A season's start is still under way. Wait for it to finish before starting another.",
  changed: "The number of clients has changed since you counted. Count again, then confirm.",
} as const;
