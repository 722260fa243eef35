import { sql } from "drizzle-orm";
import { newYorkDay } from "~/domain/business-days";
import { getDb } from "~/server/db/client.server";
import { clientCases, residencyPeople, residencyStays } from "~/server/db/schema";
import type { ScheduledJob } from "~/server/platform/scheduler.server";
import { lockClient, recomputeResidency } from "./outcome.server";

// A stored residency (docs/product/residency.md) is computed when the history changes; but a stay
// still open counts up to today, and a year's end decides what the next year has shown. So once a
// New York day, the cases computed on an earlier day whose client has a stay still open, or that
// were computed before this calendar year began, are computed again: a client who arrived in
// October reads their first-year choice's next step as the days pass.

export const RESIDENCY_REFRESH_JOB = "residency-refresh";

/** Clients computed again per run; the next run takes the rest. */
const BATCH = 200;

/** The clients whose stored residency `today` may have changed, at most `limit`. */
export async function staleResidencyClients(today: string, limit = BATCH): Promise<string[]> {
  const yearStart = `${today.slice(0, 4)}-01-01`;
  const rows = await getDb()
    .selectDistinct({ clientId: clientCases.userId })
    .from(clientCases)
    .where(
      sql`${clientCases.residencyComputedAt} is not null
        and (${clientCases.residencyComputedAt} at time zone 'America/New_York')::date < ${today}::date
        and ((${clientCases.residencyComputedAt} at time zone 'America/New_York')::date < ${yearStart}::date
          or exists (select 1 from ${residencyStays} s join ${residencyPeople} p on p.id = s.person_id
                     where p.client_id = ${clientCases.userId} and s.departure is null))`,
    )
    .limit(limit);
  return rows.map((r) => r.clientId);
}

/** Computes again the residency of the clients `staleResidencyClients` names; how many. */
export async function refreshResidency(today = newYorkDay()): Promise<number> {
  const clients = await staleResidencyClients(today);
  for (const clientId of clients) {
    await getDb().transaction(async (tx) => {
      if (await lockClient(tx, clientId)) await recomputeResidency(tx, clientId, { today });
    });
  }
  return clients.length;
}

export function residencyRefreshJob(): ScheduledJob {
  return {
    name: RESIDENCY_REFRESH_JOB,
    intervalMs: 60 * 60_000,
    firstRunMs: 5 * 60_000,
    leaseMs: 15 * 60_000,
    async run() {
      const refreshed = await refreshResidency();
      if (refreshed > 0) console.info(`[residency] computed again for ${refreshed} clients (a stay still open, or a new year)`);
    },
  };
}
