import { and, eq, sql } from "drizzle-orm";
import { unreadFrom } from "~/server/cases/case-counts.server";
import { getDb } from "~/server/db/client.server";
import { caseMessages, caseViewVersions, clientCases } from "~/server/db/schema";
import { oncePerRequest } from "~/server/http/request-memo.server";

/** One of the client's cases: their unread messages from the firm, and the case's view version (migration 0026). */
export type ClientCaseState = { unread: number; version: number };

/** The client's cases by tax year, and the view version of the firm's settings (the row of client "" and year 0). */
export type ClientCaseStates = { cases: ReadonlyMap<number, ClientCaseState>; firmSettings: number };

/**
 * What every signed-in page of the client asks of their cases, in one query, once per request
 * (`context`: the request's): the header's unread messages per year, and the numbers under which
 * the filing page keeps what it read (app/server/cases/view-cache.server.ts).
 */
export function clientCaseStates(userId: string, context: object): Promise<ClientCaseStates> {
  return oncePerRequest(context, `client-case-states:${userId}`, () => readStates(userId));
}

async function readStates(userId: string): Promise<ClientCaseStates> {
  const rows = await getDb()
    .select({
      year: clientCases.taxYear,
      version: sql<number>`coalesce(${caseViewVersions.version}, 0)`.mapWith(Number),
      unread: sql<number>`(select count(*) from ${caseMessages}
        where ${caseMessages.clientId} = ${clientCases.userId} and ${caseMessages.taxYear} = ${clientCases.taxYear} and ${unreadFrom(false)})`.mapWith(Number),
      firmSettings: sql<number>`coalesce((select s.version from case_view_versions s where s.client_id = '' and s.tax_year = 0), 0)`.mapWith(Number),
    })
    .from(clientCases)
    .leftJoin(caseViewVersions, and(eq(caseViewVersions.clientId, clientCases.userId), eq(caseViewVersions.taxYear, clientCases.taxYear)))
    .where(eq(clientCases.userId, userId));
  return {
    cases: new Map(rows.map((r) => [r.year, { unread: r.unread, version: r.version }])),
    firmSettings: rows[0]?.firmSettings ?? 0,
  };
}
