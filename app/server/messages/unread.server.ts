import { and, eq, sql } from "drizzle-orm";
import { waitedTooLong } from "~/domain/business-days";
import { unreadFrom } from "~/server/cases/case-counts.server";
import { clientCaseStates } from "~/server/cases/client-case-states.server";
import { getDb } from "~/server/db/client.server";
import { caseMessages, clientCases } from "~/server/db/schema";
import { staffSeesClientSql } from "~/server/consents/outside-us.server";
import { messagesOfCase } from "./of-case.server";

// How many messages are unread, for the client's pages and the panel (see of-case.server.ts).

/**
 * The client's unread messages from the firm in each of their tax years (hidden ones never count),
 * counted once per request (`context`: the request's; the header and the page both show them),
 * with the rest of what their pages ask of their cases (clientCaseStates).
 */
export async function clientUnreadByYear(userId: string, context: object): Promise<ReadonlyMap<number, number>> {
  const { cases } = await clientCaseStates(userId, context);
  return new Map([...cases].filter(([, c]) => c.unread > 0).map(([year, c]) => [year, c.unread]));
}

/**
 * A case's conversation in numbers for its page in the panel: how many messages, how many from
 * the client no staff member has opened, since when the client waits for a reply (ISO), and
 * whether that is more than the firm's reply time at `now`.
 */
export async function caseMessagesSummary(
  clientId: string,
  taxYear: number,
  now: Date = new Date(),
): Promise<{ total: number; unread: number; waitingSince: string | null; overdue: boolean }> {
  const [counts] = await getDb()
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      unread: sql<number>`count(*) filter (where ${caseMessages.fromClient} and ${caseMessages.readAt} is null and ${caseMessages.hiddenAt} is null)`.mapWith(
        Number,
      ),
    })
    .from(caseMessages)
    .where(messagesOfCase(clientId, taxYear));
  const [theCase] = await getDb()
    .select({ since: clientCases.awaitingReplySince })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  const since = theCase?.since ?? null;
  return {
    total: counts?.total ?? 0,
    unread: counts?.unread ?? 0,
    waitingSince: since?.toISOString() ?? null,
    overdue: since !== null && waitedTooLong(since, now),
  };
}

/** The clients' unread messages in each tax year (staff: the inbox's years). */
export async function staffUnreadByYear(): Promise<Map<number, number>> {
  const rows = await getDb()
    .select({ year: caseMessages.taxYear, n: sql<number>`count(*)`.mapWith(Number) })
    .from(caseMessages)
    .where(unreadFrom(true))
    .groupBy(caseMessages.taxYear);
  return new Map(rows.map((r) => [r.year, r.n]));
}

/**
 * All the clients' unread messages, every year (the panel's sidebar). `reading`: the case whose
 * conversation the same request opens, which marks its messages read: they are not counted (the
 * page's loader and the frame's run side by side).
 */
export async function staffUnreadTotal(reading?: { clientId: string; taxYear: number } | null, viewerOutsideUs?: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(caseMessages)
    .where(
      and(
        unreadFrom(true),
        reading ? sql`not (${messagesOfCase(reading.clientId, reading.taxYear)})` : undefined,
        viewerOutsideUs === undefined ? undefined : staffSeesClientSql(viewerOutsideUs, caseMessages.clientId),
      ),
    );
  return row?.n ?? 0;
}

/** The case of a staff conversation page's address (its .data request too), or null for any other. */
export function conversationOfPath(pathname: string): { clientId: string; taxYear: number } | null {
  const match = /^\/admin\/clients\/([^/]+)\/(\d{4})\/messages(?:\.data)?\/?$/.exec(pathname);
  if (!match) return null;
  let clientId: string;
  try {
    clientId = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  return clientId.includes("\u0000") ? null : { clientId, taxYear: Number(match[2]) };
}

/** The tax year of a client's conversation page's address (its .data request too), or null. */
export function ownConversationYearOfPath(pathname: string): number | null {
  const match = /^\/my-tax-filing\/(\d{4})\/messages(?:\.data)?\/?$/.exec(pathname);
  return match ? Number(match[1]) : null;
}
