import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { clientCode } from "~/domain/admin";
import { business } from "~/content/business";
import { businessDaysBetween, waitedTooLong, waitingCutoff } from "~/domain/business-days";
import { caseFullMessage, categoryLabel, MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES, REFUSED_NO_ROOM, REFUSED_TYPE } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import { INBOX_PAGE_SIZE, messageMoment } from "~/domain/messages";
import type {
  ClientConversation,
  ClientMessageView,
  InboxQuery,
  InboxRow,
  MessageAttachment,
  StaffMessageView,
} from "~/domain/messages";
import { isStaffRole } from "~/domain/policy";
import { logError } from "~/log";
import { listStaff } from "~/server/clients/admin.server";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/auth.server";
import { FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import { caseState } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { oncePerRequest } from "~/server/http/request-memo.server";
import { unreadFrom } from "~/server/cases/case-counts.server";
import { caseMessages, clientCases, documents, user } from "~/server/db/schema";
import { discardReceived, receiveUpload, recordUploads, setDocumentsShared } from "~/server/documents/documents.server";
import type { ReceivedFile, UploadOutcome } from "~/server/documents/documents.server";
import { readMultipart } from "~/server/http/multipart.server";
import { NOTICE_QUIET_MS, notifyStaff } from "~/server/notices/notices.server";
import { releaseHandedOver } from "~/server/storage/storage.server";
import type { RawForm } from "~/server/http/form.server";

// A case's conversation between the client and the firm (issue 14). Every query names the case
// it is about: for a client, their own id from the session, never one sent by the browser; staff
// functions are called only from routes under the admin panel's layout. Hidden messages are
// absent from everything a client is given, counts included. No message text is ever logged,
// audited or e-mailed.


/** What a client may see of a case's documents: their own uploads, and staff's once shared. */
const visibleToClient = or(eq(documents.fromClient, true), isNotNull(documents.sharedAt))!;

const caseOf = (clientId: string, taxYear: number) =>
  and(eq(caseMessages.clientId, clientId), eq(caseMessages.taxYear, taxYear))!;


function assertStaff(actor: SessionUser): void {
  if (!isStaffRole(actor.role)) throw new Error("Only staff may do this.");
}

/** The files sent with messages, keyed by message. */
async function attachmentsOf(
  clientId: string,
  taxYear: number,
  messageIds: string[],
  onlyVisibleToClient: boolean,
): Promise<Map<string, Array<MessageAttachment & { shared: boolean }>>> {
  const byMessage = new Map<string, Array<MessageAttachment & { shared: boolean }>>();
  if (messageIds.length === 0) return byMessage;
  const rows = await getDb()
    .select({
      id: documents.id,
      name: documents.originalName,
      size: documents.size,
      messageId: documents.messageId,
      fromClient: documents.fromClient,
      sharedAt: documents.sharedAt,
    })
    .from(documents)
    .where(
      and(
        eq(documents.clientId, clientId),
        eq(documents.taxYear, taxYear),
        inArray(documents.messageId, messageIds),
        onlyVisibleToClient ? visibleToClient : undefined,
      ),
    )
    .orderBy(asc(documents.createdAt), asc(documents.id));
  for (const row of rows) {
    if (row.messageId === null) continue;
    const list = byMessage.get(row.messageId) ?? [];
    list.push({ id: row.id, name: row.name, size: row.size, shared: row.fromClient || row.sharedAt !== null });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}

/**
 * The client's own conversation of a tax year, oldest first, without the messages staff hid; or
 * null when they have no case for that year. Opening it marks the firm's messages read (the ones
 * unread until now are marked new on this visit).
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
    })
    .from(caseMessages)
    .leftJoin(user, eq(user.id, caseMessages.authorId))
    .where(and(caseOf(userId, taxYear), isNull(caseMessages.hiddenAt)))
    .orderBy(asc(caseMessages.createdAt), asc(caseMessages.id));
  const attachments = await attachmentsOf(
    userId,
    taxYear,
    rows.map((r) => r.id),
    true,
  );
  const marked = await db
    .update(caseMessages)
    .set({ readAt: new Date() })
    .where(and(caseOf(userId, taxYear), unreadFrom(false)))
    .returning({ id: caseMessages.id });
  const fresh = new Set(marked.map((m) => m.id));
  const messages: ClientMessageView[] = rows.map((r) => ({
    id: r.id,
    mine: r.fromClient,
    author: r.fromClient
      ? "You"
      : r.authorName !== null && r.authorIsStaff
        ? `${r.authorName}, ${business.name}`
        : business.name,
    body: r.body,
    sentAt: r.createdAt.toISOString(),
    readAt: r.fromClient ? (r.readAt?.toISOString() ?? null) : null,
    isNew: fresh.has(r.id),
    attachments: (attachments.get(r.id) ?? []).map(({ id, name, size }) => ({ id, name, size })),
  }));
  return { taxYear, documentsOpen: !state.flags.documents, messages };
}

/**
 * A case's whole conversation for staff, oldest first, hidden messages included and marked; or
 * null when there is no such case. Opening it marks the client's messages read.
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
      hiderName: hider.name,
    })
    .from(caseMessages)
    .leftJoin(user, eq(user.id, caseMessages.authorId))
    .leftJoin(hider, eq(hider.id, caseMessages.hiddenBy))
    .where(caseOf(clientId, taxYear))
    .orderBy(asc(caseMessages.createdAt), asc(caseMessages.id));
  const attachments = await attachmentsOf(
    clientId,
    taxYear,
    rows.map((r) => r.id),
    false,
  );
  const marked = await db
    .update(caseMessages)
    .set({ readAt: new Date() })
    .where(and(caseOf(clientId, taxYear), unreadFrom(true)))
    .returning({ id: caseMessages.id });
  const fresh = new Set(marked.map((m) => m.id));
  return rows.map((r) => ({
    id: r.id,
    fromClient: r.fromClient,
    author: r.authorName ?? (r.fromClient ? "The client" : "A former staff member"),
    body: r.body,
    sentAt: r.createdAt.toISOString(),
    readAt: r.readAt?.toISOString() ?? null,
    isNew: fresh.has(r.id),
    hidden: r.hiddenAt ? { at: r.hiddenAt.toISOString(), by: r.hiderName ?? "A former staff member" } : null,
    attachments: attachments.get(r.id) ?? [],
  }));
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>["transaction"]>[0]>[0];

/**
 * Sets the case's `awaiting_reply_since` from its visible messages: the oldest message of the
 * client after staff's last reply, or null when staff have answered everything. Sending sets it
 * (a client's message when nobody was waiting) or clears it (a staff reply); hiding a message
 * may change it either way (a hidden client message waits for nothing; a hidden reply answered
 * nothing the client can see).
 */
async function recomputeWaiting(tx: Tx, clientId: string, taxYear: number): Promise<void> {
  await tx
    .update(clientCases)
    .set({
      awaitingReplySince: sql`(
        select min(m.created_at) from ${caseMessages} m
        where m.client_id = ${clientId} and m.tax_year = ${taxYear} and m.from_client and m.hidden_at is null
          and m.created_at > coalesce((
            select max(s.created_at) from ${caseMessages} s
            where s.client_id = ${clientId} and s.tax_year = ${taxYear} and not s.from_client and s.hidden_at is null
          ), '-infinity'::timestamptz)
      )`,
    })
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
}

export type SentMessage = {
  id: string;
  /** The attached files recorded as the case's documents, and any the database refused. */
  files: UploadOutcome;
  /**
   * Whether the other side was e-mailed (not when they already had an unread one from this
   * hour); for the client, whether they will be once the quiet period is over
   * (message-notices.server.ts), unless the message is hidden or read first.
   */
  notified: boolean;
};

/**
 * Sends a message in a case's conversation: the client in their own case, or staff in any. The
 * message, the case's waiting time and its audit entry are stored together; the received files
 * (already checked and stored) are then recorded as the case's documents, linked to the message
 * (staff's are shared with the client at once: staff chose to send them). Then the other side is
 * e-mailed a link, unless they already have an unread message from this side sent within the
 * last hour: staff at once, the client after a quiet period (message-notices.server.ts), so
 * that a message staff hide meanwhile is never announced. Null when there is no such case (the
 * files are discarded).
 */
export async function sendMessage(
  actor: SessionUser,
  input: { clientId: string; taxYear: number; body: string; category: DocumentCategoryKey; files: ReceivedFile[] },
  ip: string,
): Promise<SentMessage | null> {
  const fromClient = !isStaffRole(actor.role);
  const { clientId, taxYear } = input;
  if (fromClient && actor.id !== clientId) {
    await discardReceived(input.files);
    return null;
  }
  const db = getDb();
  const sent = await db.transaction(async (tx) => {
    const [theCase] = await tx
      .select({ year: clientCases.taxYear })
      .from(clientCases)
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)))
      .for("update");
    if (!theCase) return null;
    const [row] = await tx
      .insert(caseMessages)
      .values({ clientId, taxYear, authorId: actor.id, fromClient, body: input.body, clientNoticePending: !fromClient })
      .returning({ id: caseMessages.id, createdAt: caseMessages.createdAt });
    if (!row) throw new Error("no message row returned");
    await recomputeWaiting(tx, clientId, taxYear);
    // Who wrote to whom; the text stays in the conversation.
    await recordAudit(
      { actor, action: "message-sent", clientId, taxYear, detail: fromClient ? "from the client" : "to the client", ip },
      tx,
    );
    return row;
  });
  if (!sent) {
    await discardReceived(input.files);
    return null;
  }

  let files: UploadOutcome = { uploaded: [], refused: [] };
  if (input.files.length > 0) {
    files = await recordUploads(
      actor,
      { clientId, taxYear, category: input.category, files: input.files, messageId: sent.id },
      ip,
    );
    if (!fromClient && files.uploaded.length > 0)
      await setDocumentsShared(
        actor,
        { clientId, taxYear, documentIds: files.uploaded.map((f) => f.id), shared: true },
        ip,
      );
  }

  let notified = false;
  try {
    notified = await notifyOtherSide(fromClient, clientId, taxYear, sent);
  } catch (error) {
    // The message is sent; a notice that cannot be sent does not undo it.
    logError("messages", "could not send a message notice", error);
  }
  return { id: sent.id, files, notified };
}

/**
 * Tells the other side: staff as every notice of a case is gathered (notices.server notifyStaff).
 * For the client, answers whether the notice job will e-mail them (unless they have an unread
 * message from staff of the last hour, as it stands now): the message was marked for it when stored.
 */
async function notifyOtherSide(
  fromClient: boolean,
  clientId: string,
  taxYear: number,
  sent: { id: string; createdAt: Date },
): Promise<boolean> {
  if (fromClient) return notifyStaff(clientId, taxYear, "message-received");
  const [earlier] = await getDb()
    .select({ id: caseMessages.id })
    .from(caseMessages)
    .where(
      and(
        caseOf(clientId, taxYear),
        unreadFrom(false),
        ne(caseMessages.id, sent.id),
        gt(caseMessages.createdAt, new Date(sent.createdAt.getTime() - NOTICE_QUIET_MS)),
      ),
    )
    .limit(1);
  return !earlier;
}

export type HideOutcome = { outcome: "hidden"; unshared: number } | { outcome: "not-found" };

/**
 * Hides one message of a case from the client (staff only), with an audit entry naming the
 * message's date and side, never its text. A staff message's files are no longer shared with the
 * client (they came with what is now withdrawn; each change is audited); a client's files stay
 * theirs. The case's waiting time is computed again from what the client can still see.
 */
export async function hideMessage(
  staff: SessionUser,
  input: { clientId: string; taxYear: number; messageId: string },
  ip: string,
): Promise<HideOutcome> {
  assertStaff(staff);
  const { clientId, taxYear } = input;
  return getDb().transaction(async (tx) => {
    const [hidden] = await tx
      .update(caseMessages)
      .set({ hiddenAt: new Date(), hiddenBy: staff.id })
      .where(and(caseOf(clientId, taxYear), eq(caseMessages.id, input.messageId.toLowerCase()), isNull(caseMessages.hiddenAt)))
      .returning({ id: caseMessages.id, createdAt: caseMessages.createdAt, fromClient: caseMessages.fromClient });
    if (!hidden) return { outcome: "not-found" as const };
    const unshared = hidden.fromClient
      ? []
      : await tx
          .update(documents)
          .set({ sharedAt: null })
          .where(
            and(
              eq(documents.clientId, clientId),
              eq(documents.taxYear, taxYear),
              eq(documents.messageId, hidden.id),
              eq(documents.fromClient, false),
              isNotNull(documents.sharedAt),
            ),
          )
          .returning({ name: documents.originalName, category: documents.category });
    for (const doc of unshared)
      await recordAudit(
        { actor: staff, action: "document-unshared", clientId, taxYear, detail: `${categoryLabel(doc.category)}: ${doc.name}`, ip },
        tx,
      );
    await recomputeWaiting(tx, clientId, taxYear);
    await recordAudit(
      {
        actor: staff,
        action: "message-hidden",
        clientId,
        taxYear,
        detail: `${hidden.fromClient ? "the client's message" : "a message from staff"} of ${messageMoment(hidden.createdAt)}`,
        ip,
      },
      tx,
    );
    return { outcome: "hidden" as const, unshared: unshared.length };
  });
}

// ---------------------------------------------------------------------------------------------
// Unread counts

/**
 * The client's unread messages from the firm in each of their tax years (hidden ones never count),
 * counted once per request (`context`: the request's; the header and the page both show them).
 */
export function clientUnreadByYear(userId: string, context: object): Promise<ReadonlyMap<number, number>> {
  return oncePerRequest(context, `client-unread:${userId}`, () => countClientUnread(userId));
}

async function countClientUnread(userId: string): Promise<ReadonlyMap<number, number>> {
  const rows = await getDb()
    .select({ year: caseMessages.taxYear, n: sql<number>`count(*)`.mapWith(Number) })
    .from(caseMessages)
    .where(and(eq(caseMessages.clientId, userId), unreadFrom(false)))
    .groupBy(caseMessages.taxYear);
  return new Map(rows.map((r) => [r.year, r.n]));
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
    .where(caseOf(clientId, taxYear));
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
export async function staffUnreadTotal(reading?: { clientId: string; taxYear: number } | null): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(caseMessages)
    .where(
      and(
        unreadFrom(true),
        reading ? sql`not (${caseOf(reading.clientId, reading.taxYear)})` : undefined,
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

// ---------------------------------------------------------------------------------------------
// The staff inbox

/**
 * One page of a tax year's conversations, newest activity first: all of them, the ones with
 * unread messages, or the ones whose client has waited more than the firm's reply time at `now`.
 */
export async function listInbox(
  query: InboxQuery,
  now: Date = new Date(),
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

// ---------------------------------------------------------------------------------------------
// Reading a conversation page's post

export type MessagePost =
  | { ok: true; raw: RawForm; files: ReceivedFile[] }
  | { ok: false; status: number; problem: "too-large" | "unreadable" };

/** Reads what is left of a file nobody records: how many bytes it held. */
async function drainCount(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    releaseHandedOver(chunk);
  }
  return size;
}

/**
 * A conversation page's post, whichever way the browser sent it: multipart (the compose form,
 * which may carry files) or a plain form (Hide). A multipart body is read as a stream with the
 * uploads' limits, each file checked and stored as it arrives (documents.server receiveUpload,
 * the same checks as every upload); a file input left empty sends a part with no name and no
 * bytes, which is not a file. Any other body is read up to a form's size (64 KB). The stored
 * files are not recorded: the caller records them or discards them. `roomBytes` is what the
 * case's documents may still take: a file that passes it is refused (REFUSED_NO_ROOM, see
 * noRoomFor). With `storeFiles` false (a post that is refused whatever it holds) every file is
 * read and thrown away, never stored.
 */
export async function readMessagePost(
  request: Request,
  options: { roomBytes: number; storeFiles?: boolean },
): Promise<MessagePost> {
  const room = { left: options.roomBytes };
  const contentType = request.headers.get("content-type") ?? "";
  if (/^multipart\/form-data\s*;/i.test(contentType)) {
    const files: ReceivedFile[] = [];
    const form = await readMultipart(
      request,
      { maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES, maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: FORM_BODY_MAX_BYTES },
      async (file) => {
        if (file.field !== "files") return;
        if (options.storeFiles === false) {
          await drainCount(file.chunks);
          return;
        }
        if (file.name === "") {
          if ((await drainCount(file.chunks)) > 0) files.push({ name: "(no name)", refused: REFUSED_TYPE });
          return;
        }
        files.push(await receiveUpload(file.name, file.chunks, room));
      },
    );
    if (!form.ok) {
      await discardReceived(files);
      return { ok: false, status: form.problem === "too-large" ? 413 : 400, problem: form.problem };
    }
    const raw: RawForm = Object.create(null) as RawForm;
    for (const [name, values] of form.fields) raw[name] = values.length === 1 ? values[0]! : values;
    return { ok: true, raw, files };
  }
  const text = await readCapped(request, FORM_BODY_MAX_BYTES);
  if (text === null) return { ok: false, status: 413, problem: "too-large" };
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType) && text.trim() !== "")
    return { ok: false, status: 400, problem: "unreadable" };
  const raw: RawForm = Object.create(null) as RawForm;
  for (const [name, value] of new URLSearchParams(text)) {
    const before = raw[name];
    raw[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return { ok: true, raw, files: [] };
}

/** The refusal of a post whose files did not fit in the case's room (`roomBytes` when it was read), or null. */
export function noRoomFor(files: ReceivedFile[], roomBytes: number): string | null {
  return files.some((f) => "refused" in f && f.refused === REFUSED_NO_ROOM) ? caseFullMessage(roomBytes) : null;
}

/** The body as text when it is at most `maxBytes`; null when it is larger. */
async function readCapped(request: Request, maxBytes: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const reader = request.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
