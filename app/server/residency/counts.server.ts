import { eq, sql } from "drizzle-orm";
import { RESIDENCY_FILTERS } from "~/domain/residency/filters";
import type { ResidencyFilter } from "~/domain/residency/filters";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { residencyFilterCondition } from "~/server/clients/list.server";
import { getDb } from "~/server/db/client.server";
import { clientCases } from "~/server/db/schema";

// The staff list's residency counts (beside the return filter's, server/returns/timeline.server.ts
// returnFilterCounts): how many of a year's cases each residency filter keeps, read from the
// residency each case stores, never computed per request.

/**
 * How many of a tax year's cases each residency filter keeps (the dashboard's counts), in one
 * query: one pass over the year's cases, a `count(*) filter (where ...)` per filter, with the
 * conditions the list itself applies (clients/list.server.ts residencyFilterCondition). Staff only.
 */
export async function residencyFilterCounts(staff: SessionUser, taxYear: number): Promise<Record<ResidencyFilter, number>> {
  assertStaff(staff, "see the case list");
  const columns = Object.fromEntries(
    RESIDENCY_FILTERS.map((filter) => [filter, sql<number>`count(*) filter (where ${residencyFilterCondition(filter)})`.mapWith(Number)]),
  ) as Record<ResidencyFilter, ReturnType<typeof sql<number>>>;
  const [row] = await getDb().select(columns).from(clientCases).where(eq(clientCases.taxYear, taxYear));
  return Object.fromEntries(RESIDENCY_FILTERS.map((filter) => [filter, row?.[filter] ?? 0])) as Record<ResidencyFilter, number>;
}
