import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { FEE_INTENTS } from "~/domain/fee-section";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { stripeAccount } from "~/server/fees/stripe.server";
import { recordOfflinePayment } from "~/server/fees/payments.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { openCase } from "~/server/cases/cases.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { feeCast, sentInvoice } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import type { TestInvoice } from "../helpers/fees";
import { dayFromToday, IP, jpeg, pdf, received, UA } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import type { RouteOutcome } from "../helpers/route";
import { TEST_STRIPE_KEYS } from "../helpers/stripe-server";
import { sentMail } from "./helpers";

// "A lock is only as strong as every route to the same bytes": the cells of the matrix route x
// (visitor, owning client, another client, preparer, admin) that no other test checks, for every
// address that gives out a case's files or moves its money. Each refusal is checked for what the
// person sees (status, where they are sent, no file bytes) and for what is stored afterwards
// (nothing); each table also asks the owning client or the admin once, so that a route refusing
// everyone fails it. The cells covered elsewhere are listed in the report of this change.

const Y = currentFilingYear();
const SPOUSE = "meera@example.com";
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0);

type Route = { loader: (args: never) => Promise<unknown>; action: (args: never) => Promise<unknown> };
const r = {
  download: await routeModule("routes/portal/document-download.ts"),
  filing: await routeModule("routes/portal/filing.tsx"),
  uploads: await routeModule("routes/portal/filing-documents.ts"),
  messages: await routeModule("routes/portal/filing-messages.tsx"),
  review: await routeModule("routes/portal/filing-return-file.ts"),
  signingForm: await routeModule("routes/portal/filing-signing-form.ts"),
  signedForm: await routeModule("routes/portal/filing-signed-form.ts"),
  fee: await routeModule("routes/portal/filing-fee.ts"),
  invoiceFile: await routeModule("routes/portal/filing-invoice-file.ts"),
  sign: await routeModule("routes/sign/sign.tsx"),
  signForm: await routeModule("routes/sign/sign-form-file.ts"),
  signSignedForm: await routeModule("routes/sign/sign-signed-form.ts"),
  staffInvoiceFile: await routeModule("routes/admin/invoice-file.ts"),
  feeSection: await routeModule("routes/admin/case/fee.tsx"),
  payments: await routeModule("routes/admin/payments.tsx"),
  paymentsCsv: await routeModule("routes/admin/payments-csv.ts"),
  webhook: await routeModule("routes/api/stripe-webhook.ts"),
  pay: await routeModule("routes/marketing/pay.ts"),
} satisfies Record<string, Route>;

type Who = Account | null;
const cookieOf = (who: Who): Record<string, string> => (who ? { cookie: who.cookie } : {});
const req = (url: string, who: Who, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...cookieOf(who) } });

/** GET (or HEAD) of a route's loader as `who`. */
const get = (route: Route, url: string, who: Who, params: Record<string, string>, method = "GET") =>
  routeOutcome(() => route.loader({ ...routeArgs(req(url, who, { method })), params } as never));
/** A plain form posted to a route's action as `who`. */
const post = (route: Route, url: string, who: Who, params: Record<string, string>, fields: Record<string, string> | Array<[string, string]>) =>
  routeOutcome(() => route.action({ ...routeArgs(req(url, who, { method: "POST", body: new URLSearchParams(fields) })), params } as never));
/** A multipart post (files under `field`) to a route's action as `who`. */
async function postFiles(route: Route, url: string, who: Who, params: Record<string, string>, fields: Record<string, string>, field: string, file: { name: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(field, new Blob([file.bytes.slice()]), file.name);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return routeOutcome(() => route.action({ ...routeArgs(req(url, who, { method: "POST", body, headers: { "content-type": encoded.headers.get("content-type")! } })), params } as never));
}

/** Everything a refused request could have left behind: the records of files, money, signatures and messages, and the stored files. */
async function stored(): Promise<string> {
  await sentMail();
  const db = getDb();
  const tables = [
    schema.documents, schema.handwrittenUploads, schema.invoices, schema.invoiceLines, schema.payments, schema.refunds, schema.checkoutSessions,
    schema.stripeEvents, schema.firmSettings, schema.clientCases, schema.caseMessages, schema.returnReviews, schema.signingCodes, schema.signatures,
    schema.auditLog, schema.mailOutbox,
  ] as const;
  const rows = await Promise.all(tables.map((t) => db.select().from(t)));
  const sorted = rows.map((list) => list.map((row) => JSON.stringify(row)).sort());
  return JSON.stringify({ sorted, files: storedFiles() });
}

type Expected = { status: number; location?: string | RegExp; body?: unknown };
const toSignIn: Expected = { status: 302, location: /^\/login\?redirectTo=/ };
const toHome: Expected = { status: 302, location: "/dashboard" };
const notFound: Expected = { status: 404, body: "Document not found." };

/** Whether an answer carries bytes of a file (a PDF, an image, a CSV...). */
function carriesBytes(answer: RouteOutcome<unknown>): boolean {
  if (answer.body instanceof Uint8Array) return answer.body.byteLength > 0;
  return typeof answer.body === "string" && (answer.body.startsWith("%PDF") || answer.body.startsWith('"Date"'));
}

/** Runs each [label, request, expected] row: the mismatches, as text (an empty list when every row answered as expected). */
async function mismatches(rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]>): Promise<string[]> {
  const wrong: string[] = [];
  for (const [label, call, want] of rows) {
    const got = await call();
    const location = got.location ?? "";
    const ok =
      got.status === want.status &&
      (want.location === undefined || (typeof want.location === "string" ? location === want.location : want.location.test(location))) &&
      (want.body === undefined || JSON.stringify(got.body) === JSON.stringify(want.body)) &&
      !carriesBytes(got);
    if (!ok) wrong.push(`${label}: ${got.status} ${location} ${typeof got.body === "string" ? got.body.slice(0, 80) : ""}`);
  }
  return wrong;
}

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;
let versionId: string;
let token: string;
let invoice: TestInvoice;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  // A and B each have the season's case; A's has a draft approved, a joint signature requested
  // (the spouse's link mailed) and an invoice sent.
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
  const v = await uploadReturnVersion(preparer.actor, { clientId: a.id, taxYear: Y }, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
  if (!v.ok) throw new Error(v.error);
  versionId = v.versionId;
  expect((await approveReturnVersion(a.actor, versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
  const s = await requestSignature(preparer.actor, versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: true, spouse: { name: "Meera Kumar", email: SPOUSE } }, IP);
  if (!s.ok) throw new Error(s.error);
  token = /\/sign\/([A-Za-z0-9_-]+)/.exec((await sentMail()).find((m) => m.to === SPOUSE)?.text ?? "")?.[1] ?? "";
  expect(token).not.toBe("");
  invoice = await sentInvoice(a.id, Y, 29_900);
});

const year = () => ({ year: String(Y) });
const urls = {
  review: () => `/my-tax-filing/${Y}/return/${versionId}`,
  signingForm: () => `/my-tax-filing/${Y}/signing-form`,
  signedForm: () => `/my-tax-filing/${Y}/signed-form`,
  uploads: () => `/my-tax-filing/${Y}/documents`,
  messages: () => `/my-tax-filing/${Y}/messages`,
  fee: () => `/my-tax-filing/${Y}/fee`,
  invoiceFile: (file = "invoice.pdf") => `/my-tax-filing/${Y}/invoices/${invoice.id}/${file}`,
  staffInvoiceFile: (clientId: string, file = "invoice.pdf") => `/admin/clients/${clientId}/invoices/${invoice.id}/${file}`,
  feeSection: (clientId: string) => `/admin/clients/${clientId}/${Y}/fee`,
};

describe("the client's addresses asked by staff (preparer and admin)", () => {
  it("give staff no client's invoice, signing form or fee form, and store nothing staff post there; the client is answered", async () => {
    const before = await stored();
    const rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]> = [];
    for (const [role, who] of [["preparer", preparer], ["admin", admin]] as const) {
      rows.push(
        [`${role} GET invoice.pdf`, () => get(r.invoiceFile, urls.invoiceFile(), who, { ...year(), invoiceId: invoice.id, file: "invoice.pdf" }), notFound],
        [`${role} POST signed-form`, () => postFiles(r.signedForm, urls.signedForm(), who, year(), {}, "file", { name: "signed.jpg", bytes: jpeg() }), { status: 303, location: `/my-tax-filing/${Y}?signed-form=nothing-to-sign#sign` }],
        [`${role} POST messages`, () => postFiles(r.messages, urls.messages(), who, year(), { intent: "send", body: "Hello", category: "" }, "files", { name: "m.pdf", bytes: pdf("m") }), { status: 404 }],
        [`${role} POST fee announce`, () => post(r.fee, urls.fee(), who, year(), { intent: "announce-payment", invoiceId: invoice.id }), { status: 404 }],
        [`${role} POST fee pay-card`, () => post(r.fee, urls.fee(), who, year(), { intent: "pay-card", invoiceId: invoice.id }), { status: 404 }],
        [`${role} POST filing approve`, () => post(r.filing, `/my-tax-filing/${Y}`, who, year(), { intent: "approve-draft", versionId, declarationVersion: "d1", agree: "on" }), { status: 404 }],
        [`${role} GET fee (a redirect, no data)`, () => get(r.fee, urls.fee(), who, year()), { status: 302, location: `/my-tax-filing/${Y}#fee` }],
        [`${role} GET messages`, () => get(r.messages, urls.messages(), who, year()), { status: 404 }],
      );
    }
    // What portal-cases.test.ts and client-return.test.ts ask of an admin, and of a preparer, here of the other role.
    rows.push(
      ["admin GET signing-form", () => get(r.signingForm, urls.signingForm(), admin, year()), notFound],
      ["preparer GET filing page", () => get(r.filing, `/my-tax-filing/${Y}`, preparer, year()), { status: 404 }],
      ["preparer POST documents", () => postFiles(r.uploads, urls.uploads(), preparer, year(), { category: "w-2" }, "files", { name: "w2.pdf", bytes: pdf("staff") }), { status: 404 }],
      ["admin GET documents (upload address)", () => get(r.uploads, urls.uploads(), admin, year()), { status: 405, body: "Send the files with POST." }],
      ["admin GET signed-form (upload address)", () => get(r.signedForm, urls.signedForm(), admin, year()), { status: 405, body: "Send the files with POST." }],
      ["preparer GET /pay", () => get(r.pay, "/pay", preparer, {}), { status: 302, location: "/admin/dashboard" }],
    );
    expect(await mismatches(rows)).toEqual([]);
    expect(await stored()).toBe(before);

    // Staff read any version of the draft, also through the client's address (returnVersionFile: as the file was uploaded, not stamped).
    expect(await get(r.review, urls.review(), admin, { ...year(), versionId })).toMatchObject({ status: 200, body: pdf("v1") });

    // The owning client is answered on the same addresses.
    const own = await get(r.invoiceFile, urls.invoiceFile(), a, { ...year(), invoiceId: invoice.id, file: "invoice.pdf" });
    expect([own.status, new TextDecoder().decode((own.body as Uint8Array).slice(0, 5))]).toEqual([200, "%PDF-"]);
    expect(await get(r.signingForm, urls.signingForm(), a, year())).toMatchObject({ status: 200, body: pdf("8879") });
    expect(await post(r.fee, urls.fee(), a, year(), { intent: "announce-payment", invoiceId: invoice.id })).toMatchObject({ status: 303, location: `/my-tax-filing/${Y}?fee=announced#fee` });
    expect(await postFiles(r.signedForm, urls.signedForm(), a, year(), {}, "file", { name: "signed.jpg", bytes: jpeg() })).toMatchObject({ status: 303, location: `/my-tax-filing/${Y}?signed-form=received#sign` });
    expect(await getDb().select().from(schema.handwrittenUploads)).toHaveLength(1);
  });
});

describe("the client's addresses asked by a visitor and by another client of the same year", () => {
  it("send a visitor to sign in and answer another client 404, with no bytes and nothing stored; the owner is answered", async () => {
    // A document of A's own, uploaded through the portal (the owner's upload answered).
    const uploaded = await postFiles(r.uploads, urls.uploads(), a, year(), { category: "w-2" }, "files", { name: "a-w2.pdf", bytes: pdf("a-w2") });
    expect(uploaded.status).toBe(200);
    const docId = (uploaded.body as { uploaded: Array<{ id: string }> }).uploaded[0]!.id;
    const before = await stored();
    const rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]> = [
      ["visitor GET documents (upload address)", () => get(r.uploads, urls.uploads(), null, year()), toSignIn],
      ["visitor GET signed-form (upload address)", () => get(r.signedForm, urls.signedForm(), null, year()), toSignIn],
      ["visitor GET fee", () => get(r.fee, urls.fee(), null, year()), toSignIn],
      ["visitor GET messages", () => get(r.messages, urls.messages(), null, year()), toSignIn],
      ["visitor POST messages with a file", () => postFiles(r.messages, urls.messages(), null, year(), { intent: "send", body: "Hello", category: "" }, "files", { name: "m.pdf", bytes: pdf("m") }), toSignIn],
      ["visitor HEAD document", () => get(r.download, `/documents/${docId}`, null, { documentId: docId }, "HEAD"), toSignIn],
      ["other HEAD document", () => get(r.download, `/documents/${docId}`, b, { documentId: docId }, "HEAD"), notFound],
      // B has a case of this year: the refusal is the invoice's, not the year's.
      ["other POST fee announce (own year, A's invoice)", () => post(r.fee, urls.fee(), b, year(), { intent: "announce-payment", invoiceId: invoice.id }), { status: 404 }],
      ["other POST fee pay-card (own year, A's invoice)", () => post(r.fee, urls.fee(), b, year(), { intent: "pay-card", invoiceId: invoice.id }), { status: 404 }],
      ["other GET fee (a redirect to their own page)", () => get(r.fee, urls.fee(), b, year()), { status: 302, location: `/my-tax-filing/${Y}#fee` }],
      ["other GET staff invoice.pdf", () => get(r.staffInvoiceFile, urls.staffInvoiceFile(a.id), b, { clientId: a.id, invoiceId: invoice.id, file: "invoice.pdf" }), toHome],
    ];
    expect(await mismatches(rows)).toEqual([]);
    expect(await stored()).toBe(before);

    // The owner: the document's HEAD has its length and no body; the fee form reaches the invoice (card payments are not set up here).
    const head = await get(r.download, `/documents/${docId}`, a, { documentId: docId }, "HEAD");
    expect([head.status, head.headers.get("content-length"), (head.body as Uint8Array).byteLength]).toEqual([200, String(pdf("a-w2").byteLength), 0]);
    expect(await get(r.download, `/documents/${docId}`, a, { documentId: docId })).toMatchObject({ status: 200, body: pdf("a-w2") });
    expect(await post(r.fee, urls.fee(), a, year(), { intent: "pay-card", invoiceId: invoice.id })).toMatchObject({ status: 303, location: `/my-tax-filing/${Y}?fee=card-not-configured#fee` });
    expect(await get(r.fee, urls.fee(), a, year())).toMatchObject({ status: 302, location: `/my-tax-filing/${Y}#fee` });
  });
});

describe("the year in the client's own addresses", () => {
  it("is the case's: A's draft and invoice of this year are none of A's earlier year's addresses, which answer 404 and store nothing", async () => {
    // A opens the earlier year too: the address's case exists, the version and invoice are of another.
    expect(await openCase(a.actor, a.id, Y - 1, IP)).toBe("opened");
    const earlier = { year: String(Y - 1) };
    const before = await stored();
    const rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]> = [
      ["GET this year's draft at the earlier year's address", () => get(r.review, `/my-tax-filing/${Y - 1}/return/${versionId}`, a, { ...earlier, versionId }), notFound],
      ["POST announce this year's invoice at the earlier year's address", () => post(r.fee, `/my-tax-filing/${Y - 1}/fee`, a, earlier, { intent: "announce-payment", invoiceId: invoice.id }), { status: 404 }],
      ["POST pay this year's invoice at the earlier year's address", () => post(r.fee, `/my-tax-filing/${Y - 1}/fee`, a, earlier, { intent: "pay-card", invoiceId: invoice.id }), { status: 404 }],
    ];
    expect(await mismatches(rows)).toEqual([]);
    expect(await stored()).toBe(before);
    // At this year's addresses they are A's: the stamped draft, and the announcement.
    const draft = await get(r.review, urls.review(), a, { ...year(), versionId });
    expect(draft.status).toBe(200);
    expect(await post(r.fee, urls.fee(), a, year(), { intent: "announce-payment", invoiceId: invoice.id })).toMatchObject({ status: 303, location: `/my-tax-filing/${Y}?fee=announced#fee` });
  });
});

describe("the spouse's link, asked with someone else's session", () => {
  it("is the only key: another client's, a preparer's or an admin's session with a wrong link gets the same 404 and stores nothing; the right link answers", async () => {
    const bad = `${token}x`;
    const before = await stored();
    const rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]> = [];
    for (const [role, who] of [["other", b], ["preparer", preparer], ["admin", admin]] as const) {
      rows.push(
        [`${role} GET /sign/:bad`, () => get(r.sign, `/sign/${bad}`, who, { token: bad }), { status: 404, body: { valid: false } }],
        [`${role} GET /sign/:bad/form`, () => get(r.signForm, `/sign/${bad}/form`, who, { token: bad }), notFound],
        [`${role} POST /sign/:bad send-code`, () => post(r.sign, `/sign/${bad}`, who, { token: bad }, { intent: "send-code" }), { status: 409 }],
        [`${role} POST /sign/:bad message`, () => post(r.sign, `/sign/${bad}`, who, { token: bad }, { intent: "message", body: "Let me in" }), { status: 409 }],
        [`${role} POST /sign/:bad/signed-form`, () => postFiles(r.signSignedForm, `/sign/${bad}/signed-form`, who, { token: bad }, {}, "file", { name: "s.jpg", bytes: jpeg() }), { status: 303, location: `/sign/${bad}?signed-form=bad-link` }],
      );
    }
    expect(await mismatches(rows)).toEqual([]);
    expect(await stored()).toBe(before);
    // The link itself answers, whoever's session comes with it.
    expect(await get(r.signForm, `/sign/${token}/form`, b, { token })).toMatchObject({ status: 200, body: pdf("8879") });
  });
});

describe("the staff's money and invoice addresses asked by visitors and clients", () => {
  it("refuse every Fee section form and the Payments page's form to a visitor, the case's client and another client, changing nothing; an admin's form goes through", async () => {
    const draft = await sentInvoice(a.id, Y, 5_000, "draft");
    const paid = await recordOfflinePayment(admin.actor, invoice.id, { method: "wire", amount: "100", reference: "W-1", receivedOn: dayFromToday(0) }, IP);
    expect(paid).toMatchObject({ ok: true });
    const [payment] = await getDb().select().from(schema.payments);
    const forms: Record<(typeof FEE_INTENTS)[number], Array<[string, string]>> = {
      "create-invoice": [["intent", "create-invoice"], ["line-item", ""], ["line-description", "Filing"], ["line-quantity", "1"], ["line-unit", "1"], ["dueOn", dayFromToday(14)], ["then", "send"]],
      "update-invoice": [["intent", "update-invoice"], ["invoiceId", draft.id], ["line-item", ""], ["line-description", "Filing"], ["line-quantity", "1"], ["line-unit", "1"], ["dueOn", dayFromToday(14)], ["then", "send"]],
      "send-invoice": [["intent", "send-invoice"], ["invoiceId", draft.id]],
      "void-invoice": [["intent", "void-invoice"], ["invoiceId", invoice.id], ["reason", "Client asked"]],
      "record-payment": [["intent", "record-payment"], ["invoiceId", invoice.id], ["method", "wire"], ["amount", "199"], ["receivedOn", dayFromToday(0)]],
      "refund-payment": [["intent", "refund-payment"], ["paymentId", payment!.id], ["amount", "100"], ["reason", "Mine"]],
      "final-copies-override": [["intent", "final-copies-override"], ["release", "on"], ["reason", "I say so"]],
    };
    expect(Object.keys(forms).sort()).toEqual([...FEE_INTENTS].sort());
    const before = await stored();
    const rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]> = [];
    for (const [role, who, want] of [["visitor", null, toSignIn], ["owner", a, toHome], ["other", b, toHome]] as const) {
      // create-invoice, and the section's and the Payments page's GETs by a visitor and A: fee-section.test.ts.
      for (const [intent, fields] of Object.entries(forms)) {
        if (intent !== "create-invoice") rows.push([`${role} POST fee section ${intent}`, () => post(r.feeSection, urls.feeSection(a.id), who, { clientId: a.id, ...year() }, fields), want]);
      }
      rows.push([`${role} POST /admin/payments gate off`, () => post(r.payments, "/admin/payments", who, {}, { intent: "final-copies-gate", waitForPayment: "off" }), want]);
    }
    // A preparer names A's draft through B's case: not that case's invoice.
    const updateDraft: Array<[string, string]> = [["intent", "update-invoice"], ["invoiceId", draft.id], ["line-item", ""], ["line-description", "Changed"], ["line-quantity", "1"], ["line-unit", "2"], ["dueOn", dayFromToday(14)], ["then", "save"]];
    rows.push(
      ["preparer POST update-invoice through B's case", () => post(r.feeSection, urls.feeSection(b.id), preparer, { clientId: b.id, ...year() }, updateDraft), { status: 400 }],
      ["other GET /admin/payments", () => get(r.payments, "/admin/payments", b, {}), toHome],
      ["other GET /admin/payments.csv", () => get(r.paymentsCsv, "/admin/payments.csv", b, {}), toHome],
    );
    expect(await mismatches(rows)).toEqual([]);
    expect(await stored()).toBe(before);

    // Through A's own case, the preparer's change is saved.
    expect(await post(r.feeSection, urls.feeSection(a.id), preparer, { clientId: a.id, ...year() }, updateDraft)).toMatchObject({ status: 302, location: `${urls.feeSection(a.id)}?done=invoice-saved` });
    expect(await getDb().select({ total: schema.invoices.totalCents }).from(schema.invoices).where(eq(schema.invoices.id, draft.id))).toEqual([{ total: 200 }]);
    // The same forms, as an admin: through.
    const asAdmin = (fields: Array<[string, string]>) => post(r.feeSection, urls.feeSection(a.id), admin, { clientId: a.id, ...year() }, fields);
    expect(await asAdmin(forms["record-payment"])).toMatchObject({ status: 302, location: `${urls.feeSection(a.id)}?done=payment-recorded-paid` });
    expect(await asAdmin(forms["void-invoice"].map(([k, v]): [string, string] => [k, k === "invoiceId" ? draft.id : v]))).toMatchObject({ status: 302, location: `${urls.feeSection(a.id)}?done=invoice-voided` });
    expect(await post(r.payments, "/admin/payments", admin, {}, { intent: "final-copies-gate", waitForPayment: "off" })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await getDb().select({ on: schema.firmSettings.finalCopiesWaitForPayment }).from(schema.firmSettings)).toEqual([{ on: false }]);
  });

  it("give an admin the invoice and its receipt once paid, with the download audited", async () => {
    const file = (name: string) => get(r.staffInvoiceFile, urls.staffInvoiceFile(a.id, name), admin, { clientId: a.id, invoiceId: invoice.id, file: name });
    const pdfStart = (answer: RouteOutcome<unknown>) => [answer.status, new TextDecoder().decode((answer.body as Uint8Array).slice(0, 5))];
    expect(pdfStart(await file("invoice.pdf"))).toEqual([200, "%PDF-"]);
    expect(await file("receipt.pdf")).toMatchObject(notFound);
    await recordOfflinePayment(admin.actor, invoice.id, { method: "wire", amount: "299", reference: "W-2", receivedOn: dayFromToday(0) }, IP);
    expect(pdfStart(await file("receipt.pdf"))).toEqual([200, "%PDF-"]);
    const audited = await getDb().select().from(schema.auditLog).where(eq(schema.auditLog.action, "invoice-downloaded"));
    expect(audited.map((e) => [e.actorId, e.clientId, e.detail])).toEqual([
      [admin.id, a.id, `${invoice.number} invoice`],
      [admin.id, a.id, `${invoice.number} receipt`],
    ]);
  });
});

describe("Stripe's webhook asked with a session", () => {
  it("is admitted by the signature alone: a client's or an admin's session with a forged or unsigned event gets 400 and nothing is stored", async () => {
    Object.assign(process.env, { STRIPE_SECRET_KEY: TEST_STRIPE_KEYS.secretKey, STRIPE_WEBHOOK_SECRET: TEST_STRIPE_KEYS.webhookSecret });
    resetEnvForTests();
    try {
      const stripe = stripeAccount()!;
      const send = (who: Who, payload: string, secret: string | null) => {
        const headers: Record<string, string> = { "content-type": "application/json", ...cookieOf(who) };
        if (secret) headers["stripe-signature"] = stripe.client.webhooks.generateTestHeaderString({ payload, secret });
        return routeOutcome<string>(() => r.webhook.action(routeArgs(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", body: payload, headers })) as never));
      };
      // A's invoice "paid" by a Checkout Session nobody opened.
      const paidEvent = JSON.stringify({
        id: "evt_forged_paid",
        object: "event",
        type: "checkout.session.completed",
        data: { object: { id: "cs_test_forged", object: "checkout.session", amount_total: 29_900, currency: "usd", status: "complete", payment_status: "paid", payment_intent: "pi_forged", metadata: { invoiceId: invoice.id } } },
      });
      const before = await stored();
      const rows: Array<[string, () => Promise<RouteOutcome<unknown>>, Expected]> = [];
      for (const [role, who] of [["owner", a], ["other", b], ["preparer", preparer], ["admin", admin]] as const) {
        rows.push(
          [`${role} POST forged event`, () => send(who, paidEvent, "whsec_someone_else"), { status: 400, body: "Bad signature." }],
          [`${role} POST unsigned event`, () => send(who, paidEvent, null), { status: 400, body: "No signature." }],
        );
      }
      expect(await mismatches(rows)).toEqual([]);
      expect(await stored()).toBe(before);
      // Signed with the endpoint's secret, without any session: taken (an event of a kind that changes nothing is stored as seen).
      const other = JSON.stringify({ id: "evt_genuine", object: "event", type: "customer.created", data: { object: { id: "cus_1", object: "customer" } } });
      expect(await send(null, other, TEST_STRIPE_KEYS.webhookSecret)).toMatchObject({ status: 200, body: "OK" });
      expect(await getDb().select({ id: schema.stripeEvents.id }).from(schema.stripeEvents)).toEqual([{ id: "evt_genuine" }]);
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.STRIPE_WEBHOOK_SECRET;
      resetEnvForTests();
    }
  });
});
