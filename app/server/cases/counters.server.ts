import { and, eq, sql } from "drizzle-orm";
import type { AdminCounters } from "~/domain/admin";
import { getDb } from "~/server/db/client.server";
import { caseTallies, clientCases, clientTally, user } from "~/server/db/schema";
import { staffSeesClientSql } from "~/server/consents/outside-us.server";

/**
 * The panel's counters (all cases, active, at DOCUMENTS, completed) for one tax year, from the tallies the database keeps
 * per year, stage and Final Copies flag (migration 0010): a few rows, however many cases.
 * A key's rows add up to its count until they are merged.
 */
export function clientCountersQuery(year: number) {
  const cases = sql`${caseTallies.cases}`;
  return getDb()
    .select({
      total: sql<number>`coalesce(sum(${cases}), 0)`.mapWith(Number),
      active: sql<number>`coalesce(sum(${cases}) filter (where not (${caseTallies.currentStage} = 'finalcopies' and ${caseTallies.finalcopies})), 0)`.mapWith(Number),
      pendingDocuments: sql<number>`coalesce(sum(${cases}) filter (where ${caseTallies.currentStage} = 'documents'), 0)`.mapWith(Number),
      completed: sql<number>`coalesce(sum(${cases}) filter (where ${caseTallies.finalcopies}), 0)`.mapWith(Number),
    })
    .from(caseTallies)
    .where(eq(caseTallies.taxYear, year));
}

export async function clientCounters(year: number): Promise<AdminCounters> {
  const [row] = await clientCountersQuery(year);
  return row ?? { total: 0, active: 0, pendingDocuments: 0, completed: 0 };
}

/** How many client accounts there are, from their tally (migration 0010). */
export async function countClients(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`coalesce(sum(${clientTally.clients}), 0)`.mapWith(Number) })
    .from(clientTally);
  return row?.n ?? 0;
}

/**
 * The counters and the number of clients as a staff member who works outside the United States
 * sees them: only the clients whose consent to disclose is in force, counted from the cases
 * themselves (the tallies count everyone).
 */
export async function countersOutsideUs(viewerId: string, year: number): Promise<AdminCounters> {
  const [row] = await getDb()
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      active: sql<number>`count(*) filter (where not (${clientCases.currentStage} = 'finalcopies' and ${clientCases.finalcopies}))`.mapWith(Number),
      pendingDocuments: sql<number>`count(*) filter (where ${clientCases.currentStage} = 'documents')`.mapWith(Number),
      completed: sql<number>`count(*) filter (where ${clientCases.finalcopies})`.mapWith(Number),
    })
    .from(clientCases)
    .where(and(eq(clientCases.taxYear, year), staffSeesClientSql(viewerId, clientCases.userId)));
  return row ?? { total: 0, active: 0, pendingDocuments: 0, completed: 0 };
}

export async function countClientsOutsideUs(viewerId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(user)
    .where(and(eq(user.role, "user"), staffSeesClientSql(viewerId, user.id)));
  return row?.n ?? 0;
}
