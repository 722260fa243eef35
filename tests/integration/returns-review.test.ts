import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { caseState } from "~/server/cases/cases.server";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, caseMessages, documents, idChecks, returnReviews, returnVersions, signatureRequestEvents } from "~/server/db/schema";
import { removeDocuments, setDocumentsShared } from "~/server/documents/changes.server";
import { listCaseDocuments, listOwnDocuments } from "~/server/documents/listing.server";
import { recordIdCheck } from "~/server/returns/id-checks.server";
import { acceptHandwritten, uploadHandwritten } from "~/server/returns/handwritten.server";
import { approveReturnVersion, CHANGES_ASKED_REASON, requestReturnChanges } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { signerView } from "~/server/returns/signer-view.server";
import { caseReturnTimeline, listCasesInReturnFilter, returnFilterCounts } from "~/server/returns/timeline.server";
import { currentReturnVersion, listReturnVersions, returnVersionFile, uploadReturnVersion } from "~/server/returns/versions.server";
import { atMoment } from "../helpers/clock";
import { account, dayFromToday, IP, jpeg, pdf, received, sha256, UA } from "../helpers/returns";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { sentMail } from "./helpers";

// The draft return's versions, the client's review and the identity checks, called as the
// routes will call them: two clients (Alice, Bob), an admin and a preparer.

const Y = currentFilingYear();
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).length : 0);
const count = async (table: typeof returnVersions | typeof returnReviews | typeof idChecks | typeof documents) =>
  (await getDb().select({ n: sql<number>`count(*)`.mapWith(Number) }).from(table))[0]!.n;
const actions = async (action: string) =>
  (await getDb().select({ detail: auditLog.detail, actorId: auditLog.actorId }).from(auditLog).where(eq(auditLog.action, action as never)).orderBy(auditLog.id));

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

async function upload(who: Account, tag: string, form = "1040-NR", note = "Please review") {
  return uploadReturnVersion(who.actor, caseA(), { form, note, file: await received(`${tag}.pdf`, pdf(tag)) }, IP);
}

async function uploaded(tag: string) {
  const result = await upload(preparer, tag);
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe("return versions", () => {
  it("stores each upload as a new version with the SHA-256 of the stored bytes, superseding the last", async () => {
    const first = await uploaded("v1");
    const second = await uploadReturnVersion(admin.actor, caseA(), { form: "1040-NR", note: "  Fixed the W-2 line  ", file: await received("v2.pdf", pdf("v2")) }, IP);
    expect(second).toMatchObject({ ok: true, number: 2, voidedRequests: 0 });
    expect(first.number).toBe(1);

    const versions = await listReturnVersions(preparer.actor, caseA());
    expect(versions.map((v) => [v.number, v.superseded, v.sha256, v.note, v.form])).toEqual([
      [2, false, sha256(pdf("v2")), "Fixed the W-2 line", "1040-NR"],
      [1, true, sha256(pdf("v1")), "Please review", "1040-NR"],
    ]);
    expect(await currentReturnVersion(a.id, Y)).toMatchObject({ number: 2, fileName: "v2.pdf", superseded: false, approvedAt: null });
    expect(await currentReturnVersion(b.id, Y)).toBeNull();
    expect((await actions("return-version-uploaded")).map((e) => e.detail)).toEqual([
      expect.stringMatching(/^Form 1040-NR, version 1 \(SHA-256 [0-9a-f]{12}…\)$/),
      expect.stringMatching(/^Form 1040-NR, version 2 /),
    ]);
  });

  it("keeps a version's file among the case's documents for staff, out of the client's list, and beyond removal or sharing", async () => {
    await uploaded("v1");
    const [doc] = await listCaseDocuments(admin.actor, a.id, Y);
    expect(doc).toMatchObject({ name: "v1.pdf", sharedAt: null });
    expect(await listOwnDocuments(a.id, Y)).toEqual([]);
    expect(await setDocumentsShared(admin.actor, { clientId: a.id, taxYear: Y, documentIds: [doc!.id], shared: true }, IP)).toEqual([]);
    expect(await removeDocuments(admin.actor, { clientId: a.id, taxYear: Y, documentIds: [doc!.id] }, IP)).toBe(0);
    expect(await listOwnDocuments(a.id, Y)).toEqual([]);
    expect(await count(documents)).toBe(1);
  });

  it("gives the client the current version's file only, and nobody else's", async () => {
    const first = await uploaded("v1");
    const second = await uploaded("v2");
    // The client's copy is stamped DRAFT (tests/unit/draft-pdf.test.ts) and named as a draft.
    const mine = await returnVersionFile(a.actor, second.versionId, Y);
    if (!mine || mine === "waits-for-fee") throw new Error("no draft for the client");
    expect(mine).toMatchObject({ name: RETURN_FILE_NAMES.draft("1040-NR", Y, 2), contentType: "application/pdf" });
    expect(mine.size).not.toBe(pdf("v2").byteLength);
    await mine.body.cancel();
    expect(await returnVersionFile(a.actor, first.versionId, Y)).toBeNull();
    expect(await returnVersionFile(a.actor, second.versionId, Y - 1)).toBeNull();
    expect(await returnVersionFile(b.actor, second.versionId, Y)).toBeNull();
    expect(await returnVersionFile(a.actor, "not-an-id", Y)).toBeNull();
    // Staff get the version as uploaded.
    const staffCopy = await returnVersionFile(preparer.actor, first.versionId, null);
    if (!staffCopy || staffCopy === "waits-for-fee") throw new Error("no version for staff");
    expect(staffCopy).toMatchObject({ name: "v1.pdf", size: pdf("v1").byteLength });
    await staffCopy.body.cancel();
  });

  it("refuses bad input with a clear message and keeps nothing", async () => {
    expect(await upload(preparer, "x", "1041")).toEqual({ ok: false, error: RETURN_MESSAGES.badForm });
    expect(await upload(preparer, "x", "1040", "n".repeat(2001))).toEqual({ ok: false, error: RETURN_MESSAGES.noteTooLong });
    expect(await uploadReturnVersion(preparer.actor, caseA(), { form: "1040", note: "", file: await received("scan.jpg", jpeg()) }, IP)).toEqual({
      ok: false,
      error: RETURN_MESSAGES.notPdf,
    });
    const fake = await uploadReturnVersion(preparer.actor, caseA(), { form: "1040", note: "", file: await received("fake.pdf", jpeg()) }, IP);
    expect(fake).toEqual({ ok: false, error: "fake.pdf: the file's content is not a real PDF" });
    expect(await uploadReturnVersion(preparer.actor, { clientId: a.id, taxYear: Y - 2 }, { form: "1040", note: "", file: await received("v.pdf", pdf()) }, IP)).toEqual({
      ok: false,
      error: RETURN_MESSAGES.noSuchCase,
    });
    await expect(upload(a, "mine")).rejects.toThrow("Only staff may upload a draft return.");
    await expect(listReturnVersions(a.actor, caseA())).rejects.toThrow("Only staff may");
    expect(await count(returnVersions)).toBe(0);
    expect(await count(documents)).toBe(0);
    expect(storedFiles()).toBe(0);
    expect(await actions("return-version-uploaded")).toEqual([]);
  });
});

describe("the client's review", () => {
  const where = { ip: IP, userAgent: UA };

  it("records an approval with the version's hash, time, IP, user agent and declaration, and ticks DRAFT with its audit entry and e-mail", async () => {
    // The case is at DRAFT: the stages before it are done.
    await getDb().execute(sql`update client_cases set home = true, taxinfo = true, documents = true, preparation = true, current_stage = 'draft' where user_id = ${a.id}`);
    const v = await uploaded("v1");
    const before = new Date();
    const result = await approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "approval-2025-1" });
    expect(result.ok).toBe(true);
    const [review] = await getDb().select().from(returnReviews);
    expect(review).toMatchObject({
      versionId: v.versionId,
      reviewerId: a.id,
      decision: "approved",
      returnSha256: sha256(pdf("v1")),
      declarationVersion: "approval-2025-1",
      ipAddress: IP,
      userAgent: UA,
    });
    expect(review!.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const state = await caseState(a.id, Y);
    expect(state).toMatchObject({ stage: "payment", flags: { draft: true, payment: false } });
    expect((await actions("return-approved")).map((e) => [e.actorId, e.detail])).toEqual([[a.id, "version 1 (declaration approval-2025-1)"]]);
    expect((await actions("workflow-saved")).map((e) => e.detail)).toEqual([expect.stringContaining("; the client approved the draft")]);
    expect((await sentMail()).map((m) => [m.to, m.subject])).toContainEqual(["alice@example.com", `An update on your ${Y} tax filing`]);
    expect(await currentReturnVersion(a.id, Y)).toMatchObject({ approvedAt: review!.createdAt.toISOString() });
  });

  it("stores the approval and the DRAFT flag in one transaction: when the flag cannot be stored, neither is", async () => {
    const v = await uploaded("v1");
    await getDb().execute(sql`create function refuse_case_update() returns trigger as $$ begin raise exception 'refused for the test'; end; $$ language plpgsql`);
    await getDb().execute(sql`create trigger refuse_case_update before update on client_cases for each row execute function refuse_case_update()`);
    try {
      await expect(approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "d1" })).rejects.toThrow();
    } finally {
      await getDb().execute(sql`drop trigger refuse_case_update on client_cases`);
      await getDb().execute(sql`drop function refuse_case_update()`);
    }
    expect(await count(returnReviews)).toBe(0);
    expect(await actions("return-approved")).toEqual([]);
    expect((await caseState(a.id, Y))?.flags.draft).toBe(false);
  });

  it("lets only the case's own client approve, only the current version, once; a new version needs a new approval", async () => {
    const v1 = await uploaded("v1");
    expect(await approveReturnVersion(b.actor, v1.versionId, { ...where, declarationVersion: "d1" })).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchVersion });
    expect(await approveReturnVersion(admin.actor, v1.versionId, { ...where, declarationVersion: "d1" })).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchVersion });
    expect(await approveReturnVersion(a.actor, "nonsense", { ...where, declarationVersion: "d1" })).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchVersion });
    expect(await approveReturnVersion(a.actor, v1.versionId, { ...where, declarationVersion: " " })).toEqual({ ok: false, error: RETURN_MESSAGES.declarationRequired });
    expect(await count(returnReviews)).toBe(0);

    expect((await approveReturnVersion(a.actor, v1.versionId, { ...where, declarationVersion: "d1" })).ok).toBe(true);
    expect(await approveReturnVersion(a.actor, v1.versionId, { ...where, declarationVersion: "d1" })).toEqual({ ok: false, error: RETURN_MESSAGES.alreadyApproved });
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-approval": 0 });

    const v2 = await uploaded("v2");
    expect(await currentReturnVersion(a.id, Y)).toMatchObject({ number: 2, approvedAt: null });
    expect(await approveReturnVersion(a.actor, v1.versionId, { ...where, declarationVersion: "d1" })).toEqual({ ok: false, error: RETURN_MESSAGES.superseded });
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-approval": 1 });
    expect((await listCasesInReturnFilter(preparer.actor, Y, "awaiting-approval")).map((c) => c.name)).toEqual(["Alice Aardvark"]);
    expect((await approveReturnVersion(a.actor, v2.versionId, { ...where, declarationVersion: "d1" })).ok).toBe(true);
    expect(await count(returnReviews)).toBe(2);
  });

  it("posts a request for changes in the case's messages and records the review", async () => {
    const v = await uploaded("v1");
    const result = await requestReturnChanges(a.actor, v.versionId, "  The bank interest is missing.  ", where);
    if (!result.ok) throw new Error(result.error);
    const [message] = await getDb().select().from(caseMessages).where(and(eq(caseMessages.clientId, a.id), eq(caseMessages.taxYear, Y)));
    expect(message).toMatchObject({ id: result.messageId, fromClient: true, body: "Changes to the draft return (version 1): The bank interest is missing." });
    const [review] = await getDb().select().from(returnReviews);
    expect(review).toMatchObject({ decision: "changes-requested", messageId: result.messageId, returnSha256: sha256(pdf("v1")), declarationVersion: null });
    expect((await actions("return-changes-requested")).map((e) => e.detail)).toEqual(["version 1"]);
    // Asking for changes is not an approval: DRAFT stays open, and the case no longer waits on the client.
    expect((await caseState(a.id, Y))?.flags.draft).toBe(false);
    expect(await returnFilterCounts(admin.actor, Y)).toMatchObject({ "awaiting-approval": 0 });
  });

  it("withdraws the approval when the client asks for changes after approving: staff cannot request a signature until they approve again", async () => {
    const v = await uploaded("v1");
    expect((await approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "d1" })).ok).toBe(true);
    const asked = await requestReturnChanges(a.actor, v.versionId, "I found a missing 1099-INT.", where);
    expect(asked.ok).toBe(true);
    // Both reviews are kept; the latest decides.
    expect((await getDb().select().from(returnReviews).orderBy(returnReviews.createdAt)).map((r) => r.decision)).toEqual(["approved", "changes-requested"]);
    expect(await currentReturnVersion(a.id, Y)).toMatchObject({ approvedAt: null });
    expect((await actions("return-changes-requested")).map((e) => e.detail)).toEqual(["version 1, withdrawing its approval"]);
    const form = async () => received("8879.pdf", pdf("8879"));
    expect(await requestSignature(preparer.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.approvalWithdrawn });
    expect(await requestSignature(preparer.actor, v.versionId, { formFile: null, jointReturn: false }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.approvalWithdrawn });
    // The client approves the same version again: the request may be made.
    expect((await approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "d1" })).ok).toBe(true);
    expect(await approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "d1" })).toEqual({ ok: false, error: RETURN_MESSAGES.alreadyApproved });
    expect(await currentReturnVersion(a.id, Y)).toMatchObject({ approvedAt: expect.any(String) });
    expect((await requestSignature(preparer.actor, v.versionId, { formFile: await form(), jointReturn: false }, IP)).ok).toBe(true);
  });

  it("cancels a request waiting for signatures when the client asks for changes, and refuses once every signer has signed", async () => {
    const v = await uploaded("v1");
    await approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "d1" });
    const r = await requestSignature(preparer.actor, v.versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: false }, IP);
    if (!r.ok) throw new Error(r.error);
    expect((await signerView({ client: a.actor, requestId: r.requestId })).ok).toBe(true);
    expect((await requestReturnChanges(a.actor, v.versionId, "The address is wrong.", where)).ok).toBe(true);
    const [event] = await getDb().select().from(signatureRequestEvents);
    expect(event).toMatchObject({ requestId: r.requestId, kind: "cancelled", reason: CHANGES_ASKED_REASON, actorId: a.id });
    expect(await signerView({ client: a.actor, requestId: r.requestId })).toEqual({ ok: false, error: RETURN_MESSAGES.requestVoid });
    expect((await actions("signature-request-cancelled")).map((e) => [e.actorId, e.detail])).toEqual([[a.id, expect.stringMatching(/: The client asked for changes to the draft\.$/)]]);

    // Approved again and signed by hand: now a request for changes is refused, and nothing is stored.
    await approveReturnVersion(a.actor, v.versionId, { ...where, declarationVersion: "d1" });
    const again = await requestSignature(preparer.actor, v.versionId, { formFile: null, jointReturn: false }, IP);
    if (!again.ok) throw new Error(again.error);
    const up = await uploadHandwritten({ client: a.actor, requestId: again.requestId }, await received("scan.jpg", jpeg()), IP);
    if (!up.ok) throw new Error(up.error);
    expect((await acceptHandwritten(admin.actor, up.uploadId, IP)).ok).toBe(true);
    const messagesBefore = await getDb().select().from(caseMessages);
    expect(await requestReturnChanges(a.actor, v.versionId, "One more thing.", where)).toEqual({ ok: false, error: RETURN_MESSAGES.changesAfterSigning });
    expect(await getDb().select().from(caseMessages)).toEqual(messagesBefore);
    expect(await currentReturnVersion(a.id, Y)).toMatchObject({ approvedAt: expect.any(String) });
  });

  it("stores the request for changes and its message in one transaction: when the review cannot be stored, the message is not either", async () => {
    const v = await uploaded("v1");
    await getDb().execute(sql`create function refuse_review_insert() returns trigger as $$ begin raise exception 'refused for the test'; end; $$ language plpgsql`);
    await getDb().execute(sql`create trigger refuse_review_insert before insert on return_reviews for each row execute function refuse_review_insert()`);
    try {
      await expect(requestReturnChanges(a.actor, v.versionId, "The bank interest is missing.", where)).rejects.toThrow();
    } finally {
      await getDb().execute(sql`drop trigger refuse_review_insert on return_reviews`);
      await getDb().execute(sql`drop function refuse_review_insert()`);
    }
    expect(await getDb().select().from(caseMessages)).toEqual([]);
    expect(await count(returnReviews)).toBe(0);
    expect(await actions("message-sent")).toEqual([]);
    expect(await actions("return-changes-requested")).toEqual([]);
  });

  it("refuses an empty or too long comment and another client's version, posting nothing", async () => {
    const v = await uploaded("v1");
    expect(await requestReturnChanges(a.actor, v.versionId, "   ", where)).toEqual({ ok: false, error: RETURN_MESSAGES.commentRequired });
    expect(await requestReturnChanges(a.actor, v.versionId, "x".repeat(2001), where)).toEqual({ ok: false, error: RETURN_MESSAGES.commentTooLong });
    expect(await requestReturnChanges(b.actor, v.versionId, "Change it", where)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchVersion });
    expect(await getDb().select().from(caseMessages)).toEqual([]);
    expect(await count(returnReviews)).toBe(0);
  });
});

describe("identity checks", () => {
  const good = { documentType: "passport", issuingCountry: "in", expiresOn: dayFromToday(400), numberLast4: "a123", how: "live-video" };

  it("records who checked which ID, when and how, per tax year and signer", async () => {
    const result = await recordIdCheck(preparer.actor, caseA(), "spouse", good, IP);
    expect(result.ok).toBe(true);
    const [row] = await getDb().select().from(idChecks);
    expect(row).toMatchObject({
      clientId: a.id,
      taxYear: Y,
      signerRole: "spouse",
      documentType: "passport",
      issuingCountry: "IN",
      expiresOn: good.expiresOn,
      numberLast4: "A123",
      method: "live-video",
      checkedBy: preparer.id,
    });
    expect((await actions("id-check-recorded")).map((e) => e.detail)).toEqual(["the spouse: passport (IN), live-video"]);
  });

  it("takes today from New York's calendar: an ID that expires on UTC's day, still tomorrow there, has not expired", async () => {
    // 9:30 pm EST on January 30, 2026: already January 31 in UTC.
    const check = (expiresOn: string) => atMoment("2026-01-31T02:30:00Z", () => recordIdCheck(admin.actor, caseA(), "taxpayer", { ...good, expiresOn }, IP));
    expect(await check("2026-01-30")).toEqual({ ok: false, error: RETURN_MESSAGES.badExpiry });
    expect((await check("2026-01-31")).ok).toBe(true);
    expect((await getDb().select().from(idChecks)).map((c) => c.expiresOn)).toEqual(["2026-01-31"]);
  });

  it("refuses each bad field with its message, and a client", async () => {
    const cases: Array<[Partial<typeof good>, string]> = [
      [{ documentType: "library-card" }, RETURN_MESSAGES.badDocumentType],
      [{ issuingCountry: "IND" }, RETURN_MESSAGES.badCountry],
      [{ expiresOn: dayFromToday(0) }, RETURN_MESSAGES.badExpiry],
      [{ expiresOn: "2031-02-30" }, RETURN_MESSAGES.badExpiry],
      [{ numberLast4: "12345" }, RETURN_MESSAGES.badLast4],
      [{ numberLast4: "12-4" }, RETURN_MESSAGES.badLast4],
      [{ how: "by-post" }, RETURN_MESSAGES.badMethod],
    ];
    for (const [change, message] of cases)
      expect(await recordIdCheck(admin.actor, caseA(), "taxpayer", { ...good, ...change }, IP)).toEqual({ ok: false, error: message });
    expect(await recordIdCheck(admin.actor, { clientId: b.id, taxYear: Y - 2 }, "taxpayer", good, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.noSuchCase });
    await expect(recordIdCheck(a.actor, caseA(), "taxpayer", good, IP)).rejects.toThrow("Only staff may record an identity check.");
    expect(await count(idChecks)).toBe(0);
  });
});

describe("the return's timeline", () => {
  it("lists the events in order for the client and staff, with what only staff see left out for the client", async () => {
    await recordIdCheck(admin.actor, caseA(), "taxpayer", { documentType: "visa", issuingCountry: "US", expiresOn: dayFromToday(30), numberLast4: "9876", how: "in-person" }, IP);
    const v1 = await uploaded("v1");
    await requestReturnChanges(a.actor, v1.versionId, "Fix it", { ip: IP, userAgent: UA });
    const v2 = await uploaded("v2");
    await approveReturnVersion(a.actor, v2.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });

    const forClient = await caseReturnTimeline(a.actor, caseA());
    expect(forClient?.map((e) => [e.kind, e.versionNumber])).toEqual([
      ["version-uploaded", 1],
      ["changes-requested", 1],
      ["version-uploaded", 2],
      ["approved", 2],
    ]);
    const forStaff = await caseReturnTimeline(preparer.actor, caseA());
    expect(forStaff?.map((e) => e.kind)).toEqual(["id-checked", "version-uploaded", "changes-requested", "version-uploaded", "approved"]);
    expect(forStaff?.every((e, i, all) => i === 0 || all[i - 1]!.at <= e.at)).toBe(true);
    expect(await caseReturnTimeline(b.actor, caseA())).toBeNull();
  });
});
