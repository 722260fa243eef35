/**
 * Tax facts that change with the year. A tax firm's pages are read as advice, so every fact here
 * names the tax year it applies to, and the pages print that year next to the fact
 * (docs/product/public-site.md#tax-facts).
 *
 * Update once a year, after the IRS and FinCEN publish the new figures and dates. When a due date
 * falls on a Saturday, Sunday or legal holiday it moves to the next business day: write the moved
 * date here, never a weekend date.
 */

/** The tax year (calendar year) the current facts apply to. */
export const TAX_YEAR = 2026;

/** "$10,000" from 10000. */
export function formatUsd(amount: number): string {
  return `$${amount.toLocaleString("en-US")}`;
}

/** Federal individual income tax return dates (Form 1040 and Form 1040-NR). */
export const returnDates = {
  taxYear: TAX_YEAR,
  /** Returns and any tax owed; also the last day to file Form 4868. */
  dueDate: "April 15, 2027",
  /** With Form 4868 filed on time: the time to file, not the time to pay. */
  extendedDueDate: "October 15, 2027",
  /** Form 1040-NR filers who had no US wages subject to withholding. */
  nonresidentNoWagesDueDate: "June 15, 2027",
  nonresidentNoWagesExtendedDueDate: "December 15, 2027",
  /** US citizens and residents living outside the US on the due date: two extra months to file and pay. */
  livingAbroadDueDate: "June 15, 2027",
  /** Last day for most planning moves that count for the tax year. */
  yearEnd: "December 31, 2026",
  /** IRA contributions for the tax year may be made up to the return's due date (not extensions). */
  iraContributionDeadline: "April 15, 2027",
} as const;

/**
 * FBAR (FinCEN Form 114). The $10,000 threshold is fixed by regulation (31 CFR 1010.306(c)) and
 * is not indexed; the due dates follow the calendar year reported.
 */
export const fbarFacts = {
  calendarYear: TAX_YEAR,
  /** Aggregate (total) value of all foreign financial accounts at any time in the calendar year. */
  threshold: 10_000,
  dueDate: "April 15, 2027",
  /** Automatic; no request is needed. */
  extendedDueDate: "October 15, 2027",
} as const;

/** One row of the Form 8938 reporting thresholds (total value of specified foreign financial assets). */
export type FatcaThreshold = {
  filer: string;
  /** Report if the total is more than this on the last day of the tax year… */
  lastDay: number;
  /** …or more than this at any time during the tax year. */
  anyTime: number;
};

/**
 * FATCA, Form 8938 (Statement of Specified Foreign Financial Assets), filed with the income tax
 * return. Thresholds depend on filing status and on where the taxpayer lives ("living abroad"
 * means meeting the bona fide residence or physical presence test). Not indexed for inflation.
 */
export const fatcaFacts = {
  taxYear: TAX_YEAR,
  thresholds: [
    { filer: "Unmarried, living in the US", lastDay: 50_000, anyTime: 75_000 },
    { filer: "Married filing jointly, living in the US", lastDay: 100_000, anyTime: 150_000 },
    { filer: "Married filing separately, living in the US", lastDay: 50_000, anyTime: 75_000 },
    { filer: "Unmarried or married filing separately, living abroad", lastDay: 200_000, anyTime: 300_000 },
    { filer: "Married filing jointly, living abroad", lastDay: 400_000, anyTime: 600_000 },
  ],
} as const satisfies { taxYear: number; thresholds: readonly FatcaThreshold[] };

/** The plain-English label pages print next to year-dependent facts. */
export const taxYearLabel = `Tax year ${TAX_YEAR}`;
