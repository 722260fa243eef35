import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { OUTSTANDING_STATES } from "~/domain/requests";
import { getDb } from "~/server/db/client.server";
import { caseMessages, documentRequests } from "~/server/db/schema";

// What the panel counts for each listed case: the items the client still owes and the client's
// messages no staff member has read. One grouped query each for a whole list, keyed
// `${clientId}/${taxYear}`; every case asked for is in the map, 0 when there is nothing.

export type CaseRef = { clientId: string; taxYear: number };

export function caseKey(c: CaseRef): string {
  return `${c.clientId}/${c.taxYear}`;
}

/** Up to this many clients are named in the query; a longer list (a whole year's export) counts its years instead. */
export const NAMED_CLIENTS = 1000;

type Counted = { clientId: string; taxYear: number; n: number };

async function countByCase(
  cases: readonly CaseRef[],
  query: (clientIds: string[] | null, years: number[]) => Promise<Counted[]>,
): Promise<Map<string, number>> {
  const usable = cases.filter((c) => !c.clientId.includes("\u0000"));
  const counts = new Map(usable.map((c) => [caseKey(c), 0]));
  if (usable.length === 0) return counts;
  const clientIds = [...new Set(usable.map((c) => c.clientId))];
  const years = [...new Set(usable.map((c) => c.taxYear))];
  const rows = await query(clientIds.length <= NAMED_CLIENTS ? clientIds : null, years);
  for (const r of rows) {
    const key = caseKey(r);
    // The query reads every pairing of the clients and years asked; only the cases asked count.
    if (counts.has(key)) counts.set(key, r.n);
  }
  return counts;
}

/** How many items each case still needs from the client (requested or returned). */
export function outstandingRequestCounts(cases: readonly CaseRef[]): Promise<Map<string, number>> {
  return countByCase(cases, (clientIds, years) =>
    getDb()
      .select({ clientId: documentRequests.clientId, taxYear: documentRequests.taxYear, n: sql<number>`count(*)`.mapWith(Number) })
      .from(documentRequests)
      .where(
        and(
          clientIds ? inArray(documentRequests.clientId, clientIds) : undefined,
          inArray(documentRequests.taxYear, years),
          inArray(documentRequests.state, [...OUTSTANDING_STATES]),
        ),
      )
      .groupBy(documentRequests.clientId, documentRequests.taxYear),
  );
}

/** Messages of one side the other side has not opened, hidden ones aside: what every unread count counts. */
export function unreadFrom(fromClient: boolean): SQL {
  return and(eq(caseMessages.fromClient, fromClient), isNull(caseMessages.readAt), isNull(caseMessages.hiddenAt))!;
}

/** The client's messages no staff member has opened yet, for each case. */
export function unreadMessageCounts(cases: readonly CaseRef[]): Promise<Map<string, number>> {
  return countByCase(cases, (clientIds, years) =>
    getDb()
      .select({ clientId: caseMessages.clientId, taxYear: caseMessages.taxYear, n: sql<number>`count(*)`.mapWith(Number) })
      .from(caseMessages)
      .where(
        and(
          clientIds ? inArray(caseMessages.clientId, clientIds) : undefined,
          inArray(caseMessages.taxYear, years),
          unreadFrom(true),
        ),
      )
      .groupBy(caseMessages.clientId, caseMessages.taxYear),
  );
}
