/**
 * Tax years: one case per client per tax year (docs/product/workflow.md#cases-per-tax-year). Pure
 * rules shared by the browser and the server.
 */
import { newYorkDay } from "./business-days";

/**
 * The tax year of the current filing season: returns for a calendar year are filed in the
 * following year, so all through 2026 (New York's, the firm's calendar) the firm files (and
 * extends, and amends) 2025 returns. The database's default for a new client's case follows the
 * same rule (client_cases.tax_year in server/db/schema.ts).
 */
export function currentFilingYear(now: Date = new Date()): number {
  return Number(newYorkDay(now).slice(0, 4)) - 1;
}

/** How many earlier years a client may still start: late and amended returns go back three years. */
export const EARLIER_YEARS_OPEN = 3;

/** The oldest tax year the product knows (the firm's first season). */
export const FIRST_TAX_YEAR = 2020;

/** The years a case can be opened for, newest first: the filing season's year and three before it. */
export function openableYears(now: Date = new Date()): number[] {
  const newest = currentFilingYear(now);
  const years: number[] = [];
  for (let y = newest; y >= Math.max(FIRST_TAX_YEAR, newest - EARLIER_YEARS_OPEN); y--) years.push(y);
  return years;
}

/** A tax year as sent in a URL or a form, when it is one the product knows; else null. */
export function parseTaxYear(raw: unknown, now: Date = new Date()): number | null {
  if (typeof raw !== "string" || !/^\d{4}$/.test(raw)) return null;
  const year = Number(raw);
  return year >= FIRST_TAX_YEAR && year <= currentFilingYear(now) + 1 ? year : null;
}

/**
 * The tax year a staff URL names with `?year=`: the filing season's when it names none, null
 * when it names one the product does not know (the page answers 404).
 */
export function yearFromSearch(params: URLSearchParams, now: Date = new Date()): number | null {
  const raw = params.get("year");
  return raw === null ? currentFilingYear(now) : parseTaxYear(raw, now);
}
