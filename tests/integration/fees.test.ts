import { and, eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeEach, describe, expect, it } from "vitest";
import { business, paymentInstructions } from "~/content/business";
import { newYorkDay } from "~/domain/business-days";
import type { InvoiceInput } from "~/domain/fee-section";
import { FEE_MESSAGES } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, invoiceLines, invoiceNumbers, invoices, payments, refunds } from "~/server/db/schema";
import { caseFees, clientFees } from "~/server/fees/fee-reads.server";
import { finalCopiesGate, finalCopiesLocked, setFinalCopiesBeforePayment, setFinalCopiesWaitForPayment } from "~/server/fees/final-copies-gate.server";
import { invoicePdf, receiptPdf } from "~/server/fees/invoice-pdf.server";
import { createInvoice, sendInvoice, updateDraft, voidInvoice } from "~/server/fees/invoices.server";
import { announcePayment, recordOfflinePayment } from "~/server/fees/payments.server";
import { confirmStripeRefund, refundPayment } from "~/server/fees/refunds.server";
import { atMoment } from "../helpers/clock";
import { dayFromToday, IP } from "../helpers/returns";
import { feeCast } from "../helpers/fees";
import type { Account } from "../helpers/returns";
import { sentMail } from "./helpers";

// The fee's server core (docs/product/fees.md): invoice numbers, drafts, sending, voiding,
// offline payments and what a payment in full does, refunds (offline, and Stripe's confirmed by
// its webhook), the books the database keeps, the final-copies gate, the client's "I have sent
// the payment", and the PDFs.

const Y = currentFilingYear();
const today = dayFromToday(0);
const mails = () => sentMail();
const auditOf = async (action: string) => getDb().select().from(auditLog).where(eq(auditLog.action, action as never)).orderBy(auditLog.id);

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
});

const standard = (over: Partial<InvoiceInput> = {}): InvoiceInput => ({
  lines: [{ description: "Standard Filing (per tax year)", quantity: "1", unitCents: "299.00", priceListId: "standard-filing" }],
  discountCents: "",
  notes: "",
  dueOn: dayFromToday(14),
  ...over,
});

async function made(who = a, input = standard()) {
  const r = await createInvoice(preparer.actor, { clientId: who.id, taxYear: Y }, input, IP);
  if (!r.ok) throw new Error(r.error);
  return r;
}

async function sent(who = a, input = standard()) {
  const r = await made(who, input);
  expect(await sendInvoice(preparer.actor, r.invoiceId, IP)).toEqual({ ok: true });
  return r;
}

const invoiceRow = async (id: string) => (await getDb().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const caseRow = async (who = a) => (await getDb().select().from(clientCases).where(and(eq(clientCases.userId, who.id), eq(clientCases.taxYear, Y))))[0]!;
const pay = (invoiceId: string, amount: string, over: Record<string, string> = {}) =>
  recordOfflinePayment(preparer.actor, invoiceId, { method: "wire", amount, reference: "FED-123", receivedOn: today, ...over }, IP);

describe("invoice numbers", () => {
  it("are consecutive and unique when two invoices are made at once, and a refused invoice takes none", async () => {
    const [one, two] = await Promise.all([made(), made(b)]);
    const year = Number(newYorkDay().slice(0, 4));
    expect([one.number, two.number].sort()).toEqual([`INV-${year}-00001`, `INV-${year}-00002`]);
    expect(await createInvoice(preparer.actor, { clientId: a.id, taxYear: Y }, standard({ lines: [] }), IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.noLines });
    expect(await createInvoice(preparer.actor, { clientId: a.id, taxYear: Y - 5 }, standard(), IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.noSuchCase });
    expect((await made()).number).toBe(`INV-${year}-00003`);
    const rows = await getDb().select({ seq: invoices.numberSeq }).from(invoices);
    expect(rows.map((r) => r.seq).sort()).toEqual([1, 2, 3]);
  });

  it("start again at 1 in a new calendar year (New York's), and keep each year's count", async () => {
    const dec = await createInvoice(preparer.actor, { clientId: a.id, taxYear: Y }, standard(), IP, new Date("2030-12-31T12:00:00Z"));
    // 03:00 UTC on January 1 is still December 31 in New York.
    const stillDec = await createInvoice(preparer.actor, { clientId: a.id, taxYear: Y }, standard(), IP, new Date("2031-01-01T03:00:00Z"));
    const jan = await createInvoice(preparer.actor, { clientId: a.id, taxYear: Y }, standard(), IP, new Date("2031-01-01T12:00:00Z"));
    expect([dec, stillDec, jan].map((r) => r.ok && r.number)).toEqual(["INV-2030-00001", "INV-2030-00002", "INV-2031-00001"]);
    expect(await getDb().select().from(invoiceNumbers).orderBy(invoiceNumbers.year)).toEqual([
      { year: 2030, last: 2 },
      { year: 2031, last: 1 },
    ]);
  });
});

describe("drafts, sending and voiding", () => {
  it("checks the input: amounts, discount, due date, lines", async () => {
    const ref = { clientId: a.id, taxYear: Y };
    const refusal = async (input: InvoiceInput) => (await createInvoice(preparer.actor, ref, input, IP)) as { ok: false; error: string };
    expect((await refusal(standard({ lines: [{ description: "X", quantity: "1", unitCents: "2.999" }] }))).error).toBe(FEE_MESSAGES.lineAmount);
    expect((await refusal(standard({ lines: [{ description: "X", quantity: "0", unitCents: "10" }] }))).error).toBe(FEE_MESSAGES.lineQuantity);
    expect((await refusal(standard({ lines: [{ description: " ", quantity: "1", unitCents: "10" }] }))).error).toBe(FEE_MESSAGES.lineDescription);
    expect((await refusal(standard({ discountCents: "300" }))).error).toBe(FEE_MESSAGES.discountAmount);
    expect((await refusal(standard({ discountCents: "299" }))).error).toBe(FEE_MESSAGES.totalZero);
    expect((await refusal(standard({ dueOn: dayFromToday(-3) }))).error).toBe(FEE_MESSAGES.dueDate);
    expect((await refusal(standard({ dueOn: "2026-02-30" }))).error).toBe(FEE_MESSAGES.dueDate);
    expect(await getDb().select().from(invoices)).toHaveLength(0);
    expect(await getDb().select().from(invoiceNumbers)).toHaveLength(0);
  });

  it("a draft changes; sending e-mails the client a link and no amounts; a sent invoice never changes", async () => {
    const { invoiceId, number } = await made();
    const edited = standard({
      lines: [
        { description: "Premium Service (per tax year)", quantity: "1", unitCents: "599", priceListId: "premium-service" },
        { description: "Rush Processing", quantity: "2", unitCents: "100.00", priceListId: "not-an-item" },
      ],
      discountCents: "49.50",
      notes: "Thank you for your trust.",
    });
    expect(await updateDraft(preparer.actor, invoiceId, edited, IP)).toEqual({ ok: true });
    const row = await invoiceRow(invoiceId);
    expect(row).toMatchObject({ status: "draft", totalCents: 59_900 + 20_000 - 4_950, discountCents: 4_950, notes: "Thank you for your trust." });
    expect(await getDb().select({ p: invoiceLines.position, item: invoiceLines.priceListId }).from(invoiceLines).orderBy(invoiceLines.position)).toEqual([
      { p: 1, item: "premium-service" },
      { p: 2, item: null },
    ]);
    expect(await auditOf("invoice-updated")).toHaveLength(1);
    // The client sees no draft.
    expect(await clientFees(a.id, Y)).toEqual([]);

    expect((await mails())).toHaveLength(0);
    expect(await sendInvoice(preparer.actor, invoiceId, IP)).toEqual({ ok: true });
    const [mail] = (await mails());
    expect(mail!.to).toBe("alice@example.com");
    expect(mail!.subject).toBe(`Invoice ${number} for your ${Y} tax filing`);
    expect(mail!.text).toContain(`http://localhost:3000/my-tax-filing/${Y}`);
    expect(mail!.text).not.toMatch(/\$|749|599/);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "sent" });
    expect((await invoiceRow(invoiceId)).sentAt).not.toBeNull();
    expect(await auditOf("invoice-sent")).toHaveLength(1);

    expect(await sendInvoice(preparer.actor, invoiceId, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notSendable });
    expect(await updateDraft(preparer.actor, invoiceId, standard(), IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notDraft });
    // The client sees it now; another client does not.
    expect((await clientFees(a.id, Y)).map((i) => [i.number, i.totalCents, i.dueCents])).toEqual([[number, 74_950, 74_950]]);
    expect((await clientFees(a.id, Y))[0]).toMatchObject({ id: invoiceId, number, status: "sent" });
    expect(await clientFees(b.id, Y)).toEqual([]);
  });

  it("only an admin voids, with a reason, and never an invoice on which money was received", async () => {
    const draft = await made();
    expect(await voidInvoice(preparer.actor, draft.invoiceId, "typo", IP)).toEqual({ ok: false, error: FEE_MESSAGES.adminsOnly, status: 403 });
    expect(await voidInvoice(admin.actor, draft.invoiceId, "  ", IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.voidReason });
    expect((await invoiceRow(draft.invoiceId)).status).toBe("draft");
    expect(await voidInvoice(admin.actor, draft.invoiceId, "Made for the wrong year", IP)).toEqual({ ok: true });
    expect(await invoiceRow(draft.invoiceId)).toMatchObject({ status: "void", voidReason: "Made for the wrong year", voidedBy: admin.id });
    expect(await voidInvoice(admin.actor, draft.invoiceId, "again", IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.alreadyVoid });
    expect(await sendInvoice(preparer.actor, draft.invoiceId, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notSendable });

    const partly = await sent();
    expect(await pay(partly.invoiceId, "100")).toMatchObject({ ok: true, status: "partly-paid" });
    expect(await voidInvoice(admin.actor, partly.invoiceId, "no", IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notVoidable });
    expect(await pay(partly.invoiceId, "199")).toMatchObject({ ok: true, status: "paid" });
    expect(await voidInvoice(admin.actor, partly.invoiceId, "no", IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notVoidable });
    expect((await invoiceRow(partly.invoiceId)).status).toBe("paid");
    expect(await auditOf("invoice-voided")).toHaveLength(1);
  });
});

describe("offline payments", () => {
  it("take the day received from New York's calendar: at 9 pm there on January 31, February 1 is the future", async () => {
    const { invoiceId } = await sent();
    // 9 pm EST on January 31, 2026: already February 1 in UTC.
    const evening = <T>(act: () => Promise<T>) => atMoment("2026-02-01T02:00:00Z", act);
    expect(await evening(() => pay(invoiceId, "10", { receivedOn: "2026-02-01" }))).toMatchObject({ ok: false, error: FEE_MESSAGES.paymentDate });
    expect(await evening(() => pay(invoiceId, "10", { receivedOn: "2026-01-31" }))).toMatchObject({ ok: true, status: "partly-paid" });
    // A due date may be New York's today, not the day before.
    const dueOn = (day: string) => evening(() => createInvoice(preparer.actor, { clientId: a.id, taxYear: Y }, standard({ dueOn: day }), IP));
    expect(await dueOn("2026-01-30")).toMatchObject({ ok: false, error: FEE_MESSAGES.dueDate });
    expect(await dueOn("2026-01-31")).toMatchObject({ ok: true });
    expect((await getDb().select().from(payments).where(eq(payments.invoiceId, invoiceId))).map((p) => p.receivedOn)).toEqual(["2026-01-31"]);
  });

  it("add up: partly paid, then paid, which ticks PAYMENT in the same transaction with its audit entry and the client's e-mail", async () => {
    const { invoiceId, number } = await sent();
    expect((await caseRow()).payment).toBe(false);
    expect(await pay(invoiceId, "100.00", { method: "zelle", reference: "ZEL-1" })).toMatchObject({ ok: true, status: "partly-paid", becamePaid: false });
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "partly-paid", paidCents: 10_000 });
    expect((await caseRow()).payment).toBe(false);
    expect((await mails())).toHaveLength(1);

    // More than is still owed is refused, and nothing is stored.
    expect(await pay(invoiceId, "199.01")).toMatchObject({ ok: false, error: FEE_MESSAGES.paymentTooMuch });
    expect(await pay(invoiceId, "10", { receivedOn: dayFromToday(2) })).toMatchObject({ ok: false, error: FEE_MESSAGES.paymentDate });
    expect(await pay(invoiceId, "10", { method: "card" })).toMatchObject({ ok: false, error: FEE_MESSAGES.paymentMethod });
    expect(await pay(invoiceId, "0")).toMatchObject({ ok: false, error: FEE_MESSAGES.paymentAmount });
    expect(await getDb().select().from(payments)).toHaveLength(1);

    expect(await pay(invoiceId, "199", { method: "check", reference: "Check 1042", receivedOn: dayFromToday(-1) })).toMatchObject({ ok: true, status: "paid", becamePaid: true });
    const row = await invoiceRow(invoiceId);
    expect(row).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect(row.paidAt).not.toBeNull();
    expect((await caseRow()).payment).toBe(true);
    const paidEntries = await auditOf("invoice-paid");
    expect(paidEntries).toHaveLength(1);
    expect(paidEntries[0]!.detail).toContain(number);
    expect(await auditOf("payment-recorded")).toHaveLength(2);
    const feePaid = (await mails()).find((m) => m.subject === `Payment received for your ${Y} tax filing`);
    expect(feePaid?.to).toBe("alice@example.com");
    expect(feePaid?.text).toContain(`/my-tax-filing/${Y}`);
    expect(feePaid?.text).not.toContain("$");

    // Nothing more can be received on it.
    expect(await pay(invoiceId, "1")).toMatchObject({ ok: false, error: FEE_MESSAGES.notPayable });
    const fees = await caseFees(preparer.actor, { clientId: a.id, taxYear: Y });
    expect(fees.invoices[0]!.payments.map((p) => [p.method, p.amountCents, p.reference, p.recordedBy, p.refundableCents])).toEqual([
      ["check", 19_900, "Check 1042", "Pat Preparer", 19_900],
      ["zelle", 10_000, "ZEL-1", "Pat Preparer", 10_000],
    ]);
  });

  it("are refused on a draft, a void invoice or no invoice", async () => {
    const draft = await made();
    expect(await pay(draft.invoiceId, "10")).toMatchObject({ ok: false, error: FEE_MESSAGES.notPayable });
    expect(await pay("00000000-0000-4000-8000-000000000000", "10")).toMatchObject({ ok: false, error: FEE_MESSAGES.noSuchInvoice, status: 404 });
    expect(await pay("nope", "10")).toMatchObject({ ok: false, error: FEE_MESSAGES.noSuchInvoice });
    expect(await getDb().select().from(payments)).toHaveLength(0);
  });
});

describe("refunds", () => {
  it("of an offline payment: recorded at once by an admin, up to what is left of it; the invoice is partly paid again", async () => {
    const { invoiceId } = await sent();
    expect(await pay(invoiceId, "299")).toMatchObject({ status: "paid" });
    const [payment] = await getDb().select().from(payments);
    expect(await refundPayment(preparer.actor, payment!.id, { amount: "50" }, IP)).toEqual({ ok: false, error: FEE_MESSAGES.adminsOnly, status: 403 });
    expect(await refundPayment(admin.actor, payment!.id, { amount: "299.01" }, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.refundAmount });
    expect(await getDb().select().from(refunds)).toHaveLength(0);

    expect(await refundPayment(admin.actor, payment!.id, { amount: "50", reason: "Rush not needed" }, IP)).toMatchObject({ ok: true, status: "succeeded", invoiceStatus: "partly-paid" });
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "partly-paid", paidCents: 24_900 });
    expect(await auditOf("refund-recorded")).toHaveLength(1);
    expect(await refundPayment(admin.actor, payment!.id, { amount: "249.01" }, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.refundAmount });
    const fees = await caseFees(admin.actor, { clientId: a.id, taxYear: Y });
    expect(fees.invoices[0]!.payments[0]).toMatchObject({ refundableCents: 24_900, refunds: [expect.objectContaining({ amountCents: 5_000, status: "succeeded", reason: "Rush not needed", requestedBy: "Sam Admin" })] });
    // The PAYMENT flag once ticked stays ticked.
    expect((await caseRow()).payment).toBe(true);
    // The client sees the refund in all, and owes the rest again.
    expect(await clientFees(a.id, Y)).toMatchObject([{ refundedCents: 5_000, paidCents: 24_900, dueCents: 5_000 }]);
  });

  it("of a Stripe payment cannot be made when Stripe is not configured: nothing is stored", async () => {
    const { invoiceId } = await sent();
    const [card] = await getDb()
      .insert(payments)
      .values({ invoiceId, method: "card", status: "succeeded", amountCents: 29_900, receivedOn: today, stripePaymentIntentId: "pi_test_1", stripeCheckoutSessionId: "cs_test_1" })
      .returning();
    expect(await refundPayment(admin.actor, card!.id, { amount: "10" }, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.refundNoStripe });
    expect(await getDb().select().from(refunds)).toHaveLength(0);
  });

  it("of a Stripe payment turn succeeded or failed when Stripe's webhook says so (confirmStripeRefund), once", async () => {
    const { invoiceId } = await sent();
    const [card] = await getDb()
      .insert(payments)
      .values({ invoiceId, method: "card", status: "succeeded", amountCents: 29_900, receivedOn: today, stripePaymentIntentId: "pi_test_2" })
      .returning();
    await getDb().transaction(async (tx) => {
      const { settleInvoiceInTx } = await import("~/server/fees/settle.server");
      await settleInvoiceInTx(tx, invoiceId, null, "", "card payment");
    });
    expect((await invoiceRow(invoiceId)).status).toBe("paid");
    const [pending] = await getDb()
      .insert(refunds)
      .values({ paymentId: card!.id, amountCents: 9_900, status: "pending", stripeRefundId: "re_1", requestedBy: admin.id })
      .returning();
    const [early] = await getDb().insert(refunds).values({ paymentId: card!.id, amountCents: 1_000, status: "pending", requestedBy: admin.id }).returning();

    expect(await getDb().transaction((tx) => confirmStripeRefund(tx, "re_unknown", "succeeded"))).toBeNull();
    expect(await getDb().transaction((tx) => confirmStripeRefund(tx, "re_1", "succeeded"))).toMatchObject({ invoiceId, changed: true });
    expect((await getDb().select().from(refunds).where(eq(refunds.id, pending!.id)))[0]).toMatchObject({ status: "succeeded" });
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "partly-paid", paidCents: 20_000 });
    expect(await getDb().transaction((tx) => confirmStripeRefund(tx, "re_1", "succeeded"))).toMatchObject({ changed: false });
    expect((await auditOf("refund-recorded")).filter((e) => e.actorId === null)).toHaveLength(1);

    // Told before its Stripe id was stored: found by our id in the refund's metadata.
    expect(await getDb().transaction((tx) => confirmStripeRefund(tx, "re_2", "failed", early!.id))).toMatchObject({ changed: true });
    expect((await getDb().select().from(refunds).where(eq(refunds.id, early!.id)))[0]).toMatchObject({ status: "failed", stripeRefundId: "re_2" });
    expect(await auditOf("refund-failed")).toHaveLength(1);
    expect(await invoiceRow(invoiceId)).toMatchObject({ paidCents: 20_000 });
    // Another Stripe id for a refund that has one is not ours to change.
    expect(await getDb().transaction((tx) => confirmStripeRefund(tx, "re_3", "succeeded", pending!.id))).toBeNull();
  });
});

describe("the books the database keeps", () => {
  it("refuses to delete an invoice, a payment or a refund, to change a payment's amount, or a sent invoice's lines", async () => {
    const { invoiceId } = await sent();
    await pay(invoiceId, "100");
    const [payment] = await getDb().select().from(payments);
    await refundPayment(admin.actor, payment!.id, { amount: "10" }, IP);
    await expect(getDb().execute(sql`delete from invoices where id = ${invoiceId}`)).rejects.toThrow();
    await expect(getDb().execute(sql`delete from payments where id = ${payment!.id}`)).rejects.toThrow();
    await expect(getDb().execute(sql`delete from refunds`)).rejects.toThrow();
    await expect(getDb().update(payments).set({ amountCents: 1 }).where(eq(payments.id, payment!.id))).rejects.toThrow();
    await expect(getDb().update(payments).set({ method: "cash" }).where(eq(payments.id, payment!.id))).rejects.toThrow();
    await expect(getDb().update(refunds).set({ amountCents: 1 })).rejects.toThrow();
    // What a received payment held above what was owed stays; a refund nobody asked for is one Stripe told of.
    await expect(getDb().update(payments).set({ excessCents: 1 }).where(eq(payments.id, payment!.id))).rejects.toThrow();
    await expect(getDb().insert(refunds).values({ paymentId: payment!.id, amountCents: 1, status: "succeeded", requestedBy: null })).rejects.toThrow();
    await expect(getDb().update(invoices).set({ number: "INV-1999-00001" }).where(eq(invoices.id, invoiceId))).rejects.toThrow();
    await expect(getDb().update(invoiceLines).set({ unitCents: 1 }).where(eq(invoiceLines.invoiceId, invoiceId))).rejects.toThrow();
    expect(await getDb().select().from(payments)).toMatchObject([{ amountCents: 10_000, method: "wire" }]);
    expect(await getDb().select().from(invoices)).toHaveLength(1);
  });
});

describe("final copies wait for payment", () => {
  it("locks a case while a sent invoice is not paid, unless the firm's setting is off or the case has its exception (both audited)", async () => {
    expect(await finalCopiesLocked(a.id, Y)).toBe(false);
    const draft = await made();
    expect(await finalCopiesLocked(a.id, Y)).toBe(false);
    await sendInvoice(preparer.actor, draft.invoiceId, IP);
    expect(await finalCopiesLocked(a.id, Y)).toBe(true);
    expect(await finalCopiesLocked(b.id, Y)).toBe(false);
    await pay(draft.invoiceId, "100");
    expect(await finalCopiesLocked(a.id, Y)).toBe(true);

    // The firm's setting: admins only, audited when it changes.
    expect(await setFinalCopiesWaitForPayment(preparer.actor, false, IP)).toMatchObject({ ok: false, status: 403 });
    expect(await setFinalCopiesWaitForPayment(admin.actor, false, IP)).toEqual({ ok: true, changed: true });
    expect(await finalCopiesLocked(a.id, Y)).toBe(false);
    expect(await setFinalCopiesWaitForPayment(admin.actor, false, IP)).toEqual({ ok: true, changed: false });
    expect(await setFinalCopiesWaitForPayment(admin.actor, true, IP)).toEqual({ ok: true, changed: true });
    expect(await finalCopiesLocked(a.id, Y)).toBe(true);
    expect((await auditOf("final-copies-gate-changed")).map((e) => e.detail)).toEqual(["final copies no longer wait for payment", "final copies wait for payment"]);

    // The case's exception: with a reason.
    expect(await setFinalCopiesBeforePayment(preparer.actor, { clientId: a.id, taxYear: Y }, true, " ", IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.overrideReason });
    expect(await setFinalCopiesBeforePayment(preparer.actor, { clientId: a.id, taxYear: Y }, true, "Pays on the 1st, long-standing client", IP)).toEqual({ ok: true, changed: true });
    expect(await finalCopiesGate(a.id, Y)).toEqual({ waitForPayment: true, releasedBeforePayment: true, locked: false });
    const entries = await getDb().select().from(auditLog).where(and(eq(auditLog.action, "final-copies-gate-changed"), eq(auditLog.clientId, a.id)));
    expect(entries.map((e) => [e.actorId, e.taxYear, e.detail])).toEqual([[preparer.id, Y, "final copies released before payment: Pays on the 1st, long-standing client"]]);
    expect(await setFinalCopiesBeforePayment(preparer.actor, { clientId: a.id, taxYear: Y }, false, "", IP)).toEqual({ ok: true, changed: true });
    expect(await finalCopiesLocked(a.id, Y)).toBe(true);

    // Paid in full: open.
    await pay(draft.invoiceId, "199");
    expect(await finalCopiesLocked(a.id, Y)).toBe(false);
    // A void invoice does not lock.
    const other = await sent(a);
    expect(await finalCopiesLocked(a.id, Y)).toBe(true);
    await voidInvoice(admin.actor, other.invoiceId, "Sent twice", IP);
    expect(await finalCopiesLocked(a.id, Y)).toBe(false);
  });
});

describe("the client's \"I have sent the payment\"", () => {
  it("is kept on their own payable invoice, audited and told to staff; again within a day it changes nothing", async () => {
    const draft = await made();
    expect(await announcePayment(a.actor, draft.invoiceId, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.noSuchInvoice });
    await sendInvoice(preparer.actor, draft.invoiceId, IP);
    expect(await announcePayment(b.actor, draft.invoiceId, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.noSuchInvoice });
    expect((await invoiceRow(draft.invoiceId)).clientNotifiedAt).toBeNull();

    expect(await announcePayment(a.actor, draft.invoiceId, IP)).toEqual({ ok: true });
    const at = (await invoiceRow(draft.invoiceId)).clientNotifiedAt;
    expect(at).not.toBeNull();
    expect(await auditOf("payment-announced")).toMatchObject([{ actorId: a.id, clientId: a.id, taxYear: Y }]);
    const notice = (await mails()).find((m) => m.to === "staff@taxbridge.test");
    expect(notice?.subject).toContain("said they sent a payment by wire or Zelle");
    expect(notice?.text).toContain(`/admin/clients/${a.id}/${Y}/fee`);

    expect(await announcePayment(a.actor, draft.invoiceId, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notifiedAlready });
    expect((await invoiceRow(draft.invoiceId)).clientNotifiedAt).toEqual(at);
    expect(await auditOf("payment-announced")).toHaveLength(1);
    // A day later it may be said again.
    await getDb().update(invoices).set({ clientNotifiedAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(invoices.id, draft.invoiceId));
    expect(await announcePayment(a.actor, draft.invoiceId, IP)).toEqual({ ok: true });
    expect((await clientFees(a.id, Y))[0]!.clientNotifiedAt).not.toBeNull();

    await pay(draft.invoiceId, "299");
    expect(await announcePayment(a.actor, draft.invoiceId, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.notPayable });
  });
});

describe("the PDFs", () => {
  const textOf = async (pdf: Uint8Array) => (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;

  it("the invoice has the firm, its number, the client, the lines, the total and the wire and Zelle instructions", async () => {
    const { invoiceId, number } = await sent(a, standard({ discountCents: "20", notes: "Crédit for the referral" }));
    const made = await invoicePdf(invoiceId);
    expect(made?.filename).toBe(`${number}.pdf`);
    const text = await textOf(made!.pdf);
    for (const expected of [business.name, business.email, "INVOICE", number, "Alice Aardvark", "alice@example.com", `Tax year ${Y}`, "Standard Filing (per tax year)", "$299.00", "-$20.00", "$279.00", paymentInstructions.wire.routingNumber, paymentInstructions.wire.swift, paymentInstructions.zelle.email, "Crédit for the referral"])
      expect(text, expected).toContain(expected);
    expect(await invoicePdf("00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await receiptPdf(invoiceId)).toBeNull();
  });

  it("the receipt, once paid, lists the payments and the day it was paid in full", async () => {
    const { invoiceId, number } = await sent();
    await pay(invoiceId, "100", { method: "zelle", reference: "ZEL-77" });
    await pay(invoiceId, "199", { method: "check", reference: "Check 1042" });
    const made = await receiptPdf(invoiceId);
    expect(made?.filename).toBe(`${number}-receipt.pdf`);
    const text = await textOf(made!.pdf);
    for (const expected of ["Receipt", business.name, number, "Paid in full on", "Zelle", "ZEL-77", "Check", "Check 1042", "$100.00", "$199.00"])
      expect(text, expected).toContain(expected);
  });

  it("the receipt, after a refund reopened the invoice, does not say it is paid in full: what was paid, refunded and is due", async () => {
    const { invoiceId, number } = await sent();
    await pay(invoiceId, "100", { method: "zelle", reference: "ZEL-77" });
    await pay(invoiceId, "199", { method: "check", reference: "Check 1042" });
    const [zelle] = await getDb().select().from(payments).where(eq(payments.method, "zelle"));
    expect(await refundPayment(admin.actor, zelle!.id, { amount: "10" }, IP)).toMatchObject({ ok: true, invoiceStatus: "partly-paid" });
    const text = await textOf((await receiptPdf(invoiceId))!.pdf);
    expect(text).not.toMatch(/paid in full/i);
    for (const expected of [
      "Receipt",
      number,
      "Status: Partly refunded",
      "Balance due: $10.00",
      "Refund (Zelle)",
      "-$10.00",
      "Received",
      "$299.00",
      "Refunded",
      "Amount due",
      "After the refunds above, $289.00 of the invoice's $299.00 is paid and $10.00 is due again.",
    ])
      expect(text, expected).toContain(expected);
    // Refunded in full: nothing paid, all due.
    const [check] = await getDb().select().from(payments).where(eq(payments.method, "check"));
    await refundPayment(admin.actor, zelle!.id, { amount: "90" }, IP);
    await refundPayment(admin.actor, check!.id, { amount: "199" }, IP);
    const none = await textOf((await receiptPdf(invoiceId))!.pdf);
    expect(none).not.toMatch(/paid in full/i);
    expect(none).toContain("Status: Refunded");
    expect(none).toContain("Balance due: $299.00");
  });
});
