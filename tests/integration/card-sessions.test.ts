import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { toRefundText } from "~/domain/fee-section";
import { FEE_MESSAGES } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, checkoutSessions, invoices, payments } from "~/server/db/schema";
import { startCheckout } from "~/server/fees/checkout.server";
import { caseFees } from "~/server/fees/fee-reads.server";
import { voidInvoice } from "~/server/fees/invoices.server";
import { recordOfflinePayment } from "~/server/fees/payments.server";
import { invoicesToRefund, ledgerRows } from "~/server/fees/payments-report.server";
import { refundPayment } from "~/server/fees/refunds.server";
import { sweepStripe } from "~/server/fees/stripe-sweep.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { sentInvoice } from "../helpers/fees";
import type { TestInvoice } from "../helpers/fees";
import { account, dayFromToday } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { startStripeServer, stripeEnv } from "../helpers/stripe-server";
import type { Delivery, StandInSession, StripeStandIn } from "../helpers/stripe-server";
import { withCookie } from "./helpers";

// Card payment pages that outlive their reason (docs/product/fees.md#paying,
// docs/decisions/0033-card-payments-and-refunds-that-hold.md), against the local stand-in for
// Stripe: a page the invoice no longer wants is expired when a payment is recorded or the invoice
// voided (again by the sweep when Stripe does not answer), and money that arrives anyway is
// recorded as money to give back, shown to admins and in the CSV.

const Y = currentFilingYear();
const IP = "203.0.113.7";
const today = dayFromToday(0);
const webhook = await routeModule("routes/api/stripe-webhook.ts");
const paymentsRoute = await routeModule("routes/admin/payments.tsx");
const csvRoute = await routeModule("routes/admin/payments-csv.ts");

async function postWebhook(payload: string, signature: string): Promise<Delivery> {
  const request = new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": signature } });
  const response = (await webhook.action(routeArgs(request, { clientIp: "3.18.12.63" }))) as Response;
  return { status: response.status, body: await response.text() };
}

let stripe: StripeStandIn;
let a: Account;
let admin: Account;

beforeAll(async () => {
  stripe = await startStripeServer({ deliver: postWebhook });
  Object.assign(process.env, stripeEnv(stripe));
  resetEnvForTests();
});

afterAll(async () => {
  for (const name of Object.keys(stripeEnv(stripe))) delete process.env[name];
  resetEnvForTests();
  await stripe.close();
});

beforeEach(async () => {
  stripe.requests.length = 0;
  stripe.refuse(null);
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  a = await account("alice@example.com", "Alice Aardvark");
});

/** The client opens the card page of `invoice`: the session the stand-in holds. */
async function checkout(invoice: TestInvoice): Promise<StandInSession> {
  const started = await startCheckout(a, invoice.id, IP);
  if (!started.ok) throw new Error(started.message);
  const id = /\/checkout\/(cs_test_[0-9a-f]+)$/.exec(started.url)?.[1] ?? "";
  return stripe.sessions.get(id) as StandInSession;
}

const wire = (invoice: TestInvoice, amount: string) => recordOfflinePayment(admin.actor, invoice.id, { method: "wire", amount, reference: "WIRE-1", receivedOn: today }, IP);
const expireCalls = (session: StandInSession) => stripe.requests.filter((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${session.id}/expire`);
const invoiceRow = async (id: string) => (await getDb().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const sessionRows = (invoiceId: string) => getDb().select().from(checkoutSessions).where(eq(checkoutSessions.invoiceId, invoiceId)).orderBy(checkoutSessions.createdAt);
const sessionsAtStripe = (invoice: TestInvoice) => [...stripe.sessions.values()].filter((x) => (x as StandInSession).metadata.invoiceId === invoice.id);
const refuseExpiring = () => stripe.refuse((r) => r.path.endsWith("/expire"));

describe("a card page the invoice no longer wants", () => {
  it("is expired when a wire is recorded: the $299.00 page can no longer be paid, only a new $199.00 one", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const first = await checkout(invoice);
    expect(first.amount_total).toBe(29_900);

    expect(await wire(invoice, "100")).toMatchObject({ ok: true, status: "partly-paid" });
    expect(expireCalls(first)).toHaveLength(1);
    expect(stripe.sessions.get(first.id)?.status).toBe("expired");
    await expect(stripe.completeSession(first.id, "card")).rejects.toThrow(/expired/);

    const second = await checkout(invoice);
    expect(second.id).not.toBe(first.id);
    expect(second.amount_total).toBe(19_900);
    expect((await sessionRows(invoice.id)).map((r) => [r.stripeSessionId, r.amountCents, r.status])).toEqual([
      [first.id, 29_900, "expired"],
      [second.id, 19_900, "open"],
    ]);
    expect((await stripe.completeSession(second.id, "card")).status).toBe(200);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect((await getDb().select().from(payments).where(eq(payments.invoiceId, invoice.id))).map((p) => [p.method, p.amountCents, p.excessCents])).toEqual([
      ["wire", 10_000, 0],
      ["card", 19_900, 0],
    ]);
  });

  it("is expired when the invoice is voided", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const first = await checkout(invoice);
    expect(await voidInvoice(admin.actor, invoice.id, "Made twice", IP)).toEqual({ ok: true });
    expect(stripe.sessions.get(first.id)?.status).toBe("expired");
    expect(await sessionRows(invoice.id)).toMatchObject([{ status: "expired" }]);
    expect(await startCheckout(a, invoice.id, IP)).toEqual({ ok: false, status: 409, message: FEE_MESSAGES.notPayable });
  });

  it("lives a short time: one about to expire is expired and a new one made", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const first = await checkout(invoice);
    await getDb().update(checkoutSessions).set({ expiresAt: new Date(Date.now() + 5 * 60_000) }).where(eq(checkoutSessions.stripeSessionId, first.id));
    const second = await checkout(invoice);
    expect(second.id).not.toBe(first.id);
    expect(stripe.sessions.get(first.id)?.status).toBe("expired");
  });

  it("is the same page for two requests at once: one session", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const [one, two] = await Promise.all([startCheckout(a, invoice.id, IP), startCheckout(a, invoice.id, IP)]);
    expect(one.ok && two.ok).toBe(true);
    expect(one).toEqual(two);
    expect(sessionsAtStripe(invoice)).toHaveLength(1);
    expect(await sessionRows(invoice.id)).toHaveLength(1);
  });

  it("when Stripe cannot be reached to expire it: the wire is recorded all the same, no second page is made, and the sweep expires it", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const first = await checkout(invoice);
    refuseExpiring();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await wire(invoice, "100")).toMatchObject({ ok: true, status: "partly-paid" });
      expect(await getDb().select().from(payments)).toHaveLength(1);
      expect(await sessionRows(invoice.id)).toMatchObject([{ status: "open", unwantedAt: expect.any(Date) }]);
      // The client asks again: no new page while the old one may still be paid.
      expect(await startCheckout(a, invoice.id, IP)).toEqual({ ok: false, status: 502, message: FEE_MESSAGES.cardUnavailable });
      expect(sessionsAtStripe(invoice)).toHaveLength(1);
    } finally {
      errors.mockRestore();
    }
    stripe.refuse(null);
    expect(await sweepStripe()).toMatchObject({ sessionsOpen: 0 });
    expect(stripe.sessions.get(first.id)?.status).toBe("expired");
    expect(await sessionRows(invoice.id)).toMatchObject([{ status: "expired" }]);
    expect((await checkout(invoice)).amount_total).toBe(19_900);
  });
});

describe("money that arrives anyway", () => {
  async function adminPage() {
    const result = await paymentsRoute.loader(routeArgs(withCookie("/admin/payments", admin.cookie)));
    return unwrap<{ toRefund: Array<{ number: string; toRefundCents: number; status: string }>; month: { payments: Array<{ amountCents: number; excessCents: number }> } }>(result).body;
  }
  async function csv(): Promise<string[]> {
    const response = (await csvRoute.loader(routeArgs(withCookie("/admin/payments.csv", admin.cookie)))) as Response;
    return (await response.text()).trimEnd().split("\r\n");
  }

  it("paid after a wire (the page could not be expired): recorded as $100.00 to give back, on the Fee section, the Payments page and in the CSV", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const first = await checkout(invoice);
    refuseExpiring();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await wire(invoice, "100");
    } finally {
      errors.mockRestore();
    }
    expect((await stripe.completeSession(first.id, "card")).status).toBe(200);

    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 39_900 });
    const [card] = await getDb().select().from(payments).where(eq(payments.method, "card"));
    expect(card).toMatchObject({ amountCents: 29_900, excessCents: 10_000 });
    const details = (await getDb().select().from(auditLog).where(eq(auditLog.action, "payment-recorded"))).map((e) => e.detail);
    expect(details).toContain(`${invoice.number}: $299.00 by card through Stripe received; $100.00 more than was owed: to refund`);

    const fees = await caseFees(admin.actor, { clientId: a.id, taxYear: Y });
    expect(fees.invoices[0]).toMatchObject({ toRefundCents: 10_000 });
    expect(toRefundText(fees.invoices[0]!)).toBe("This invoice received more than its total: refund $100.00 to the client.");
    expect(fees.invoices[0]!.payments.find((p) => p.method === "card")).toMatchObject({ excessCents: 10_000, refundableCents: 29_900 });
    const page = await adminPage();
    expect(page.toRefund).toEqual([expect.objectContaining({ number: invoice.number, toRefundCents: 10_000, status: "paid" })]);
    expect(page.month.payments.find((p) => p.amountCents === 29_900)).toMatchObject({ excessCents: 10_000 });

    const lines = await csv();
    expect(lines.filter((l) => l.includes(invoice.number))).toEqual([
      `"${today}","${invoice.number}","Alice Aardvark","alice@example.com","${Y}","Wire transfer","WIRE-1","100.00","payment","succeeded"`,
      `"${today}","${invoice.number}","Alice Aardvark","alice@example.com","${Y}","Card","","299.00","payment","succeeded"`,
      `"${today}","${invoice.number}","Alice Aardvark","alice@example.com","${Y}","Card","","100.00","overpayment","to refund"`,
    ]);

    // The admin refunds the $100.00: asked of Stripe, nothing is left to give back.
    expect(await refundPayment(admin.actor, card!.id, { amount: "100", reason: "Paid twice" }, IP)).toMatchObject({ ok: true, status: "pending" });
    expect(await invoicesToRefund()).toEqual([]);
    expect((await caseFees(admin.actor, { clientId: a.id, taxYear: Y })).invoices[0]).toMatchObject({ toRefundCents: 0 });
    expect((await ledgerRows()).filter((r) => r.kind === "overpayment")).toMatchObject([{ amountCents: 10_000, status: "refunded" }]);
  });

  it("paid on a void invoice: all of it to give back", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const first = await checkout(invoice);
    refuseExpiring();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await voidInvoice(admin.actor, invoice.id, "Made twice", IP)).toEqual({ ok: true });
    } finally {
      errors.mockRestore();
    }
    expect((await stripe.completeSession(first.id, "card")).status).toBe(200);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "void", paidCents: 29_900 });
    expect(await getDb().select().from(payments)).toMatchObject([{ amountCents: 29_900, excessCents: 29_900, status: "succeeded" }]);
    const details = (await getDb().select().from(auditLog).where(eq(auditLog.action, "payment-recorded"))).map((e) => e.detail);
    expect(details).toEqual([`${invoice.number}: $299.00 by card through Stripe received; the invoice is void: $299.00 to refund`]);
    const fees = await caseFees(admin.actor, { clientId: a.id, taxYear: Y });
    expect(toRefundText(fees.invoices[0]!)).toBe("This invoice is void, yet it received money: refund $299.00 to the client.");
    expect((await adminPage()).toRefund).toEqual([expect.objectContaining({ number: invoice.number, toRefundCents: 29_900, status: "void" })]);
    expect((await csv()).filter((l) => l.includes('"overpayment"'))).toEqual([
      `"${today}","${invoice.number}","Alice Aardvark","alice@example.com","${Y}","Card","","299.00","overpayment","to refund"`,
    ]);
  });
});
