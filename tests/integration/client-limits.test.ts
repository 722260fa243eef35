import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clientCode } from "~/domain/admin";
import { CLIENT_LIMIT_MESSAGES } from "~/domain/client-limits";
import { caseFullMessage, MAX_CASE_BYTES } from "~/domain/documents";
import type { MessageActionResult } from "~/domain/messages";
import type { RequestResult } from "~/domain/requests";
import { currentFilingYear } from "~/domain/tax-year";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { clientWriteLimits } from "~/server/limits/client-limits.server";
import { getDb } from "~/server/db/client.server";
import { caseMessages, clientCases, documentRequests, documents, staffNotices, taxpayerRecords, user } from "~/server/db/schema";
import { saveUploads } from "~/server/documents/upload.server";
import { NOTICE_QUIET_MS, sendGatheredStaffNotices } from "~/server/notices/notices.server";
import { limitOf } from "~/server/limits/rate-limit.server";
import { addRequestItem } from "~/server/requests/requests.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// What one client account may post in a short time (each kind of write counted per account),
// the firm's notices gathered into one e-mail per case and quiet period, and the cap on a case's
// documents. The routes run behind their layouts' middleware, as the server runs them.

const messagesRoute = await routeModule("routes/portal/filing-messages.tsx");
const staffMessagesRoute = await routeModule("routes/admin/case-messages.tsx");
const formRoute = await routeModule("routes/portal/taxpayer-information.tsx");
const uploadRoute = await routeModule("routes/portal/filing-documents.ts");
const staffUploadRoute = await routeModule("routes/admin/document-upload.ts");
const requestsRoute = await routeModule("routes/portal/filing-requests.tsx");

const X = currentFilingYear();

type Account = { id: string; cookie: string; actor: SessionUser };
type Outcome<T> = { status: number; body: T; headers: Headers | null };
type UploadBody = { uploaded: Array<{ id: string; name: string }>; refused: Array<{ name: string; reason: string }>; error?: string };
type FormResult = { ok: boolean; formError?: string; values?: Record<string, string> };

const ascii = (s: string) => new TextEncoder().encode(s);
const pdf = (label: string) => ascii(`%PDF-1.4\n% ${label}\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`);

const dataDir = () => process.env.DATA_DIR!;
const uploadsDir = () => path.join(dataDir(), "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).length : 0);
const toStaff = async () => (await sentMail(dataDir())).filter((m) => m.to === "staff@taxbridge.test");

let admin: Account;
let alice: Account;
let bob: Account;

async function account(email: string, name: string, staff = false): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (staff) await makeStaff(signedIn);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, actor };
}

beforeEach(async () => {
  admin = await account("sam.staff@example.com", "Sam Staff", true);
  alice = await account("alice@example.com", "Alice Aardvark");
  bob = await account("bob@example.com", "Bob Bobolink");
});

async function outcome<T>(call: () => Promise<unknown>): Promise<Outcome<T>> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, body: (await result.json()) as T, headers: result.headers };
  const { status, body } = unwrap<T>(result);
  return { status, body, headers: null };
}

const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request), params }) as never;

type File = { name: string; bytes: Uint8Array };

/** A multipart post as a browser sends it (the compose form sends an empty file part when no file is chosen). */
async function multipart(url: string, cookie: string, fields: Record<string, string>, files: File[] = [], emptyPart = false) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (emptyPart && files.length === 0) form.append("files", new Blob([]), "");
  for (const f of files) form.append("files", new Blob([f.bytes.slice()]), f.name);
  return new Request(`http://localhost:3000${url}`, { method: "POST", body: form, headers: { cookie } });
}

async function sendMessage(who: Account, body: string, files: File[] = []) {
  const request = await multipart(`/my-tax-filing/${X}/messages`, who.cookie, { intent: "send", body, category: files.length ? "other-documents" : "" }, files, true);
  return outcome<MessageActionResult>(() => messagesRoute.action(args(request, { year: String(X) })));
}

async function staffMessage(clientId: string, body: string, files: File[]) {
  const url = `/admin/clients/${clientId}/${X}/messages`;
  const request = await multipart(url, admin.cookie, { intent: "send", body, category: "other-documents" }, files, true);
  return outcome<MessageActionResult>(() => staffMessagesRoute.action(args(request, { clientId, year: String(X) })));
}

function saveForm(who: Account, fields: Record<string, string> = sampleTaxpayer) {
  const request = withCookie(`/dashboard?year=${X}`, who.cookie, { method: "POST", body: new URLSearchParams(fields) });
  return outcome<FormResult>(() => formRoute.action(args(request)));
}

async function upload(who: Account, name = "w2.pdf", bytes = pdf(name)) {
  const request = await multipart(`/my-tax-filing/${X}/documents`, who.cookie, { category: "other-documents" }, [{ name, bytes }]);
  return outcome<UploadBody>(() => uploadRoute.action(args(request, { year: String(X) })));
}

async function staffUpload(clientId: string, name = "letter.pdf") {
  const url = `/admin/clients/${clientId}/documents/upload?year=${X}`;
  const request = await multipart(url, admin.cookie, { category: "other-documents" }, [{ name, bytes: pdf(name) }]);
  return outcome<UploadBody>(() => staffUploadRoute.action(args(request, { clientId })));
}

function requestPost(who: Account, fields: Record<string, string>) {
  const body = new URLSearchParams({ ...fields, enhanced: "1" });
  const request = withCookie(`/my-tax-filing/${X}/requests`, who.cookie, { method: "POST", body });
  return outcome<RequestResult>(() => requestsRoute.action(args(request, { year: String(X) })));
}

async function requestItem(who: Account, title: string): Promise<string> {
  const added = await addRequestItem(admin.actor, { clientId: who.id, taxYear: X }, { title, detail: "", category: "other-documents" }, "203.0.113.1");
  expect(added).toBe("added");
  const [item] = await getDb()
    .select({ id: documentRequests.id })
    .from(documentRequests)
    .where(and(eq(documentRequests.clientId, who.id), eq(documentRequests.title, title)));
  return item!.id;
}

const answer = (who: Account, requestId: string) =>
  requestPost(who, { intent: "answer", requestId, answer: "not-applicable", note: "I had no such income." });
const withdraw = (who: Account, requestId: string) => requestPost(who, { intent: "withdraw", requestId });

const messagesOf = async (clientId: string) =>
  (await getDb().select({ body: caseMessages.body }).from(caseMessages).where(eq(caseMessages.clientId, clientId))).length;
const documentsOf = async (clientId: string) =>
  (await getDb().select({ id: documents.id }).from(documents).where(eq(documents.clientId, clientId))).length;

/** Time passes for a case's notices: the last one was sent longer ago than the quiet period. */
async function quietPeriodPasses(clientId: string) {
  await getDb()
    .update(staffNotices)
    .set({ lastSentAt: new Date(Date.now() - NOTICE_QUIET_MS - 1000) })
    .where(eq(staffNotices.clientId, clientId));
}

describe("limits on what one client account posts", () => {
  it("refuses the message past the limit with 429 and its message, keeps the text, stores nothing; another client still writes", async () => {
    const limit = limitOf(clientWriteLimits.message);
    expect(limit).toBe(20);
    for (let i = 1; i <= limit; i++) expect((await sendMessage(alice, `Question ${i}`)).status).toBe(200);
    const files = storedFiles();

    const refused = await sendMessage(alice, "One more, with a file", [{ name: "w2.pdf", bytes: pdf("w2") }]);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ intent: "send", ok: false, message: CLIENT_LIMIT_MESSAGES.message, body: "One more, with a file" });
    expect(CLIENT_LIMIT_MESSAGES.message).toBe("You have sent too many messages in a short time. Please wait a few minutes and try again.");
    expect(await messagesOf(alice.id)).toBe(limit);
    expect(await documentsOf(alice.id)).toBe(0);
    expect(storedFiles()).toBe(files);

    expect((await sendMessage(bob, "Hello")).status).toBe(200);
    expect(await messagesOf(bob.id)).toBe(1);
  });

  it("refuses the taxpayer save past the limit with 429, gives the form back and changes nothing stored", async () => {
    const limit = limitOf(clientWriteLimits.taxInfo);
    expect(limit).toBe(30);
    for (let i = 1; i <= limit; i++) expect((await saveForm(alice)).status).toBe(200);
    const [before] = await getDb().select().from(taxpayerRecords).where(eq(taxpayerRecords.userId, alice.id));

    const changed = { ...sampleTaxpayer, occupation: "Analyst" };
    const refused = await saveForm(alice, changed);
    expect(refused.status).toBe(429);
    expect(refused.body.ok).toBe(false);
    expect(refused.body.formError).toBe(CLIENT_LIMIT_MESSAGES.taxInfo);
    expect(refused.body.values?.occupation).toBe("Analyst");
    const [after] = await getDb().select().from(taxpayerRecords).where(eq(taxpayerRecords.userId, alice.id));
    expect(after).toEqual(before);

    expect((await saveForm(bob)).status).toBe(200);
  });

  it("refuses the upload past the limit with 429 before reading it: nothing stored; another client still uploads", async () => {
    const limit = limitOf(clientWriteLimits.upload);
    expect(limit).toBe(60);
    for (let i = 1; i <= limit; i++) expect((await upload(alice, `page-${i}.pdf`)).status).toBe(200);
    const files = storedFiles();

    const refused = await upload(alice, "one-more.pdf");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ uploaded: [], refused: [], error: CLIENT_LIMIT_MESSAGES.upload });
    expect(Number(refused.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(await documentsOf(alice.id)).toBe(limit);
    expect(storedFiles()).toBe(files);

    expect((await upload(bob)).status).toBe(200);
    expect(await documentsOf(bob.id)).toBe(1);
  });

  it("counts answers and take-backs together: past the limit 429 and the item stays as it was; another client still answers", async () => {
    const limit = limitOf(clientWriteLimits.answer);
    expect(limit).toBe(30);
    const item = await requestItem(alice, "Form 1042-S");
    for (let i = 1; i <= limit; i++) {
      const posted = i % 2 === 1 ? await answer(alice, item) : await withdraw(alice, item);
      expect(posted.status).toBe(200);
    }
    const [before] = await getDb().select().from(documentRequests).where(eq(documentRequests.id, item));
    expect(before!.state).toBe("requested");

    const refused = await answer(alice, item);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "too-many-answers", message: CLIENT_LIMIT_MESSAGES.answer, requestId: item });
    const [after] = await getDb().select().from(documentRequests).where(eq(documentRequests.id, item));
    expect(after).toEqual(before);

    const bobs = await requestItem(bob, "Form W-2");
    expect((await answer(bob, bobs)).status).toBe(200);
  });
});

describe("the firm's notices about a case, gathered", () => {
  it("e-mails the first action at once and the rest of the quiet period in one e-mail with counts by kind", async () => {
    const item = await requestItem(alice, "Form 1042-S");
    expect((await saveForm(alice)).status).toBe(200);
    const first = (await toStaff());
    expect(first.map((m) => m.subject)).toEqual([expect.stringMatching(new RegExp(`Alice Aardvark submitted their taxpayer information \\(${X}\\)$`))]);

    // Everything else within the quiet period: no e-mail now.
    expect((await saveForm(alice)).status).toBe(200);
    expect((await upload(alice, "a.pdf")).status).toBe(200);
    expect((await upload(alice, "b.pdf")).status).toBe(200);
    for (const text of ["One", "Two", "Three"]) expect((await sendMessage(alice, text)).status).toBe(200);
    expect((await answer(alice, item)).status).toBe(200);
    expect((await toStaff())).toHaveLength(1);
    expect(await sendGatheredStaffNotices()).toBe(0);
    expect((await toStaff())).toHaveLength(1);

    // Another client's case has its own quiet period.
    expect((await sendMessage(bob, "Hello")).status).toBe(200);
    expect((await toStaff()).filter((m) => m.subject.includes("Bob Bobolink sent a message"))).toHaveLength(1);

    await quietPeriodPasses(alice.id);
    expect(await sendGatheredStaffNotices()).toBe(1);
    const [, , gathered] = (await toStaff());
    const [theCase] = await getDb().select({ number: clientCases.number }).from(clientCases).where(eq(clientCases.userId, alice.id));
    const code = clientCode(theCase!.number);
    expect(gathered!.subject).toBe(
      `${code} Alice Aardvark changed their taxpayer information, uploaded 2 documents, answered a requested item and sent 3 messages (${X})`,
    );
    expect(gathered!.text).toContain(`/admin/clients/${alice.id}/${X}`);
    expect(gathered!.text).not.toContain("One");
    // Told once: a second sweep, or another process's, finds nothing.
    expect(await sendGatheredStaffNotices()).toBe(0);
    expect((await toStaff())).toHaveLength(3);
  });

  it("links a notice of messages alone to the case's conversation", async () => {
    expect((await sendMessage(alice, "One")).status).toBe(200);
    expect((await sendMessage(alice, "Two")).status).toBe(200);
    await quietPeriodPasses(alice.id);
    expect(await sendGatheredStaffNotices()).toBe(1);
    const sent = (await toStaff());
    expect(sent.map((m) => m.subject.replace(/^TB-\d+ /, ""))).toEqual([
      `Alice Aardvark sent a message (${X})`,
      `Alice Aardvark sent a message (${X})`,
    ]);
    expect(sent[1]!.text).toContain(`/admin/clients/${alice.id}/${X}/messages`);
  });
});

describe("the cap on a case's documents", () => {
  /** The case already holds documents up to `room` bytes short of the cap (a row as an upload leaves it). */
  async function fillCase(who: Account, room: number) {
    await getDb()
      .insert(documents)
      .values({
        clientId: who.id,
        taxYear: X,
        category: "other-documents",
        originalName: "archive.pdf",
        size: MAX_CASE_BYTES - room,
        contentType: "application/pdf",
        storageKey: `filled-${who.id}`,
        uploadedBy: who.id,
        fromClient: true,
      });
  }

  const documentRows = () => getDb().select().from(documents).orderBy(asc(documents.id));

  it("refuses a client's upload that does not fit, saying how much room is left, and stores nothing", async () => {
    await fillCase(alice, 50);
    const rows = await documentRows();
    const files = storedFiles();
    const refused = await upload(alice, "w2.pdf");
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe(caseFullMessage(50));
    expect(caseFullMessage(50)).toBe(
      "Nothing was uploaded: a tax year's documents may hold 500.0 MB in all, and only 0.0 MB is left for this year. Send smaller files, or remove documents that are no longer needed.",
    );
    expect(await documentRows()).toEqual(rows);
    expect(storedFiles()).toBe(files);

    // Room for it: accepted.
    await getDb().update(documents).set({ size: MAX_CASE_BYTES - 10_000 }).where(eq(documents.storageKey, `filled-${alice.id}`));
    expect((await upload(alice, "w2.pdf")).status).toBe(200);
    // Another client's case has its own room.
    expect((await upload(bob)).status).toBe(200);
  });

  it("refuses staff uploads and message attachments that do not fit, and a message with them is not sent", async () => {
    await fillCase(alice, 50);
    const rows = await documentRows();
    const files = storedFiles();

    const byStaff = await staffUpload(alice.id);
    expect(byStaff.status).toBe(413);
    expect(byStaff.body.error).toBe(caseFullMessage(50));

    const message = await sendMessage(alice, "Here is my W-2", [{ name: "w2.pdf", bytes: pdf("w2") }]);
    expect(message.status).toBe(413);
    expect(message.body).toMatchObject({ ok: false, message: caseFullMessage(50), body: "Here is my W-2" });
    const reply = await staffMessage(alice.id, "Your copy", [{ name: "copy.pdf", bytes: pdf("copy") }]);
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ ok: false, message: caseFullMessage(50) });

    expect(await messagesOf(alice.id)).toBe(0);
    expect(await documentRows()).toEqual(rows);
    expect(storedFiles()).toBe(files);
  });

  it("refuses files that fit alone but not together, and keeps none of them", async () => {
    const one = pdf("one");
    await fillCase(alice, one.byteLength + 10);
    const rows = await documentRows();
    const files = storedFiles();
    const saved = await saveUploads(
      alice.actor,
      { clientId: alice.id, taxYear: X, category: "other-documents", files: [{ name: "one.pdf", bytes: one }, { name: "two.pdf", bytes: pdf("two") }] },
      "203.0.113.1",
    );
    expect(saved).toMatchObject({ uploaded: [], noRoom: one.byteLength + 10 });
    expect(await documentRows()).toEqual(rows);
    expect(storedFiles()).toBe(files);
  });
});
