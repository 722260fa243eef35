import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { REQUEST_TEMPLATES, requestTemplate, templatesFor } from "~/content/request-templates";
import type { RequestTemplate } from "~/content/request-templates";
import { isDocumentCategory } from "~/domain/documents";
import type { FilingPageData, FilingPageResult } from "~/domain/portal";
import { CASE_MESSAGES } from "~/domain/portal-forms";
import {
  MAX_REQUEST_NOTE_LENGTH,
  REQUEST_TEXTS,
  REQUEST_UPLOAD_MESSAGES,
  requestResultFromSearch,
} from "~/domain/requests";
import type { RequestResult, StaffRequestView } from "~/domain/requests";
import { currentFilingYear } from "~/domain/tax-year";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { caseActivity } from "~/server/cases/case-page.server";
import { openCase } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { receiveUpload } from "~/server/documents/upload.server";
import { removeDocuments } from "~/server/documents/changes.server";
import { sendMessage } from "~/server/messages/posting.server";
import { auditLog, documentRequests, documents, profiles, user } from "~/server/db/schema";
import { outstandingRequestCounts } from "~/server/cases/case-counts.server";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { outboxSettled } from "~/server/mail/outbox.server";
import { shouldRevalidate } from "~/routes/portal/filing";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// Document requests ("What we need from you"), through the routes as the server runs them: the
// staff's case page and its requests address, the client's filing page, its requests address
// and its upload address. Two clients (A has two tax years, B one), an admin and a preparer.

const staffRoute = await routeModule("routes/admin/case-requests.tsx");
const filingRoute = await routeModule("routes/portal/filing.tsx");
const clientRoute = await routeModule("routes/portal/filing-requests.tsx");
const uploadRoute = await routeModule("routes/portal/filing-documents.ts");

const Y = currentFilingYear();
const EARLIER = Y - 1;
const STUDENT = requestTemplate("1040nr-student")!;

type Account = { id: string; cookie: string; email: string; actor: SessionUser };
type Outcome<T> = { status: number; body: T; location: string | null };
type UploadBody = { uploaded: Array<{ id: string; name: string }>; refused: Array<{ name: string; reason: string }>; error?: string };

const ascii = (s: string) => new TextEncoder().encode(s);
const PDF = ascii("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
const dataDir = () => process.env.DATA_DIR!;
const uploadsDir = () => path.join(dataDir(), "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).sort() : []);
const mails = async () => (await sentMail(dataDir()));

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

async function account(email: string, name: string, role?: "admin" | "preparer"): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (role) await makeStaff(signedIn, role);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, email, actor };
}

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  a = await account("alice@example.com", "Alice Aardvark");
  b = await account("bob@example.com", "Bob Bobolink");
  expect(await openCase(admin.actor, a.id, EARLIER, "203.0.113.1")).toBe("opened");
  // Alice works on an H-1B (the year's taxpayer information says so); Bob signed up as an F-1 student.
  expect(await saveTaxpayerRecord(a.id, sampleTaxpayer, Y)).toBe("created");
  await getDb().update(profiles).set({ visaStatus: "F-1" }).where(eq(profiles.id, b.id));
});

/** What a route answered: a returned or thrown redirect, a JSON or text Response, or data(). */
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

const args = (request: Request, params: Record<string, string>) => ({ ...routeArgs(request), params }) as never;

function formBody(fields: Record<string, string>, enhanced: boolean): URLSearchParams {
  const body = new URLSearchParams(fields);
  if (enhanced) body.set("enhanced", "1");
  return body;
}

/** A post to the staff's requests address of a case (with JavaScript unless told otherwise). */
function staffPost(who: Account, clientId: string, year: number | string, fields: Record<string, string>, enhanced = true, search = "") {
  const request = withCookie(`/admin/clients/${clientId}/${year}/requests${search}`, who.cookie, {
    method: "POST",
    body: formBody(fields, enhanced),
  });
  return outcome<RequestResult>(() => staffRoute.action(args(request, { clientId, year: String(year) })));
}

/** A post to the client's requests address of a year. */
function clientPost(who: Account, year: number | string, fields: Record<string, string>, enhanced = true) {
  const request = withCookie(`/my-tax-filing/${year}/requests`, who.cookie, { method: "POST", body: formBody(fields, enhanced) });
  return outcome<RequestResult>(() => clientRoute.action(args(request, { year: String(year) })));
}

const filingPage = (who: Account, year: number) =>
  outcome<FilingPageData>(() => filingRoute.loader(args(withCookie(`/my-tax-filing/${year}`, who.cookie), { year: String(year) })));

type CasePageData = { requests: StaffRequestView[]; templates: { suggested: Array<{ id: string }>; others: Array<{ id: string }> } };
/** The case's Requests section (/admin/clients/:clientId/:year/requests). */
const casePage = (who: Account, clientId: string, year: number) =>
  outcome<CasePageData>(() =>
    staffRoute.loader(args(withCookie(`/admin/clients/${clientId}/${year}/requests`, who.cookie), { clientId, year: String(year) })),
  );

/** A multipart upload to the client's upload address, as the filing page's uploader sends it. */
async function upload(who: Account, year: number, fields: Record<string, string>, name = "w2.pdf") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("files", new Blob([PDF.slice()]), name);
  const request = new Request(`http://localhost:3000/my-tax-filing/${year}/documents`, {
    method: "POST",
    body: form,
    headers: { cookie: who.cookie },
  });
  return outcome<UploadBody>(() => uploadRoute.action(args(request, { year: String(year) })));
}

async function itemsOf(clientId: string, year: number) {
  return getDb()
    .select()
    .from(documentRequests)
    .where(and(eq(documentRequests.clientId, clientId), eq(documentRequests.taxYear, year)))
    .orderBy(asc(documentRequests.position));
}

async function itemByTitle(clientId: string, year: number, title: string) {
  const found = (await itemsOf(clientId, year)).find((i) => i.title === title);
  if (!found) throw new Error(`no item ${title}`);
  return found;
}

const auditOf = (action: (typeof auditLog.$inferSelect)["action"]) =>
  getDb().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id));

/** Staff start A's checklist of year Y from the student template. */
async function startStudentList(who: Account = admin) {
  const added = await staffPost(who, a.id, Y, { intent: "add-template", template: STUDENT.id });
  expect(added.status).toBe(200);
  expect(added.body.code).toBe("template-added");
  return itemsOf(a.id, Y);
}

/** Every item's stored state: what "nothing changed" compares. */
async function snapshot() {
  const rows = await getDb().select().from(documentRequests).orderBy(asc(documentRequests.id));
  return { rows, audit: (await getDb().select().from(auditLog)).length, mails: (await mails()).length, files: storedFiles() };
}

// ---------------------------------------------------------------------------------------------

describe("templates", () => {
  it("each template's items have a unique title, one line saying what to send, and a document category", () => {
    expect(REQUEST_TEMPLATES.length).toBeGreaterThanOrEqual(8);
    for (const template of REQUEST_TEMPLATES as readonly RequestTemplate[]) {
      const titles = template.items.map((i) => i.title.toLowerCase());
      expect(new Set(titles).size, template.id).toBe(titles.length);
      for (const item of template.items) {
        expect(item.title.length, item.title).toBeLessThanOrEqual(200);
        expect(item.detail.length, item.title).toBeGreaterThan(20);
        expect(item.detail.length, item.title).toBeLessThanOrEqual(240);
        expect(item.detail, item.title).not.toMatch(/\n/);
        expect(isDocumentCategory(item.category), item.title).toBe(true);
      }
    }
    const ids = REQUEST_TEMPLATES.map((t) => t.id);
    expect(ids).toEqual(
      expect.arrayContaining(["1040nr-student", "1040-worker", "1040-resident", "itin-w7", "fbar-fatca", "fica-refund", "form-4868", "tax-planning"]),
    );
  });

  it("asks for what each service needs", () => {
    const titles = (id: string) => requestTemplate(id)!.items.map((i) => i.title);
    const details = (id: string) => requestTemplate(id)!.items.map((i) => i.detail).join(" ");
    expect(titles("1040nr-student")).toEqual(
      expect.arrayContaining(["Form W-2", "Form 1042-S", "Form I-20 or DS-2019", "Passport", "US visa", "I-94 travel history", "Prior US tax returns"]),
    );
    expect(titles("1040nr-student").filter((t) => t.startsWith("Form 8843"))).toHaveLength(2);
    expect(STUDENT.items.find((i) => i.title === "Form 1042-S")!.category).toBe("1042-s");
    expect(STUDENT.items.find((i) => i.title === "I-94 travel history")!.detail).toContain("i94.cbp.dhs.gov");
    expect(details("1040-worker")).toMatch(/1099-INT[\s\S]*1099-DIV[\s\S]*1099-B[\s\S]*1095-A/);
    expect(titles("1040-worker")).toContain("Dependents' documents");
    expect(details("1040-resident")).toMatch(/Form 1098 [\s\S]*1098-E[\s\S]*worldwide income/);
    expect(details("itin-w7")).toContain("certified by the office that issued it (notarized copies are not accepted)");
    expect(details("fbar-fatca")).toMatch(/name and full address, the account number[\s\S]*highest balance during the calendar year/);
    expect(details("fica-refund")).toMatch(/Social Security tax \(box 4\) and Medicare tax \(box 6\)[\s\S]*Form 8316/);
    expect(details("form-4868")).toMatch(/income[\s\S]*estimated tax payments \(Form 1040-ES\)/);
  });

  it("offers first the templates that suit the client's visa: the year's taxpayer information first, else the profile", () => {
    const ids = (t: RequestTemplate[]) => t.map((x) => x.id);
    expect(ids(templatesFor({ status: "F-1", type: null }).suggested)).toEqual(["1040nr-student", "fica-refund"]);
    expect(ids(templatesFor({ status: "F-1", type: "H1-B" }).suggested)).toEqual(["1040-worker", "fbar-fatca"]);
    expect(ids(templatesFor({ status: "Green Card", type: null }).suggested)).toEqual(["1040-resident", "fbar-fatca"]);
    // A visa type no template suits ("Not Available") leaves the profile's word to decide.
    expect(ids(templatesFor({ status: "J-1", type: "Not Available" }).suggested)).toEqual(["1040nr-student", "fica-refund"]);
    const none = templatesFor({ status: "Other", type: null });
    expect(none.suggested).toEqual([]);
    expect(ids(none.others)).toEqual(REQUEST_TEMPLATES.map((t) => t.id));
  });

  it("the case page offers them in that order, and starting from one adds its items in order, once", async () => {
    const pageA = await casePage(admin, a.id, Y);
    expect(pageA.status).toBe(200);
    expect(pageA.body.requests).toEqual([]);
    expect(pageA.body.templates.suggested.map((t) => t.id)).toEqual(["1040-worker", "fbar-fatca"]);
    expect((await casePage(admin, b.id, Y)).body.templates.suggested.map((t) => t.id)).toEqual(["1040nr-student", "fica-refund"]);

    const items = await startStudentList();
    expect(items.map((i) => i.title)).toEqual(STUDENT.items.map((i) => i.title));
    expect(items.map((i) => i.category)).toEqual(STUDENT.items.map((i) => i.category));
    expect(items.map((i) => i.position)).toEqual(STUDENT.items.map((_, n) => n + 1));
    for (const item of items) {
      expect(item.state).toBe("requested");
      expect(item.template).toBe("1040nr-student");
      expect(item.createdBy).toBe(admin.id);
      expect(item.outstandingSince).not.toBeNull();
    }
    const listed = (await casePage(admin, a.id, Y)).body.requests;
    expect(listed.map((i) => i.title)).toEqual(STUDENT.items.map((i) => i.title));
    expect(listed.every((i) => i.removable && i.files.length === 0)).toBe(true);

    // The same template again adds nothing; another one adds only the titles not there yet.
    const again = await staffPost(admin, a.id, Y, { intent: "add-template", template: STUDENT.id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ tone: "warning", code: "template-nothing", message: REQUEST_TEXTS["template-nothing"], requestId: null });
    expect(await itemsOf(a.id, Y)).toHaveLength(STUDENT.items.length);
    const fica = await staffPost(admin, a.id, Y, { intent: "add-template", template: "fica-refund" });
    const ficaTitles = requestTemplate("fica-refund")!.items.map((i) => i.title);
    const fresh = ficaTitles.filter((t) => !STUDENT.items.some((s) => s.title === t));
    expect(fresh.length).toBeLessThan(ficaTitles.length);
    expect(fica.body.message).toBe(`${fresh.length} items added from the template. The client has been sent an e-mail asking for them.`);
    const after = await itemsOf(a.id, Y);
    expect(after.map((i) => i.title)).toEqual([...STUDENT.items.map((i) => i.title), ...fresh]);
    expect(after.at(-1)!.position).toBe(after.length);
    // Another year of the same client is its own list.
    expect(await itemsOf(a.id, EARLIER)).toEqual([]);
  });
});

describe("staff actions", () => {
  it("add a free-text item; a title on the list already, and bad input, change nothing", async () => {
    await startStudentList();
    const added = await staffPost(admin, a.id, Y, {
      intent: "add-item",
      title: "  Letter from   your bank  ",
      detail: "The letter that confirms the account was closed in March.",
      category: "bank-statements",
    });
    expect(added.status).toBe(200);
    expect(added.body.message).toBe(REQUEST_TEXTS["item-added"]);
    const item = await itemByTitle(a.id, Y, "Letter from your bank");
    expect(item).toMatchObject({ category: "bank-statements", template: null, state: "requested", position: STUDENT.items.length + 1 });
    expect(item.detail).toBe("The letter that confirms the account was closed in March.");

    const before = await snapshot();
    const refused: Array<[Record<string, string>, number, string]> = [
      [{ intent: "add-item", title: "LETTER FROM YOUR BANK", detail: "", category: "other-documents" }, 409, REQUEST_TEXTS["title-exists"]],
      [{ intent: "add-item", title: "   ", detail: "", category: "other-documents" }, 400, REQUEST_TEXTS["title-empty"]],
      [{ intent: "add-item", title: "x".repeat(201), detail: "", category: "other-documents" }, 400, REQUEST_TEXTS["title-too-long"]],
      [{ intent: "add-item", title: "Bad\u0007title", detail: "", category: "other-documents" }, 400, REQUEST_TEXTS["title-invalid"]],
      [{ intent: "add-item", title: "Payslips", detail: "y".repeat(1001), category: "other-documents" }, 400, REQUEST_TEXTS["detail-too-long"]],
      [{ intent: "add-item", title: "Payslips", detail: "", category: "tax-secrets" }, 400, REQUEST_TEXTS["choose-category"]],
      [{ intent: "add-item", title: "Payslips", detail: "" }, 400, REQUEST_TEXTS["choose-category"]],
      [{ intent: "add-template", template: "no-such-template" }, 400, REQUEST_TEXTS["choose-template"]],
      [{ intent: "add-template" }, 400, REQUEST_TEXTS["choose-template"]],
      [{ intent: "return", requestId: item.id, reason: "  " }, 400, REQUEST_TEXTS["reason-empty"]],
      [{ intent: "return", requestId: item.id, reason: "r".repeat(1001) }, 400, REQUEST_TEXTS["reason-too-long"]],
      [{ intent: "receive", requestId: "not-an-id" }, 404, REQUEST_TEXTS["no-such-item"]],
      [{ intent: "receive", requestId: "6f1c2b7e-0000-4000-8000-000000000000" }, 404, REQUEST_TEXTS["no-such-item"]],
      [{ intent: "explode", requestId: item.id }, 400, REQUEST_TEXTS["bad-form"]],
      [{ intent: "remove", requestId: `${item.id}\u0000` }, 404, REQUEST_TEXTS["no-such-item"]],
    ];
    for (const [fields, status, message] of refused) {
      const got = await staffPost(admin, a.id, Y, fields);
      expect([got.status, got.body.message], JSON.stringify(fields)).toEqual([status, message]);
      expect(got.body.tone).toBe("error");
    }
    expect(await snapshot()).toEqual(before);
    // A case that does not exist, and a year that is not one.
    expect((await staffPost(admin, a.id, Y - 3, { intent: "add-template", template: STUDENT.id })).status).toBe(404);
    expect((await staffPost(admin, "no-such-client", Y, { intent: "add-template", template: STUDENT.id })).status).toBe(404);
    expect((await staffPost(admin, a.id, "20x5", { intent: "add-template", template: STUDENT.id })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("a preparer marks received, returns with a reason (also after received) and removes an item never answered; each audited", async () => {
    const items = await startStudentList(preparer);
    const [w2, s1042, i1099] = items;
    // Staff may mark an item received that came another way (by post, or among the general uploads).
    const received = await staffPost(preparer, a.id, Y, { intent: "receive", requestId: w2!.id });
    expect(received.body).toEqual({ tone: "success", code: "received", message: REQUEST_TEXTS.received, requestId: w2!.id });
    let row = await itemByTitle(a.id, Y, w2!.title);
    expect(row).toMatchObject({ state: "received", reviewedBy: preparer.id, outstandingSince: null, returnReason: "" });
    expect(row.reviewedAt).not.toBeNull();
    // Received twice: the second is refused as changed, and changes nothing.
    expect((await staffPost(preparer, a.id, Y, { intent: "receive", requestId: w2!.id })).status).toBe(409);
    // A requested item cannot be returned (nothing to return yet).
    const early = await staffPost(preparer, a.id, Y, { intent: "return", requestId: s1042!.id, reason: "Wrong year" });
    expect([early.status, early.body.code]).toEqual([409, "item-changed"]);

    const returned = await staffPost(preparer, a.id, Y, {
      intent: "return",
      requestId: w2!.id,
      reason: "This W-2 is for last year. Please send the one for this year.",
    });
    expect(returned.status).toBe(200);
    expect(returned.body.message).toBe(REQUEST_TEXTS.returned);
    row = await itemByTitle(a.id, Y, w2!.title);
    expect(row).toMatchObject({ state: "returned", returnReason: "This W-2 is for last year. Please send the one for this year." });
    expect(row.outstandingSince).not.toBeNull();

    const removed = await staffPost(preparer, a.id, Y, { intent: "remove", requestId: i1099!.id });
    expect(removed.body).toEqual({ tone: "success", code: "removed", message: REQUEST_TEXTS.removed, requestId: null });
    expect((await itemsOf(a.id, Y)).map((i) => i.title)).not.toContain(i1099!.title);
    // The returned item was answered for by staff: it cannot be removed.
    const kept = await staffPost(preparer, a.id, Y, { intent: "remove", requestId: w2!.id });
    expect([kept.status, kept.body.message]).toEqual([409, REQUEST_TEXTS["not-removable"]]);

    const audit = async (action: Parameters<typeof auditOf>[0]) =>
      (await auditOf(action)).map((e) => [e.actorId, e.clientId, e.taxYear, e.detail]);
    expect(await audit("request-added")).toEqual([
      [preparer.id, a.id, Y, `${STUDENT.items.length} items from the template "1040-NR: F-1 or J-1 student or scholar"`],
    ]);
    expect(await audit("request-received")).toEqual([[preparer.id, a.id, Y, '"Form W-2"']]);
    expect(await audit("request-returned")).toEqual([[preparer.id, a.id, Y, '"Form W-2"']]);
    expect(await audit("request-removed")).toEqual([[preparer.id, a.id, Y, '"1099 forms, if any"']]);
    // The case's activity says it in words.
    const activity = (await caseActivity(a.id, Y)).map((e) => `${e.actor} · ${e.text}`);
    expect(activity).toEqual(
      expect.arrayContaining([
        `Pat Preparer · Requested from the client: ${STUDENT.items.length} items from the template "1040-NR: F-1 or J-1 student or scholar"`,
        'Pat Preparer · Marked a requested item received: "Form W-2"',
        'Pat Preparer · Returned a requested item: "Form W-2"',
        'Pat Preparer · Removed a requested item: "1099 forms, if any"',
      ]),
    );
  });

  it("e-mail the client once per action with a link to the filing page and no item text; a review is not e-mailed", async () => {
    // Each e-mail goes after its action's answer: waited for before the next action, so they arrive in order.
    await startStudentList();
    await outboxSettled();
    await staffPost(admin, a.id, Y, { intent: "add-item", title: "Secret Swiss account letter", detail: "From Bank Zurich", category: "bank-statements" });
    await outboxSettled();
    const item = await itemByTitle(a.id, Y, "Form W-2");
    await staffPost(admin, a.id, Y, { intent: "receive", requestId: item.id });
    await staffPost(admin, a.id, Y, { intent: "return", requestId: item.id, reason: "Blurred scan of the employer EIN" });
    const toA = (await mails()).filter((m) => m.to.includes(a.email));
    expect(toA.map((m) => m.subject)).toEqual([
      `We need something from you for your ${Y} tax filing`,
      `We need something from you for your ${Y} tax filing`,
      `Please look again at an item for your ${Y} tax filing`,
    ]);
    expect(toA[0]!.text).toContain(`Alice Aardvark, TaxBridge has asked you for ${STUDENT.items.length} items for your ${Y} tax filing.`);
    expect(toA[1]!.text).toContain("has asked you for an item");
    for (const mail of toA) {
      expect(mail.text).toContain(`See what we need: http://localhost:3000/my-tax-filing/${Y}`);
      for (const secret of ["Form W-2", "1042-S", "Swiss", "Zurich", "Blurred", "EIN", ...STUDENT.items.map((i) => i.title)])
        expect(mail.raw, secret).not.toContain(secret);
    }
    expect((await mails()).filter((m) => !m.to.includes(a.email))).toEqual([]);
  });

  it("without JavaScript, staff are sent back to the case's Requests section (303) with the answer, keeping the list to return to", async () => {
    const back = "/admin/dashboard?q=alice&page=2";
    const added = await staffPost(admin, a.id, Y, { intent: "add-template", template: STUDENT.id }, false, `?back=${encodeURIComponent(back)}`);
    expect(added.status).toBe(303);
    expect(added.location).toBe(
      `/admin/clients/${a.id}/${Y}/requests?back=${encodeURIComponent(back)}&requests=template-added&n=${STUDENT.items.length}#requests`,
    );
    const answer = requestResultFromSearch(new URL(added.location!, "http://x").searchParams);
    expect(answer?.message).toBe(`${STUDENT.items.length} items added from the template. The client has been sent an e-mail asking for them.`);

    const item = await itemByTitle(a.id, Y, "Passport");
    const refused = await staffPost(admin, a.id, Y, { intent: "return", requestId: item.id, reason: "" }, false);
    expect(refused.status).toBe(303);
    expect(refused.location).toBe(`/admin/clients/${a.id}/${Y}/requests?requests=reason-empty&item=${item.id}#request-${item.id}`);
    // A GET of the address is the section itself: the items and the templates.
    const got = await casePage(admin, a.id, Y);
    expect(got.status).toBe(200);
    expect(got.body.requests.map((r) => r.title)).toEqual(STUDENT.items.map((i) => i.title));
    expect(got.body.templates.suggested.length).toBeGreaterThan(0);
  });

  it("are staff's only: a client posting to the staff address changes nothing", async () => {
    await startStudentList();
    const item = await itemByTitle(a.id, Y, "Passport");
    const before = await snapshot();
    for (const who of [a, b]) {
      const got = await staffPost(who, a.id, Y, { intent: "receive", requestId: item.id });
      expect(got.status).toBe(302);
      expect(got.location).not.toContain("/requests");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("name items only within the case the address names: another case's item is not found", async () => {
    await startStudentList();
    const item = await itemByTitle(a.id, Y, "Passport");
    const before = await snapshot();
    for (const [clientId, year] of [[b.id, Y], [a.id, EARLIER]] as const) {
      for (const fields of [
        { intent: "receive", requestId: item.id } as Record<string, string>,
        { intent: "return", requestId: item.id, reason: "Because" },
        { intent: "remove", requestId: item.id },
      ]) {
        const got = await staffPost(admin, clientId, year, fields);
        expect([got.status, got.body.code]).toEqual([404, "no-such-item"]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("the client", () => {
  it("sees their list with each item's state, and answers doesn't apply / can't get it with a note, then takes it back", async () => {
    await startStudentList();
    let page = await filingPage(a, Y);
    expect(page.status).toBe(200);
    expect(page.body.requests.map((r) => [r.title, r.state, r.detail])).toEqual(
      STUDENT.items.map((i) => [i.title, "requested", i.detail]),
    );
    const item = page.body.requests.find((r) => r.title === "1099 forms, if any")!;

    const answered = await clientPost(a, Y, {
      intent: "answer",
      requestId: item.id,
      answer: "not-applicable",
      note: "  I had no bank interest or other income this year.  ",
    });
    expect(answered.body).toEqual({
      tone: "success",
      code: "answered-not-applicable",
      message: REQUEST_TEXTS["answered-not-applicable"],
      requestId: item.id,
    });
    let row = await itemByTitle(a.id, Y, item.title);
    expect(row).toMatchObject({ state: "not-applicable", clientNote: "I had no bank interest or other income this year.", outstandingSince: null });
    expect(row.answeredAt).not.toBeNull();
    page = await filingPage(a, Y);
    expect(page.body.requests.find((r) => r.id === item.id)).toMatchObject({
      state: "not-applicable",
      clientNote: "I had no bank interest or other income this year.",
    });
    // Answered twice: refused as changed.
    const twice = await clientPost(a, Y, { intent: "answer", requestId: item.id, answer: "unavailable", note: "Again" });
    expect([twice.status, twice.body.code, twice.body.tone]).toEqual([409, "item-changed", "warning"]);

    // The case's staff (no one is assigned: the firm's address) are told, with a link and no text.
    const staffMail = (await mails()).filter((m) => m.to.includes("staff@taxbridge.test"));
    expect(staffMail.map((m) => m.subject)).toEqual([`TB-00003 Alice Aardvark answered a requested item (${Y})`]);
    expect(staffMail[0]!.text).toContain(`http://localhost:3000/admin/clients/${a.id}/${Y}`);
    expect(staffMail[0]!.raw).not.toContain("bank interest");
    expect(staffMail[0]!.raw).not.toContain("1099");

    const withdrawn = await clientPost(a, Y, { intent: "withdraw", requestId: item.id });
    expect(withdrawn.body.message).toBe(REQUEST_TEXTS.withdrawn);
    row = await itemByTitle(a.id, Y, item.title);
    expect(row).toMatchObject({ state: "requested", clientNote: "", answeredAt: null });
    expect(row.outstandingSince).not.toBeNull();
    // Nothing to take back any more.
    expect((await clientPost(a, Y, { intent: "withdraw", requestId: item.id })).status).toBe(409);

    // "Can't get it" on a returned item; taking it back returns it again, with its reason.
    const passport = page.body.requests.find((r) => r.title === "Passport")!;
    await getDb().update(documentRequests).set({ state: "returned", returnReason: "The scan is cut off." }).where(eq(documentRequests.id, passport.id));
    await clientPost(a, Y, { intent: "answer", requestId: passport.id, answer: "unavailable", note: "My passport is at the consulate for renewal." });
    expect((await itemByTitle(a.id, Y, "Passport")).state).toBe("unavailable");
    // While answered, the client no longer sees the old reason; staff still do.
    expect((await filingPage(a, Y)).body.requests.find((r) => r.id === passport.id)!.returnReason).toBe("");
    expect((await casePage(admin, a.id, Y)).body.requests.find((r) => r.id === passport.id)!.returnReason).toBe("The scan is cut off.");
    await clientPost(a, Y, { intent: "withdraw", requestId: passport.id });
    expect(await itemByTitle(a.id, Y, "Passport")).toMatchObject({ state: "returned", returnReason: "The scan is cut off." });

    expect((await auditOf("request-answered")).map((e) => [e.actorId, e.detail])).toEqual([
      [a.id, '"1099 forms, if any" (doesn\'t apply)'],
      [a.id, '"Passport" (can\'t get it)'],
    ]);
    expect((await auditOf("request-answer-withdrawn")).map((e) => e.detail)).toEqual(['"1099 forms, if any"', '"Passport"']);
    // No note text in the audit trail.
    expect(JSON.stringify(await getDb().select().from(auditLog))).not.toContain("consulate");
  });

  it("bad answers are refused with a clear message and change nothing", async () => {
    await startStudentList();
    const item = await itemByTitle(a.id, Y, "Passport");
    const before = await snapshot();
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ intent: "answer", requestId: item.id, answer: "not-applicable", note: "   " }, 400, REQUEST_TEXTS["note-empty"]],
      [{ intent: "answer", requestId: item.id, answer: "not-applicable" }, 400, REQUEST_TEXTS["note-empty"]],
      [
        { intent: "answer", requestId: item.id, answer: "not-applicable", note: "n".repeat(MAX_REQUEST_NOTE_LENGTH + 1) },
        400,
        REQUEST_TEXTS["note-too-long"],
      ],
      [{ intent: "answer", requestId: item.id, answer: "not-applicable", note: "null\u0000byte" }, 400, REQUEST_TEXTS["note-invalid"]],
      [{ intent: "answer", requestId: item.id, answer: "not-applicable", note: "bell\u0007" }, 400, REQUEST_TEXTS["note-invalid"]],
      [{ intent: "answer", requestId: item.id, answer: "received", note: "I say so" }, 400, REQUEST_TEXTS["choose-answer"]],
      [{ intent: "answer", requestId: item.id, note: "No answer chosen" }, 400, REQUEST_TEXTS["choose-answer"]],
      [{ intent: "answer", requestId: "x", answer: "unavailable", note: "Lost it" }, 404, REQUEST_TEXTS["no-such-item"]],
      [{ intent: "receive", requestId: item.id }, 400, REQUEST_TEXTS["bad-form"]],
      [{ requestId: item.id }, 400, REQUEST_TEXTS["bad-form"]],
    ];
    for (const [fields, status, message] of cases) {
      const got = await clientPost(a, Y, fields);
      expect([got.status, got.body.message], JSON.stringify(fields)).toEqual([status, message]);
    }
    expect(await snapshot()).toEqual(before);
    // Exactly the limit is accepted.
    const ok = await clientPost(a, Y, { intent: "answer", requestId: item.id, answer: "unavailable", note: "n".repeat(MAX_REQUEST_NOTE_LENGTH) });
    expect(ok.status).toBe(200);
    expect((await itemByTitle(a.id, Y, "Passport")).clientNote).toHaveLength(MAX_REQUEST_NOTE_LENGTH);
  });

  it("without JavaScript, is sent back to the filing page (303) showing the answer", async () => {
    await startStudentList();
    const item = await itemByTitle(a.id, Y, "US visa");
    const done = await clientPost(a, Y, { intent: "answer", requestId: item.id, answer: "unavailable", note: "Visa stamp expired; new one next month." }, false);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/my-tax-filing/${Y}?requests=answered-unavailable&item=${item.id}#request-${item.id}`);
    expect(requestResultFromSearch(new URL(done.location!, "http://x").searchParams)).toEqual({
      tone: "success",
      code: "answered-unavailable",
      message: REQUEST_TEXTS["answered-unavailable"],
      requestId: item.id,
    });
    const refused = await clientPost(a, Y, { intent: "answer", requestId: item.id, answer: "unavailable", note: "" }, false);
    expect(refused.location).toBe(`/my-tax-filing/${Y}?requests=note-empty&item=${item.id}#request-${item.id}`);
    const got = await outcome(() => clientRoute.loader(args(withCookie(`/my-tax-filing/${Y}/requests`, a.cookie), { year: String(Y) })));
    expect([got.status, got.location]).toEqual([302, `/my-tax-filing/${Y}#requests`]);
    // An unknown code in the address is ignored.
    expect(requestResultFromSearch(new URLSearchParams("requests=__proto__"))).toBeNull();
  });

  it("uploads against an item: the files take the item's category and link, and the item moves to uploaded", async () => {
    await startStudentList();
    const item = await itemByTitle(a.id, Y, "Form 1042-S");
    const sent = await upload(a, Y, { category: "other-documents", requestId: item.id.toUpperCase() }, "1042s-university.pdf");
    expect(sent.status).toBe(200);
    expect(sent.body.uploaded.map((u) => u.name)).toEqual(["1042s-university.pdf"]);
    const [doc] = await getDb().select().from(documents).where(eq(documents.id, sent.body.uploaded[0]!.id));
    expect(doc).toMatchObject({ requestId: item.id, category: "1042-s", clientId: a.id, taxYear: Y, fromClient: true });
    const row = await itemByTitle(a.id, Y, "Form 1042-S");
    expect(row).toMatchObject({ state: "uploaded", outstandingSince: null });
    const page = await filingPage(a, Y);
    const listed = page.body.requests.find((r) => r.id === item.id)!;
    expect(listed.state).toBe("uploaded");
    expect(listed.files.map((f) => f.name)).toEqual(["1042s-university.pdf"]);
    // The file is also among the year's documents, under the item's category.
    expect(page.body.documents.map((d) => [d.name, d.category])).toContainEqual(["1042s-university.pdf", "1042-s"]);
    const staffView = (await casePage(admin, a.id, Y)).body.requests.find((r) => r.id === item.id)!;
    expect(staffView.files.map((f) => f.id)).toEqual([doc!.id]);
    expect(staffView.removable).toBe(false);
    expect((await auditOf("request-answered")).map((e) => e.detail)).toEqual(['"Form 1042-S" (1 file uploaded)']);

    // Staff accept it; nothing more can be sent against it.
    await staffPost(admin, a.id, Y, { intent: "receive", requestId: item.id });
    const filesBefore = storedFiles();
    const late = await upload(a, Y, { category: "1042-s", requestId: item.id });
    expect([late.status, late.body.error]).toEqual([409, REQUEST_UPLOAD_MESSAGES.received]);
    expect(storedFiles()).toEqual(filesBefore);

    // Received, then returned: the client may send another file against it.
    await staffPost(admin, a.id, Y, { intent: "return", requestId: item.id, reason: "Page 2 is missing." });
    expect((await filingPage(a, Y)).body.requests.find((r) => r.id === item.id)).toMatchObject({
      state: "returned",
      returnReason: "Page 2 is missing.",
    });
    expect((await upload(a, Y, { category: "1042-s", requestId: item.id }, "1042s-both-pages.pdf")).status).toBe(200);
    expect((await itemByTitle(a.id, Y, "Form 1042-S")).state).toBe("uploaded");
  });

  it("an item whose only file the client removes is needed again", async () => {
    await startStudentList();
    const item = await itemByTitle(a.id, Y, "Passport");
    const sent = await upload(a, Y, { category: "passport-visa", requestId: item.id }, "passport.pdf");
    expect((await itemByTitle(a.id, Y, "Passport")).state).toBe("uploaded");
    const request = withCookie(`/my-tax-filing/${Y}`, a.cookie, {
      method: "POST",
      body: new URLSearchParams({ intent: "remove", documentIds: sent.body.uploaded[0]!.id }),
    });
    expect((await outcome(() => filingRoute.action(args(request, { year: String(Y) })))).status).toBe(200);
    const row = await itemByTitle(a.id, Y, "Passport");
    expect(row).toMatchObject({ state: "requested", answeredAt: null });
    expect(row.outstandingSince).not.toBeNull();
  });
});

describe("two clients", () => {
  it("a second client can neither list, answer, take back, upload against nor see another client's items", async () => {
    await startStudentList();
    await staffPost(admin, b.id, Y, { intent: "add-item", title: "Bob's own item", detail: "", category: "other-documents" });
    const aItem = await itemByTitle(a.id, Y, "Form W-2");
    const aUploaded = await itemByTitle(a.id, Y, "Passport");
    await upload(a, Y, { category: "passport-visa", requestId: aUploaded.id }, "alice-passport.pdf");
    const aNotApplicable = await itemByTitle(a.id, Y, "US visa");
    await clientPost(a, Y, { intent: "answer", requestId: aNotApplicable.id, answer: "not-applicable", note: "Alice's private note" });

    // B's page lists B's item only; A's year that B does not have is a 404.
    const pageB = await filingPage(b, Y);
    expect(pageB.body.requests.map((r) => r.title)).toEqual(["Bob's own item"]);
    expect(JSON.stringify(pageB.body)).not.toContain("alice-passport.pdf");
    expect(JSON.stringify(pageB.body)).not.toContain("Alice's private note");
    expect((await filingPage(b, EARLIER)).status).toBe(404);

    const before = await snapshot();
    // Answering and taking back A's items through B's own year: not found.
    for (const fields of [
      { intent: "answer", requestId: aItem.id, answer: "not-applicable", note: "Not mine" } as Record<string, string>,
      { intent: "withdraw", requestId: aNotApplicable.id },
    ]) {
      const got = await clientPost(b, Y, fields);
      expect([got.status, got.body.code]).toEqual([404, "no-such-item"]);
      // Without JavaScript the same: the answer names no item.
      const plain = await clientPost(b, Y, fields, false);
      expect(plain.location).toBe(`/my-tax-filing/${Y}?requests=no-such-item#requests`);
    }
    // Through a year B has no case of (A has): the case is not found.
    const otherYear = await clientPost(b, EARLIER, { intent: "answer", requestId: aItem.id, answer: "not-applicable", note: "Not mine" });
    expect([otherYear.status, otherYear.body.code]).toEqual([404, "no-such-case"]);
    // Forging A's item id in B's upload: refused, nothing stored.
    const forged = await upload(b, Y, { category: "w-2", requestId: aItem.id }, "forged.pdf");
    expect([forged.status, forged.body.error]).toEqual([404, REQUEST_UPLOAD_MESSAGES.noSuchItem]);
    expect(forged.body.uploaded).toEqual([]);
    const malformed = await upload(b, Y, { category: "w-2", requestId: "'; drop table documents; --" }, "forged.pdf");
    expect([malformed.status, malformed.body.error]).toEqual([400, REQUEST_UPLOAD_MESSAGES.noSuchItem]);
    expect(await snapshot()).toEqual(before);
    expect(await getDb().select().from(documents).where(eq(documents.clientId, b.id))).toEqual([]);
    // A's file against the item is A's only.
    const [aDoc] = await getDb().select().from(documents).where(eq(documents.requestId, aUploaded.id));
    const download = await routeModule("routes/portal/document-download.ts");
    const got = await outcome(() => download.loader(args(withCookie(`/documents/${aDoc!.id}`, b.cookie), { documentId: aDoc!.id })));
    expect(got.status).toBe(404);
    // A still sees theirs.
    const pageA = await filingPage(a, Y);
    expect(pageA.body.requests.find((r) => r.id === aUploaded.id)!.files.map((f) => f.name)).toEqual(["alice-passport.pdf"]);
    expect(pageA.body.requests.find((r) => r.id === aNotApplicable.id)!.clientNote).toBe("Alice's private note");
  });
});

describe("the panel's count of outstanding items", () => {
  it("counts requested and returned items per case, 0 for a case with none", async () => {
    await startStudentList();
    const items = await itemsOf(a.id, Y);
    await staffPost(admin, a.id, EARLIER, { intent: "add-item", title: "Earlier W-2", detail: "", category: "w-2" });
    await clientPost(a, Y, { intent: "answer", requestId: items[0]!.id, answer: "not-applicable", note: "None" });
    await staffPost(admin, a.id, Y, { intent: "receive", requestId: items[1]!.id });
    await staffPost(admin, a.id, Y, { intent: "return", requestId: items[1]!.id, reason: "Unreadable" });
    await staffPost(admin, a.id, Y, { intent: "receive", requestId: items[2]!.id });
    const counts = await outstandingRequestCounts([
      { clientId: a.id, taxYear: Y },
      { clientId: a.id, taxYear: EARLIER },
      { clientId: b.id, taxYear: Y },
    ]);
    expect(Object.fromEntries(counts)).toEqual({
      [`${a.id}/${Y}`]: STUDENT.items.length - 2,
      [`${a.id}/${EARLIER}`]: 1,
      [`${b.id}/${Y}`]: 0,
    });
    expect(await outstandingRequestCounts([])).toEqual(new Map());
    // Only what was asked: B's earlier year (no case) is not filled in from A's.
    expect(Object.fromEntries(await outstandingRequestCounts([{ clientId: b.id, taxYear: EARLIER }]))).toEqual({
      [`${b.id}/${EARLIER}`]: 0,
    });
    const outstanding = await getDb()
      .select()
      .from(documentRequests)
      .where(inArray(documentRequests.state, ["requested", "returned"]));
    expect(outstanding.every((r) => r.outstandingSince !== null)).toBe(true);
    const settled = await getDb()
      .select()
      .from(documentRequests)
      .where(inArray(documentRequests.state, ["uploaded", "not-applicable", "unavailable", "received"]));
    expect(settled.length).toBeGreaterThan(0);
    expect(settled.every((r) => r.outstandingSince === null)).toBe(true);
  });
});

describe("files of an item staff received", () => {
  /** The client's Remove on their filing page, for these documents. */
  function removeOwn(who: Account, ...documentIds: string[]) {
    const body = new URLSearchParams({ intent: "remove" });
    for (const id of documentIds) body.append("documentIds", id);
    const request = withCookie(`/my-tax-filing/${Y}`, who.cookie, { method: "POST", body });
    return outcome<FilingPageResult>(() => filingRoute.action(args(request, { year: String(Y) })));
  }

  it("stay: the page offers no Remove, a forced removal is refused with the reason and changes nothing; returned, they may go", async () => {
    await startStudentList();
    const w2 = await itemByTitle(a.id, Y, "Form W-2");
    const sent = await upload(a, Y, { category: "w-2", requestId: w2.id }, "w2-employer.pdf");
    const docId = sent.body.uploaded[0]!.id;
    const other = (await upload(a, Y, { category: "other-documents" }, "lease.pdf")).body.uploaded[0]!.id;
    // Before staff look at it, the file is the client's to remove (and to send again).
    expect((await filingPage(a, Y)).body.documents.find((d) => d.id === docId)).toMatchObject({ mine: true, accepted: false });
    expect((await staffPost(admin, a.id, Y, { intent: "receive", requestId: w2.id })).status).toBe(200);

    const page = await filingPage(a, Y);
    expect(page.body.documents.map((d) => [d.name, d.accepted])).toEqual([
      ["w2-employer.pdf", true],
      ["lease.pdf", false],
    ]);
    const before = await snapshot();
    const refused = await removeOwn(a, docId);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        intent: "remove",
        ok: false,
        message: "This file stays: we have received “Form W-2”, which it was sent for. Send us a message if it needs to change.",
      },
    });
    expect(await snapshot()).toEqual(before);
    expect(await getDb().select({ id: documents.id }).from(documents).where(eq(documents.id, docId))).toHaveLength(1);
    expect(await itemByTitle(a.id, Y, "Form W-2")).toMatchObject({ state: "received" });
    expect((await casePage(admin, a.id, Y)).body.requests.find((r) => r.id === w2.id)!.files.map((f) => f.id)).toEqual([docId]);

    // Sent with a document that may go: that one goes, the accepted one stays, and the answer says both.
    const mixed = await removeOwn(a, docId, other);
    expect(mixed.status).toBe(200);
    expect(mixed.body.message).toBe(`${CASE_MESSAGES.removed(1)} ${CASE_MESSAGES.acceptedStays(["Form W-2"])}`);
    expect((await filingPage(a, Y)).body.documents.map((d) => d.name)).toEqual(["w2-employer.pdf"]);

    // Once staff return the item, the client may change its files again.
    await staffPost(admin, a.id, Y, { intent: "return", requestId: w2.id, reason: "This is last year's W-2." });
    expect((await filingPage(a, Y)).body.documents[0]).toMatchObject({ id: docId, accepted: false });
    expect((await removeOwn(a, docId)).body).toEqual({ intent: "remove", ok: true, message: CASE_MESSAGES.removed(1) });
    expect(await itemByTitle(a.id, Y, "Form W-2")).toMatchObject({ state: "returned" });
  });

  it("stay whichever way they came: a message attachment linked to the item too; staff may still remove them", async () => {
    await startStudentList();
    const passport = await itemByTitle(a.id, Y, "Passport");
    async function* bytes() {
      yield PDF.slice();
    }
    const message = await sendMessage(
      a.actor,
      { clientId: a.id, taxYear: Y, body: "My passport, as asked.", category: "passport-visa", files: [await receiveUpload("passport.pdf", bytes())] },
      "203.0.113.9",
    );
    const attachmentId = message!.files.uploaded[0]!.id;
    // Linked to the item (as staff's tools or an older upload may have left it), then received.
    await getDb().update(documents).set({ requestId: passport.id }).where(eq(documents.id, attachmentId));
    await staffPost(admin, a.id, Y, { intent: "receive", requestId: passport.id });

    expect((await filingPage(a, Y)).body.documents.find((d) => d.id === attachmentId)).toMatchObject({ mine: true, accepted: true });
    const refused = await removeOwn(a, attachmentId);
    expect([refused.status, refused.body.message]).toEqual([409, CASE_MESSAGES.acceptedStays(["Passport"])]);
    expect(await getDb().select({ id: documents.id }).from(documents).where(eq(documents.id, attachmentId))).toHaveLength(1);
    // Not another client's to remove either, and staff still may.
    expect(await removeOwn(b, attachmentId)).toMatchObject({ status: 403, body: { message: CASE_MESSAGES.nothingRemoved } });
    expect(await removeDocuments(admin.actor, { clientId: a.id, taxYear: Y, documentIds: [attachmentId] }, "203.0.113.1")).toBe(1);
  });
});

describe("the filing page after an answer refused because the item changed", () => {
  it("is read again (the item shows where it stands now); other refusals and other forms keep it as it was", async () => {
    const revalidates = (formAction: string, actionResult: unknown, year = String(Y)) =>
      shouldRevalidate({
        formAction,
        actionResult,
        actionStatus: 409,
        defaultShouldRevalidate: false,
        currentParams: { year },
        currentUrl: new URL(`http://localhost/my-tax-filing/${year}`),
        nextUrl: new URL(`http://localhost/my-tax-filing/${year}`),
        nextParams: { year },
      });
    await startStudentList();
    const passport = await itemByTitle(a.id, Y, "Passport");
    await staffPost(admin, a.id, Y, { intent: "receive", requestId: passport.id });
    const stale = await clientPost(a, Y, { intent: "answer", requestId: passport.id, answer: "unavailable", note: "It expired." });
    expect([stale.status, stale.body.code]).toEqual([409, "item-changed"]);
    expect(revalidates(`/my-tax-filing/${Y}/requests`, stale.body)).toBe(true);
    expect((await filingPage(a, Y)).body.requests.find((r) => r.id === passport.id)).toMatchObject({ state: "received", clientNote: "" });

    const badNote = await clientPost(a, Y, { intent: "answer", requestId: passport.id, answer: "unavailable", note: "" });
    expect(revalidates(`/my-tax-filing/${Y}/requests`, badNote.body)).toBe(false);
    expect(revalidates(`/my-tax-filing/${Y}`, stale.body)).toBe(false);
    expect(revalidates(`/my-tax-filing/${EARLIER}/requests`, stale.body)).toBe(false);
  });
});
