import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FEE_MESSAGES, FEE_TEXTS } from "~/domain/fees";
import type { ClientFee, FeeFormResult } from "~/domain/fee-client";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { invoices } from "~/server/db/schema";
import { setFinalCopiesBeforePayment, setFinalCopiesWaitForPayment } from "~/server/fees/final-copies-gate.server";
import { recordOfflinePayment } from "~/server/fees/payments.server";
import { releaseFinalCopies } from "~/server/returns/final-copies.server";
import { sentInvoice } from "../helpers/fees";
import { account, dayFromToday, IP, pdf, received } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { sentMail } from "./helpers";

// The client's side of the fee through its routes, as the server runs them (behind the root's and
// the portal layout's middleware): the filing page's Fee panel, My Tax Filing's "Fee due", the
// fee forms (I have sent the payment; Pay by card when Stripe is not set up), the invoice and
// receipt PDFs, and the final copies that wait for the fee. Two clients: nothing of one is
// reachable by the other. (Card payments through Stripe: stripe-payments.test.ts.)

const filingRoute = await routeModule("routes/portal/filing.tsx");
const listRoute = await routeModule("routes/portal/my-tax-filing.tsx");
const feeRoute = await routeModule("routes/portal/filing-fee.ts");
const fileRoute = await routeModule("routes/portal/filing-invoice-file.ts");
const downloadRoute = await routeModule("routes/portal/document-download.ts");
const staffFileRoute = await routeModule("routes/admin/invoice-file.ts");

const Y = currentFilingYear();

const outcome = routeOutcome;

const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request), params }) as never;
const req = (url: string, cookie: string | null, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });

const filingPage = async (who: Account, query = "") => {
  const page = await outcome(() => filingRoute.loader(args(req(`/my-tax-filing/${Y}${query}`, who.cookie), { year: String(Y) })));
  return page.body as { fee: ClientFee; feeResult: FeeFormResult | null; checkout: string | null; documents: Array<{ id: string; name: string; waitsForFee: boolean }> };
};
const postFee = (cookie: string | null, fields: Record<string, string>, year = Y) =>
  outcome(() => feeRoute.action(args(req(`/my-tax-filing/${year}/fee`, cookie, { method: "POST", body: new URLSearchParams(fields) }), { year: String(year) })));
const invoiceFile = (cookie: string | null, invoiceId: string, file: string, year = Y) =>
  outcome(() => fileRoute.loader(args(req(`/my-tax-filing/${year}/invoices/${invoiceId}/${file}`, cookie), { year: String(year), invoiceId, file })));
const download = (cookie: string, documentId: string) => outcome(() => downloadRoute.loader(args(req(`/documents/${documentId}`, cookie), { documentId })));
const today = () => dayFromToday(0);

async function clients() {
  const asha = await account("asha.fee@example.com", "Asha Rao");
  const ben = await account("ben.fee@example.com", "Ben Ito");
  const preparer = await account("prep.fee@taxbridge.test", "Pat Preparer", "preparer");
  return { asha, ben, preparer };
}

describe("the client's fee", () => {
  it("shows the invoice sent to the client with Fee due, on the filing page and on My Tax Filing; never another client's", async () => {
    const { asha, ben } = await clients();
    await sentInvoice(asha.id, Y, 99, "draft");
    const invoice = await sentInvoice(asha.id, Y, 29_900);

    const page = await filingPage(asha);
    expect(page.fee.cardPayments).toBe(false);
    expect(page.fee.invoices.map((i) => [i.number, i.status, i.dueCents, i.invoiceUrl, i.receiptUrl])).toEqual([
      [invoice.number, "sent", 29_900, `/my-tax-filing/${Y}/invoices/${invoice.id}/invoice.pdf`, null],
    ]);
    expect(FEE_TEXTS.feeDue(page.fee.invoices[0]!.dueCents)).toBe("Fee due: $299.00");
    const list = await outcome(() => listRoute.loader(args(req("/my-tax-filing", asha.cookie))));
    expect((list.body as { feeDue: Record<number, number> }).feeDue).toEqual({ [Y]: 29_900 });

    // Ben sees nothing of Asha's fee, on his page or his list.
    expect((await filingPage(ben)).fee.invoices).toEqual([]);
    expect(((await outcome(() => listRoute.loader(args(req("/my-tax-filing", ben.cookie))))).body as { feeDue: object }).feeDue).toEqual({});
  });

  it("downloads the client's own invoice PDF; the receipt only once paid; another client's, a draft's or a void one's is a 404", async () => {
    const { asha, ben, preparer } = await clients();
    const invoice = await sentInvoice(asha.id, Y, 15_000);
    const draft = await sentInvoice(asha.id, Y, 5_000, "draft");
    const voided = await sentInvoice(asha.id, Y, 5_000, "void");

    const own = await invoiceFile(asha.cookie, invoice.id, "invoice.pdf");
    expect(own.status).toBe(200);
    expect(new TextDecoder().decode((own.body as Uint8Array).slice(0, 5))).toBe("%PDF-");
    for (const [who, id, file, year] of [
      [ben, invoice.id, "invoice.pdf", Y],
      [asha, invoice.id, "invoice.pdf", Y - 1],
      [asha, draft.id, "invoice.pdf", Y],
      [asha, voided.id, "invoice.pdf", Y],
      [asha, invoice.id, "receipt.pdf", Y],
      [asha, invoice.id, "other.pdf", Y],
      [asha, "not-an-id", "invoice.pdf", Y],
    ] as const) {
      expect([id === invoice.id ? "invoice" : id, file, year, (await invoiceFile(who.cookie, id, file, year)).status]).toEqual([id === invoice.id ? "invoice" : id, file, year, 404]);
    }
    // A visitor is sent to sign in.
    expect((await invoiceFile(null, invoice.id, "invoice.pdf")).status).toBe(302);

    const paid = await recordOfflinePayment(preparer.actor, invoice.id, { method: "wire", amount: "150.00", reference: "WIRE-1", receivedOn: today() }, IP);
    expect(paid).toMatchObject({ ok: true, status: "paid" });
    const receipt = await invoiceFile(asha.cookie, invoice.id, "receipt.pdf");
    expect(receipt.status).toBe(200);
    expect((await invoiceFile(ben.cookie, invoice.id, "receipt.pdf")).status).toBe(404);
    const page = await filingPage(asha);
    expect(page.fee.invoices.find((i) => i.id === invoice.id)).toMatchObject({ status: "paid", dueCents: 0, receiptUrl: `/my-tax-filing/${Y}/invoices/${invoice.id}/receipt.pdf` });
  });

  it("tells staff once when the client says they sent the payment; another client's invoice is a 404 and changes nothing", async () => {
    const { asha, ben } = await clients();
    const invoice = await sentInvoice(asha.id, Y, 29_900);
    // Ben posts Asha's invoice from his own year.
    expect((await postFee(ben.cookie, { intent: "announce-payment", invoiceId: invoice.id })).status).toBe(404);
    expect((await getDb().select({ at: invoices.clientNotifiedAt }).from(invoices).where(eq(invoices.id, invoice.id)))[0]!.at).toBeNull();

    expect(await postFee(asha.cookie, { intent: "announce-payment", invoiceId: invoice.id })).toMatchObject({ status: 303, location: `/my-tax-filing/${Y}?fee=announced#fee` });
    expect((await filingPage(asha, "?fee=announced")).feeResult).toEqual({ ok: true, intent: "announce-payment", message: FEE_TEXTS.paymentNoticeSent });
    expect((await filingPage(asha)).fee.invoices[0]!.announcedOn).not.toBeNull();
    expect(await postFee(asha.cookie, { intent: "announce-payment", invoiceId: invoice.id })).toMatchObject({ location: `/my-tax-filing/${Y}?fee=announced-already#fee` });
    expect((await filingPage(asha, "?fee=announced-already")).feeResult?.message).toBe(FEE_MESSAGES.notifiedAlready);
    // Bad input and a visitor change nothing.
    expect((await postFee(asha.cookie, { intent: "announce-payment", invoiceId: "x" })).status).toBe(400);
    expect((await postFee(null, { intent: "announce-payment", invoiceId: invoice.id })).status).toBe(302);
    expect((await filingPage(asha, "?fee=made-up")).feeResult).toBeNull();
  });

  it("says card payments are not set up when Stripe is not configured, and never reaches Stripe", async () => {
    const { asha } = await clients();
    const invoice = await sentInvoice(asha.id, Y, 29_900);
    expect(await postFee(asha.cookie, { intent: "pay-card", invoiceId: invoice.id, amount: "1" })).toMatchObject({ status: 303, location: `/my-tax-filing/${Y}?fee=card-not-configured#fee` });
    expect((await filingPage(asha, "?fee=card-not-configured")).feeResult?.message).toBe(FEE_MESSAGES.cardNotConfigured);
  });

  it("keeps the final copies listed but not downloadable until the fee is paid; the case's release or the firm's setting lets them go", async () => {
    const { asha, preparer } = await clients();
    const admin = await account("boss.fee@taxbridge.test", "Boss", "admin");
    const ref = { clientId: asha.id, taxYear: Y };
    const invoice = await sentInvoice(asha.id, Y, 29_900);
    const released = await releaseFinalCopies(
      preparer.actor,
      ref,
      { filedReturn: { file: await received("filed-return.pdf", pdf("filed")) }, signedAuthorization: { file: await received("8879-signed.pdf", pdf("signed")) } },
      IP,
    );
    if (!released.ok) throw new Error(released.error);
    const filedId = released.filedReturnDocumentId;

    const listed = (await filingPage(asha)).documents.find((d) => d.id === filedId);
    expect(listed).toMatchObject({ name: "filed-return.pdf", waitsForFee: true });
    const refused = await download(asha.cookie, filedId);
    expect(refused).toMatchObject({ status: 402, location: null, body: FEE_TEXTS.finalCopiesLocked });
    // Staff are never held back.
    expect((await download(preparer.cookie, filedId)).status).toBe(200);

    // The firm's setting off: free; back on: held again.
    expect(await setFinalCopiesWaitForPayment(admin.actor, false, IP)).toMatchObject({ ok: true, changed: true });
    expect((await download(asha.cookie, filedId)).status).toBe(200);
    expect(await setFinalCopiesWaitForPayment(admin.actor, true, IP)).toMatchObject({ ok: true, changed: true });
    expect((await download(asha.cookie, filedId)).status).toBe(402);

    // The case's own release, then withdrawn.
    expect(await setFinalCopiesBeforePayment(admin.actor, ref, true, "Client pays on collection", IP)).toMatchObject({ ok: true, changed: true });
    expect((await filingPage(asha)).documents.find((d) => d.id === filedId)?.waitsForFee).toBe(false);
    expect((await download(asha.cookie, filedId)).status).toBe(200);
    expect(await setFinalCopiesBeforePayment(admin.actor, ref, false, "Released by mistake", IP)).toMatchObject({ ok: true, changed: true });
    expect((await download(asha.cookie, filedId)).status).toBe(402);

    // Paid in full: the final copy is the client's.
    expect(await recordOfflinePayment(preparer.actor, invoice.id, { method: "zelle", amount: "299.00", receivedOn: dayFromToday(0) }, IP)).toMatchObject({ ok: true, status: "paid" });
    expect((await filingPage(asha)).documents.find((d) => d.id === filedId)?.waitsForFee).toBe(false);
    expect((await download(asha.cookie, filedId)).status).toBe(200);
    // The paid e-mail is a link only.
    const paidMail = (await sentMail()).find((m) => m.to === asha.email && m.subject.startsWith("Payment received"));
    expect(paidMail?.text).toContain(`/my-tax-filing/${Y}`);
    expect(paidMail?.text).not.toContain("$");
  });

  it("lets staff download any invoice of the case and its receipt once paid; another client's address, a client or a visitor get nothing", async () => {
    const { asha, ben, preparer } = await clients();
    const invoice = await sentInvoice(asha.id, Y, 29_900);
    const draft = await sentInvoice(asha.id, Y, 5_000, "draft");
    const staffFile = (cookie: string | null, clientId: string, invoiceId: string, file: string) =>
      outcome(() => staffFileRoute.loader(args(req(`/admin/clients/${clientId}/invoices/${invoiceId}/${file}`, cookie), { clientId, invoiceId, file })));
    expect((await staffFile(preparer.cookie, asha.id, invoice.id, "invoice.pdf")).status).toBe(200);
    expect((await staffFile(preparer.cookie, asha.id, draft.id, "invoice.pdf")).status).toBe(200);
    expect((await staffFile(preparer.cookie, ben.id, invoice.id, "invoice.pdf")).status).toBe(404);
    expect((await staffFile(preparer.cookie, asha.id, invoice.id, "receipt.pdf")).status).toBe(404);
    expect((await staffFile(preparer.cookie, asha.id, invoice.id, "notes.txt")).status).toBe(404);
    // The admin layout: a client is sent to their own pages, a visitor to sign in.
    expect((await staffFile(asha.cookie, asha.id, invoice.id, "invoice.pdf")).status).toBe(302);
    expect((await staffFile(null, asha.id, invoice.id, "invoice.pdf")).status).toBe(302);
    await recordOfflinePayment(preparer.actor, invoice.id, { method: "check", amount: "299", reference: "CHK 1001", receivedOn: today() }, IP);
    expect((await staffFile(preparer.cookie, asha.id, invoice.id, "receipt.pdf")).status).toBe(200);
  });
});
