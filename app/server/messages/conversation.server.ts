import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { business } from "~/content/business";
import type { ClientConversation, ClientMessageView, StaffMessageView } from "~/domain/messages";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { assertStaff } from "~/server/auth/guards.server";
import { unreadFrom } from "~/server/cases/case-counts.server";
import { caseState } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { caseMessages, user } from "~/server/db/schema";
import { attachmentsOf } from "./attachments.server";
import { messagesOfCase } from "./of-case.server";

// Opening a case's conversation: the client's view and staff's (see of-case.server.ts).

/**
 * Marks read the messages from one side (`fromClient`) that a page shows (`shown`: what it read
 * of the conversation) and were unread, and answers their ids: the page shows them as new. A
 * message that arrived after the page read the conversation is not among them: it stays unread,
 * and is new on the next visit.
 */
async function markShownRead(
  clientId: string,
  taxYear: number,
  fromClient: boolean,
  shown: ReadonlyArray<{ id: string; fromClient: boolean; readAt: Date | null }>,
): Promise<Set<string>> {
  const unread = shown.filter((m) => m.fromClient === fromClient && m.readAt === null).map((m) => m.id);
  if (unread.length === 0) return new Set();
  const marked = await getDb()
    .update(caseMessages)
    .set({ readAt: new Date() })
    .where(and(messagesOfCase(clientId, taxYear), unreadFrom(fromClient), inArray(caseMessages.id, unread)))
    .returning({ id: caseMessages.id });
  return new Set(marked.map((m) => m.id));
}

/**
 * The client's own conversation of a tax year, oldest first, without the messages staff hid; or
 * null when they have no case for that year. Opening it marks the firm's messages it shows read
 * (the ones unread until now are marked new on this visit).
 */
export async function clientConversation(userId: string, taxYear: number): Promise<ClientConversation | null> {
  const state = await caseState(userId, taxYear);
  if (!state) return null;
  const db = getDb();
  const rows = await db
    .select({
      id: caseMessages.id,
      fromClient: caseMessages.fromClient,
      body: caseMessages.body,
      createdAt: caseMessages.createdAt,
      readAt: caseMessages.readAt,
      authorName: user.name,
      authorIsStaff: sql<boolean>`${user.role} in ('admin', 'preparer')`,
      writtenBy: caseMessages.authorName,
    })
    .from(caseMessages)
    .leftJoin(user, eq(user.id, caseMessages.authorId))
    .where(and(messagesOfCase(userId, taxYear), isNull(caseMessages.hiddenAt)))
    .orderBy(asc(caseMessages.createdAt), asc(caseMessages.id));
  const attachments = await attachmentsOf(
    userId,
    taxYear,
    rows.map((r) => r.id),
    true,
  );
  const fresh = await markShownRead(userId, taxYear, false, rows);
  // A message on the client's side written by someone without an account (the spouse, from
  // their signing page) is theirs, named, not the client's own.
  const messages: ClientMessageView[] = rows.map((r) => ({
    id: r.id,
    mine: r.fromClient && r.writtenBy === null,
    author: r.writtenBy
      ? r.writtenBy
      : r.fromClient
        ? "You"
        : r.authorName !== null && r.authorIsStaff
          ? `${r.authorName}, ${business.name}`
          : business.name,
    body: r.body,
    sentAt: r.createdAt.toISOString(),
    readAt: r.fromClient && r.writtenBy === null ? (r.readAt?.toISOString() ?? null) : null,
    isNew: fresh.has(r.id),
    attachments: (attachments.get(r.id) ?? []).map(({ id, name, size }) => ({ id, name, size })),
  }));
  return { taxYear, documentsOpen: !state.flags.documents, messages };
}

/**
 * A case's whole conversation for staff, oldest first, hidden messages included and marked; or
 * null when there is no such case. Opening it marks the client's messages it shows read.
 */
export async function staffConversation(
  staff: SessionUser,
  clientId: string,
  taxYear: number,
): Promise<StaffMessageView[] | null> {
  assertStaff(staff);
  if (!(await caseState(clientId, taxYear))) return null;
  const db = getDb();
  const hider = alias(user, "hider");
  const rows = await db
    .select({
      id: caseMessages.id,
      fromClient: caseMessages.fromClient,
      body: caseMessages.body,
      createdAt: caseMessages.createdAt,
      readAt: caseMessages.readAt,
      hiddenAt: caseMessages.hiddenAt,
      authorName: user.name,
      writtenBy: caseMessages.authorName,
      hiderName: hider.name,
    })
    .from(caseMessages)
    .leftJoin(user, eq(user.id, caseMessages.authorId))
    .leftJoin(hider, eq(hider.id, caseMessages.hiddenBy))
    .where(messagesOfCase(clientId, taxYear))
    .orderBy(asc(caseMessages.createdAt), asc(caseMessages.id));
  const attachments = await attachmentsOf(
    clientId,
    taxYear,
    rows.map((r) => r.id),
    false,
  );
  const fresh = await markShownRead(clientId, taxYear, true, rows);
  return rows.map((r) => ({
    id: r.id,
    fromClient: r.fromClient,
    author: r.writtenBy ?? r.authorName ?? (r.fromClient ? "The client" : "A former staff member"),
    body: r.body,
    sentAt: r.createdAt.toISOString(),
    readAt: r.readAt?.toISOString() ?? null,
    isNew: fresh.has(r.id),
    hidden: r.hiddenAt ? { at: r.hiddenAt.toISOString(), by: r.hiderName ?? "A former staff member" } : null,
    attachments: attachments.get(r.id) ?? [],
  }));
}
