import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { businessDaysBetween, waitedTooLong, waitingCutoff } from "~/domain/business-days";
import { INBOX_PAGE_SIZE } from "~/domain/messages";
import type { InboxQuery, InboxRow } from "~/domain/messages";
import { getDb } from "~/server/db/client.server";
import { caseMessages, clientCases, user } from "~/server/db/schema";
import { listStaff } from "~/server/team/active-staff.server";
import { staffSeesClientSql } from "~/server/consents/outside-us.server";

// The staff inbox: a tax year's conversations, for routes under the admin layout.

/**
 * One page of a tax year's conversations, newest activity first: all of them, the ones with
 * unread messages, or the ones whose client has waited more than the firm's reply time at `now`.
 * `viewer`, the acting staff member: one who works outside the United States sees only the
 * conversations of clients whose consent to disclose is in force.
 */
export async function listInbox(
  query: InboxQuery,
  now: Date = new Date(),
  viewer?: string,
): Promise<{ rows: InboxRow[]; matching: number; page: number; pageCount: number }> {
  const db = getDb();
  const stats = db
    .select({
      clientId: caseMessages.clientId,
      taxYear: caseMessages.taxYear,
      lastAt: sql<Date>`max(${caseMessages.createdAt})`.mapWith(caseMessages.createdAt).as("last_at"),
      unread: sql<number>`count(*) filter (where ${caseMessages.fromClient} and ${caseMessages.readAt} is null and ${caseMessages.hiddenAt} is null)`
        .mapWith(Number)
        .as("unread"),
    })
    .from(caseMessages)
    .where(eq(caseMessages.taxYear, query.year))
    .groupBy(caseMessages.clientId, caseMessages.taxYear)
    .as("stats");
  const conditions: SQL[] = [eq(clientCases.taxYear, query.year)];
  if (query.filter === "unread") conditions.push(sql`${stats.unread} > 0`);
  if (query.filter === "waiting") conditions.push(lt(clientCases.awaitingReplySince, waitingCutoff(now)));
  if (viewer) conditions.push(staffSeesClientSql(viewer, clientCases.userId));
  const where = and(...conditions);

  const [counted] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(clientCases)
    .innerJoin(stats, and(eq(stats.clientId, clientCases.userId), eq(stats.taxYear, clientCases.taxYear)))
    .where(where);
  const matching = counted?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(matching / INBOX_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);

  const rows = await db
    .select({
      clientId: clientCases.userId,
      taxYear: clientCases.taxYear,
      number: clientCases.number,
      name: user.name,
      assigneeId: clientCases.assigneeId,
      waitingSince: clientCases.awaitingReplySince,
      lastAt: sql<Date>`${stats.lastAt}`.mapWith(caseMessages.createdAt),
      unread: sql<number>`${stats.unread}`.mapWith(Number),
      lastFromClient: sql<boolean>`(select m.from_client from ${caseMessages} m
        where m.client_id = ${clientCases.userId} and m.tax_year = ${clientCases.taxYear}
        order by m.created_at desc, m.id desc limit 1)`,
    })
    .from(clientCases)
    .innerJoin(stats, and(eq(stats.clientId, clientCases.userId), eq(stats.taxYear, clientCases.taxYear)))
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(where)
    .orderBy(desc(stats.lastAt), asc(clientCases.number))
    .limit(INBOX_PAGE_SIZE)
    .offset((page - 1) * INBOX_PAGE_SIZE);

  const staffNames = new Map((await listStaff()).map((s) => [s.id, s.name]));
  return {
    matching,
    page,
    pageCount,
    rows: rows.map((r) => {
      const since = r.waitingSince;
      return {
        clientId: r.clientId,
        taxYear: r.taxYear,
        code: clientCode(r.number),
        name: r.name,
        lastMessageAt: r.lastAt.toISOString(),
        lastFromClient: r.lastFromClient === true,
        waitingSince: since?.toISOString() ?? null,
        waitedDays: since ? businessDaysBetween(since, now) : null,
        overdue: since ? waitedTooLong(since, now) : false,
        unread: r.unread,
        assignee: r.assigneeId ? (staffNames.get(r.assigneeId) ?? null) : null,
      };
    }),
  };
}
