import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import routeConfig from "~/routes";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { CASE_MESSAGES as PORTAL_MESSAGES } from "~/domain/portal-forms";
import { MAX_UPLOAD_REQUEST_BYTES, REFUSED_TYPE } from "~/domain/documents";
import { MAX_MESSAGE_LENGTH, MESSAGE_TEXTS, messageMoment } from "~/domain/messages";
import type { ClientConversation, InboxRow, MessageActionResult, StaffMessageView } from "~/domain/messages";
import { currentFilingYear } from "~/domain/tax-year";
import { CONTROL_CHARACTERS_MESSAGE } from "~/domain/validation";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import { bodyLimitFor, FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { caseActivity } from "~/server/cases/case-page.server";
import { openCase } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, caseMessages, clientCases, documents, staffNotices, user } from "~/server/db/schema";
import { listOwnDocuments } from "~/server/documents/listing.server";
import * as attachments from "~/server/messages/attachments.server";
import { MESSAGE_NOTICE_DELAY_SECONDS, sendMessageNotices } from "~/server/messages/message-notices.server";
import { listInbox } from "~/server/messages/inbox.server";
import { sendMessage } from "~/server/messages/posting.server";
import { NOTICE_QUIET_MS, sendGatheredStaffNotices } from "~/server/notices/notices.server";
import { unreadMessageCounts } from "~/server/cases/case-counts.server";
import { pageView, routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// Secure messages (docs/product/requests-and-messages.md#messages): one conversation per case
// between the client and the firm. The client's page (/my-tax-filing/:year/messages), the staff's
// page of a case's conversation (/admin/clients/:clientId/:year/messages) and the staff inbox
// (/admin/inbox) run as the server runs them: behind the middleware of the root and of their
// layouts. Two clients (Alice with two tax years, Bob with one), an admin and a preparer.

const clientRoute = await routeModule("routes/portal/filing-messages.tsx");
const staffRoute = await routeModule("routes/admin/case-messages.tsx");
const inboxRoute = await routeModule("routes/admin/inbox.tsx");
const filingRoute = await routeModule("routes/portal/filing.tsx");
const filingsRoute = await routeModule("routes/portal/my-tax-filing.tsx");
const caseRoute = await routeModule("routes/admin/case/overview.tsx");
const downloadRoute = await routeModule("routes/portal/document-download.ts");

const X = currentFilingYear();
const Y = X - 1;

type Account = { id: string; cookie: string; actor: SessionUser; email: string };
type Outcome<T> = { status: number; body: T; location: string | null };
type StaffPage = {
  client: { id: string; code: string; name: string };
  taxYear: number;
  assignee: string | null;
  messages: StaffMessageView[];
};
type InboxPage = {
  query: { year: number; filter: string; page: number };
  rows: InboxRow[];
  matching: number;
  pageCount: number;
  unreadByYear: Record<number, number>;
};
type HeaderData = { user: { email: string; unreadMessages: { total: number; year: number | null } | null } | null };

const ascii = (s: string) => new TextEncoder().encode(s);
const pdf = (label: string) => ascii(`%PDF-1.4\n% ${label}\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`);
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);

const dataDir = () => process.env.DATA_DIR!;
const uploadsDir = () => path.join(dataDir(), "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).length : 0);
const mails = async () => (await sentMail(dataDir()));
/** The notice job's run once the quiet period of everything sent so far is over. */
const noticesDue = () => sendMessageNotices({ now: new Date(Date.now() + MESSAGE_NOTICE_DELAY_SECONDS * 1000 + 1000) });

/** The hour after a case's last notice to staff has passed. */
const quietPeriodPasses = (clientId: string) =>
  getDb()
    .update(staffNotices)
    .set({ lastSentAt: new Date(Date.now() - NOTICE_QUIET_MS - 1000) })
    .where(eq(staffNotices.clientId, clientId));

let admin: Account;
let preparer: Account;
let alice: Account;
let bob: Account;

async function account(email: string, name: string, role?: "admin" | "preparer"): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (role) await makeStaff(signedIn, role);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, actor, email };
}

beforeEach(async () => {
  admin = await account("sam.staff@example.com", "Sam Staff", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  alice = await account("alice@example.com", "Alice Aardvark");
  bob = await account("bob@example.com", "Bob Bobolink");
  // Each client has the season's case from the start; Alice also has the year before.
  expect(await openCase(admin.actor, alice.id, Y, "203.0.113.1")).toBe("opened");
});

// --- calling the routes as a browser would ----------------------------------------------------

/** What a route answered, returned or thrown. */
async function outcome<T>(call: () => Promise<unknown>): Promise<Outcome<T>> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const type = result.headers.get("content-type") ?? "";
    const body = (type.includes("json") ? await result.json() : await result.text()) as T;
    return { status: result.status, body, location: result.headers.get("location") };
  }
  const { status, body } = unwrap<T>(result);
  return { status, body, location: null };
}

const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request), params }) as never;

type File = { name: string; bytes: Uint8Array };

/**
 * The compose form as a browser posts it: multipart, with the file input's part even when no file
 * was chosen (an empty part with no name), streamed in small chunks.
 */
async function multipartRequest(url: string, cookie: string, fields: Record<string, string>, files: File[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (files.length === 0) form.append("files", new Blob([]), "");
  for (const f of files) form.append("files", new Blob([f.bytes.slice()]), f.name);
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + 64));
      at += 64;
    },
  });
  return new Request(`http://localhost:3000${url}`, {
    method: "POST",
    body,
    duplex: "half",
    headers: { cookie, "content-type": encoded.headers.get("content-type")! },
  } as RequestInit);
}

const clientUrl = (year: number | string) => `/my-tax-filing/${year}/messages`;
const staffUrl = (clientId: string, year: number | string) => `/admin/clients/${clientId}/${year}/messages`;

const clientPage = (who: Account, year: number | string = X) =>
  outcome<ClientConversation>(() =>
    clientRoute.loader(args(withCookie(clientUrl(year), who.cookie), { year: String(year) })),
  );

async function clientPost(who: Account, fields: Record<string, string>, files: File[] = [], year: number | string = X) {
  const request = await multipartRequest(clientUrl(year), who.cookie, fields, files);
  return outcome<MessageActionResult>(() => clientRoute.action(args(request, { year: String(year) })));
}

const clientSend = (who: Account, body: string, files: File[] = [], year: number | string = X, category = "") =>
  clientPost(who, { intent: "send", body, category }, files, year);

const staffPage = (who: Account, clientId: string, year: number | string = X) =>
  outcome<StaffPage>(() =>
    staffRoute.loader(args(withCookie(staffUrl(clientId, year), who.cookie), { clientId, year: String(year) })),
  );

async function staffPost(
  who: Account,
  clientId: string,
  fields: Record<string, string>,
  files: File[] = [],
  year: number | string = X,
) {
  const request = await multipartRequest(staffUrl(clientId, year), who.cookie, fields, files);
  return outcome<MessageActionResult>(() => staffRoute.action(args(request, { clientId, year: String(year) })));
}

/** Hide, as the page's plain form posts it. */
function staffHide(who: Account, clientId: string, messageId: string, year: number | string = X) {
  const request = withCookie(staffUrl(clientId, year), who.cookie, {
    method: "POST",
    body: new URLSearchParams({ intent: "hide", messageId }),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  return outcome<MessageActionResult>(() => staffRoute.action(args(request, { clientId, year: String(year) })));
}

const staffSend = (who: Account, clientId: string, body: string, files: File[] = [], year: number | string = X) =>
  staffPost(who, clientId, { intent: "send", body, category: "" }, files, year);

const inbox = (who: Account, search = "") =>
  outcome<InboxPage>(() => inboxRoute.loader(args(withCookie(`/admin/inbox${search}`, who.cookie))));

/** The admin panel's frame (the layout's loader) as a page view sends it: the sidebar's unread count. */
async function sidebarUnread(who: Account): Promise<number> {
  const [, , panel] = await pageView("routes/admin/inbox.tsx", routeArgs(withCookie("/admin/inbox", who.cookie)));
  return (panel as { unreadMessages: number }).unreadMessages;
}

/** The header's data (the root loader) on a portal page. */
/** What the site header shows on any page (here the contact page, open to clients and staff alike). */
async function header(who: Account): Promise<HeaderData["user"]> {
  const [root] = await pageView("routes/marketing/contact.tsx", routeArgs(withCookie("/contact", who.cookie)));
  return (root as HeaderData).user;
}

const myFilingsUnread = async (who: Account) =>
  (
    await outcome<{ unreadMessages: Record<number, number> }>(() =>
      filingsRoute.loader(args(withCookie("/my-tax-filing", who.cookie))),
    )
  ).body.unreadMessages;

const filingUnread = async (who: Account, year = X) =>
  (
    await outcome<{ unreadMessages: number }>(() =>
      filingRoute.loader(args(withCookie(`/my-tax-filing/${year}`, who.cookie), { year: String(year) })),
    )
  ).body.unreadMessages;

const download = (who: Account, documentId: string) =>
  outcome<string>(() => downloadRoute.loader(args(withCookie(`/documents/${documentId}`, who.cookie), { documentId })));

const messagesOf = (clientId: string, year = X) =>
  getDb()
    .select()
    .from(caseMessages)
    .where(and(eq(caseMessages.clientId, clientId), eq(caseMessages.taxYear, year)))
    .orderBy(caseMessages.createdAt);

async function waitingSince(clientId: string, year = X): Promise<Date | null> {
  const [row] = await getDb()
    .select({ since: clientCases.awaitingReplySince })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, year)));
  return row?.since ?? null;
}

const auditOf = (action: (typeof auditLog.$inferSelect)["action"]) =>
  getDb().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);

async function clientCodeOf(clientId: string): Promise<string> {
  const [row] = await getDb().select({ n: clientCases.number }).from(clientCases).where(eq(clientCases.userId, clientId));
  return `TB-${String(row!.n).padStart(5, "0")}`;
}

// ---------------------------------------------------------------------------------------------

describe("a conversation, both ways", () => {
  it("carries messages from the client to the firm and back, with read and unread counts on every side", async () => {
    const QUESTION = "Hello, my W-2 from Acme shows box 12 code DD.\r\nIs that a problem?";
    const sent = await clientSend(alice, `  ${QUESTION}  `);
    expect(sent).toMatchObject({ status: 200, body: { intent: "send", ok: true, message: MESSAGE_TEXTS.sentByClient(0) } });
    const [stored] = await messagesOf(alice.id);
    expect(stored).toMatchObject({
      authorId: alice.id,
      fromClient: true,
      body: "Hello, my W-2 from Acme shows box 12 code DD.\nIs that a problem?",
      readAt: null,
      hiddenAt: null,
    });
    // The empty file input sent nothing.
    expect(await getDb().select().from(documents)).toHaveLength(0);
    expect(await waitingSince(alice.id)).toEqual(stored!.createdAt);
    expect((await auditOf("message-sent")).map((e) => [e.actorId, e.clientId, e.taxYear, e.detail])).toEqual([
      [alice.id, alice.id, X, "from the client"],
    ]);

    // Staff: the sidebar, the inbox, the table's counts.
    expect(await sidebarUnread(admin)).toBe(1);
    const listed = await inbox(admin);
    expect(listed.status).toBe(200);
    expect(listed.body.rows).toEqual([
      expect.objectContaining({
        clientId: alice.id,
        taxYear: X,
        code: await clientCodeOf(alice.id),
        name: "Alice Aardvark",
        lastFromClient: true,
        unread: 1,
        waitingSince: stored!.createdAt.toISOString(),
        waitedDays: 0,
        overdue: false,
        assignee: null,
      }),
    ]);
    expect(await unreadMessageCounts([{ clientId: alice.id, taxYear: X }, { clientId: bob.id, taxYear: X }])).toEqual(
      new Map([
        [`${alice.id}/${X}`, 1],
        [`${bob.id}/${X}`, 0],
      ]),
    );
    const casePage = await outcome<{ messages: { total: number; unread: number } }>(() =>
      caseRoute.loader(args(withCookie(`/admin/clients/${alice.id}/${X}`, admin.cookie), { clientId: alice.id, year: String(X) })),
    );
    expect(casePage.body.messages).toMatchObject({ total: 1, unread: 1 });

    // Staff open the conversation: the client's message is new to them this once, then read.
    const opened = await staffPage(admin, alice.id);
    expect(opened.status).toBe(200);
    expect(opened.body.client).toMatchObject({ id: alice.id, name: "Alice Aardvark" });
    expect(opened.body.messages).toEqual([
      expect.objectContaining({ fromClient: true, author: "Alice Aardvark", isNew: true, hidden: null, body: stored!.body }),
    ]);
    expect((await staffPage(preparer, alice.id)).body.messages[0]!.isNew).toBe(false);
    expect(await sidebarUnread(admin)).toBe(0);
    expect((await inbox(admin)).body.rows[0]!.unread).toBe(0);
    expect((await messagesOf(alice.id))[0]!.readAt).not.toBeNull();
    // The client sees that the firm read it.
    const mine = (await clientPage(alice)).body.messages[0]!;
    expect(mine).toMatchObject({ mine: true, author: "You", isNew: false });
    expect(mine.readAt).toMatch(/^\d{4}-/);

    // Staff reply: the client waits no longer, and is e-mailed.
    const REPLY = "No problem: code DD is your employer's health cover. Nothing to do.";
    const replied = await staffSend(admin, alice.id, REPLY);
    expect(replied.body).toEqual({ intent: "send", ok: true, message: MESSAGE_TEXTS.sentByStaff(0, true) });
    expect(await waitingSince(alice.id)).toBeNull();

    // The client's counts: header menu, My Tax Filings, the filing page.
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 1, year: X } });
    expect(await myFilingsUnread(alice)).toEqual({ [X]: 1 });
    expect(await filingUnread(alice)).toBe(1);
    expect(await filingUnread(alice, Y)).toBe(0);

    const read = await clientPage(alice);
    expect(read.status).toBe(200);
    expect(read.body.messages.map((m) => [m.author, m.mine, m.isNew, m.body])).toEqual([
      ["You", true, false, stored!.body],
      ["Sam Staff, TaxBridge", false, true, REPLY],
    ]);
    expect((await clientPage(alice)).body.messages[1]!.isNew).toBe(false);
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 0, year: null } });
    expect(await myFilingsUnread(alice)).toEqual({});
    expect(await filingUnread(alice)).toBe(0);
    // Staff see that the client read the reply.
    expect((await staffPage(admin, alice.id)).body.messages[1]!.readAt).toMatch(/^\d{4}-/);
    // Staff have no unread count in the header (it is the client's).
    expect((await header(admin))?.unreadMessages).toBeNull();

    // The case's activity says who wrote and who opened the messages (one after another: once),
    // never the text.
    await staffPage(admin, alice.id);
    const activity = await caseActivity(alice.id, X);
    const texts = activity.map((e) => `${e.actor} · ${e.text}`);
    expect(texts).toContain("Client · Sent a message");
    expect(texts).toContain("Sam Staff · Sent the client a message");
    expect(texts).toContain("Pat Preparer · Opened the messages");
    expect(texts[0]).toBe("Sam Staff · Opened the messages (2 times)");
    expect(JSON.stringify(activity)).not.toContain("Acme");
  });

  it("counts the conversation a page view opens as read, in the header's menu and the sidebar of that same view", async () => {
    await clientSend(alice, "Unread by staff");
    await clientSend(bob, "Also unread");
    expect(await sidebarUnread(admin)).toBe(2);
    for (const suffix of ["", ".data"]) {
      const view = await pageView("routes/admin/case-messages.tsx", {
        ...routeArgs(withCookie(`${staffUrl(alice.id, X)}${suffix}`, admin.cookie)),
        params: { clientId: alice.id, year: String(X) },
      });
      expect((view[2] as { unreadMessages: number }).unreadMessages).toBe(1);
    }
    expect(await sidebarUnread(admin)).toBe(1);

    await staffSend(admin, alice.id, "This year");
    await staffSend(admin, alice.id, "Last year", [], Y);
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 2, year: null } });
    const [root] = await pageView("routes/portal/filing-messages.tsx", {
      ...routeArgs(withCookie(clientUrl(X), alice.cookie)),
      params: { year: String(X) },
    });
    expect((root as HeaderData).user?.unreadMessages).toEqual({ total: 1, year: Y });
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 1, year: Y } });
  });

  it("keeps each tax year's conversation apart", async () => {
    await clientSend(alice, "About last year", [], Y);
    await clientSend(alice, "About this year");
    expect((await clientPage(alice, Y)).body.messages.map((m) => m.body)).toEqual(["About last year"]);
    expect((await staffPage(admin, alice.id, X)).body.messages.map((m) => m.body)).toEqual(["About this year"]);
    const listed = await inbox(admin, `?year=${Y}`);
    expect(listed.body.rows.map((r) => [r.clientId, r.taxYear])).toEqual([[alice.id, Y]]);
    // The season's inbox offers the other year's unread.
    expect((await inbox(admin)).body.unreadByYear).toEqual({ [Y]: 1 });
  });

  it("refuses an empty, too long or odd message and stores nothing", async () => {
    const cases: Array<[string, string]> = [
      ["   \r\n  ", MESSAGE_TEXTS.empty],
      ["x".repeat(MAX_MESSAGE_LENGTH + 1), MESSAGE_TEXTS.tooLong],
      ["bell \u0007", CONTROL_CHARACTERS_MESSAGE],
      ["nul \u0000", CONTROL_CHARACTERS_MESSAGE],
    ];
    for (const [body, message] of cases) {
      const got = await clientSend(alice, body);
      expect(got.status).toBe(400);
      expect(got.body).toEqual({ intent: "send", ok: false, message, body });
      expect((await staffSend(admin, alice.id, body)).body).toMatchObject({ ok: false, message });
    }
    expect(await messagesOf(alice.id)).toHaveLength(0);
    expect(await waitingSince(alice.id)).toBeNull();
    expect((await mails())).toHaveLength(0);
    // The longest message passes, line breaks and all.
    expect((await clientSend(alice, `${"y".repeat(MAX_MESSAGE_LENGTH - 2)}\r\nz`)).body).toMatchObject({ ok: true });
    expect((await messagesOf(alice.id))[0]!.body).toHaveLength(MAX_MESSAGE_LENGTH);
  });

  it("answers 404 for a year that is not the client's or not a year, and for a case that is not there", async () => {
    for (const year of [Y, X - 3, "20x5", "1999", String(X + 5)]) {
      expect((await clientPage(bob, year)).status, String(year)).toBe(404);
      const posted = await clientSend(bob, "Hello", [], year);
      expect(posted.status).toBe(404);
    }
    for (const [clientId, year] of [
      ["no-such-client", X],
      [preparer.id, X],
      [bob.id, Y],
      [alice.id, "20x5"],
      ["\u0000", X],
    ] as const) {
      expect((await staffPage(admin, clientId, year)).status, `${clientId}/${year}`).toBe(404);
      expect((await staffSend(admin, clientId, "Hello", [], year)).status).toBe(404);
    }
    expect(await getDb().select().from(caseMessages)).toHaveLength(0);
    expect(await auditOf("messages-viewed")).toHaveLength(0);
  });
});

describe("what the pages read", () => {
  it("takes files only in the compose form's multipart post, and a plain form only up to a form's size", async () => {
    for (const p of [clientUrl(X), `${clientUrl(X)}.data`, staffUrl(alice.id, X), `${staffUrl(alice.id, X)}.data`])
      expect(bodyLimitFor(p).maxBytes, p).toBe(MAX_UPLOAD_REQUEST_BYTES);
    for (const p of [`${clientUrl(X)}/x`, `/my-tax-filing/${X}`, `/admin/clients/${alice.id}/${X}`])
      expect(bodyLimitFor(p).maxBytes, p).toBe(FORM_BODY_MAX_BYTES);

    const big = new URLSearchParams({ intent: "send", body: "x".repeat(FORM_BODY_MAX_BYTES) });
    const request = withCookie(clientUrl(X), alice.cookie, {
      method: "POST",
      body: big,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const got = await outcome<MessageActionResult>(() => clientRoute.action(args(request, { year: String(X) })));
    expect(got).toMatchObject({ status: 413, body: { intent: "unknown", ok: false, message: MESSAGE_TEXTS.uploadTooLarge } });
    // A plain form of a normal size is read like the multipart one.
    const small = withCookie(clientUrl(X), alice.cookie, {
      method: "POST",
      body: new URLSearchParams({ intent: "send", body: "Sent without files" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((await outcome<MessageActionResult>(() => clientRoute.action(args(small, { year: String(X) })))).body).toMatchObject({
      ok: true,
    });
    expect((await messagesOf(alice.id)).map((m) => m.body)).toEqual(["Sent without files"]);
  });
});

describe("two clients", () => {
  it("never lets one client read, post to or count another's conversation, by URL or by forged fields", async () => {
    const SECRET = "Alice's question about her stock options";
    await clientSend(alice, SECRET, [{ name: "alice-w2.pdf", bytes: pdf("alice") }]);
    await staffSend(admin, alice.id, "Reply for Alice only", [{ name: "alice-draft.pdf", bytes: pdf("draft") }]);
    const aliceDocs = await getDb().select().from(documents).where(eq(documents.clientId, alice.id));
    expect(aliceDocs).toHaveLength(2);

    // Bob's page of the same year is his own case: empty. The URL names no client to change.
    const bobsPage = await clientPage(bob);
    expect(bobsPage.status).toBe(200);
    expect(bobsPage.body.messages).toEqual([]);
    expect(JSON.stringify(bobsPage.body)).not.toContain("Alice");
    // A year Bob has no case for (Alice has one) is a 404.
    expect((await clientPage(bob, Y)).status).toBe(404);
    // Bob's counts do not see Alice's unread reply.
    expect(await header(bob)).toMatchObject({ unreadMessages: { total: 0, year: null } });
    expect(await myFilingsUnread(bob)).toEqual({});
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 1, year: X } });

    // Forged fields name Alice's case: the message goes to Bob's own case, nowhere else.
    const forged = await clientPost(bob, {
      intent: "send",
      body: "Forged into Alice's case",
      clientId: alice.id,
      taxYear: String(Y),
      authorId: alice.id,
      fromClient: "false",
    });
    expect(forged.body).toMatchObject({ intent: "send", ok: true });
    expect((await messagesOf(alice.id)).map((m) => m.body)).toEqual([SECRET, "Reply for Alice only"]);
    expect(await messagesOf(alice.id, Y)).toEqual([]);
    expect((await messagesOf(bob.id)).map((m) => [m.body, m.authorId, m.fromClient])).toEqual([
      ["Forged into Alice's case", bob.id, true],
    ]);

    // Bob cannot hide Alice's messages, nor reach the staff pages.
    const [aliceMessage] = await messagesOf(alice.id);
    const hide = await clientPost(bob, { intent: "hide", messageId: aliceMessage!.id });
    expect(hide).toMatchObject({ status: 400, body: { intent: "unknown", ok: false, message: MESSAGE_TEXTS.badForm } });
    expect((await messagesOf(alice.id))[0]!.hiddenAt).toBeNull();
    for (const got of [await staffPage(bob, alice.id), await staffHide(bob, alice.id, aliceMessage!.id), await inbox(bob)])
      expect(got).toMatchObject({ status: 302, location: "/dashboard" });

    // Nor download Alice's attachments (hers or the firm's to her).
    for (const doc of aliceDocs) expect((await download(bob, doc.id)).status).toBe(404);
    for (const doc of aliceDocs) expect((await download(alice, doc.id)).status).toBe(200);

    // Alice still sees her conversation as it was, and nothing of Bob's.
    const alicePage = await clientPage(alice);
    expect(alicePage.body.messages.map((m) => m.body)).toEqual([SECRET, "Reply for Alice only"]);
    expect(JSON.stringify(alicePage.body)).not.toContain("Forged");
  });

  it("keeps each client's e-mail to themself", async () => {
    await staffSend(admin, alice.id, "For Alice");
    await staffSend(admin, bob.id, "For Bob");
    await noticesDue();
    const to = (await mails()).map((m) => m.to);
    expect(to.sort()).toEqual(["alice@example.com", "bob@example.com"]);
    const aliceMail = (await mails()).find((m) => m.to === "alice@example.com")!;
    expect(aliceMail.raw).not.toContain("Bob");
  });
});

describe("hiding a message", () => {
  it("takes it out of everything the client gets, counts included, keeps it marked for staff, and is audited without its text", async () => {
    const WRONG = "Draft for another client: SSN ends 4321";
    const hiddenLater = await staffSend(admin, alice.id, WRONG, [{ name: "other-client.pdf", bytes: pdf("other") }]);
    expect(hiddenLater.body).toEqual({ intent: "send", ok: true, message: MESSAGE_TEXTS.sentByStaff(1, true) });
    const [wrong] = await messagesOf(alice.id);
    const [attachment] = await getDb().select().from(documents).where(eq(documents.messageId, wrong!.id));
    expect(attachment).toMatchObject({ clientId: alice.id, taxYear: X, fromClient: false });
    expect(attachment!.sharedAt).not.toBeNull();
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 1 } });

    const hidden = await staffHide(admin, alice.id, wrong!.id);
    expect(hidden).toMatchObject({ status: 200, body: { intent: "hide", ok: true, message: MESSAGE_TEXTS.hiddenWithFiles(1) } });

    // The client: not on the page, not in any count, its file no longer theirs to see.
    const page = await clientPage(alice);
    expect(page.body.messages).toEqual([]);
    expect(JSON.stringify(page.body)).not.toContain("4321");
    expect(await header(alice)).toMatchObject({ unreadMessages: { total: 0 } });
    expect(await myFilingsUnread(alice)).toEqual({});
    expect(await filingUnread(alice)).toBe(0);
    expect((await listOwnDocuments(alice.id, X)).map((d) => d.id)).not.toContain(attachment!.id);
    expect((await download(alice, attachment!.id)).status).toBe(404);
    // Opening the page did not mark it read: the client never saw it.
    expect((await messagesOf(alice.id))[0]!.readAt).toBeNull();

    // Staff still see it, marked.
    const staffView = (await staffPage(admin, alice.id)).body.messages[0]!;
    expect(staffView.hidden).toEqual({ at: expect.any(String) as string, by: "Sam Staff" });
    expect(staffView.body).toBe(WRONG);
    expect(staffView.attachments).toEqual([expect.objectContaining({ id: attachment!.id, shared: false })]);

    // Audited: the message's date and side, never its text.
    const entries = await auditOf("message-hidden");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: admin.id,
      clientId: alice.id,
      taxYear: X,
      detail: `a message from staff of ${messageMoment(wrong!.createdAt)}`,
    });
    expect(JSON.stringify(await getDb().select().from(auditLog))).not.toContain("4321");
    expect((await auditOf("document-unshared")).map((e) => e.detail)).toEqual(["Other Documents: other-client.pdf"]);
    const activity = (await caseActivity(alice.id, X)).map((e) => `${e.actor} · ${e.text}`);
    expect(activity).toContain(`Sam Staff · Hid a message from the client: a message from staff of ${messageMoment(wrong!.createdAt)}`);

    // Once only; another case's message, or no message at all, is refused and changes nothing.
    expect((await staffHide(admin, alice.id, wrong!.id)).body).toEqual({ intent: "hide", ok: false, message: MESSAGE_TEXTS.notHidden });
    await clientSend(bob, "Bob's message");
    const [bobs] = await messagesOf(bob.id);
    expect((await staffHide(admin, alice.id, bobs!.id)).status).toBe(404);
    expect((await staffHide(admin, alice.id, bobs!.id, Y)).status).toBe(404);
    expect((await staffHide(admin, alice.id, "not-an-id")).status).toBe(400);
    expect((await messagesOf(bob.id))[0]!.hiddenAt).toBeNull();
    expect(await auditOf("message-hidden")).toHaveLength(1);
  });

  it("works out again whether the client is waiting, from what the client can still see", async () => {
    await clientSend(alice, "First question");
    const [first] = await messagesOf(alice.id);
    await clientSend(alice, "Second question");
    // The oldest message not answered.
    expect(await waitingSince(alice.id)).toEqual(first!.createdAt);
    await staffSend(admin, alice.id, "Answer to both");
    expect(await waitingSince(alice.id)).toBeNull();
    const [, , answer] = await messagesOf(alice.id);

    // An answer the client can no longer see answered nothing: they wait again, since the first.
    await staffHide(admin, alice.id, answer!.id);
    expect(await waitingSince(alice.id)).toEqual(first!.createdAt);
    await staffSend(admin, alice.id, "A better answer");
    expect(await waitingSince(alice.id)).toBeNull();

    // A hidden client message waits for nothing.
    await clientSend(alice, "Spam by mistake");
    const spam = (await messagesOf(alice.id)).at(-1)!;
    expect(await waitingSince(alice.id)).toEqual(spam.createdAt);
    const hidden = await staffHide(admin, alice.id, spam.id);
    expect(hidden.body).toEqual({ intent: "hide", ok: true, message: MESSAGE_TEXTS.hidden });
    expect(await waitingSince(alice.id)).toBeNull();
  });
});

describe("messages are never changed", () => {
  it("has no route to change one, and refuses a forged intent on both pages", async () => {
    const messageRoutes = (entries: readonly RouteConfigEntry[]): string[] =>
      entries.flatMap((e) => [...(/message/i.test(e.file) ? [e.file] : []), ...messageRoutes(e.children ?? [])]);
    expect(messageRoutes(routeConfig).sort()).toEqual([
      "routes/admin/case-messages.tsx",
      "routes/admin/messages.tsx",
      "routes/portal/filing-messages.tsx",
    ]);

    await clientSend(alice, "Original text");
    const [original] = await messagesOf(alice.id);
    for (const intent of ["edit", "delete", "update", "unhide"]) {
      const fields = { intent, messageId: original!.id, body: "Changed text" };
      expect((await clientPost(alice, fields)).body).toEqual({ intent: "unknown", ok: false, message: MESSAGE_TEXTS.noEditing });
      expect((await staffPost(admin, alice.id, fields)).body).toEqual({
        intent: "unknown",
        ok: false,
        message: MESSAGE_TEXTS.noEditing,
      });
    }
    expect((await clientPost(alice, { intent: "whatever" })).body).toMatchObject({ message: MESSAGE_TEXTS.badForm });
    const after = await messagesOf(alice.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ body: "Original text", hiddenAt: null });
  });
});

describe("attachments", () => {
  it("become documents of that case: the client's in their documents, staff's shared with the client at once", async () => {
    const sent = await clientSend(
      alice,
      "My W-2 and a photo of my 1042-S",
      [
        { name: "w2-acme.pdf", bytes: pdf("w2") },
        { name: "photo.png", bytes: PNG },
      ],
      X,
      "w-2",
    );
    expect(sent.body).toEqual({ intent: "send", ok: true, message: MESSAGE_TEXTS.sentByClient(2) });
    const [message] = await messagesOf(alice.id);
    const attached = await getDb().select().from(documents).where(eq(documents.messageId, message!.id)).orderBy(documents.originalName);
    expect(attached.map((d) => [d.originalName, d.clientId, d.taxYear, d.category, d.fromClient])).toEqual([
      ["photo.png", alice.id, X, "w-2", true],
      ["w2-acme.pdf", alice.id, X, "w-2", true],
    ]);
    expect((await listOwnDocuments(alice.id, X)).map((d) => d.name).sort()).toEqual(["photo.png", "w2-acme.pdf"]);
    expect((await clientPage(alice)).body.messages[0]!.attachments.map((a) => a.name).sort()).toEqual([
      "photo.png",
      "w2-acme.pdf",
    ]);
    expect((await staffPage(admin, alice.id)).body.messages[0]!.attachments).toHaveLength(2);
    // One notice: a message (not a separate one for the uploads).
    expect((await mails()).map((m) => m.subject)).toEqual([`${await clientCodeOf(alice.id)} Alice Aardvark sent a message (${X})`]);

    const reply = await staffSend(admin, alice.id, "Here is your draft", [{ name: "draft-1040nr.pdf", bytes: pdf("draft") }]);
    expect(reply.body).toMatchObject({ ok: true });
    const [draft] = await getDb().select().from(documents).where(eq(documents.originalName, "draft-1040nr.pdf"));
    expect(draft).toMatchObject({ clientId: alice.id, taxYear: X, fromClient: false, category: "other-documents" });
    expect(draft!.sharedAt).not.toBeNull();
    expect((await listOwnDocuments(alice.id, X)).map((d) => d.name)).toContain("draft-1040nr.pdf");
    expect((await download(alice, draft!.id)).status).toBe(200);
    expect((await auditOf("document-shared")).map((e) => e.detail)).toEqual(["Other Documents: draft-1040nr.pdf"]);
    // Still one e-mail to the client: the message's, not a second one about the shared file.
    await noticesDue();
    expect((await mails()).filter((m) => m.to === "alice@example.com")).toHaveLength(1);
  });

  it("sends nothing when a file is refused, and removes what was stored", async () => {
    const before = storedFiles();
    const refused = await clientSend(alice, "Two files", [
      { name: "fine.pdf", bytes: pdf("fine") },
      { name: "fake.pdf", bytes: ascii("not really a pdf") },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      intent: "send",
      ok: false,
      message: MESSAGE_TEXTS.filesRefused,
      body: "Two files",
      refused: [{ name: "fake.pdf", reason: "the file's content is not a real PDF" }],
    });
    const named = await clientSend(alice, "A script", [{ name: "run.exe", bytes: ascii("MZ") }]);
    expect(named.body).toMatchObject({ ok: false, refused: [{ name: "run.exe", reason: REFUSED_TYPE }] });
    const category = await clientSend(alice, "Bad category", [{ name: "fine.pdf", bytes: pdf("x") }], X, "no-such");
    expect(category.body).toMatchObject({ ok: false, message: MESSAGE_TEXTS.chooseCategory });
    expect(await messagesOf(alice.id)).toHaveLength(0);
    expect(await getDb().select().from(documents)).toHaveLength(0);
    expect(storedFiles()).toBe(before);
    expect((await mails())).toHaveLength(0);
  });

  it("takes no files from the client once the year's documents are complete, but still the message", async () => {
    await getDb().update(clientCases).set({ documents: true }).where(and(eq(clientCases.userId, alice.id), eq(clientCases.taxYear, X)));
    expect((await clientPage(alice)).body.documentsOpen).toBe(false);
    const before = storedFiles();
    const withFile = await clientSend(alice, "One more form", [{ name: "late.pdf", bytes: pdf("late") }]);
    expect(withFile.status).toBe(409);
    expect(withFile.body).toMatchObject({ ok: false, message: MESSAGE_TEXTS.filesClosed(X), body: "One more form" });
    expect(await getDb().select().from(documents)).toHaveLength(0);
    expect(storedFiles()).toBe(before);
    expect((await clientSend(alice, "One more form: how do I send it?")).body).toMatchObject({ ok: true });
    // Staff may still send files.
    expect((await staffSend(admin, alice.id, "Send it here", [{ name: "form.pdf", bytes: pdf("f") }])).body).toMatchObject({ ok: true });
    expect(PORTAL_MESSAGES.documentsClosed(X)).toContain("Send us a message");
  });
});

describe("the waiting filter", () => {
  /** Gives a case a message and a fixed waiting time. */
  async function waitingFrom(clientId: string, since: Date | null, year = X) {
    await sendMessage(
      (await getSessionUser(withCookie("/", clientId === alice.id ? alice.cookie : bob.cookie)))!,
      { clientId, taxYear: year, body: "Waiting", category: "other-documents", files: [] },
      "203.0.113.1",
    );
    await getDb()
      .update(clientCases)
      .set({ awaitingReplySince: since })
      .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, year)));
  }

  it("lists the cases whose client has waited more than 2 business days, in New York's business days", async () => {
    // Alice since Monday March 2, 2026, 10:00 EST; Bob since Friday March 6, 15:00 EST.
    await waitingFrom(alice.id, new Date("2026-03-02T15:00:00Z"));
    await waitingFrom(bob.id, new Date("2026-03-06T20:00:00Z"));
    const query = { year: X, filter: "waiting" as const, page: 1 };
    const waiting = async (now: string) => (await listInbox(query, new Date(now))).rows.map((r) => r.name);
    // Wednesday 10:00 EST: Alice has waited exactly two business days, not more.
    expect(await waiting("2026-03-04T15:00:00Z")).toEqual([]);
    expect(await waiting("2026-03-04T15:00:00.001Z")).toEqual(["Alice Aardvark"]);
    // The weekend does not count for Bob; the clocks go forward on Sunday. Tuesday 15:00 EDT
    // (19:00 UTC) he has waited exactly two business days, a moment later more.
    expect(await waiting("2026-03-08T20:00:00Z")).toEqual(["Alice Aardvark"]);
    expect(await waiting("2026-03-10T19:00:00Z")).toEqual(["Alice Aardvark"]);
    const later = "2026-03-10T19:00:00.001Z";
    expect((await waiting(later)).sort()).toEqual(["Alice Aardvark", "Bob Bobolink"]);
    const rows = (await listInbox(query, new Date(later))).rows;
    expect(rows.find((r) => r.clientId === alice.id)).toMatchObject({
      overdue: true,
      waitedDays: 6,
      waitingSince: "2026-03-02T15:00:00.000Z",
    });
    expect(rows.find((r) => r.clientId === bob.id)).toMatchObject({ overdue: true, waitedDays: 2 });
    // All conversations, whatever the wait.
    expect((await listInbox({ ...query, filter: "all" }, new Date("2026-03-04T15:00:00Z"))).matching).toBe(2);
  });

  it("is a link of the inbox (?filter=waiting), for staff of either role", async () => {
    const now = Date.now();
    await waitingFrom(alice.id, new Date(now - 10 * 24 * 60 * 60 * 1000));
    await waitingFrom(bob.id, new Date(now - 60 * 60 * 1000));
    await waitingFrom(alice.id, new Date(now - 30 * 24 * 60 * 60 * 1000), Y);
    for (const who of [admin, preparer]) {
      const got = await inbox(who, "?filter=waiting");
      expect(got.status).toBe(200);
      expect(got.body.query).toEqual({ year: X, filter: "waiting", page: 1 });
      expect(got.body.rows.map((r) => [r.name, r.overdue])).toEqual([["Alice Aardvark", true]]);
      expect(got.body.matching).toBe(1);
      // The unread filter: both of this year (no one has opened them).
      expect((await inbox(who, "?filter=unread")).body.matching).toBe(2);
      expect((await inbox(who, `?filter=waiting&year=${Y}`)).body.rows.map((r) => r.taxYear)).toEqual([Y]);
    }
    // An unknown filter or page reads as the defaults.
    expect((await inbox(admin, "?filter=nope&page=-3")).body.query).toEqual({ year: X, filter: "all", page: 1 });
    expect((await inbox(admin, "?page=99")).body.query.page).toBe(1);
  });

  it("pages the inbox ten at a time, newest activity first", async () => {
    const clients: Account[] = [];
    for (let i = 0; i < 11; i++) clients.push(await account(`client${i}@example.com`, `Client ${String(i).padStart(2, "0")}`));
    for (const [i, c] of clients.entries()) {
      await clientSend(c, `Question ${i}`);
      await getDb()
        .update(caseMessages)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1 + i)) })
        .where(eq(caseMessages.clientId, c.id));
    }
    const first = await inbox(admin);
    expect(first.body).toMatchObject({ matching: 11, pageCount: 2 });
    expect(first.body.rows.map((r) => r.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Client ${String(10 - i).padStart(2, "0")}`),
    );
    expect((await inbox(admin, "?page=2")).body.rows.map((r) => r.name)).toEqual(["Client 00"]);
  });
});

describe("e-mail notices", () => {
  it("carry a link to the conversation, never the text, and go to the case's assignee when there is one", async () => {
    const TEXT = "My passport number is X1234567";
    await clientSend(alice, TEXT);
    const code = await clientCodeOf(alice.id);
    let [toStaff] = (await mails());
    expect(toStaff).toMatchObject({ to: "staff@taxbridge.test", subject: `${code} Alice Aardvark sent a message (${X})` });
    expect(toStaff!.text).toContain(`http://localhost:3000/admin/clients/${alice.id}/${X}/messages`);
    expect(toStaff!.raw).not.toContain("X1234567");
    expect(toStaff!.raw).not.toContain("passport");

    await staffSend(admin, alice.id, "Thanks, your passport X1234567 is noted");
    await noticesDue();
    const toClient = (await mails()).find((m) => m.to === "alice@example.com")!;
    expect(toClient.subject).toBe(`You have a new message about your ${X} tax filing`);
    expect(toClient.text).toContain(`http://localhost:3000/my-tax-filing/${X}/messages`);
    expect(toClient.raw).not.toContain("X1234567");
    expect(toClient.raw).not.toContain("noted");

    // With an assignee, the client's messages go to them (gathered after the quiet period).
    await getDb().update(clientCases).set({ assigneeId: preparer.id }).where(eq(clientCases.userId, alice.id));
    await staffPage(admin, alice.id);
    await clientSend(alice, "Another question");
    await quietPeriodPasses(alice.id);
    expect(await sendGatheredStaffNotices()).toBe(1);
    [toStaff] = (await mails()).filter((m) => m.to === "pat.preparer@example.com");
    expect(toStaff).toMatchObject({ subject: `${code} Alice Aardvark sent a message (${X})` });
  });

  it("are not sent again within the hour: to staff gathered with the case's other notices, to the client while unread", async () => {
    const toStaff = async () => (await mails()).filter((m) => m.to === "staff@taxbridge.test");
    const toAlice = async () => (await mails()).filter((m) => m.to === "alice@example.com").length;

    await clientSend(alice, "One");
    await clientSend(alice, "Two");
    expect((await toStaff())).toHaveLength(1);
    // Read or not, what follows within the hour after a notice waits for the hour to pass.
    await staffPage(admin, alice.id);
    await clientSend(alice, "Three");
    expect((await toStaff())).toHaveLength(1);
    expect(await sendGatheredStaffNotices()).toBe(0);
    await quietPeriodPasses(alice.id);
    expect(await sendGatheredStaffNotices()).toBe(1);
    expect((await toStaff()).map((m) => m.subject)).toEqual([
      `${await clientCodeOf(alice.id)} Alice Aardvark sent a message (${X})`,
      `${await clientCodeOf(alice.id)} Alice Aardvark sent 2 messages (${X})`,
    ]);

    // Staff to the client, the same rule; the page says whether the client was e-mailed.
    expect((await staffSend(admin, alice.id, "Reply one")).body).toMatchObject({ message: MESSAGE_TEXTS.sentByStaff(0, true) });
    expect((await staffSend(preparer, alice.id, "Reply two")).body).toMatchObject({ message: MESSAGE_TEXTS.sentByStaff(0, false) });
    await noticesDue();
    expect((await toAlice())).toBe(1);
    await clientPage(alice);
    expect((await staffSend(admin, alice.id, "Reply three")).body).toMatchObject({ message: MESSAGE_TEXTS.sentByStaff(0, true) });
    await noticesDue();
    expect((await toAlice())).toBe(2);
    // A hidden unread message does not hold the next notice back.
    const [three] = (await messagesOf(alice.id)).filter((m) => m.body === "Reply three");
    await staffHide(admin, alice.id, three!.id);
    expect((await staffSend(admin, alice.id, "Reply four")).body).toMatchObject({ message: MESSAGE_TEXTS.sentByStaff(0, true) });
    await noticesDue();
    expect((await toAlice())).toBe(3);
    // Bob's conversation is his own: Alice's unread messages hold nothing back for him.
    await staffSend(admin, bob.id, "For Bob");
    await noticesDue();
    expect((await mails()).filter((m) => m.to === "bob@example.com")).toHaveLength(1);
  });
});

describe("a preparer", () => {
  it("reads the inbox and a conversation, replies with a file and hides a message", async () => {
    await clientSend(alice, "Question for the preparer");
    expect(await sidebarUnread(preparer)).toBe(1);
    expect((await inbox(preparer, "?filter=unread")).body.rows.map((r) => r.clientId)).toEqual([alice.id]);
    const page = await staffPage(preparer, alice.id);
    expect(page.status).toBe(200);
    expect(page.body.messages[0]).toMatchObject({ isNew: true, body: "Question for the preparer" });
    const reply = await staffSend(preparer, alice.id, "Answer from Pat", [{ name: "answer.pdf", bytes: pdf("a") }]);
    expect(reply.body).toMatchObject({ intent: "send", ok: true });
    const [, answer] = await messagesOf(alice.id);
    expect(answer).toMatchObject({ authorId: preparer.id, fromClient: false });
    expect((await clientPage(alice)).body.messages[1]!.author).toBe("Pat Preparer, TaxBridge");
    expect((await staffHide(preparer, alice.id, answer!.id)).body).toMatchObject({ intent: "hide", ok: true });
    expect((await auditOf("message-hidden"))[0]!.actorId).toBe(preparer.id);
  });
});

describe("opening a conversation", () => {
  /** Has `arrive` run after the conversation page read its messages and before it marks them read. */
  function meanwhile(arrive: () => Promise<unknown>) {
    const real = attachments.attachmentsOf;
    return vi.spyOn(attachments, "attachmentsOf").mockImplementationOnce(async (...a) => {
      await arrive();
      return real(...a);
    });
  }
  const send = (who: Account, body: string) =>
    sendMessage(who.actor, { clientId: alice.id, taxYear: X, body, category: "other-documents", files: [] }, "203.0.113.1");

  it("marks read only what the client's page showed: a message from the firm that arrives meanwhile stays new", async () => {
    await send(admin, "Your draft is ready.");
    const arrived = meanwhile(() => send(preparer, "One more thing."));
    const first = await clientPage(alice);
    expect(arrived).toHaveBeenCalledTimes(1);
    arrived.mockRestore();
    expect(first.body.messages.map((m) => [m.body, m.isNew])).toEqual([["Your draft is ready.", true]]);
    expect(await myFilingsUnread(alice)).toEqual({ [X]: 1 });

    const second = await clientPage(alice);
    expect(second.body.messages.map((m) => [m.body, m.isNew])).toEqual([
      ["Your draft is ready.", false],
      ["One more thing.", true],
    ]);
  });

  it("marks read only what the staff page showed: a message from the client that arrives meanwhile stays new", async () => {
    await send(alice, "Here is my question.");
    const arrived = meanwhile(() => send(alice, "And another."));
    const first = await staffPage(admin, alice.id);
    expect(arrived).toHaveBeenCalledTimes(1);
    arrived.mockRestore();
    expect(first.body.messages.map((m) => [m.body, m.isNew])).toEqual([["Here is my question.", true]]);
    expect([...(await unreadMessageCounts([{ clientId: alice.id, taxYear: X }])).values()]).toEqual([1]);

    const second = await staffPage(preparer, alice.id);
    expect(second.body.messages.map((m) => [m.body, m.isNew])).toEqual([
      ["Here is my question.", false],
      ["And another.", true],
    ]);
  });
});
