import { eq, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { RESIDENCY_FILTERS } from "~/domain/residency/filters";
import type { ResidencyFilter } from "~/domain/residency/filters";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { residencyTallies } from "~/server/db/schema";

// The staff list's residency counts (beside the return filter's, server/returns/timeline.server.ts
// returnFilterCounts): how many of a year's cases each residency filter keeps, read from the
// tallies the database keeps of the residency each case stores (residency_tallies, migration
// 0025): a few rows, however many cases; never computed per request.

/** Each filter's keys in the tallies: the same conditions the list applies (clients/list.server.ts residencyFilterCondition). */
const TALLY_CONDITION: Record<ResidencyFilter, SQL> = {
  resident: sql`${residencyTallies.residencyStatus} = 'resident'`,
  nonresident: sql`${residencyTallies.residencyStatus} = 'nonresident'`,
  "dual-status": sql`${residencyTallies.residencyStatus} = 'dual-status'`,
  "first-year-choice": sql`${residencyTallies.firstYearOpen}`,
  "history-missing": sql`${residencyTallies.missing}`,
  flagged: sql`${residencyTallies.flagged}`,
};

/** How many of a tax year's cases each residency filter keeps (the dashboard's counts), in one query. Staff only. */
export async function residencyFilterCounts(staff: SessionUser, taxYear: number): Promise<Record<ResidencyFilter, number>> {
  assertStaff(staff, "see the case list");
  const columns = Object.fromEntries(
    RESIDENCY_FILTERS.map((filter) => [filter, sql<number>`coalesce(sum(${residencyTallies.cases}) filter (where ${TALLY_CONDITION[filter]}), 0)`.mapWith(Number)]),
  ) as Record<ResidencyFilter, ReturnType<typeof sql<number>>>;
  const [row] = await getDb().select(columns).from(residencyTallies).where(eq(residencyTallies.taxYear, taxYear));
  return Object.fromEntries(RESIDENCY_FILTERS.map((filter) => [filter, row?.[filter] ?? 0])) as Record<ResidencyFilter, number>;
}
