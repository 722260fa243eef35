// A client's filing with its back half, for the benchmark's filing page (scripts/bench.ts): what
// the page then shows is the heaviest a client usually meets, every part of it filled. Made
// through the app's own functions, as staff and the client would make it:
// - taxpayer information sent, the first four stages ticked by staff;
// - the engagement letter, sent and accepted;
// - three uploads of the client's, one document staff shared, one requested item still needed;
// - a message from the firm (unread) and one from the client;
// - the draft: version 1 sent back with a comment, version 2 approved (DRAFT ticked by it);
// - the taxpayer's identity check, and a request to sign Form 8879 waiting for their signature
//   (the page offers the e-signature: consent, declaration, the code);
// - a $299.00 invoice sent and unpaid.
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { clientCases } from "~/server/db/schema";
import { and, eq } from "drizzle-orm";
import { shareDocuments } from "~/server/documents/changes.server";
import { saveUploads } from "~/server/documents/upload.server";
import { receiveUpload } from "~/server/documents/upload.server";
import { nameOfLetter } from "~/domain/engagement";
import { answerLetter, currentLetter, sendLetter } from "~/server/engagement/letters.server";
import { createInvoice, sendInvoice } from "~/server/fees/invoices.server";
import { sendMessage } from "~/server/messages/posting.server";
import { addRequestItem } from "~/server/requests/requests.server";
import { recordIdCheck } from "~/server/returns/id-checks.server";
import { approveReturnVersion, requestReturnChanges } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";

const IP = "127.0.0.1";
const UA = "Mozilla/5.0 (benchmark seed)";

/** A one-page PDF whose bytes differ by `tag`. */
function pdf(tag: string): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n% ${tag}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

async function received(name: string, bytes: Uint8Array) {
  async function* chunks() {
    yield bytes;
  }
  return receiveUpload(name, chunks());
}

function must<T extends { ok: boolean }>(what: string, outcome: T): Extract<T, { ok: true }> {
  if (!outcome.ok) throw new Error(`seeding the filing: ${what} was refused (${JSON.stringify(outcome)})`);
  return outcome as Extract<T, { ok: true }>;
}

/** A day `days` from today (UTC), YYYY-MM-DD. */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Gives `client`'s case of `taxYear` (which exists, with the taxpayer information sent) the
 * filing described above; `staff` is an admin. Answers what the page shows of it to check for.
 */
export async function seedFiling(client: SessionUser, staff: SessionUser, taxYear: number): Promise<{ expect: string }> {
  const ref = { clientId: client.id, taxYear };
  await getDb()
    .update(clientCases)
    .set({ home: true, taxinfo: true, documents: false, preparation: false, currentStage: "documents" })
    .where(and(eq(clientCases.userId, client.id), eq(clientCases.taxYear, taxYear)));

  const uploads = await saveUploads(
    client,
    { ...ref, category: "w-2", files: ["w2-employer.pdf", "1042-s.pdf", "passport.pdf"].map((name) => ({ name, bytes: pdf(name) })) },
    IP,
  );
  if (uploads === "no-such-case" || uploads.uploaded.length !== 3) throw new Error("seeding the filing: the client's uploads were refused");
  // The engagement letter, sent and accepted (the draft waits for it).
  must("the engagement letter", await sendLetter(staff, ref, "1040-nr", IP));
  const letter = (await currentLetter(ref))!;
  must(
    "accepting the letter",
    await answerLetter(client, taxYear, { letterId: letter.id, decision: "accepted", agree: true, typedName: nameOfLetter(letter.text)! }, { ip: IP, userAgent: UA }),
  );
  const fromFirm = await saveUploads(staff, { ...ref, category: "other-documents", files: [{ name: "welcome-pack.pdf", bytes: pdf("welcome") }] }, IP);
  if (fromFirm === "no-such-case" || fromFirm.uploaded.length !== 1) throw new Error("seeding the filing: the firm's upload was refused");
  await shareDocuments(staff, { ...ref, documentIds: fromFirm.uploaded.map((d) => d.id), shared: true }, IP);
  if ((await addRequestItem(staff, ref, { title: "Form 1099-INT from your bank", detail: "The interest statement of your US bank.", category: "1099-forms" }, IP)) !== "added")
    throw new Error("seeding the filing: the requested item was refused");
  await sendMessage(client, { ...ref, body: "I have uploaded my W-2 and my 1042-S.", category: "other-documents", files: [] }, IP);
  await sendMessage(staff, { ...ref, body: "Thank you. Your draft return is on its way.", category: "other-documents", files: [] }, IP);

  // Staff then ticked the stages up to PREPARATION.
  await getDb()
    .update(clientCases)
    .set({ documents: true, preparation: true, currentStage: "draft" })
    .where(and(eq(clientCases.userId, client.id), eq(clientCases.taxYear, taxYear)));

  const v1 = must("version 1", await uploadReturnVersion(staff, ref, { form: "1040-NR", note: "Your first draft.", file: await received("1040nr-v1.pdf", pdf("v1")) }, IP));
  must("the request for changes", await requestReturnChanges(client, v1.versionId, "My address changed in March.", { ip: IP, userAgent: UA }));
  const v2 = must("version 2", await uploadReturnVersion(staff, ref, { form: "1040-NR", note: "With your new address.", file: await received("1040nr-v2.pdf", pdf("v2")) }, IP));
  must("the approval", await approveReturnVersion(client, v2.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" }));
  must(
    "the identity check",
    await recordIdCheck(staff, ref, "taxpayer", { documentType: "passport", issuingCountry: "IN", expiresOn: dayFromToday(400), numberLast4: "1234", how: "in-person" }, IP),
  );
  const form = await received("form-8879.pdf", pdf("8879"));
  must("the signature request", await requestSignature(staff, v2.versionId, { formFile: form, jointReturn: false }, IP));

  const invoice = must(
    "the invoice",
    await createInvoice(staff, ref, { lines: [{ description: "Federal return (Form 1040-NR)", quantity: "1", unitCents: "299.00" }], dueOn: dayFromToday(14) }, IP),
  );
  must("sending the invoice", await sendInvoice(staff, invoice.invoiceId, IP));
  return { expect: "Sign your e-file authorisation (Form 8879)" };
}
