import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeEach, describe, expect, it } from "vitest";
import { newYorkDay } from "~/domain/business-days";
import { FEE_TEXTS } from "~/domain/fees";
import { RETURN_DONE } from "~/domain/return-section";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, documents, finalCopies, invoices, signedAuthorizations } from "~/server/db/schema";
import { recordOfflinePayment } from "~/server/fees/payments.server";
import { recordAccepted, recordTransmission } from "~/server/returns/efile.server";
import { releaseFinalCopies } from "~/server/returns/final-copies.server";
import { acceptHandwritten, uploadHandwritten } from "~/server/returns/handwritten.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { declareWithinTolerance } from "~/server/returns/tolerance.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { getStorage } from "~/server/storage/storage.server";
import { feeCast, sentInvoice } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import type { TestInvoice } from "../helpers/fees";
import { sentMail } from "./helpers";
import { IP, pdf, received, UA } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";

// The final copies wait for the fee on every address that gives a case's file to a client or to
// a spouse (docs/product/fees.md#final-copies-wait-for-payment): released with the Return
// section's defaults ("The current version" and "The signed copy") while the invoice is unpaid,
// each address is walked as the client, another client, a visitor (or the spouse's link) and
// staff; then the fee is paid and the same walk finds them open. Then a release sent twice at
// once, and a superseded version offered as the filed return.

const Y = currentFilingYear();
const SPOUSE_EMAIL = "meera@example.com";
/** Yesterday in New York: a day no check of "not in the future" refuses, whatever the hour. */
const yesterday = () => newYorkDay(new Date(Date.now() - 86_400_000));
const uploadsDir = () => path.join(process.env.DATA_DIR!, "uploads");
const storedFiles = () => readdirSync(uploadsDir(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

const routes = {
  filing: await routeModule("routes/portal/filing.tsx"),
  download: await routeModule("routes/portal/document-download.ts"),
  uploads: await routeModule("routes/portal/filing-documents.ts"),
  review: await routeModule("routes/portal/filing-return-file.ts"),
  signingForm: await routeModule("routes/portal/filing-signing-form.ts"),
  signedForm: await routeModule("routes/portal/filing-signed-form.ts"),
  spouseForm: await routeModule("routes/sign/sign-form-file.ts"),
  spouseSignedForm: await routeModule("routes/sign/sign-signed-form.ts"),
  staffVersion: await routeModule("routes/admin/return-version-file.ts"),
  returnSection: await routeModule("routes/admin/case/return.tsx"),
};

const req = (url: string, cookie: string | null, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
const get = (route: { loader: (args: never) => Promise<unknown> }, url: string, cookie: string | null, params: Record<string, string>) =>
  routeOutcome<unknown>(() => route.loader({ ...routeArgs(req(url, cookie)), params } as never));

type Listed = { id: string; name: string; waitsForFee: boolean };
const filingDocuments = async (who: Account) => {
  const page = await get(routes.filing, `/my-tax-filing/${Y}`, who.cookie, { year: String(Y) });
  expect(page.status).toBe(200);
  return (page.body as { documents: Listed[] }).documents;
};

/** The Return section's form, posted as staff's browser posts it. */
const releaseForm = (cookie: string, clientId: string, fields: Record<string, string>) =>
  routeOutcome<{ ok: boolean; message: string }>(() =>
    routes.returnSection.action({
      ...routeArgs(req(`/admin/clients/${clientId}/${Y}/return`, cookie, { method: "POST", body: new URLSearchParams({ intent: "release-final", ...fields }) })),
      params: { clientId, year: String(Y) },
    } as never),
  );
const released = (clientId: string) => ({ status: 302, location: `/admin/clients/${clientId}/${Y}/return?done=released` });

async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return text;
}

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  rmSync(uploadsDir(), { recursive: true, force: true });
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
});

/**
 * A's joint return up to the IRS's acceptance: version 1 (staff's file "1040nr-draft-v1.pdf")
 * approved, both signers signing on paper (the spouse through their link), the signed copy made,
 * transmitted and accepted. The spouse's link token, the version and its bytes.
 */
async function acceptedJointReturn(): Promise<{ versionId: string; draft: Uint8Array; token: string }> {
  const ref = { clientId: a.id, taxYear: Y };
  const draft = pdf("filed-as-v1");
  const v = await uploadReturnVersion(preparer.actor, ref, { form: "1040-NR", note: "", file: await received("1040nr-draft-v1.pdf", draft) }, IP);
  if (!v.ok) throw new Error(v.error);
  expect((await approveReturnVersion(a.actor, v.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
  const r = await requestSignature(preparer.actor, v.versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: true, spouse: { name: "Meera Kumar", email: SPOUSE_EMAIL } }, IP);
  if (!r.ok) throw new Error(r.error);
  const token = /\/sign\/([A-Za-z0-9_-]+)/.exec((await sentMail()).find((m) => m.to === SPOUSE_EMAIL)?.text ?? "")?.[1];
  if (!token) throw new Error("no link mailed to the spouse");
  for (const [access, name] of [[{ client: a.actor, requestId: r.requestId }, "taxpayer-signed.pdf"], [{ token }, "spouse-signed.pdf"]] as const) {
    const up = await uploadHandwritten(access, await received(name, pdf(name)), IP);
    if (!up.ok) throw new Error(up.error);
    expect((await acceptHandwritten(admin.actor, up.uploadId, IP)).ok).toBe(true);
  }
  expect(await getDb().select().from(signedAuthorizations)).toHaveLength(1);
  const t = await recordTransmission(preparer.actor, ref, { date: yesterday(), submissionId: "00123420259", jurisdiction: "federal" }, IP);
  if (!t.ok) throw new Error(t.error);
  expect(await recordAccepted(preparer.actor, t.transmissionId, yesterday(), IP)).toEqual({ ok: true });
  return { versionId: v.versionId, draft, token };
}

/** Every address that gives a file of A's case to someone other than staff, as each of them asks, and staff's. */
async function walk(ids: { filed: string; signed: string; versionId: string; token: string }) {
  const asEach = async (url: string, route: { loader: (args: never) => Promise<unknown> }, params: Record<string, string>) => {
    const [client, other, visitor, staff] = await Promise.all([a.cookie, b.cookie, null, preparer.cookie].map((cookie) => get(route, url, cookie, params)));
    return { client: client!, other: other!, visitor: visitor!, staff: staff! };
  };
  const year = { year: String(Y) };
  return {
    list: await filingDocuments(a),
    otherList: await filingDocuments(b),
    filed: await asEach(`/documents/${ids.filed}`, routes.download, { documentId: ids.filed }),
    signed: await asEach(`/documents/${ids.signed}`, routes.download, { documentId: ids.signed }),
    review: await asEach(`/my-tax-filing/${Y}/return/${ids.versionId}`, routes.review, { ...year, versionId: ids.versionId }),
    signingForm: await asEach(`/my-tax-filing/${Y}/signing-form`, routes.signingForm, year),
    signedForm: await asEach(`/my-tax-filing/${Y}/signed-form`, routes.signedForm, year),
    uploads: await asEach(`/my-tax-filing/${Y}/documents`, routes.uploads, year),
    spouseForm: await get(routes.spouseForm, `/sign/${ids.token}/form`, null, { token: ids.token }),
    spouseSignedForm: await get(routes.spouseSignedForm, `/sign/${ids.token}/signed-form`, null, { token: ids.token }),
    staffVersion: await get(routes.staffVersion, `/admin/clients/${a.id}/return-versions/${ids.versionId}`, preparer.cookie, { clientId: a.id, versionId: ids.versionId }),
  };
}

const bytesOf = async (documentId: string) => {
  const [doc] = await getDb().select({ key: documents.storageKey }).from(documents).where(eq(documents.id, documentId));
  return getStorage().get(doc!.key);
};
const notFound = { status: 404, body: "Document not found." };
const toSignIn = { status: 302, location: expect.stringMatching(/^\/login/) };
const noBytes = { status: 405, body: "Send the files with POST." };
const locked = { status: 402, body: FEE_TEXTS.finalCopiesLocked };

describe("final copies released with the defaults while the fee is unpaid", () => {
  it("are withheld on every address until the fee is paid, then given; never to another client or a visitor, always to staff", async () => {
    const { versionId, draft, token } = await acceptedJointReturn();
    const invoice: TestInvoice = await sentInvoice(a.id, Y, 29_900);
    expect(await releaseForm(preparer.cookie, a.id, { filedReturn: "current", signedAuthorization: "signed", filedVersionId: versionId })).toMatchObject(released(a.id));
    const [release] = await getDb().select().from(finalCopies);
    const ids = { filed: release!.filedReturnDocumentId, signed: release!.signedAuthorizationDocumentId, versionId, token };
    const signedCopy = await bytesOf(ids.signed);

    // Locked: listed as waiting for the fee, and no address gives the return as filed to the client.
    let seen = await walk(ids);
    expect(seen.list.filter((d) => d.id === ids.filed || d.id === ids.signed).map((d) => [d.name, d.waitsForFee])).toEqual([
      [`Form 8879 ${Y} signed.pdf`, true],
      [RETURN_FILE_NAMES.filed("1040-NR", Y), true],
    ]);
    // Only the forms the signers signed by hand and sent, theirs all along, are free.
    expect(seen.list.filter((d) => d.waitsForFee === false).map((d) => d.name)).toEqual(["taxpayer-signed.pdf", "spouse-signed.pdf"]);
    expect(seen.otherList).toEqual([]);
    for (const file of [seen.filed, seen.signed]) {
      expect(file.client).toMatchObject(locked);
      expect(file.other).toMatchObject(notFound);
      expect(file.visitor).toMatchObject(toSignIn);
      expect(file.staff.status).toBe(200);
    }
    expect(seen.filed.staff.body).toEqual(draft);
    expect(seen.review.client).toMatchObject(locked);
    expect(seen.review.other).toMatchObject(notFound);
    expect(seen.review.visitor).toMatchObject(toSignIn);
    expect(seen.review.staff).toMatchObject({ status: 200, body: draft });
    expect(seen.staffVersion).toMatchObject({ status: 200, body: draft });
    // Nothing is waiting for a signature any more, and the upload addresses give no file.
    for (const who of ["client", "other", "staff"] as const) expect(seen.signingForm[who]).toMatchObject(notFound);
    expect(seen.signingForm.visitor).toMatchObject(toSignIn);
    for (const who of ["client", "other", "staff"] as const) expect([seen.signedForm[who], seen.uploads[who]]).toMatchObject([noBytes, noBytes]);
    expect(seen.spouseForm).toMatchObject(notFound);
    expect(seen.spouseSignedForm).toMatchObject(noBytes);

    // Paid in full: the same addresses give the client the files.
    expect(await recordOfflinePayment(preparer.actor, invoice.id, { method: "wire", amount: "299.00", reference: "WIRE-1", receivedOn: yesterday() }, IP)).toMatchObject({ ok: true, status: "paid" });
    seen = await walk(ids);
    expect(seen.list.filter((d) => d.waitsForFee)).toEqual([]);
    expect(seen.filed.client).toMatchObject({ status: 200, body: draft });
    expect(seen.filed.client.headers.get("content-disposition")).toContain(`filename="${RETURN_FILE_NAMES.filed("1040-NR", Y)}"`);
    expect(seen.signed.client).toMatchObject({ status: 200, body: signedCopy });
    expect(seen.filed.other).toMatchObject(notFound);
    expect(seen.signed.other).toMatchObject(notFound);
    expect(seen.filed.visitor).toMatchObject(toSignIn);
    // The review address gives the draft again, stamped DRAFT on its page: never the filed return.
    expect(seen.review.client.status).toBe(200);
    expect(seen.review.client.headers.get("content-disposition")).toContain(`filename="${RETURN_FILE_NAMES.draft("1040-NR", Y, 1)}"`);
    expect(await pageTexts(seen.review.client.body as Uint8Array)).toEqual(["DRAFT"]);
    expect(seen.review.other).toMatchObject(notFound);
    expect(seen.spouseForm).toMatchObject(notFound);
  });

  it("are withheld from the spouse's link and the client's signing page when the form to sign is itself a final copy", async () => {
    // A form waiting for a signature that staff released as the signed authorisation: the lock
    // holds on the signing addresses too, since every address asks the same rule.
    const ref = { clientId: a.id, taxYear: Y };
    const v = await uploadReturnVersion(preparer.actor, ref, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
    if (!v.ok) throw new Error(v.error);
    await approveReturnVersion(a.actor, v.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" });
    const r = await requestSignature(preparer.actor, v.versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: true, spouse: { name: "Meera Kumar", email: SPOUSE_EMAIL } }, IP);
    if (!r.ok) throw new Error(r.error);
    const token = /\/sign\/([A-Za-z0-9_-]+)/.exec((await sentMail()).find((m) => m.to === SPOUSE_EMAIL)?.text ?? "")?.[1] ?? "";
    const form = () => get(routes.spouseForm, `/sign/${token}/form`, null, { token });
    const signing = () => get(routes.signingForm, `/my-tax-filing/${Y}/signing-form`, a.cookie, { year: String(Y) });
    expect((await form()).status).toBe(200);
    expect((await signing()).status).toBe(200);
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const [formDoc] = await getDb().select({ id: documents.id }).from(documents).where(and(eq(documents.clientId, a.id), eq(documents.returnRecord, "authorization-form")));
    const done = await releaseFinalCopies(preparer.actor, ref, { filedReturn: { versionId: v.versionId }, signedAuthorization: { documentId: formDoc!.id } }, IP);
    expect(done).toMatchObject({ ok: true, releasedBefore: false });
    expect(await form()).toMatchObject(locked);
    expect(await signing()).toMatchObject(locked);
    await recordOfflinePayment(preparer.actor, invoice.id, { method: "zelle", amount: "299.00", receivedOn: yesterday() }, IP);
    expect(await form()).toMatchObject({ status: 200, body: pdf("8879") });
    expect(await signing()).toMatchObject({ status: 200, body: pdf("8879") });
  });
});

describe("releasing the final copies", () => {
  it("sent twice at once, releases once: one record, one filed return, FINAL COPIES ticked once, nothing else kept", async () => {
    const { versionId } = await acceptedJointReturn();
    const before = storedFiles();
    const form = { filedReturn: "current", signedAuthorization: "signed", filedVersionId: versionId };
    const answers = await Promise.all([releaseForm(preparer.cookie, a.id, form), releaseForm(admin.cookie, a.id, form)]);
    expect(answers).toMatchObject([released(a.id), released(a.id)]);
    expect(await getDb().select().from(finalCopies)).toHaveLength(1);
    expect(await getDb().select().from(documents).where(eq(documents.returnRecord, "final-copy"))).toHaveLength(1);
    expect(storedFiles()).toBe(before + 1);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "final-copies-released"))).toHaveLength(1);
    // FINAL COPIES ticked once.
    const ticks = await getDb().select({ detail: auditLog.detail }).from(auditLog).where(eq(auditLog.action, "workflow-saved"));
    expect(ticks.filter((t) => t.detail?.includes("final copies released"))).toHaveLength(1);
    // And once more, later: the same answer, still one release.
    expect(await releaseForm(preparer.cookie, a.id, form)).toMatchObject(released(a.id));
    expect(await getDb().select().from(finalCopies)).toHaveLength(1);
    expect(RETURN_DONE.released).toBe("The final copies were released to the client.");
  });

  it("refuses a superseded version as the filed return, with its reason, and keeps nothing", async () => {
    const { versionId: first } = await acceptedJointReturn();
    const ref = { clientId: a.id, taxYear: Y };
    // Version 2 comes after the acceptance; staff declare it within the IRS tolerances, so the signed copy still holds.
    const v2 = await uploadReturnVersion(preparer.actor, ref, { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    if (!v2.ok) throw new Error(v2.error);
    expect(await declareWithinTolerance(preparer.actor, v2.versionId, { incomeOrAgiCents: 1_000, taxCents: 0, withholdingCents: 0, refundOrOwedCents: 0 }, IP)).toMatchObject({ ok: true });
    const [firstDoc] = await getDb().select({ id: documents.id }).from(documents).where(eq(documents.originalName, "1040nr-draft-v1.pdf"));
    const [signedCopy] = await getDb().select({ id: documents.id }).from(documents).where(eq(documents.returnRecord, "signed-authorization"));
    const before = storedFiles();
    // The form as it was shown before version 2 came: the version it named is refused.
    expect(await releaseForm(preparer.cookie, a.id, { filedReturn: "current", signedAuthorization: "signed", filedVersionId: first })).toMatchObject({
      status: 400,
      body: { ok: false, message: RETURN_MESSAGES.supersededFinalCopy },
    });
    for (const filedReturn of [{ versionId: first }, { documentId: firstDoc!.id }]) {
      expect(await releaseFinalCopies(preparer.actor, ref, { filedReturn, signedAuthorization: { documentId: signedCopy!.id } }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.supersededFinalCopy });
    }
    // A version is never the signed authorisation; another client's version is not this case's.
    expect(await releaseFinalCopies(preparer.actor, ref, { filedReturn: { versionId: v2.versionId }, signedAuthorization: { documentId: firstDoc!.id } }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badFinalCopy });
    expect(await releaseFinalCopies(preparer.actor, { clientId: b.id, taxYear: Y }, { filedReturn: { versionId: v2.versionId }, signedAuthorization: { documentId: signedCopy!.id } }, IP)).toEqual({ ok: false, error: RETURN_MESSAGES.badFinalCopy });
    expect(await getDb().select().from(finalCopies)).toEqual([]);
    expect(await getDb().select().from(documents).where(eq(documents.returnRecord, "final-copy"))).toEqual([]);
    expect(storedFiles()).toBe(before);
    // The current version is released.
    expect(await releaseForm(preparer.cookie, a.id, { filedReturn: "current", signedAuthorization: "signed", filedVersionId: v2.versionId })).toMatchObject(released(a.id));
    const [release] = await getDb().select().from(finalCopies);
    expect(await bytesOf(release!.filedReturnDocumentId)).toEqual(pdf("v2"));
  });
});

describe("the lock of one tax year", () => {
  it("is an invoice of that year's: one unpaid for another year locks nothing of this one", async () => {
    const ref = { clientId: a.id, taxYear: Y };
    const done = await releaseFinalCopies(preparer.actor, ref, { filedReturn: { file: await received("filed.pdf", pdf("filed")) }, signedAuthorization: { file: await received("8879.pdf", pdf("8879 signed")) } }, IP);
    if (!done.ok) throw new Error(done.error);
    const download = () => get(routes.download, `/documents/${done.filedReturnDocumentId}`, a.cookie, { documentId: done.filedReturnDocumentId });
    const earlier = await sentInvoice(a.id, Y - 1, 19_900);
    expect((await download()).status).toBe(200);
    expect((await filingDocuments(a)).find((d) => d.id === done.filedReturnDocumentId)?.waitsForFee).toBe(false);
    const thisYear = await sentInvoice(a.id, Y, 29_900);
    expect(await download()).toMatchObject(locked);
    await recordOfflinePayment(preparer.actor, thisYear.id, { method: "wire", amount: "299.00", receivedOn: yesterday() }, IP);
    expect((await download()).status).toBe(200);
    // The earlier year's invoice is still owed.
    expect((await getDb().select().from(invoices).where(eq(invoices.id, earlier.id)))[0]?.status).toBe("sent");
  });
});
