import { rmSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeEach, describe, expect, it } from "vitest";
import { newYorkDayStart } from "~/domain/business-days";
import { CONSENT_VERSION, DECLARATION_VERSION, returnDueDate, signatureRetainUntil } from "~/domain/e-signature";
import { RETURN_MESSAGES, SIGNING_CODE_TRIES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, documents, handwrittenUploads, signatureRequestEvents, signatureRequests, signatureSigners, signatures, signedAuthorizations, signingCodes } from "~/server/db/schema";
import { acceptHandwritten, returnHandwritten, uploadHandwritten } from "~/server/returns/handwritten.server";
import { recordIdCheck } from "~/server/returns/id-checks.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { ensureSignedAuthorization } from "~/server/returns/signed-copy.server";
import { signWithEmailCode } from "~/server/returns/e-signing.server";
import { cancelSignatureRequest, requestSignature } from "~/server/returns/signature-requests.server";
import type { SignerAccess } from "~/server/returns/signer-access.server";
import { signerView } from "~/server/returns/signer-view.server";
import { startEmailCode } from "~/server/returns/signing-codes.server";
import { caseReturnTimeline, returnFilterCounts } from "~/server/returns/timeline.server";
import { declareWithinTolerance } from "~/server/returns/tolerance.server";
import { getStorage } from "~/server/storage/storage.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { sentInvoice } from "../helpers/fees";
import { account, dayFromToday, IP, jpeg, pdf, received, sha256, UA } from "../helpers/returns";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { sentMail } from "./helpers";

// Signature requests, e-signatures with an e-mailed code, hand-signed forms, the signatures'
// keeping in the database, and voiding by a new version.

const Y = currentFilingYear();
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const mails = () => sentMail();
const NAME = "Ravi Kumar"; // sampleTaxpayer's name
const idCheck = { documentType: "passport", issuingCountry: "IN", expiresOn: dayFromToday(400), numberLast4: "1234", how: "in-person" };
/** What the database answered a statement: "done", or its error's message. */
async function answer(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
    return "done";
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(error);
  }
}
const auditOf = async (action: string) => getDb().select().from(auditLog).where(eq(auditLog.action, action as never));

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  a = await account("alice@example.com", "Alice Aardvark");
  b = await account("bob@example.com", "Bob Bobolink");
  expect(await saveTaxpayerRecord(a.id, sampleTaxpayer, Y)).toBe("created");
  await letterAccepted(admin, a, Y);
});

const caseA = () => ({ clientId: a.id, taxYear: Y });

async function approvedVersion(tag = "v1"): Promise<string> {
  const v = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received(`${tag}.pdf`, pdf(tag)) }, IP);
  if (!v.ok) throw new Error(v.error);
  const approved = await approveReturnVersion(a.actor, v.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });
  if (!approved.ok) throw new Error(approved.error);
  return v.versionId;
}

async function requested(versionId: string, joint = false): Promise<string> {
  const r = await requestSignature(
    preparer.actor,
    versionId,
    { formFile: await received("8879.pdf", pdf("8879")), jointReturn: joint, ...(joint ? { spouse: { name: "Meera  Kumar", email: "Meera@Example.com" } } : {}) },
    IP,
  );
  if (!r.ok) throw new Error(r.error);
  return r.requestId;
}

/** The last code e-mailed to `to`. */
async function lastCode(to: string): Promise<string> {
  const mail = (await mails()).filter((m) => m.to === to && m.subject.includes("signing code")).at(-1);
  const code = /^(\d{6})$/m.exec(mail?.text ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/** The spouse's signing link's token, from their e-mail (the first sent to `to`). */
async function spouseToken(to = "meera@example.com"): Promise<string> {
  const mail = (await mails()).find((m) => m.to === to);
  const token = /\/sign\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error("no signing link mailed to the spouse");
  return token;
}

const signing = (code: string, typedName = NAME) => ({
  code,
  typedName,
  consentVersion: CONSENT_VERSION,
  declarationVersion: DECLARATION_VERSION,
  timeZone: "America/New_York",
  ip: IP,
  userAgent: UA,
});

describe("signature requests", () => {
  it("attaches the form to the approved version with both hashes, and e-mails the taxpayer and the spouse their own link", async () => {
    const versionId = await approvedVersion();
    const requestId = await requested(versionId, true);
    const [request] = await getDb().select().from(signatureRequests);
    expect(request).toMatchObject({ id: requestId, authorizationForm: "8879", formSha256: sha256(pdf("8879")), returnSha256: sha256(pdf("v1")), jointReturn: true, requestedBy: preparer.id });
    const signers = await getDb().select().from(signatureSigners).orderBy(signatureSigners.role);
    expect(signers.map((s) => [s.role, s.name, s.email])).toEqual([
      ["spouse", "Meera Kumar", "meera@example.com"],
      ["taxpayer", NAME, "alice@example.com"],
    ]);
    const token = (await spouseToken());
    expect(signers[0]!.tokenHash).toBe(sha256(new TextEncoder().encode(token)));
    expect(signers[0]!.tokenHash).not.toContain(token);
    expect((await mails()).map((m) => [m.to, m.subject])).toEqual(
      expect.arrayContaining([
        ["alice@example.com", `Please sign the e-file authorisation of your ${Y} tax return`],
        ["meera@example.com", `Please sign the e-file authorisation of your ${Y} tax return`],
      ]),
    );
    expect((await auditOf("signature-requested")).map((e) => e.detail)).toEqual(["Form 8879 for version 1, taxpayer and spouse"]);
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-signature": 1 });
  });

  it("refuses a version not approved, not current, a second request, a form that is not a PDF, and a joint return without the spouse", async () => {
    const v = await uploadReturnVersion(preparer.actor, caseA(), { form: "4868", note: "", file: await received("v.pdf", pdf()) }, IP);
    if (!v.ok) throw new Error(v.error);
    const form = async () => received("8878.pdf", pdf("8878"));
    expect(await requestSignature(preparer.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notApproved });
    await approveReturnVersion(a.actor, v.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });
    expect(await requestSignature(preparer.actor, v.versionId, { formFile: await received("f.jpg", jpeg()), jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.formNotPdf });
    expect(await requestSignature(preparer.actor, v.versionId, { formFile: await form(), jointReturn: true }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.spouseRequired });
    expect(await requestSignature(preparer.actor, v.versionId, { formFile: await form(), jointReturn: true, spouse: { name: "M", email: "nope" } }, IP)).toEqual({
      ok: false,
      error: RETURN_MESSAGES.spouseEmail,
    });
    await expect(requestSignature(a.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP)).rejects.toThrow("Only staff may request a signature.");
    expect(await getDb().select().from(signatureRequests)).toEqual([]);
    const ok = await requestSignature(admin.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP);
    expect(ok.ok).toBe(true);
    expect((await getDb().select().from(signatureRequests))[0]?.authorizationForm).toBe("8878");
    expect(await requestSignature(admin.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.openRequest });
    await approvedVersion("v2");
    expect(await requestSignature(admin.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notCurrent });
  });
});

describe("cancelling a request", () => {
  it("staff cancel a request with a reason; the old links stop working; a new request sends the same form to a corrected address, without a new version or approval", async () => {
    const versionId = await approvedVersion();
    const first = await requested(versionId, true);
    const oldToken = await spouseToken();
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    // The taxpayer signs; the spouse's address was mistyped, so the spouse cannot.
    await startEmailCode({ client: a.actor, requestId: first }, IP);
    expect(await signWithEmailCode({ client: a.actor, requestId: first }, signing(await lastCode("alice@example.com")))).toMatchObject({ ok: true, authorised: false });

    await expect(cancelSignatureRequest(a.actor, first, "Wrong address", IP)).rejects.toThrow("Only staff may cancel a signature request.");
    expect(await cancelSignatureRequest(preparer.actor, first, "  ", IP)).toEqual({ ok: false, error: RETURN_MESSAGES.cancelReasonRequired });
    expect(await cancelSignatureRequest(preparer.actor, "nonsense", "Wrong address", IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchRequestForStaff });
    expect(await getDb().select().from(signatureRequestEvents)).toEqual([]);

    expect(await cancelSignatureRequest(preparer.actor, first, " The spouse's e-mail address was mistyped. ", IP)).toEqual({ ok: true });
    const [event] = await getDb().select().from(signatureRequestEvents);
    expect(event).toMatchObject({ requestId: first, kind: "cancelled", reason: "The spouse's e-mail address was mistyped.", actorId: preparer.id });
    expect((await auditOf("signature-request-cancelled")).map((e) => [e.actorId, e.detail])).toEqual([
      [preparer.id, expect.stringMatching(/^Form 8879 request of \d{4}-\d{2}-\d{2}: The spouse's e-mail address was mistyped\.$/)],
    ]);
    expect(await cancelSignatureRequest(preparer.actor, first, "again", IP)).toEqual({ ok: false, error: RETURN_MESSAGES.alreadyVoid });
    // The old link, and the taxpayer's way to the request, no longer work; the signature made stays.
    expect(await signerView({ token: oldToken })).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect(await startEmailCode({ token: oldToken }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect(await uploadHandwritten({ token: oldToken }, await received("scan.jpg", jpeg()), IP)).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect(await signerView({ client: a.actor, requestId: first })).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect(await getDb().select().from(signatures)).toHaveLength(1);
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-signature": 0 });

    // A new request on the same approved version, with no file: the same form, new links.
    const again = await requestSignature(preparer.actor, versionId, { formFile: null, jointReturn: true, spouse: { name: "Meera Kumar", email: "meera.kumar@example.com" } }, IP);
    if (!again.ok) throw new Error(again.error);
    const requests = await getDb().select().from(signatureRequests).orderBy(signatureRequests.createdAt);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatchObject({ id: again.requestId, versionId, formDocumentId: requests[0]!.formDocumentId, formSha256: sha256(pdf("8879")) });
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-signature": 1 });
    const newToken = await spouseToken("meera.kumar@example.com");
    expect(newToken).not.toBe(oldToken);
    expect(await signerView({ token: newToken })).toMatchObject({ ok: true, role: "spouse", requestId: again.requestId });
    expect(await signerView({ token: oldToken })).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect((await caseReturnTimeline(a.actor, caseA()))?.map((e) => e.kind)).toEqual([
      "version-uploaded",
      "approved",
      "signature-requested",
      "signed",
      "cancelled",
      "signature-requested",
    ]);
  });

  it("refuses to cancel a request every signer has signed", async () => {
    const requestId = await requested(await approvedVersion());
    const up = await uploadHandwritten({ client: a.actor, requestId }, await received("scan.jpg", jpeg()), IP);
    if (!up.ok) throw new Error(up.error);
    expect((await acceptHandwritten(admin.actor, up.uploadId, IP)).ok).toBe(true);
    expect(await cancelSignatureRequest(admin.actor, requestId, "Changed my mind", IP)).toEqual({ ok: false, error: RETURN_MESSAGES.cannotCancelSigned });
    expect((await getDb().select().from(signatureRequestEvents)).map((e) => e.kind)).toEqual(["authorised"]);
  });

  it("needs a file when no cancelled request of the version has a form to send again", async () => {
    const versionId = await approvedVersion();
    expect(await requestSignature(preparer.actor, versionId, { formFile: null, jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.formRequired });
    expect(await getDb().select().from(signatureRequests)).toEqual([]);
  });
});

describe("e-signature with an e-mailed code", () => {
  it("needs an identity check; with one, signs with the code and keeps what the IRS asks", async () => {
    const requestId = await requested(await approvedVersion());
    const me: SignerAccess = { client: a.actor, requestId };
    expect(await startEmailCode(me, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noIdCheck });
    expect(await signerView(me)).toMatchObject({ ok: true, role: "taxpayer", signing: { name: NAME, eSignature: false } });
    const check = await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    if (!check.ok) throw new Error(check.error);

    expect(await startEmailCode(me, IP)).toEqual({ ok: true, sentTo: "alice@example.com" });
    const code = await lastCode("alice@example.com");
    const [stored] = await getDb().select().from(signingCodes);
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    expect(await signWithEmailCode(me, signing(code, "Alice Aardvark"))).toEqual({ ok: false, error: RETURN_MESSAGES.nameMismatch });
    expect(await signWithEmailCode(me, { ...signing(code), timeZone: "Mars/Olympus" })).toEqual({ ok: false, error: RETURN_MESSAGES.badTimeZone });
    expect(await signWithEmailCode(me, { ...signing(code), consentVersion: "" })).toEqual({ ok: false, error: RETURN_MESSAGES.consentRequired });
    expect(await getDb().select().from(signatures)).toEqual([]);

    const signed = await signWithEmailCode(me, signing(code, "  ravi   KUMAR "));
    // Kept to the end of the day 3 years after the later of the due date and today, in New York.
    const retainUntil = newYorkDayStart(signatureRetainUntil(returnDueDate(Y, "1040-NR"), new Date()), 1);
    expect(signed).toMatchObject({ ok: true, authorised: true });
    const [signature] = await getDb().select().from(signatures);
    expect(signature).toMatchObject({
      requestId,
      signerRole: "taxpayer",
      signerName: "ravi KUMAR",
      method: "e-signature",
      timeZone: "America/New_York",
      ipAddress: IP,
      userAgent: UA,
      consentVersion: CONSENT_VERSION,
      declarationVersion: DECLARATION_VERSION,
      formSha256: sha256(pdf("8879")),
      returnSha256: sha256(pdf("v1")),
      idCheckId: check.idCheckId,
      retainUntil,
    });
    expect((await getDb().select().from(signatureRequestEvents)).map((e) => e.kind)).toEqual(["authorised"]);
    expect((await auditOf("return-signed")).map((e) => [e.actorId, e.detail])).toEqual([[a.id, "Form 8879, e-signature by the taxpayer"]]);
    expect(await auditOf("return-authorised")).toHaveLength(1);
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-signature": 0 });
    // The code worked once: the signer has signed.
    expect(await signWithEmailCode(me, signing(code))).toEqual({ ok: false, error: RETURN_MESSAGES.alreadySigned });
    expect(await startEmailCode(me, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.alreadySigned });
    // The signed copy was made once the signature committed: the form, stamped, with a certificate
    // listing the record, kept as a record of the return with its SHA-256.
    const [copy] = await getDb().select().from(signedAuthorizations);
    expect(copy).toMatchObject({ requestId });
    const signedPdf = await getStorage().get(copy!.storageKey);
    expect(sha256(signedPdf)).toBe(copy!.sha256);
    const [copyDoc] = await getDb().select().from(documents).where(eq(documents.storageKey, copy!.storageKey));
    expect(copyDoc).toMatchObject({ returnRecord: "signed-authorization", originalName: `Form 8879 ${Y} signed.pdf` });
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(signedPdf)), { mergePages: true });
    for (const expected of ["Signature certificate", "ravi KUMAR", sha256(pdf("8879")), sha256(pdf("v1")), IP])
      expect(text.replace(/\s+/g, "")).toContain(expected.replace(/\s+/g, ""));
    expect(await ensureSignedAuthorization(requestId)).toEqual({ documentId: copyDoc!.id, sha256: copy!.sha256 });
    expect(await getDb().select().from(signedAuthorizations)).toHaveLength(1);
    expect((await caseReturnTimeline(a.actor, caseA()))?.map((e) => e.kind)).toEqual(["version-uploaded", "approved", "signature-requested", "signed", "authorised"]);
  });

  it("refuses a consent or a declaration other than the current one, with a clear message, signing nothing", async () => {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    const me: SignerAccess = { client: a.actor, requestId };
    await startEmailCode(me, IP);
    const code = await lastCode("alice@example.com");
    for (const consentVersion of ["esign-1", "esign-consent-2020-01-01", `${CONSENT_VERSION}x`])
      expect(await signWithEmailCode(me, { ...signing(code), consentVersion })).toEqual({ ok: false, error: RETURN_MESSAGES.consentOutdated });
    expect(RETURN_MESSAGES.consentOutdated).toBe(
      "The consent to sign electronically has changed since this page was opened. Nothing was signed: reload the page, read the consent and sign again.",
    );
    for (const declarationVersion of ["", "authorization-declaration-2020-01-01"])
      expect(await signWithEmailCode(me, { ...signing(code), declarationVersion })).toEqual({ ok: false, error: RETURN_MESSAGES.declarationOutdated });
    expect(await getDb().select().from(signatures)).toEqual([]);
    // No try was spent: the code still signs.
    expect(await signWithEmailCode(me, signing(code))).toMatchObject({ ok: true });
    const [signature] = await getDb().select().from(signatures);
    expect(signature).toMatchObject({ consentVersion: CONSENT_VERSION, declarationVersion: DECLARATION_VERSION });
  });

  it("compares the typed name with the name fixed on the request, not with the taxpayer information edited since", async () => {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    const me: SignerAccess = { client: a.actor, requestId };
    // After the request, the client changes the name in their taxpayer information.
    expect(await saveTaxpayerRecord(a.id, { ...sampleTaxpayer, name_as_per_ssn: "Someone", last_name: "Else" }, Y)).toBe("updated");
    await startEmailCode(me, IP);
    const code = await lastCode("alice@example.com");
    expect(await signWithEmailCode(me, signing(code, "Someone Else"))).toEqual({ ok: false, error: RETURN_MESSAGES.nameMismatch });
    expect(await signWithEmailCode(me, signing(code, NAME))).toMatchObject({ ok: true });
    expect((await getDb().select().from(signatures))[0]).toMatchObject({ signerName: NAME });
  });

  it("refuses a wrong code (spending a try), an expired one, a replaced one, and every code after too many tries", async () => {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    const me: SignerAccess = { client: a.actor, requestId };

    await startEmailCode(me, IP);
    const first = (await lastCode("alice@example.com"));
    const wrong = first === "000000" ? "111111" : "000000";
    expect(await signWithEmailCode(me, signing(wrong))).toEqual({ ok: false, error: RETURN_MESSAGES.codeWrong });
    expect((await getDb().select().from(signingCodes))[0]?.attempts).toBe(1);

    await getDb().update(signingCodes).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await signWithEmailCode(me, signing(first))).toEqual({ ok: false, error: RETURN_MESSAGES.codeExpired });

    await startEmailCode(me, IP);
    const second = (await lastCode("alice@example.com"));
    if (second !== first) expect(await signWithEmailCode(me, signing(first))).toEqual({ ok: false, error: RETURN_MESSAGES.codeWrong });
    await getDb().update(signingCodes).set({ attempts: 0 });
    const other = second === "000000" ? "111111" : "000000";
    for (let i = 1; i < SIGNING_CODE_TRIES; i++) expect(await signWithEmailCode(me, signing(other))).toEqual({ ok: false, error: RETURN_MESSAGES.codeWrong });
    expect(await signWithEmailCode(me, signing(other))).toEqual({ ok: false, error: RETURN_MESSAGES.codeTooManyTries });
    expect(await signWithEmailCode(me, signing(second))).toEqual({ ok: false, error: RETURN_MESSAGES.codeTooManyTries });
    expect(await getDb().select().from(signatures)).toEqual([]);
  });

  it("limits how many codes a signer may ask for", async () => {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    const me: SignerAccess = { client: a.actor, requestId };
    for (let i = 0; i < 5; i++) expect((await startEmailCode(me, IP)).ok).toBe(true);
    expect(await startEmailCode(me, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.tooManyCodes });
    expect(await auditOf("signing-code-sent")).toHaveLength(5);
  });

  it("refuses another client, and lets the spouse sign with their own link only while it is valid", async () => {
    const requestId = await requested(await approvedVersion(), true);
    expect(await startEmailCode({ client: b.actor, requestId }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchRequest });
    expect(await signerView({ client: b.actor, requestId })).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchRequest });
    expect(await startEmailCode({ client: admin.actor, requestId }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchRequest });
    const token = (await spouseToken());
    expect(await signerView({ token: `${token}x` })).toEqual({ ok: false, error: RETURN_MESSAGES.badLink });
    expect(await startEmailCode({ token: "" }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badLink });
    expect(await signerView({ token })).toMatchObject({ ok: true, role: "spouse", signing: { name: "Meera Kumar", eSignature: false } });

    await recordIdCheck(preparer.actor, caseA(), "spouse", idCheck, IP);
    expect(await startEmailCode({ token }, IP)).toEqual({ ok: true, sentTo: "meera@example.com" });
    const code = (await lastCode("meera@example.com"));
    expect(await signWithEmailCode({ token }, signing(code, NAME))).toEqual({ ok: false, error: RETURN_MESSAGES.nameMismatch });
    const spouseSigned = await signWithEmailCode({ token }, signing(code, "meera kumar"));
    // The taxpayer has not signed yet: not authorised.
    expect(spouseSigned).toMatchObject({ ok: true, authorised: false });
    expect((await auditOf("return-signed")).map((e) => [e.actorId, e.detail])).toEqual([[null, "Form 8879, e-signature by the spouse, Meera Kumar"]]);

    await getDb().update(signatureSigners).set({ tokenExpiresAt: new Date(Date.now() - 1000) }).where(eq(signatureSigners.role, "spouse"));
    expect(await signerView({ token })).toEqual({ ok: false, error: RETURN_MESSAGES.badLink });
  });
});

describe("hand-signed forms", () => {
  it("takes a scan from the signer; staff accept it (a handwritten signature) or send it back with a reason", async () => {
    const requestId = await requested(await approvedVersion());
    const me: SignerAccess = { client: a.actor, requestId };
    expect(await uploadHandwritten(me, await received("notes.docx", pdf()), IP)).toMatchObject({ ok: false });
    expect(await uploadHandwritten({ client: b.actor, requestId }, await received("scan.jpg", jpeg()), IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchRequest });
    expect(await getDb().select().from(handwrittenUploads)).toEqual([]);

    const first = await uploadHandwritten(me, await received("scan.jpg", jpeg()), IP);
    if (!first.ok) throw new Error(first.error);
    expect(await returnHandwritten(preparer.actor, first.uploadId, " ", IP)).toEqual({ ok: false, error: RETURN_MESSAGES.reasonRequired });
    expect(await returnHandwritten(preparer.actor, first.uploadId, "The signature line is cut off.", IP)).toEqual({ ok: true });
    expect(await acceptHandwritten(preparer.actor, first.uploadId, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchUpload });
    await expect(acceptHandwritten(a.actor, first.uploadId, IP)).rejects.toThrow("Only staff may accept a signed form.");

    const second = await uploadHandwritten(me, await received("signed.pdf", pdf("signed")), IP);
    if (!second.ok) throw new Error(second.error);
    const accepted = await acceptHandwritten(admin.actor, second.uploadId, IP);
    expect(accepted).toMatchObject({ ok: true, authorised: true });
    const [signature] = await getDb().select().from(signatures);
    expect(signature).toMatchObject({ method: "handwritten", signerName: NAME, idCheckId: null, handwrittenUploadId: second.uploadId, formSha256: sha256(pdf("8879")) });
    expect((await getDb().select().from(handwrittenUploads)).map((u) => [u.decision, u.reason])).toEqual(
      expect.arrayContaining([
        ["returned", "The signature line is cut off."],
        ["accepted", null],
      ]),
    );
  });
});

describe("the records are kept by the database", () => {
  it("refuses an UPDATE and a DELETE of a signature, and of the other records, through SQL", async () => {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    await startEmailCode({ client: a.actor, requestId }, IP);
    await signWithEmailCode({ client: a.actor, requestId }, signing((await lastCode("alice@example.com"))));

    expect(await answer(getDb().execute(sql`update signatures set signer_name = 'Someone Else'`))).toBe("signatures is append-only: UPDATE refused");
    expect(await answer(getDb().execute(sql`delete from signatures`))).toMatch(/^signatures are kept until .+: DELETE refused$/);
    for (const [table, column] of [
      ["return_reviews", "created_at"],
      ["id_checks", "checked_at"],
      ["signature_requests", "created_at"],
      ["signature_request_events", "created_at"],
    ] as const) {
      expect(await answer(getDb().execute(sql.raw(`update ${table} set ${column} = now()`)))).toBe(`${table} is append-only: UPDATE refused`);
      expect(await answer(getDb().execute(sql.raw(`delete from ${table}`)))).toBe(`${table} is append-only: DELETE refused`);
    }
    expect(await getDb().select().from(signatures)).toHaveLength(1);
  });

  it("refuses a TRUNCATE of every kept record while it holds rows, directly or by cascade", async () => {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    await startEmailCode({ client: a.actor, requestId }, IP);
    expect(await signWithEmailCode({ client: a.actor, requestId }, signing(await lastCode("alice@example.com")))).toMatchObject({ ok: true, authorised: true });
    await sentInvoice(a.id, Y, 29_900);
    const tables = ["signatures", "signature_requests", "signature_request_events", "signed_authorizations", "id_checks", "return_reviews", "audit_log", "invoices"];
    const rowsOf = async () =>
      Promise.all(tables.map(async (t) => Number(((await getDb().execute(sql.raw(`select count(*) as n from ${t}`))) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n)));
    const before = await rowsOf();
    expect(before.every((n) => n > 0)).toBe(true);
    for (const table of tables) expect(await answer(getDb().execute(sql.raw(`truncate ${table} cascade`)))).toMatch(/^\w+ rows are kept: TRUNCATE refused$/);
    expect(await answer(getDb().execute(sql`truncate signatures`))).toBe("signatures rows are kept: TRUNCATE refused");
    expect(await answer(getDb().execute(sql`truncate client_cases cascade`))).toMatch(/ rows are kept: TRUNCATE refused$/);
    expect(await rowsOf()).toEqual(before);
    // An empty kept table loses nothing: it may be truncated.
    expect(await answer(getDb().execute(sql`truncate final_copies`))).toBe("done");
  });

  it("lets a signature go once its retain-until has passed", async () => {
    const requestId = await requested(await approvedVersion());
    const [signer] = await getDb().select().from(signatureSigners);
    await getDb().execute(sql`insert into signatures (request_id, signer_id, client_id, tax_year, signer_role, signer_name, method, form_sha256, return_sha256, retain_until)
      values (${requestId}, ${signer!.id}, ${a.id}, ${Y}, 'taxpayer', 'Ravi Kumar', 'handwritten', 'f', 'r', now() - interval '1 day')`);
    await getDb().execute(sql`delete from signatures`);
    expect(await getDb().select().from(signatures)).toEqual([]);
  });
});

describe("voiding and the IRS tolerances", () => {
  async function signedRequest(): Promise<string> {
    const requestId = await requested(await approvedVersion());
    await recordIdCheck(admin.actor, caseA(), "taxpayer", idCheck, IP);
    await startEmailCode({ client: a.actor, requestId }, IP);
    const signed = await signWithEmailCode({ client: a.actor, requestId }, signing((await lastCode("alice@example.com"))));
    if (!signed.ok) throw new Error(signed.error);
    return requestId;
  }

  it("voids the signed request when a new version comes, as an event, leaving the signatures as they were", async () => {
    const requestId = await signedRequest();
    const before = await getDb().select().from(signatures);
    const v2 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    expect(v2).toMatchObject({ ok: true, voidedRequests: 1 });
    expect((await getDb().select().from(signatureRequestEvents).orderBy(signatureRequestEvents.createdAt)).map((e) => e.kind)).toEqual(["authorised", "voided"]);
    expect(await getDb().select().from(signatures)).toEqual(before);
    expect(await signerView({ client: a.actor, requestId })).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect((await auditOf("signature-request-voided")).map((e) => e.detail)).toEqual([expect.stringMatching(/^Form 8879 request of \d{4}-\d{2}-\d{2}, by version 2$/)]);
  });

  it("keeps the request when staff declare the change within the tolerances, and refuses a change beyond them", async () => {
    const requestId = await signedRequest();
    const v2 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    if (!v2.ok) throw new Error(v2.error);
    const small = { incomeOrAgiCents: 5_000, taxCents: -1_400, withholdingCents: 0, refundOrOwedCents: 1_400 };
    expect(await declareWithinTolerance(preparer.actor, v2.versionId, { ...small, incomeOrAgiCents: 5_001 }, IP)).toEqual({
      ok: false,
      error: "The change is beyond the IRS tolerances (income or AGI by more than $50): the taxpayer must sign again.",
    });
    expect(await declareWithinTolerance(preparer.actor, v2.versionId, { ...small, taxCents: 1_401, refundOrOwedCents: -2_000 }, IP)).toEqual({
      ok: false,
      error: "The change is beyond the IRS tolerances (total tax by more than $14; the refund or amount owed by more than $14): the taxpayer must sign again.",
    });
    expect(await declareWithinTolerance(preparer.actor, v2.versionId, { ...small, taxCents: 0.5 }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badCents });
    await expect(declareWithinTolerance(a.actor, v2.versionId, small, IP)).rejects.toThrow("Only staff may");
    expect(await auditOf("tolerance-declared")).toEqual([]);

    expect(await declareWithinTolerance(admin.actor, v2.versionId, small, IP)).toEqual({ ok: true, requestId });
    const events = await getDb().select().from(signatureRequestEvents).orderBy(signatureRequestEvents.createdAt);
    expect(events.map((e) => e.kind)).toEqual(["authorised", "voided", "within-tolerance"]);
    expect(events[2]).toMatchObject({ versionId: v2.versionId, incomeCents: 5_000, taxCents: -1_400, withholdingCents: 0, refundOrOwedCents: 1_400, actorId: admin.id });
    expect((await auditOf("tolerance-declared")).map((e) => e.detail)).toEqual([
      "version 2 against version 1, the one signed: income/AGI $50.00, tax $14.00, withholding $0.00, refund or owed $14.00",
    ]);
    expect(await declareWithinTolerance(admin.actor, v2.versionId, small, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notVoided });
    expect((await caseReturnTimeline(a.actor, caseA()))?.map((e) => e.kind)).not.toContain("within-tolerance");
    expect((await caseReturnTimeline(admin.actor, caseA()))?.map((e) => e.kind)).toContain("within-tolerance");
  });

  it("compares with the version that was signed, not the last one: a declaration on a later version keeps the signature", async () => {
    const requestId = await signedRequest();
    const v2 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    const v3 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v3.pdf", pdf("v3")) }, IP);
    if (!v2.ok || !v3.ok) throw new Error("no version");
    expect(v3.voidedRequests).toBe(0);
    const small = { incomeOrAgiCents: 2_000, taxCents: 0, withholdingCents: 0, refundOrOwedCents: 0 };
    expect(await declareWithinTolerance(admin.actor, v2.versionId, small, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notCurrent });
    expect(await declareWithinTolerance(admin.actor, v3.versionId, small, IP)).toEqual({ ok: true, requestId });
    expect((await auditOf("tolerance-declared")).map((e) => e.detail)).toEqual([expect.stringMatching(/^version 3 against version 1, the one signed: /)]);
    expect(await signerView({ client: a.actor, requestId })).toEqual({ ok: false, error: RETURN_MESSAGES.alreadySigned });
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-signature": 0 });
    // The client reads that the signature stands.
    const voided = (await caseReturnTimeline(a.actor, caseA()))?.filter((e) => e.kind === "voided");
    expect(voided).toEqual([expect.objectContaining({ kept: true, versionNumber: 2 })]);
  });

  it("refuses a declaration when the last request holds already, or was cancelled", async () => {
    const requestId = await signedRequest();
    const zero = { incomeOrAgiCents: 0, taxCents: 0, withholdingCents: 0, refundOrOwedCents: 0 };
    const v2 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    if (!v2.ok) throw new Error(v2.error);
    expect(await declareWithinTolerance(admin.actor, v2.versionId, zero, IP)).toMatchObject({ ok: true, requestId });
    // Kept: it holds, there is nothing to keep.
    expect(await declareWithinTolerance(admin.actor, v2.versionId, zero, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notVoided });
    // A later request, cancelled, replaced it: the signature of version 1 is no longer the one to keep.
    const v3 = await approvedVersion("v3");
    const later = await requested(v3);
    expect((await cancelSignatureRequest(admin.actor, later, "Not needed", IP)).ok).toBe(true);
    const v4 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v4.pdf", pdf("v4")) }, IP);
    if (!v4.ok) throw new Error(v4.error);
    expect(await declareWithinTolerance(admin.actor, v4.versionId, zero, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.notVoided });
  });

  it("refuses a declaration for a request that was never signed in full", async () => {
    await requested(await approvedVersion());
    const v2 = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    if (!v2.ok) throw new Error(v2.error);
    expect(await declareWithinTolerance(admin.actor, v2.versionId, { incomeOrAgiCents: 0, taxCents: 0, withholdingCents: 0, refundOrOwedCents: 0 }, IP)).toEqual({
      ok: false,
      error: RETURN_MESSAGES.notSigned,
    });
  });
});
