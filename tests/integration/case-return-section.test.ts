import { rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ENGAGEMENT_MESSAGES } from "~/domain/engagement";
import { DOLLARS_MESSAGES } from "~/domain/irs-tolerance";
import { RETURN_DONE, RETURN_SECTION_MESSAGES } from "~/domain/return-section";
import type { ReturnSectionData } from "~/domain/return-section";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { documents, efileEvents, finalCopies, handwrittenUploads, idChecks, returnVersions, signatureRequests } from "~/server/db/schema";
import { sendLetter } from "~/server/engagement/letters.server";
import { uploadHandwritten } from "~/server/returns/handwritten.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { atMoment } from "../helpers/clock";
import { dayFromToday, IP, jpeg, pdf, received, sha256, UA } from "../helpers/returns";
import { feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sentMail, withCookie } from "./helpers";

// The staff's Return section of a case (/admin/clients/:clientId/:year/return), its loader and
// action run as the server runs them (behind the admin panel's layout), and the download of a
// version. Two clients, a preparer and an admin.

const Y = currentFilingYear();
const today = dayFromToday(0);
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const sectionRoute = routeModule("routes/admin/case/return.tsx");
const downloadRoute = routeModule("routes/admin/return-version-file.ts");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
});

const sectionUrl = (clientId: string, search = "") => `/admin/clients/${clientId}/${Y}/return${search}`;
const args = (request: Request, params: Record<string, string>) => ({ ...routeArgs(request), params });

type Answer = { status: number; location: string | null; body: { intent?: string; ok?: boolean; message?: string; values?: Record<string, string> } | null };

async function answerOf(call: () => Promise<unknown>): Promise<Answer> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), body: null };
  const { status, body } = unwrap<Answer["body"]>(result);
  return { status, location: null, body };
}

async function load(cookie: string, clientId = a.id, search = ""): Promise<{ status: number; location: string | null; data: { section: ReturnSectionData; letterWaits: boolean; done: string | null; today: string } | null }> {
  const { loader } = await sectionRoute;
  let result: unknown;
  try {
    result = await loader(args(withCookie(sectionUrl(clientId, search), cookie), { clientId, year: String(Y) }));
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), data: null };
  const { status, body } = unwrap<{ section: ReturnSectionData; letterWaits: boolean; done: string | null; today: string }>(result);
  return { status, location: null, data: body };
}

const section = async (clientId = a.id) => (await load(preparer.cookie, clientId)).data!.section;

/** A POST of the section's form: plain fields, or multipart with files. */
async function post(cookie: string, fields: Record<string, string | string[]>, files: Record<string, { name: string; bytes: Uint8Array }> = {}, clientId = a.id): Promise<Answer> {
  const { action } = await sectionRoute;
  let body: URLSearchParams | FormData;
  if (Object.keys(files).length > 0) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
    for (const [k, f] of Object.entries(files)) form.append(k, new Blob([f.bytes.slice()], { type: "application/octet-stream" }), f.name);
    body = form;
  } else {
    body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  }
  return answerOf(() => action(args(withCookie(sectionUrl(clientId), cookie, { method: "POST", body }), { clientId, year: String(Y) })));
}

const doneAt = (key: keyof typeof RETURN_DONE, clientId = a.id) => ({ status: 302, location: sectionUrl(clientId, `?done=${key}`), body: null });
const refusedWith = (intent: string, message: string) => expect.objectContaining({ status: 400, body: expect.objectContaining({ intent, ok: false, message }) });

const idCheck = (over: Record<string, string> = {}) => ({
  intent: "id-check",
  signer: "taxpayer",
  documentType: "passport",
  issuingCountry: "in",
  expiresOn: dayFromToday(400),
  numberLast4: "4821",
  how: "in-person",
  ...over,
});

async function uploadVersion(cookie: string, tag: string, form = "1040-NR") {
  return post(cookie, { intent: "upload-version", form, note: `Please check ${tag}.` }, { file: { name: `${tag}.pdf`, bytes: pdf(tag) } });
}

/** Version 1 uploaded and approved by the client, the taxpayer's signature requested through the section. */
async function requested(): Promise<ReturnSectionData> {
  expect(await uploadVersion(preparer.cookie, "v1")).toEqual(doneAt("version-uploaded"));
  const v1 = (await section()).versions[0]!;
  expect((await approveReturnVersion(a.actor, v1.id, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
  expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id }, { formFile: { name: "8879.pdf", bytes: pdf("8879") } })).toEqual(doneAt("signature-requested"));
  return section();
}

/** The taxpayer's hand-signed scan uploaded (as the client portal does) and accepted through the section: authorised. */
async function authorisedByHand(): Promise<ReturnSectionData> {
  const s = await requested();
  const up = await uploadHandwritten({ client: a.actor, requestId: s.requests[0]!.id }, await received("scan.pdf", pdf("signed scan")), IP);
  if (!up.ok) throw new Error(up.error);
  expect(await post(admin.cookie, { intent: "accept-scan", uploadId: up.uploadId })).toEqual(doneAt("scan-accepted"));
  const made = await section();
  const copy = made.requests[0]!.signedCopy;
  expect(copy?.sha256).toMatch(/^[0-9a-f]{64}$/);
  // Made already: asking again keeps the same copy.
  expect(await post(preparer.cookie, { intent: "make-signed-copy", requestId: made.requests[0]!.id })).toEqual(doneAt("signed-copy-made"));
  expect((await section()).requests[0]!.signedCopy).toEqual(copy);
  return made;
}

describe("who may use the Return section", () => {
  it("sends a visitor to sign in and a client (theirs or another's case) to their home, for every form, and changes nothing", async () => {
    const target = sectionUrl(a.id);
    for (const [cookie, location] of [
      ["", `/login?redirectTo=${encodeURIComponent(target)}`],
      [a.cookie, "/dashboard"],
      [b.cookie, "/dashboard"],
    ] as const) {
      expect(await load(cookie)).toMatchObject({ status: 302, location });
      const forms: Array<Record<string, string>> = [
        idCheck(),
        { intent: "transmit", date: today, submissionId: "S1", jurisdiction: "federal" },
        { intent: "accept-scan", uploadId: "00000000-0000-4000-8000-000000000000" },
      ];
      for (const fields of forms) expect(await post(cookie, fields)).toMatchObject({ status: 302, location });
      expect(await post(cookie, { intent: "upload-version", form: "1040" }, { file: { name: "x.pdf", bytes: pdf("x") } })).toMatchObject({ status: 302, location });
    }
    expect(await getDb().select().from(idChecks)).toEqual([]);
    expect(await getDb().select().from(returnVersions)).toEqual([]);
    expect(await getDb().select().from(efileEvents)).toEqual([]);
  });

  it("shows a preparer and an admin the section, empty before any work, and a 404 for a case that does not exist", async () => {
    for (const who of [preparer, admin]) {
      const got = await load(who.cookie);
      expect(got.status).toBe(200);
      expect(got.data?.section).toMatchObject({ versions: [], idChecks: [], requests: [], efile: [], waiting: [], openRejections: [], accepted: false, finalCopies: null, expectedForm: null });
      expect(got.data?.done).toBeNull();
    }
    expect((await load(preparer.cookie, "no-such-client")).status).toBe(404);
    expect((await load(preparer.cookie, a.id, "?done=rejected")).data?.done).toBe(RETURN_DONE.rejected);
    expect((await load(preparer.cookie, a.id, "?done=nonsense")).data?.done).toBeNull();
  });

  it("gives the forms New York's today as the latest day an answer can have and the earliest an ID can expire", async () => {
    // 9:30 pm EST on January 30, 2026: already January 31 in UTC.
    const got = await atMoment("2026-01-31T02:30:00Z", () => load(preparer.cookie));
    expect(got.status).toBe(200);
    expect(got.data?.today).toBe("2026-01-30");
  });

  it("refuses an intent it does not know, and a file with a form that takes none", async () => {
    expect(await post(preparer.cookie, { intent: "add-note", body: "Hello" })).toEqual(refusedWith("unknown", RETURN_SECTION_MESSAGES.unknown));
    expect(await post(preparer.cookie, idCheck(), { file: { name: "x.pdf", bytes: pdf("x") } })).toEqual(refusedWith("unknown", RETURN_SECTION_MESSAGES.unknown));
    expect(await getDb().select().from(idChecks)).toEqual([]);
  });
});

describe("versions", () => {
  it("uploads versions as a preparer and an admin, lists them newest first with the reviews, and refuses bad input", async () => {
    expect(await post(preparer.cookie, { intent: "upload-version", form: "1041", note: "" }, { file: { name: "v.pdf", bytes: pdf("v") } })).toEqual(refusedWith("upload-version", RETURN_MESSAGES.badForm));
    expect(await post(preparer.cookie, { intent: "upload-version", form: "1040-NR", note: "" }, { file: { name: "v.jpg", bytes: jpeg() } })).toEqual(refusedWith("upload-version", RETURN_MESSAGES.notPdf));
    expect(await post(preparer.cookie, { intent: "upload-version", form: "1040-NR", note: "" })).toEqual(refusedWith("upload-version", RETURN_SECTION_MESSAGES.noFile));
    expect(await post(preparer.cookie, { intent: "upload-version", form: "1040-NR", note: "x".repeat(2_001) }, { file: { name: "v.pdf", bytes: pdf("v") } })).toEqual(
      refusedWith("upload-version", RETURN_MESSAGES.noteTooLong),
    );
    expect(await getDb().select().from(returnVersions)).toEqual([]);

    expect(await uploadVersion(preparer.cookie, "v1")).toEqual(doneAt("version-uploaded"));
    const v1 = (await section()).versions[0]!;
    expect(await approveReturnVersion(a.actor, v1.id, { ip: IP, userAgent: UA, declarationVersion: "d1" })).toMatchObject({ ok: true });
    expect(await uploadVersion(admin.cookie, "v2", "4868")).toEqual(doneAt("version-uploaded"));
    const s = await section();
    expect(s.expectedForm).toBe("8878");
    expect(s.versions.map((v) => [v.number, v.form, v.superseded, v.uploadedBy, v.note, v.sha256, v.fileName])).toEqual([
      [2, "4868", false, "Sam Admin", "Please check v2.", sha256(pdf("v2")), "v2.pdf"],
      [1, "1040-NR", true, "Pat Preparer", "Please check v1.", sha256(pdf("v1")), "v1.pdf"],
    ]);
    expect(s.versions[1]!.review).toMatchObject({ decision: "approved" });
    expect(s.versions[0]!.review).toBeNull();
    // Client B's case has none.
    expect((await section(b.id)).versions).toEqual([]);
  });

  it("says when the draft waits for the client's engagement letter, and refuses an upload posted anyway, keeping nothing", async () => {
    expect((await load(preparer.cookie)).data).toMatchObject({ letterWaits: false });
    // A new letter replaces the accepted one: until the client accepts it, the draft waits.
    expect((await sendLetter(admin.actor, { clientId: a.id, taxYear: Y }, "1040", IP)).ok).toBe(true);
    expect((await load(preparer.cookie)).data).toMatchObject({ letterWaits: true });
    expect(await post(preparer.cookie, { intent: "upload-version", form: "1040", note: "" }, { file: { name: "v.pdf", bytes: pdf("v") } })).toEqual(
      refusedWith("upload-version", ENGAGEMENT_MESSAGES.draftWaits),
    );
    expect(await getDb().select().from(returnVersions)).toEqual([]);
    expect(await getDb().select().from(documents)).toEqual([]);
    // Client B's case, whose letter is accepted, does not wait.
    expect((await load(preparer.cookie, b.id)).data).toMatchObject({ letterWaits: false });
  });

  it("downloads a version for staff, and answers 404 for an unknown version or one of another client", async () => {
    expect(await uploadVersion(preparer.cookie, "v1")).toEqual(doneAt("version-uploaded"));
    const v1 = (await section()).versions[0]!;
    const { loader } = await downloadRoute;
    const get = (cookie: string, clientId: string, versionId: string) =>
      answerOf(() => loader(args(withCookie(`/admin/clients/${clientId}/return-versions/${versionId}`, cookie), { clientId, versionId })));
    for (const who of [preparer, admin]) {
      const response = (await loader(args(withCookie(`/admin/clients/${a.id}/return-versions/${v1.id}`, who.cookie), { clientId: a.id, versionId: v1.id }))) as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toContain('filename="v1.pdf"');
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf("v1"));
    }
    expect((await get(preparer.cookie, b.id, v1.id)).status).toBe(404);
    expect((await get(preparer.cookie, a.id, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await get(preparer.cookie, a.id, "nonsense")).status).toBe(404);
    expect(await get(a.cookie, a.id, v1.id)).toMatchObject({ status: 302, location: "/dashboard" });
    expect(await get(b.cookie, a.id, v1.id)).toMatchObject({ status: 302, location: "/dashboard" });
    expect((await get("", a.id, v1.id)).status).toBe(302);
  });
});

describe("identity checks", () => {
  it("records a check (never more than the last 4) as a preparer and an admin, and refuses bad input", async () => {
    expect(await post(preparer.cookie, idCheck({ issuingCountry: "India" }))).toEqual(refusedWith("id-check", RETURN_MESSAGES.badCountry));
    expect(await post(preparer.cookie, idCheck({ expiresOn: dayFromToday(-1) }))).toEqual(refusedWith("id-check", RETURN_MESSAGES.badExpiry));
    expect(await post(preparer.cookie, idCheck({ numberLast4: "48" }))).toEqual(refusedWith("id-check", RETURN_MESSAGES.badLast4));
    expect(await post(preparer.cookie, idCheck({ documentType: "library-card" }))).toEqual(refusedWith("id-check", RETURN_MESSAGES.badDocumentType));
    expect(await post(preparer.cookie, idCheck({ how: "by-phone" }))).toEqual(refusedWith("id-check", RETURN_MESSAGES.badMethod));
    const refused = await post(preparer.cookie, idCheck({ issuingCountry: "India" }));
    expect(refused.body?.values).toMatchObject({ issuingCountry: "India", numberLast4: "4821" });
    expect(await getDb().select().from(idChecks)).toEqual([]);

    expect(await post(preparer.cookie, idCheck())).toEqual(doneAt("id-checked"));
    expect(await post(admin.cookie, idCheck({ signer: "spouse", documentType: "visa", issuingCountry: "US", numberLast4: "ab12", how: "live-video" }))).toEqual(doneAt("id-checked"));
    const checks = (await section()).idChecks;
    expect(checks.map((c) => [c.signer, c.documentType, c.issuingCountry, c.numberLast4, c.how, c.checkedBy])).toEqual([
      ["spouse", "visa", "US", "AB12", "live-video", "Sam Admin"],
      ["taxpayer", "passport", "IN", "4821", "in-person", "Pat Preparer"],
    ]);
    expect((await section(b.id)).idChecks).toEqual([]);
  });
});

describe("the signature", () => {
  it("requests the signature on the approved current version, and refuses before approval, a joint return without the spouse, and another case's version", async () => {
    expect(await uploadVersion(preparer.cookie, "v1")).toEqual(doneAt("version-uploaded"));
    const v1 = (await section()).versions[0]!;
    const form = { formFile: { name: "8879.pdf", bytes: pdf("8879") } };
    expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id }, form)).toEqual(refusedWith("request-signature", RETURN_MESSAGES.notApproved));
    await approveReturnVersion(a.actor, v1.id, { ip: IP, userAgent: UA, declarationVersion: "d1" });
    expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id })).toEqual(refusedWith("request-signature", RETURN_MESSAGES.formRequired));
    expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id, jointReturn: "on", spouseName: "", spouseEmail: "" }, form)).toEqual(
      refusedWith("request-signature", RETURN_MESSAGES.spouseRequired),
    );
    expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id }, { formFile: { name: "8879.jpg", bytes: jpeg() } })).toEqual(refusedWith("request-signature", RETURN_MESSAGES.formNotPdf));
    expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id }, form, b.id)).toEqual(refusedWith("request-signature", RETURN_SECTION_MESSAGES.noSuchVersion));
    expect(await getDb().select().from(signatureRequests)).toEqual([]);

    expect(await post(admin.cookie, { intent: "request-signature", versionId: v1.id, jointReturn: "on", spouseName: "Carol Aardvark", spouseEmail: "carol@example.com" }, form)).toEqual(doneAt("signature-requested"));
    const [request] = (await section()).requests;
    expect(request).toMatchObject({ form: "8879", versionNumber: 1, jointReturn: true, void: false, authorised: false, signedCopy: null });
    expect(request!.signers.map((s) => [s.role, s.name, s.email, s.signed])).toEqual([
      ["taxpayer", expect.any(String), "alice@example.com", null],
      ["spouse", "Carol Aardvark", "carol@example.com", null],
    ]);
    expect((await sentMail()).map((m) => m.to)).toEqual(expect.arrayContaining(["alice@example.com", "carol@example.com"]));
    expect(await post(preparer.cookie, { intent: "request-signature", versionId: v1.id }, form)).toEqual(refusedWith("request-signature", RETURN_MESSAGES.openRequest));
  });

  it("cancels a request with a reason for staff only, then sends the same form to a corrected address without a new version or approval", async () => {
    expect(await uploadVersion(preparer.cookie, "v1")).toEqual(doneAt("version-uploaded"));
    const v1 = (await section()).versions[0]!;
    expect((await approveReturnVersion(a.actor, v1.id, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
    const form = { formFile: { name: "8879.pdf", bytes: pdf("8879") } };
    const joint = { intent: "request-signature", versionId: v1.id, jointReturn: "on", spouseName: "Carol Aardvark" };
    expect(await post(preparer.cookie, { ...joint, spouseEmail: "carol@exmaple.com" }, form)).toEqual(doneAt("signature-requested"));
    const requestId = (await section()).requests[0]!.id;
    const cancel = { intent: "cancel-request", requestId, reason: "The spouse's address was mistyped." };

    // A visitor is sent to sign in; a client, theirs or another's, to their home; nothing changes.
    expect(await post("", cancel)).toMatchObject({ status: 302, location: `/login?redirectTo=${encodeURIComponent(sectionUrl(a.id))}` });
    expect(await post(a.cookie, cancel)).toMatchObject({ status: 302, location: "/dashboard" });
    expect(await post(b.cookie, cancel)).toMatchObject({ status: 302, location: "/dashboard" });
    // Through another client's case, the request is not found.
    expect(await post(preparer.cookie, cancel, {}, b.id)).toEqual(refusedWith("cancel-request", RETURN_SECTION_MESSAGES.noSuchRequest));
    expect(await post(preparer.cookie, { ...cancel, reason: "" })).toEqual(refusedWith("cancel-request", RETURN_MESSAGES.cancelReasonRequired));
    expect((await section()).requests[0]).toMatchObject({ void: false, cancelled: null });

    expect(await post(preparer.cookie, cancel)).toEqual(doneAt("request-cancelled"));
    expect((await section()).requests[0]).toMatchObject({ void: true, cancelled: "The spouse's address was mistyped." });
    expect(await post(preparer.cookie, cancel)).toEqual(refusedWith("cancel-request", RETURN_MESSAGES.alreadyVoid));

    // No file: the cancelled request's form goes again, to the corrected address.
    expect(await post(admin.cookie, { ...joint, spouseEmail: "carol@example.com" })).toEqual(doneAt("signature-requested"));
    const requests = (await section()).requests;
    expect(requests.map((r) => [r.void, r.formDocumentId, r.signers.find((s) => s.role === "spouse")?.email])).toEqual([
      [false, requests[1]!.formDocumentId, "carol@example.com"],
      [true, requests[1]!.formDocumentId, "carol@exmaple.com"],
    ]);
    expect((await sentMail()).map((m) => m.to)).toContain("carol@example.com");
  });

  it("sends a hand-signed form back with a reason, accepts the next one, and says why its signed copy cannot be made", async () => {
    const s = await requested();
    const requestId = s.requests[0]!.id;
    expect(await post(preparer.cookie, { intent: "make-signed-copy", requestId })).toEqual(refusedWith("make-signed-copy", RETURN_SECTION_MESSAGES.notAuthorised));
    const first = await uploadHandwritten({ client: a.actor, requestId }, await received("scan.jpg", jpeg()), IP);
    if (!first.ok) throw new Error(first.error);
    expect((await section()).requests[0]!.pendingScans.map((p) => [p.id, p.role, p.fileName])).toEqual([[first.uploadId, "taxpayer", "scan.jpg"]]);
    expect(await post(preparer.cookie, { intent: "return-scan", uploadId: first.uploadId, reason: " " })).toEqual(refusedWith("return-scan", RETURN_MESSAGES.reasonRequired));
    expect(await post(preparer.cookie, { intent: "accept-scan", uploadId: "00000000-0000-4000-8000-000000000000" })).toEqual(refusedWith("accept-scan", RETURN_SECTION_MESSAGES.noSuchScan));
    // Client B's case does not hold this upload.
    expect(await post(preparer.cookie, { intent: "accept-scan", uploadId: first.uploadId }, {}, b.id)).toEqual(refusedWith("accept-scan", RETURN_SECTION_MESSAGES.noSuchScan));
    expect(await post(preparer.cookie, { intent: "return-scan", uploadId: first.uploadId, reason: "The signature is missing." })).toEqual(doneAt("scan-returned"));
    const [returned] = await getDb().select().from(handwrittenUploads).where(eq(handwrittenUploads.id, first.uploadId));
    expect(returned).toMatchObject({ decision: "returned", reason: "The signature is missing.", reviewedBy: preparer.id });
    expect(await post(preparer.cookie, { intent: "accept-scan", uploadId: first.uploadId })).toEqual(refusedWith("accept-scan", RETURN_MESSAGES.noSuchUpload));

    // A scan the signed copy cannot be made from (an image that is not one): the signature
    // stands, the copy is missing, and making it again says why.
    const second = await uploadHandwritten({ client: a.actor, requestId }, await received("scan2.jpg", jpeg()), IP);
    if (!second.ok) throw new Error(second.error);
    expect(await post(admin.cookie, { intent: "accept-scan", uploadId: second.uploadId })).toEqual(doneAt("scan-accepted"));
    const [request] = (await section()).requests;
    expect(request).toMatchObject({ authorised: true, void: false, pendingScans: [], signedCopy: null });
    expect(request!.signers[0]!.signed).toMatchObject({ method: "handwritten" });
    expect(await post(preparer.cookie, { intent: "make-signed-copy", requestId })).toEqual(refusedWith("make-signed-copy", "The JPEG image is damaged and cannot be read."));
    expect((await section()).requests[0]!.signedCopy).toBeNull();
    expect(await post(preparer.cookie, { intent: "make-signed-copy", requestId }, {}, b.id)).toEqual(refusedWith("make-signed-copy", RETURN_SECTION_MESSAGES.noSuchRequest));
  });

  it("after a new version voids a signed request, declares the change within the tolerances, refusing amounts it cannot read and beyond the limits", async () => {
    await authorisedByHand();
    expect(await uploadVersion(preparer.cookie, "v2")).toEqual(doneAt("version-uploaded-voided"));
    const s = await section();
    const v2 = s.versions[0]!;
    expect(s.requests[0]).toMatchObject({ void: true, authorised: true, voidedBy: v2.id });
    const amounts = { intent: "declare-tolerance", versionId: v2.id, incomeOrAgi: "12.50", tax: "$3", withholding: "0", refundOrOwed: "-4.00" };
    expect(await post(preparer.cookie, { ...amounts, tax: "three dollars" })).toEqual(refusedWith("declare-tolerance", DOLLARS_MESSAGES.shape));
    expect(await post(preparer.cookie, { ...amounts, incomeOrAgi: "60" })).toEqual(
      refusedWith("declare-tolerance", "The change is beyond the IRS tolerances (income or AGI by more than $50): the taxpayer must sign again."),
    );
    expect(await post(preparer.cookie, { ...amounts, versionId: s.versions[1]!.id })).toEqual(refusedWith("declare-tolerance", RETURN_MESSAGES.notCurrent));
    expect((await section()).requests[0]!.void).toBe(true);
    expect(await post(admin.cookie, amounts)).toEqual(doneAt("tolerance-declared"));
    expect((await section()).requests[0]).toMatchObject({ void: false, authorised: true });
  });
});

describe("e-file and the final copies", () => {
  it("records a transmission, a rejection with its codes and the days left, a new transmission and the acceptance, then releases the final copies", async () => {
    expect(await post(preparer.cookie, { intent: "transmit", date: today, submissionId: "S1", jurisdiction: "federal" })).toEqual(refusedWith("transmit", RETURN_MESSAGES.notAuthorised));
    await authorisedByHand();
    expect(await post(preparer.cookie, { intent: "release-final", filedReturn: "current", signedAuthorization: "signed" })).toEqual(refusedWith("release-final", RETURN_SECTION_MESSAGES.notAccepted));
    expect(await post(preparer.cookie, { intent: "transmit", date: dayFromToday(1), submissionId: "S1", jurisdiction: "federal" })).toEqual(refusedWith("transmit", RETURN_MESSAGES.badDate));
    expect(await post(preparer.cookie, { intent: "transmit", date: today, submissionId: "S 1", jurisdiction: "federal" })).toEqual(refusedWith("transmit", RETURN_MESSAGES.badSubmissionId));
    expect(await getDb().select().from(efileEvents)).toEqual([]);

    expect(await post(preparer.cookie, { intent: "transmit", date: dayFromToday(-1), submissionId: "SUB-1", jurisdiction: "federal" })).toEqual(doneAt("transmitted"));
    const first = (await section()).waiting[0]!;
    expect(first).toMatchObject({ kind: "transmitted", submissionId: "SUB-1", jurisdiction: "federal" });
    const reject = { intent: "rejected", transmissionId: first.id, date: today, note: "Prior-year AGI" };
    expect(await post(preparer.cookie, { ...reject, otherCodes: "" })).toEqual(refusedWith("rejected", RETURN_MESSAGES.codesRequired));
    expect(await post(preparer.cookie, { ...reject, codes: ["IND-031-04"], otherCodes: "IND 031" })).toEqual(refusedWith("rejected", RETURN_MESSAGES.badRejectCode));
    expect(await post(preparer.cookie, { ...reject, codes: ["IND-031-04"] }, {}, b.id)).toEqual(refusedWith("rejected", RETURN_SECTION_MESSAGES.noSuchTransmission));
    expect(await post(preparer.cookie, { ...reject, codes: ["IND-031-04"], otherCodes: "r0000-500-01" })).toEqual(doneAt("rejected"));
    let s = await section();
    expect(s.efile.at(-1)).toMatchObject({ kind: "rejected", codes: ["IND-031-04", "R0000-500-01"], note: "Prior-year AGI", recordedBy: "Pat Preparer" });
    expect(s.openRejections).toEqual([{ id: s.efile.at(-1)!.id, jurisdiction: "federal", resendBy: dayFromToday(5), daysLeft: 5 }]);
    expect(s.waiting).toEqual([]);
    expect((await sentMail()).some((m) => m.to.includes("alice@example.com") && m.subject === `Your ${Y} tax return needs a correction`)).toBe(true);

    expect(await post(admin.cookie, { intent: "transmit", date: today, submissionId: "SUB-2", jurisdiction: "federal" })).toEqual(doneAt("transmitted"));
    s = await section();
    expect(s.openRejections).toEqual([]);
    const second = s.waiting[0]!;
    expect(await post(admin.cookie, { intent: "accepted", transmissionId: second.id, date: dayFromToday(1) })).toEqual(refusedWith("accepted", RETURN_MESSAGES.badDate));
    expect(await post(admin.cookie, { intent: "accepted", transmissionId: first.id, date: today })).toEqual(refusedWith("accepted", RETURN_MESSAGES.noSuchTransmission));
    expect(await post(admin.cookie, { intent: "accepted", transmissionId: second.id, date: today })).toEqual(doneAt("accepted"));
    s = await section();
    expect(s.accepted).toBe(true);
    expect(s.efile.map((e) => e.kind)).toEqual(["transmitted", "rejected", "transmitted", "accepted"]);

    expect(await post(preparer.cookie, { intent: "release-final", filedReturn: "upload", signedAuthorization: "signed" })).toEqual(refusedWith("release-final", RETURN_SECTION_MESSAGES.noFile));
    expect(await post(preparer.cookie, { intent: "release-final", filedReturn: "upload", signedAuthorization: "signed" }, { filedReturnFile: { name: "filed.jpg", bytes: jpeg() } })).toEqual(
      refusedWith("release-final", RETURN_MESSAGES.badFinalCopy),
    );
    expect(await getDb().select().from(finalCopies)).toEqual([]);
    expect(await post(preparer.cookie, { intent: "release-final", filedReturn: "current", signedAuthorization: "signed" })).toEqual(doneAt("released"));
    s = await section();
    const [released] = await getDb().select().from(finalCopies);
    expect(released).toMatchObject({ clientId: a.id, signedAuthorizationDocumentId: s.requests[0]!.signedCopy!.documentId, releasedBy: preparer.id });
    // The filed return is a document of its own, the current version's bytes under the return's name; the draft stays unshared.
    const [filed] = await getDb().select().from(documents).where(eq(documents.id, released!.filedReturnDocumentId));
    expect(filed).toMatchObject({ originalName: RETURN_FILE_NAMES.filed("1040-NR", Y), returnRecord: "final-copy", sharedAt: expect.any(Date) });
    const [draft] = await getDb().select().from(documents).where(eq(documents.id, s.versions[0]!.documentId));
    expect(draft).toMatchObject({ returnRecord: "return-version", sharedAt: null });
    expect(s.finalCopies).toMatchObject({ filedReturnDocumentId: released!.filedReturnDocumentId });
  });
});
