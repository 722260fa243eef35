import { rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { newYorkDay } from "~/domain/business-days";
import { APPROVAL_VERSION, approvalText, CONSENT_VERSION, consentText, DECLARATION_VERSION, declarationText } from "~/domain/e-signature";
import { describeRejectCode } from "~/domain/reject-codes";
import { RETURN_CLIENT_MESSAGES, returnTextContext } from "~/domain/return-client";
import type { ReturnFormResult, ReturnHistoryLine } from "~/domain/return-client";
import { MESSAGE_TEXTS } from "~/domain/messages";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { formatUsDate } from "~/domain/taxpayer";
import { getDb } from "~/server/db/client.server";
import { auditLog, caseMessages, clientCases, handwrittenUploads, returnReviews, signatureRequests, signatures } from "~/server/db/schema";
import { clientConversation, staffConversation } from "~/server/messages/conversation.server";
import { recordAccepted, recordRejected, recordTransmission } from "~/server/returns/efile.server";
import { releaseFinalCopies } from "~/server/returns/final-copies.server";
import { acceptHandwritten, returnHandwritten } from "~/server/returns/handwritten.server";
import { recordIdCheck } from "~/server/returns/id-checks.server";
import { cancelSignatureRequest, requestSignature } from "~/server/returns/signature-requests.server";
import { declareWithinTolerance } from "~/server/returns/tolerance.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { dayFromToday, IP, jpeg, pdf, received } from "../helpers/returns";
import { feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { sentMail } from "./helpers";

// The client's side of the return through its routes, as the server runs them (behind the root's
// and the portal layout's middleware): the filing page's review and signing forms, the draft's
// and the form's downloads, the spouse's /sign/<token> page, the return's history and the card
// line on My Tax Filings. Staff's side is reached through the server functions (its pages are
// not part of this). Two clients: nothing of one is reachable by the other.

const filingRoute = await routeModule("routes/portal/filing.tsx");
const listRoute = await routeModule("routes/portal/my-tax-filing.tsx");
const draftRoute = await routeModule("routes/portal/filing-return-file.ts");
const formRoute = await routeModule("routes/portal/filing-signing-form.ts");
const signRoute = await routeModule("routes/sign/sign.tsx");
const signFormRoute = await routeModule("routes/sign/sign-form-file.ts");
const signedFormRoute = await routeModule("routes/portal/filing-signed-form.ts");
const spouseSignedFormRoute = await routeModule("routes/sign/sign-signed-form.ts");

const Y = currentFilingYear();
const NAME = "Ravi Kumar"; // sampleTaxpayer's name
const idCheck = { documentType: "passport", issuingCountry: "IN", expiresOn: dayFromToday(400), numberLast4: "1234", how: "in-person" };
const mails = () => sentMail();
const todayFirm = () => formatUsDate(newYorkDay(new Date()));

const outcome = routeOutcome;

const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request), params }) as never;
const req = (url: string, cookie: string | null, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });

type FilingData = {
  draft: { id: string; number: number; note: string; declaration: string; declarationVersion: string; fileUrl: string } | null;
  approvedOn: string | null;
  signing: { name: string; authorizationForm: string; eSignature: boolean; consent: string; consentVersion: string; declaration: string; declarationVersion: string; waiting: boolean; returnedReason: string | null; formUrl: string } | null;
  history: ReturnHistoryLine[];
};

const loadFiling = (cookie: string | null, year: number | string = Y) =>
  outcome<FilingData>(() => filingRoute.loader(args(req(`/my-tax-filing/${year}`, cookie), { year: String(year) })));

const post = (cookie: string | null, fields: Record<string, string>, year: number | string = Y) =>
  outcome<ReturnFormResult>(() =>
    filingRoute.action(args(req(`/my-tax-filing/${year}`, cookie, { method: "POST", body: new URLSearchParams(fields), headers: { "user-agent": "Mozilla/5.0 (route test)" } }), { year: String(year) })),
  );

async function multipart(url: string, cookie: string | null, file: { name: string; bytes: Uint8Array } | null): Promise<Request> {
  const form = new FormData();
  if (file) form.append("file", new Blob([file.bytes.slice()]), file.name);
  else form.append("file", new Blob([]), "");
  const encoded = new Response(form);
  return req(url, cookie, { method: "POST", body: new Uint8Array(await encoded.arrayBuffer()), headers: { "content-type": encoded.headers.get("content-type")! } });
}

/** The hand-signed form's upload: where it sends the browser back to (the page, with its answer's key). */
const uploadSigned = async (cookie: string | null, file: { name: string; bytes: Uint8Array } | null) =>
  outcome(async () => signedFormRoute.action(args(await multipart(`/my-tax-filing/${Y}/signed-form`, cookie, file), { year: String(Y) })));
const backTo = (key: string) => ({ status: 303, location: `/my-tax-filing/${Y}?signed-form=${key}#sign` });

const draftFile = (cookie: string | null, versionId: string, year: number | string = Y) =>
  outcome<Uint8Array | string>(() => draftRoute.loader(args(req(`/my-tax-filing/${year}/return/${versionId}`, cookie), { year: String(year), versionId })));

const signingForm = (cookie: string | null, year: number | string = Y) =>
  outcome<Uint8Array | string>(() => formRoute.loader(args(req(`/my-tax-filing/${year}/signing-form`, cookie), { year: String(year) })));

const spousePage = (token: string) => outcome<Record<string, unknown>>(() => signRoute.loader(args(req(`/sign/${token}`, null), { token })));
const spousePost = (token: string, fields: Record<string, string>) =>
  outcome<ReturnFormResult>(() => signRoute.action(args(req(`/sign/${token}`, null, { method: "POST", body: new URLSearchParams(fields) }), { token })));
const spouseForm = (token: string) => outcome<Uint8Array | string>(() => signFormRoute.loader(args(req(`/sign/${token}/form`, null), { token })));

async function lastCode(to: string): Promise<string> {
  const mail = (await mails()).filter((m) => m.to === to && m.subject.includes("signing code")).at(-1);
  const code = /^(\d{6})$/m.exec(mail?.text ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

async function spouseToken(): Promise<string> {
  const mail = (await mails()).find((m) => m.to === "meera@example.com");
  const token = /\/sign\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error("no signing link mailed to the spouse");
  return token;
}

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  rmSync(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
});

async function draft(tag = "v1", note = "Please check your W-2 amounts."): Promise<string> {
  const v = await uploadReturnVersion(preparer.actor, { clientId: a.id, taxYear: Y }, { form: "1040-NR", note, file: await received(`${tag}.pdf`, pdf(tag)) }, IP);
  if (!v.ok) throw new Error(v.error);
  return v.versionId;
}

async function approvedAndRequested(joint = false): Promise<string> {
  const versionId = await draft();
  expect((await post(a.cookie, { intent: "approve-draft", versionId, declarationVersion: APPROVAL_VERSION, agree: "on" })).status).toBe(200);
  const r = await requestSignature(
    preparer.actor,
    versionId,
    { formFile: await received("8879.pdf", pdf("8879")), jointReturn: joint, ...(joint ? { spouse: { name: "Meera Kumar", email: "meera@example.com" } } : {}) },
    IP,
  );
  if (!r.ok) throw new Error(r.error);
  return r.requestId;
}

describe("the filing page without a return", () => {
  it("shows nothing of the return, and the card has no line", async () => {
    const page = await loadFiling(a.cookie);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ draft: null, approvedOn: null, signing: null, history: [] });
    const list = await outcome<{ returnWaiting: Record<number, string> }>(() => listRoute.loader(args(req("/my-tax-filing", a.cookie))));
    expect(list.body.returnWaiting).toEqual({});
    expect((await signingForm(a.cookie)).status).toBe(404);
    expect(await post(a.cookie, { intent: "send-code" })).toMatchObject({ status: 409, body: { ok: false, message: RETURN_CLIENT_MESSAGES.nothingToSign } });
  });
});

describe("reviewing the draft", () => {
  it("shows the draft with its note and the approval declaration; the PDF downloads for the client only", async () => {
    const versionId = await draft();
    const page = await loadFiling(a.cookie);
    expect(page.body.draft).toMatchObject({
      id: versionId,
      number: 1,
      note: "Please check your W-2 amounts.",
      declarationVersion: APPROVAL_VERSION,
      declaration: approvalText(APPROVAL_VERSION, returnTextContext("1040-NR", Y)),
      fileUrl: `/my-tax-filing/${Y}/return/${versionId}`,
    });
    expect(page.body.history.map((l) => l.text)).toEqual([`We sent you a draft of your return on ${todayFirm()}.`]);
    const list = await outcome<{ returnWaiting: Record<number, string> }>(() => listRoute.loader(args(req("/my-tax-filing", a.cookie))));
    expect(list.body.returnWaiting).toEqual({ [Y]: "Draft ready for your review" });

    const file = await draftFile(a.cookie, versionId);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    // Stamped DRAFT (tests/unit/draft-pdf.test.ts) and named as a draft, not as staff's file.
    expect(file.headers.get("content-disposition")).toContain(`attachment; filename="${RETURN_FILE_NAMES.draft("1040-NR", Y, 1)}"`);
    expect(file.headers.get("cache-control")).toContain("no-store");
    expect(new TextDecoder().decode((file.body as Uint8Array).slice(0, 5))).toBe("%PDF-");

    // Another client, a visitor, a made-up id: the same 404 or the sign-in page; nothing of the draft.
    const other = await draftFile(b.cookie, versionId);
    expect([other.status, other.body]).toEqual([404, "Document not found."]);
    expect((await draftFile(a.cookie, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await draftFile(a.cookie, "not-an-id")).status).toBe(404);
    const visitor = await draftFile(null, versionId);
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/login/);
    expect((await loadFiling(b.cookie)).body).toMatchObject({ draft: null, history: [] });
    // Staff read any version (returnVersionFile); the client's own signing addresses are not theirs.
    expect((await draftFile(preparer.cookie, versionId)).status).toBe(200);
    expect((await signingForm(preparer.cookie)).status).toBe(404);
    // An older version is no longer the client's to download.
    await draft("v2");
    expect((await draftFile(a.cookie, versionId)).status).toBe(404);
  });

  it("asks for changes: the comment is required, lands in the case's messages, and the draft stays to review", async () => {
    const versionId = await draft();
    expect(await post(a.cookie, { intent: "ask-changes", versionId, comment: "   " })).toMatchObject({ status: 400, body: { ok: false, message: RETURN_MESSAGES.commentRequired } });
    expect(await post(a.cookie, { intent: "ask-changes", versionId, comment: "x".repeat(2001) })).toMatchObject({ status: 400, body: { message: RETURN_MESSAGES.commentTooLong } });
    expect(await getDb().select().from(returnReviews)).toEqual([]);
    // Bob cannot comment on Alice's draft.
    expect(await post(b.cookie, { intent: "ask-changes", versionId, comment: "Change it" })).toMatchObject({ status: 409, body: { ok: false, message: RETURN_MESSAGES.noSuchVersion } });
    expect(await getDb().select().from(caseMessages)).toEqual([]);

    expect(await post(a.cookie, { intent: "ask-changes", versionId, comment: "My wages are $52,000, not $25,000." })).toMatchObject({
      status: 200,
      body: { intent: "ask-changes", ok: true, message: RETURN_CLIENT_MESSAGES.changesSent },
    });
    const [message] = await getDb().select().from(caseMessages);
    expect(message).toMatchObject({ clientId: a.id, taxYear: Y, body: "Changes to the draft return (version 1): My wages are $52,000, not $25,000." });
    const [review] = await getDb().select().from(returnReviews);
    expect(review).toMatchObject({ decision: "changes-requested", clientId: a.id, userAgent: "Mozilla/5.0 (route test)" });
    const page = await loadFiling(a.cookie);
    expect(page.body.draft?.id).toBe(versionId);
    expect(page.body.history.map((l) => l.text)).toContain(`You asked for changes to the draft on ${todayFirm()}.`);
  });

  it("approves only with the box ticked and a known declaration; records its version; another client cannot", async () => {
    const versionId = await draft();
    expect(await post(a.cookie, { intent: "approve-draft", versionId, declarationVersion: APPROVAL_VERSION })).toMatchObject({
      status: 400,
      body: { ok: false, message: RETURN_CLIENT_MESSAGES.agreeRequired },
    });
    expect((await post(a.cookie, { intent: "approve-draft", versionId, declarationVersion: "made-up", agree: "on" })).status).toBe(400);
    expect(await post(b.cookie, { intent: "approve-draft", versionId, declarationVersion: APPROVAL_VERSION, agree: "on" })).toMatchObject({
      status: 409,
      body: { ok: false, message: RETURN_MESSAGES.noSuchVersion },
    });
    expect(await getDb().select().from(returnReviews)).toEqual([]);

    expect(await post(a.cookie, { intent: "approve-draft", versionId, declarationVersion: APPROVAL_VERSION, agree: "on" })).toMatchObject({
      status: 200,
      body: { intent: "approve-draft", ok: true, message: RETURN_CLIENT_MESSAGES.approved },
    });
    const [review] = await getDb().select().from(returnReviews);
    expect(review).toMatchObject({ decision: "approved", declarationVersion: APPROVAL_VERSION, reviewerId: a.id, ipAddress: "203.0.113.10" });
    const [theCase] = await getDb().select().from(clientCases).where(eq(clientCases.userId, a.id));
    expect(theCase?.draft).toBe(true);
    // Again: refused, nothing more recorded.
    expect(await post(a.cookie, { intent: "approve-draft", versionId, declarationVersion: APPROVAL_VERSION, agree: "on" })).toMatchObject({
      status: 409,
      body: { message: RETURN_MESSAGES.alreadyApproved },
    });
    expect(await getDb().select().from(returnReviews)).toHaveLength(1);
    const page = await loadFiling(a.cookie);
    expect(page.body).toMatchObject({ draft: null, approvedOn: todayFirm(), signing: null });
    expect(page.body.history.map((l) => l.text)).toContain(`You approved the draft on ${todayFirm()}.`);
  });

  it("refuses an unreadable form and a visitor; staff have no filing page", async () => {
    expect(await post(a.cookie, { intent: "approve-draft" })).toMatchObject({ status: 400, body: { message: RETURN_CLIENT_MESSAGES.agreeRequired } });
    expect(await post(a.cookie, { intent: "approve-draft", agree: "on", declarationVersion: APPROVAL_VERSION })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.noSuchVersion } });
    expect((await post(a.cookie, { intent: "nonsense" })).status).toBe(400);
    const visitor = await post(null, { intent: "send-code" });
    expect(visitor.status).toBe(302);
    expect((await loadFiling(admin.cookie)).status).toBe(404);
  });
});

describe("signing the e-file authorisation", () => {
  it("without an ID check: explains the paper way; the form downloads; a scan is uploaded, sent back with a reason, then accepted", async () => {
    await approvedAndRequested();
    const page = await loadFiling(a.cookie);
    expect(page.body.signing).toMatchObject({ name: NAME, authorizationForm: "8879", eSignature: false, waiting: false, returnedReason: null, formUrl: `/my-tax-filing/${Y}/signing-form` });
    const list = await outcome<{ returnWaiting: Record<number, string> }>(() => listRoute.loader(args(req("/my-tax-filing", a.cookie))));
    expect(list.body.returnWaiting).toEqual({ [Y]: "Signature needed" });

    const form = await signingForm(a.cookie);
    expect(form.status).toBe(200);
    expect(new TextDecoder().decode(form.body as Uint8Array)).toContain("% 8879");
    expect((await signingForm(b.cookie)).status).toBe(404);

    // Sending a code needs an ID check: refused, no code sent.
    expect(await post(a.cookie, { intent: "send-code" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.noIdCheck } });
    expect((await mails()).filter((m) => m.subject.includes("signing code"))).toEqual([]);

    // Bad uploads change nothing; the page says why.
    expect(await uploadSigned(a.cookie, null)).toMatchObject(backTo("no-file"));
    expect(await uploadSigned(a.cookie, { name: "signed.txt", bytes: new TextEncoder().encode("hello") })).toMatchObject(backTo("not-scan"));
    expect(await uploadSigned(b.cookie, { name: "signed.pdf", bytes: pdf("bob") })).toMatchObject(backTo("nothing-to-sign"));
    expect(await getDb().select().from(handwrittenUploads)).toEqual([]);
    const refusedPage = await outcome<FilingData & { signedForm: ReturnFormResult | null }>(() =>
      filingRoute.loader(args(req(`/my-tax-filing/${Y}?signed-form=not-scan`, a.cookie), { year: String(Y) })),
    );
    expect(refusedPage.body.signedForm).toEqual({ intent: "upload-signed", ok: false, message: RETURN_MESSAGES.notScan });
    const visitor = await uploadSigned(null, { name: "signed.pdf", bytes: pdf("x") });
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/login/);

    expect(await uploadSigned(a.cookie, { name: "signed.jpg", bytes: jpeg() })).toMatchObject(backTo("received"));
    const [upload] = await getDb().select().from(handwrittenUploads);
    const received_ = await outcome<FilingData & { signedForm: ReturnFormResult | null }>(() =>
      filingRoute.loader(args(req(`/my-tax-filing/${Y}?signed-form=received`, a.cookie), { year: String(Y) })),
    );
    expect(received_.body.signedForm).toEqual({ intent: "upload-signed", ok: true, message: RETURN_CLIENT_MESSAGES.uploaded });
    expect(received_.body.signing).toMatchObject({ waiting: true, returnedReason: null });
    // While it waits for our check, the card no longer asks for a signature.
    const waitingList = await outcome<{ returnWaiting: Record<number, string> }>(() => listRoute.loader(args(req("/my-tax-filing", a.cookie))));
    expect(waitingList.body.returnWaiting).toEqual({});

    expect(await returnHandwritten(preparer.actor, upload!.id, "The signature is cut off at the bottom.", IP)).toEqual({ ok: true });
    expect((await loadFiling(a.cookie)).body.signing).toMatchObject({ waiting: false, returnedReason: "The signature is cut off at the bottom." });

    expect(await uploadSigned(a.cookie, { name: "signed-again.pdf", bytes: pdf("signed") })).toMatchObject(backTo("received"));
    const second = (await getDb().select().from(handwrittenUploads)).find((u) => u.decision === null)!;
    expect((await acceptHandwritten(preparer.actor, second.id, IP)).ok).toBe(true);
    const after = await loadFiling(a.cookie);
    expect(after.body.signing).toBeNull();
    expect(after.body.history.map((l) => l.text)).toEqual(
      expect.arrayContaining([`We asked you to sign Form 8879 on ${todayFirm()}.`, `You signed Form 8879 on ${todayFirm()}.`]),
    );
    expect((await signingForm(a.cookie)).status).toBe(404);
  });

  it("with an ID check: consent and declaration shown, a code e-mailed, then signed with the typed name; refusals change nothing", async () => {
    await approvedAndRequested();
    expect((await recordIdCheck(preparer.actor, { clientId: a.id, taxYear: Y }, "taxpayer", idCheck, IP)).ok).toBe(true);
    const page = await loadFiling(a.cookie);
    const text = returnTextContext("1040-NR", Y, "8879");
    expect(page.body.signing).toMatchObject({
      eSignature: true,
      consent: consentText(CONSENT_VERSION, text),
      consentVersion: CONSENT_VERSION,
      declaration: declarationText(DECLARATION_VERSION, text),
      declarationVersion: DECLARATION_VERSION,
    });

    expect(await post(a.cookie, { intent: "send-code" })).toMatchObject({ status: 200, body: { ok: true, message: RETURN_CLIENT_MESSAGES.codeSent("alice@example.com") } });
    const code = (await lastCode("alice@example.com"));
    // Bob's "send me a code" on his own page: nothing waits for him.
    expect((await post(b.cookie, { intent: "send-code" })).body.message).toBe(RETURN_CLIENT_MESSAGES.nothingToSign);
    expect(await post(b.cookie, { intent: "sign", consent: "on", consentVersion: CONSENT_VERSION, declarationVersion: DECLARATION_VERSION, typedName: NAME, code, timeZone: "Asia/Kolkata" })).toMatchObject({
      status: 409,
      body: { message: RETURN_CLIENT_MESSAGES.nothingToSign },
    });

    const sign = (fields: Record<string, string>) =>
      post(a.cookie, { intent: "sign", consent: "on", consentVersion: CONSENT_VERSION, declarationVersion: DECLARATION_VERSION, typedName: NAME, code, timeZone: "Asia/Kolkata", ...fields });
    expect(await sign({ consent: "" })).toMatchObject({ status: 400, body: { message: RETURN_CLIENT_MESSAGES.consentRequired } });
    expect(await sign({ typedName: " " })).toMatchObject({ status: 400, body: { message: RETURN_CLIENT_MESSAGES.nameRequired } });
    expect(await sign({ code: "" })).toMatchObject({ status: 400, body: { message: RETURN_CLIENT_MESSAGES.codeRequired } });
    expect(await sign({ typedName: "Ravi Kumaar" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.nameMismatch } });
    // A page opened before the consent's wording changed is refused, not signed under words it did not show.
    expect(await sign({ consentVersion: "esign-consent-2020-01-01" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.consentOutdated } });
    expect(await sign({ declarationVersion: "" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.declarationOutdated } });
    expect(await sign({ timeZone: "Mars/Olympus" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.badTimeZone } });
    expect(await sign({ code: code === "000000" ? "111111" : "000000" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.codeWrong } });
    expect(await getDb().select().from(signatures)).toEqual([]);

    expect(await sign({ typedName: "ravi  kumar" })).toMatchObject({ status: 200, body: { intent: "sign", ok: true, message: RETURN_CLIENT_MESSAGES.signed } });
    const [signature] = await getDb().select().from(signatures);
    expect(signature).toMatchObject({
      clientId: a.id,
      signerRole: "taxpayer",
      method: "e-signature",
      consentVersion: CONSENT_VERSION,
      declarationVersion: DECLARATION_VERSION,
      timeZone: "Asia/Kolkata",
      ipAddress: "203.0.113.10",
    });
    expect((await loadFiling(a.cookie)).body.signing).toBeNull();
    // Without JavaScript the page sends the firm's zone, which the server takes.
    expect((await sign({ timeZone: "America/New_York" })).body.message).toBe(RETURN_CLIENT_MESSAGES.nothingToSign);
  });
});

describe("the spouse's page /sign/<token>", () => {
  it("a wrong token gets the clear page (404), and nothing else", async () => {
    await approvedAndRequested(true);
    const token = (await spouseToken());
    for (const bad of [`${token}x`, "nope", ""]) {
      const page = await spousePage(bad);
      expect(page.status).toBe(404);
      expect(page.body).toEqual({ valid: false });
      expect(page.headers.get("cache-control")).toContain("no-store");
      expect((await spouseForm(bad)).status).toBe(404);
      expect(await spousePost(bad, { intent: "send-code" })).toMatchObject({ status: 409, body: { ok: false, message: RETURN_MESSAGES.badLink } });
    }
    expect(RETURN_CLIENT_MESSAGES.badLink).toBe("This signing link is not valid or has expired. Ask the firm for a new one.");
  });

  it("the spouse downloads the form, gets no code without an ID check, then signs electronically; the taxpayer still signs on their own page", async () => {
    await approvedAndRequested(true);
    const token = (await spouseToken());
    const page = await spousePage(token);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(page.body).toMatchObject({ valid: true, name: "Meera Kumar", authorizationForm: "8879", eSignature: false, taxYear: Y, formUrl: `/sign/${token}/form` });
    const form = await spouseForm(token);
    expect(new TextDecoder().decode(form.body as Uint8Array)).toContain("% 8879");

    // Without an ID check no code is sent.
    expect(await spousePost(token, { intent: "send-code" })).toMatchObject({ status: 409, body: { message: RETURN_MESSAGES.noIdCheck } });

    expect((await recordIdCheck(preparer.actor, { clientId: a.id, taxYear: Y }, "spouse", idCheck, IP)).ok).toBe(true);
    expect((await spousePage(token)).body).toMatchObject({ eSignature: true });
    expect(await spousePost(token, { intent: "send-code" })).toMatchObject({ status: 200, body: { ok: true, message: RETURN_CLIENT_MESSAGES.codeSent("meera@example.com") } });
    const code = (await lastCode("meera@example.com"));
    // The taxpayer's name is not the spouse's.
    expect(await spousePost(token, { intent: "sign", consent: "on", consentVersion: CONSENT_VERSION, declarationVersion: DECLARATION_VERSION, typedName: NAME, code, timeZone: "Europe/London" })).toMatchObject({
      status: 409,
      body: { message: RETURN_MESSAGES.nameMismatch },
    });
    expect(await spousePost(token, { intent: "sign", consent: "on", consentVersion: CONSENT_VERSION, declarationVersion: DECLARATION_VERSION, typedName: "Meera Kumar", code, timeZone: "Europe/London" })).toMatchObject({
      status: 200,
      body: { ok: true, message: RETURN_CLIENT_MESSAGES.signed },
    });
    const [signature] = await getDb().select().from(signatures);
    expect(signature).toMatchObject({ signerRole: "spouse", signerName: "Meera Kumar", method: "e-signature", timeZone: "Europe/London" });
    // Signed: the link is used up.
    expect((await spousePage(token)).status).toBe(404);
    // The taxpayer still signs on their own page; the spouse's signature shows in their history.
    const mine = await loadFiling(a.cookie);
    expect(mine.body.signing).toMatchObject({ name: NAME });
    expect(mine.body.history.map((l) => l.text)).toContain(`Your spouse signed Form 8879 on ${todayFirm()}.`);
  });
});

describe("a cancelled request", () => {
  it("its spouse's link says it is not valid, on the page, the form's address and the upload's; the new link works", async () => {
    const requestId = await approvedAndRequested(true);
    const token = await spouseToken();
    expect((await spousePage(token)).status).toBe(200);
    expect(await cancelSignatureRequest(preparer.actor, requestId, "The spouse's address was wrong.", IP)).toEqual({ ok: true });

    const page = await spousePage(token);
    expect(page).toMatchObject({ status: 404, body: { valid: false } });
    expect((await spouseForm(token)).status).toBe(404);
    const upload = await outcome(async () => spouseSignedFormRoute.action(args(await multipart(`/sign/${token}/signed-form`, null, { name: "signed.jpg", bytes: jpeg() }), { token })));
    expect(upload).toMatchObject({ status: 303, location: `/sign/${token}?signed-form=request-void` });
    expect(await getDb().select().from(handwrittenUploads)).toEqual([]);
    // Sent back there, the page says only that the link is not valid.
    expect(await outcome(() => signRoute.loader(args(req(`/sign/${token}?signed-form=request-void`, null), { token })))).toMatchObject({ status: 404, body: { valid: false } });
    expect(await spousePost(token, { intent: "send-code" })).toMatchObject({ status: 409, body: { ok: false, message: RETURN_MESSAGES.requestVoid } });
    // The taxpayer has nothing to sign until the new request.
    expect((await loadFiling(a.cookie)).body.signing).toBeNull();
    expect((await loadFiling(a.cookie)).body.history.map((l) => l.text)).toContain(`We cancelled the request to sign Form 8879 on ${todayFirm()}.`);

    const versionId = (await getDb().select().from(signatureRequests))[0]!.versionId;
    const again = await requestSignature(preparer.actor, versionId, { formFile: null, jointReturn: true, spouse: { name: "Meera Kumar", email: "meera.k@example.com" } }, IP);
    expect(again.ok).toBe(true);
    const newToken = /\/sign\/([A-Za-z0-9_-]+)/.exec((await mails()).find((m) => m.to === "meera.k@example.com")?.text ?? "")?.[1] ?? "";
    expect((await spousePage(newToken)).body).toMatchObject({ valid: true, name: "Meera Kumar" });
    expect((await spousePage(token)).status).toBe(404);
    expect((await loadFiling(a.cookie)).body.signing).toMatchObject({ name: NAME });
  });
});

describe("the spouse's message from their page", () => {
  const conversationOf = async (clientId: string) => (await clientConversation(clientId, Y))?.messages ?? [];

  it("reaches the case's conversation with staff, the spouse named as its author; validated, limited, and only through a link that works", async () => {
    const requestId = await approvedAndRequested(true);
    const token = await spouseToken();
    const page = await spousePage(token);
    expect(page.status).toBe(200);

    expect(await spousePost(token, { intent: "message", body: "   " })).toMatchObject({ status: 400, body: { intent: "message", ok: false, message: MESSAGE_TEXTS.empty } });
    expect(await spousePost(token, { intent: "message", body: "x".repeat(5001) })).toMatchObject({ status: 400, body: { intent: "message", ok: false, message: MESSAGE_TEXTS.tooLong } });
    expect(await spousePost(`${token}x`, { intent: "message", body: "Hello" })).toMatchObject({ status: 409, body: { intent: "message", ok: false, message: RETURN_MESSAGES.badLink } });
    expect(await getDb().select().from(caseMessages)).toEqual([]);

    expect(await spousePost(token, { intent: "message", body: "  Can I sign electronically? I can do a video call.  " })).toMatchObject({
      status: 200,
      body: { intent: "message", ok: true, message: RETURN_CLIENT_MESSAGES.spouseMessageSent },
    });
    const [stored] = await getDb().select().from(caseMessages);
    expect(stored).toMatchObject({ clientId: a.id, taxYear: Y, authorId: null, authorName: "Meera Kumar, the spouse", fromClient: true, body: "Can I sign electronically? I can do a video call." });
    // Staff read it as the spouse's, and are told of it as of a client's message; the client sees it, named; client B does not.
    const forStaff = await staffConversation(preparer.actor, a.id, Y);
    expect(forStaff?.map((m) => [m.author, m.fromClient, m.body])).toEqual([["Meera Kumar, the spouse", true, "Can I sign electronically? I can do a video call."]]);
    // Staff hear of the message once (beside the notice of the client's approval, which links to the return).
    expect((await mails()).filter((m) => m.to === "staff@taxbridge.test" && m.text.includes("/messages")).map((m) => m.text)).toEqual([
      expect.stringContaining(`/admin/clients/${a.id}/${Y}/messages`),
    ]);
    expect((await conversationOf(a.id)).map((m) => [m.author, m.mine])).toEqual([["Meera Kumar, the spouse", false]]);
    expect(await conversationOf(b.id)).toEqual([]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "message-sent"))).toEqual([
      expect.objectContaining({ actorId: null, clientId: a.id, detail: "from Meera Kumar, the spouse" }),
    ]);

    // A few an hour.
    for (let i = 2; i <= 5; i++) expect((await spousePost(token, { intent: "message", body: `Message ${i}` })).status).toBe(200);
    expect(await spousePost(token, { intent: "message", body: "Message 6" })).toMatchObject({ status: 409, body: { ok: false, message: RETURN_MESSAGES.tooManyMessages } });
    expect(await getDb().select().from(caseMessages)).toHaveLength(5);

    // A cancelled request's link writes nothing.
    await cancelSignatureRequest(preparer.actor, requestId, "Wrong address", IP);
    expect(await spousePost(token, { intent: "message", body: "Still there?" })).toMatchObject({ status: 409, body: { ok: false, message: RETURN_MESSAGES.requestVoid } });
    expect(await getDb().select().from(caseMessages)).toHaveLength(5);
  });
});

describe("the spouse's hand-signed form", () => {
  it("is uploaded through the link and shows as waiting; a wrong link keeps nothing", async () => {
    await approvedAndRequested(true);
    const token = (await spouseToken());
    const upload = async (t: string, file: { name: string; bytes: Uint8Array } | null) =>
      outcome(async () => spouseSignedFormRoute.action(args(await multipart(`/sign/${t}/signed-form`, null, file), { token: t })));
    expect(await upload(`${token}x`, { name: "signed.pdf", bytes: pdf("m") })).toMatchObject({ status: 303, location: `/sign/${token}x?signed-form=bad-link` });
    expect(await upload(token, null)).toMatchObject({ status: 303, location: `/sign/${token}?signed-form=no-file` });
    expect(await upload(token, { name: "meera-signed.png", bytes: jpeg() })).toMatchObject({ status: 303, location: `/sign/${token}?signed-form=not-scan` });
    expect(await getDb().select().from(handwrittenUploads)).toEqual([]);
    expect(await upload(token, { name: "meera-signed.jpg", bytes: jpeg() })).toMatchObject({ status: 303, location: `/sign/${token}?signed-form=received` });
    expect(await getDb().select().from(handwrittenUploads)).toHaveLength(1);
    const page = await outcome<Record<string, unknown>>(() => signRoute.loader(args(req(`/sign/${token}?signed-form=received`, null), { token })));
    expect(page.body).toMatchObject({ valid: true, waiting: true, returnedReason: null, signedForm: { intent: "upload-signed", ok: true, message: RETURN_CLIENT_MESSAGES.uploaded } });
    // The taxpayer's own form is still theirs to sign: the spouse's upload is not theirs.
    expect((await loadFiling(a.cookie)).body.signing).toMatchObject({ waiting: false });
  });
});

describe("a change within the IRS tolerances", () => {
  it("tells the client the signature stands, not that the form must be signed again", async () => {
    const requestId = await approvedAndRequested();
    await uploadSigned(a.cookie, { name: "signed.pdf", bytes: pdf("signed") });
    const [upload] = await getDb().select().from(handwrittenUploads);
    expect((await acceptHandwritten(preparer.actor, upload!.id, IP)).ok).toBe(true);
    const v2 = await draft("v2", "A small correction.");
    const voidedLine = `The return changed on ${todayFirm()}, so the earlier Form 8879 must be signed again.`;
    expect((await loadFiling(a.cookie)).body.history.map((l) => l.text)).toContain(voidedLine);
    expect(await declareWithinTolerance(preparer.actor, v2, { incomeOrAgiCents: 1_000, taxCents: 0, withholdingCents: 0, refundOrOwedCents: 0 }, IP)).toEqual({ ok: true, requestId });
    const texts = (await loadFiling(a.cookie)).body.history.map((l) => l.text);
    expect(texts).not.toContain(voidedLine);
    expect(texts).toContain(`The return changed on ${todayFirm()}, within the IRS tolerances: the signed Form 8879 stands and does not need to be signed again.`);
    expect((await loadFiling(a.cookie)).body.signing).toBeNull();
  });
});

describe("the return's history after it is sent", () => {
  it("tells the client of the transmission, the IRS's answers with each reject code explained, and the final copies", async () => {
    const requestId = await approvedAndRequested();
    expect(requestId).toBeTruthy();
    await uploadSigned(a.cookie, { name: "signed.pdf", bytes: pdf("signed") });
    const [upload] = await getDb().select().from(handwrittenUploads);
    expect((await acceptHandwritten(preparer.actor, upload!.id, IP)).ok).toBe(true);
    const ref = { clientId: a.id, taxYear: Y };
    const sent = await recordTransmission(preparer.actor, ref, { date: dayFromToday(-9), submissionId: "S1", jurisdiction: "federal" }, IP);
    if (!sent.ok) throw new Error(sent.error);
    expect((await recordRejected(preparer.actor, sent.transmissionId, { date: dayFromToday(-8), codes: ["IND-031-04"] }, IP)).ok).toBe(true);
    const again = await recordTransmission(preparer.actor, ref, { date: dayFromToday(0), submissionId: "S2", jurisdiction: "federal" }, IP);
    if (!again.ok) throw new Error(again.error);
    expect((await recordAccepted(preparer.actor, again.transmissionId, dayFromToday(0), IP)).ok).toBe(true);
    const state = await recordTransmission(preparer.actor, ref, { date: dayFromToday(0), submissionId: "S3", jurisdiction: "state" }, IP);
    if (!state.ok) throw new Error(state.error);
    expect((await recordRejected(preparer.actor, state.transmissionId, { date: dayFromToday(0), codes: ["IND-031-04"] }, IP)).ok).toBe(true);
    const released = await releaseFinalCopies(preparer.actor, ref, { filedReturn: { file: await received("filed.pdf", pdf("filed")) }, signedAuthorization: { file: await received("8879-signed.pdf", pdf("s")) } }, IP);
    expect(released.ok).toBe(true);

    const { history } = (await loadFiling(a.cookie)).body;
    const on = (day: string) => formatUsDate(day);
    const texts = history.map((l) => l.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        `We sent your federal return to the IRS on ${on(dayFromToday(-9))}.`,
        `The IRS rejected your federal return on ${on(dayFromToday(-8))}.`,
        `The IRS accepted your federal return on ${on(dayFromToday(0))}.`,
        `We sent your state return to the IRS on ${on(dayFromToday(0))}.`,
        `The IRS rejected your state return on ${on(dayFromToday(0))}.`,
        "Your final copies are ready",
      ]),
    );
    const federal = history.find((l) => l.text.startsWith("The IRS rejected your federal"))!;
    const late = describeRejectCode("IND-031-04", { deadlinePassed: true });
    expect(federal.codes).toEqual([late]);
    const stateRejected = history.find((l) => l.text.startsWith("The IRS rejected your state"))!;
    expect(stateRejected.codes).toEqual([describeRejectCode("IND-031-04", { deadlinePassed: false })]);
    expect(stateRejected.codes![0]!.whatToDo).not.toBe(late.whatToDo);
    expect(history.find((l) => l.text === "Your final copies are ready")?.link).toEqual({ label: "Download them from your documents", to: `/my-tax-filing/${Y}#documents` });
    // Staff-only events are not the client's.
    expect(JSON.stringify(history)).not.toMatch(/identity|tolerance/i);
    // Bob's page shows none of it.
    expect((await loadFiling(b.cookie)).body.history).toEqual([]);
  });
});
