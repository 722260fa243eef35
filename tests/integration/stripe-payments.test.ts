import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { newYorkDay } from "~/domain/business-days";
import { FEE_MESSAGES, FEE_TEXTS } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, checkoutSessions, clientCases, invoices, mailOutbox, payments, refunds, stripeEvents } from "~/server/db/schema";
import { checkoutState, startCheckout } from "~/server/fees/checkout.server";
import { CHECKOUT_LIFETIME_MS, checkoutIdempotencyKey } from "~/server/fees/checkout-sessions.server";
import { refundPayment } from "~/server/fees/refunds.server";
import { stripeAccount } from "~/server/fees/stripe.server";
import { bodyLimitFor, STRIPE_EVENT_MAX_BYTES } from "~/server/http/body-limit.server";
import { isAllowedOrigin } from "~/server/http/origin-check.server";
import { outboxSettled } from "~/server/mail/outbox.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { sentInvoice } from "../helpers/fees";
import type { TestInvoice } from "../helpers/fees";
import { atMoment } from "../helpers/clock";
import { account } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { startSmtpServer } from "../helpers/smtp-server";
import { startStripeServer, stripeEnv } from "../helpers/stripe-server";
import type { Delivery, StandInSession, StripeStandIn } from "../helpers/stripe-server";
import { sentMail } from "./helpers";

// Card and bank payments through Stripe Checkout against the local stand-in
// (scripts/lib/stripe-stand-in.js): the Checkout Session the server makes (its amount read from
// the database), and the webhook, the only way a Stripe payment or refund reaches the books.

const Y = currentFilingYear();
const IP = "203.0.113.7";
/** One of the addresses Stripe sends webhooks from. */
const STRIPE_IP = "3.18.12.63";
const WEBHOOK_URL = "http://localhost:3000/api/stripe/webhook";

const webhook = await routeModule("routes/api/stripe-webhook.ts");
const feeRoute = await routeModule("routes/portal/filing-fee.ts");

/** POSTs `payload` to the webhook route as Stripe does, with `signature` (null: no header). */
async function postWebhook(payload: string, signature: string | null): Promise<Delivery> {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  if (signature !== null) headers["Stripe-Signature"] = signature;
  const request = new Request(WEBHOOK_URL, { method: "POST", body: payload, headers });
  const response = (await webhook.action(routeArgs(request, { clientIp: STRIPE_IP }))) as Response;
  return { status: response.status, body: await response.text() };
}

let stripe: StripeStandIn;
let a: Account;
let b: Account;
let admin: Account;

function configureStripe(on: boolean) {
  for (const [name, value] of Object.entries(stripeEnv(stripe))) {
    if (on) process.env[name] = value;
    else delete process.env[name];
  }
  resetEnvForTests();
}

beforeAll(async () => {
  stripe = await startStripeServer({ deliver: postWebhook });
  configureStripe(true);
});

afterAll(async () => {
  configureStripe(false);
  await stripe.close();
});

beforeEach(async () => {
  stripe.requests.length = 0;
  stripe.refuse(null);
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  a = await account("alice@example.com", "Alice Aardvark");
  b = await account("bob@example.com", "Bob Bobolink");
});

const mails = () => sentMail();
const invoiceRow = async (id: string) => (await getDb().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const paymentsOf = (invoiceId: string) => getDb().select().from(payments).where(eq(payments.invoiceId, invoiceId));
const auditOf = (action: string) => getDb().select().from(auditLog).where(eq(auditLog.action, action as never));
const paymentFlag = async (clientId: string) =>
  (await getDb().select({ payment: clientCases.payment }).from(clientCases).where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, Y))))[0]?.payment;

/** Opens a Checkout Session for `invoice` as its client: the session the stand-in holds. */
async function checkout(who: Account, invoice: TestInvoice): Promise<StandInSession> {
  const started = await startCheckout(who, invoice.id, IP);
  if (!started.ok) throw new Error(started.message);
  const id = /\/checkout\/(cs_test_[0-9a-f]+)$/.exec(started.url)?.[1] ?? "";
  return stripe.sessions.get(id) as StandInSession;
}

describe("opening a Checkout Session", () => {
  it("asks Stripe for what the client's invoice still owes, read from the database, once per invoice and amount", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    await getDb().update(invoices).set({ paidCents: 10_000, status: "partly-paid" }).where(eq(invoices.id, invoice.id));

    const started = await startCheckout(a, invoice.id, IP);
    expect(started.ok).toBe(true);
    const url = started.ok ? started.url : "";
    expect(url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_[0-9a-f]+$`));
    expect(stripe.requests).toHaveLength(1);
    const [request] = stripe.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/checkout/sessions");
    // One row per session made, its key the row's.
    const [row, ...more] = await getDb().select().from(checkoutSessions);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ invoiceId: invoice.id, amountCents: 19_900, status: "open", url, unwantedAt: null });
    expect(request?.idempotencyKey).toBe(`checkout-${row!.id}`);
    expect(request?.idempotencyKey).toBe(checkoutIdempotencyKey(row!.id));
    // A short life: Stripe takes 30 minutes at the least.
    const expiresAt = Number((request?.body as { expires_at: string }).expires_at);
    expect(expiresAt).toBe(Math.floor(row!.expiresAt.getTime() / 1000));
    expect(expiresAt * 1000 - Date.now()).toBeGreaterThan(30 * 60_000);
    expect(expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(CHECKOUT_LIFETIME_MS);
    const metadata = { invoiceId: invoice.id, clientId: a.id, taxYear: String(Y), number: invoice.number, checkoutId: row!.id };
    expect(request?.body).toEqual({
      expires_at: String(expiresAt),
      mode: "payment",
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "19900", product_data: { name: `Invoice ${invoice.number} (tax year ${Y})` } } }],
      allowed_payment_method_types: ["card", "us_bank_account"],
      customer_email: "alice@example.com",
      client_reference_id: invoice.id,
      metadata,
      payment_intent_data: { metadata },
      success_url: `http://localhost:3000/my-tax-filing/${Y}?checkout=done&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `http://localhost:3000/my-tax-filing/${Y}?checkout=cancelled`,
    });

    // Again (a second tab, a double click): the same page, without asking Stripe for another.
    const again = await startCheckout(a, invoice.id, IP);
    expect(again).toEqual({ ok: true, url });
    expect(stripe.requests).toHaveLength(1);
    expect(stripe.sessions.size).toBe(1);
    // Nothing is recorded until Stripe's webhook says so.
    expect(await paymentsOf(invoice.id)).toEqual([]);
    expect(await checkoutState(a, /cs_test_[0-9a-f]+/.exec(url)![0])).toBe("confirming");
  });

  it("takes no amount from anyone: an amount passed along is not used", async () => {
    const invoice = await sentInvoice(a.id, Y, 45_000);
    expect(startCheckout.length).toBe(3);
    // As if a form's "amount" field were handed on: the function has no place for it.
    const loose = startCheckout as unknown as (...args: unknown[]) => ReturnType<typeof startCheckout>;
    expect((await loose(a, invoice.id, IP, 100, { amountCents: 100 })).ok).toBe(true);
    const body = stripe.requests[0]?.body as { line_items: Array<{ price_data: { unit_amount: string } }> };
    expect(body.line_items[0]?.price_data.unit_amount).toBe("45000");
  });

  it("from the filing page's Pay by card: the browser is sent to Stripe's page for the amount due, whatever amount the form carries; another client's invoice is a 404", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const post = (who: Account, fields: Record<string, string>) =>
      routeOutcome(() =>
        feeRoute.action({
          ...routeArgs(new Request(`http://localhost:3000/my-tax-filing/${Y}/fee`, { method: "POST", body: new URLSearchParams(fields), headers: { cookie: who.cookie } })),
          params: { year: String(Y) },
        } as never),
      );
    const paid = await post(a, { intent: "pay-card", invoiceId: invoice.id, amount: "1.00", amountCents: "100", unit_amount: "100" });
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_[0-9a-f]+$`));
    const body = stripe.requests[0]?.body as { line_items: Array<{ price_data: { unit_amount: string } }> };
    expect(body.line_items[0]?.price_data.unit_amount).toBe("29900");
    expect((await post(b, { intent: "pay-card", invoiceId: invoice.id })).status).toBe(404);
    expect(stripe.requests).toHaveLength(1);
  });

  it("refuses another client's invoice, and an id that is no invoice, without asking Stripe", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const noSuch = { ok: false, status: 404, message: FEE_MESSAGES.noSuchInvoice };
    expect(await startCheckout(b, invoice.id, IP)).toEqual(noSuch);
    expect(await startCheckout(a, randomUUID(), IP)).toEqual(noSuch);
    expect(await startCheckout(a, "not-an-id", IP)).toEqual(noSuch);
    expect(stripe.requests).toEqual([]);
  });

  it("refuses an invoice that cannot be paid now: a draft, a void one, a paid one, one whose bank payment is clearing", async () => {
    const notPayable = { ok: false, status: 409, message: FEE_MESSAGES.notPayable };
    for (const status of ["draft", "void", "paid"] as const) {
      const invoice = await sentInvoice(a.id, Y, 29_900, status);
      expect(await startCheckout(a, invoice.id, IP)).toEqual(notPayable);
    }
    const clearing = await sentInvoice(a.id, Y, 29_900);
    await getDb()
      .insert(payments)
      .values({ invoiceId: clearing.id, method: "bank", status: "processing", amountCents: 29_900, receivedOn: "2026-01-05", stripeCheckoutSessionId: "cs_test_clearing" });
    expect(await startCheckout(a, clearing.id, IP)).toEqual({ ok: false, status: 409, message: FEE_TEXTS.processing });
    expect(stripe.requests).toEqual([]);
  });

  it("says card payments are not set up when Stripe is not configured", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    configureStripe(false);
    try {
      expect(stripeAccount()).toBeNull();
      expect(await startCheckout(a, invoice.id, IP)).toEqual({ ok: false, status: 503, message: FEE_MESSAGES.cardNotConfigured });
      // Nor is there a webhook.
      const event = stripe.signedEvent("checkout.session.completed", { id: "cs_test_x", object: "checkout.session" });
      expect((await postWebhook(event.payload, event.signature)).status).toBe(404);
    } finally {
      configureStripe(true);
    }
    expect(stripe.requests).toEqual([]);
  });

  it("says the card page could not be opened when Stripe fails, and logs no secret", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    stripe.refuse(() => true);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await startCheckout(a, invoice.id, IP)).toEqual({ ok: false, status: 502, message: FEE_MESSAGES.cardUnavailable });
      const logged = errors.mock.calls.flat().map(String).join("\n");
      expect(logged).toContain("[fees]");
      expect(logged).not.toContain("sk_test_");
      expect(logged).not.toContain("alice@example.com");
    } finally {
      errors.mockRestore();
    }
  });
});

describe("the webhook", () => {
  it("records a card payment from checkout.session.completed: the invoice is paid, PAYMENT ticked, the receipt e-mailed", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    const sent = await stripe.completeSession(session.id, "card");
    expect(sent.status).toBe(200);

    const [payment, ...others] = await paymentsOf(invoice.id);
    expect(others).toEqual([]);
    expect(payment).toMatchObject({
      method: "card",
      status: "succeeded",
      amountCents: 29_900,
      receivedOn: newYorkDay(),
      stripeCheckoutSessionId: session.id,
      stripePaymentIntentId: session.payment_intent,
      recordedBy: null,
    });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect(await paymentFlag(a.id)).toBe(true);
    expect((await auditOf("payment-recorded")).map((e) => [e.actorId, e.clientId, e.ipAddress])).toEqual([[null, a.id, STRIPE_IP]]);
    expect(await auditOf("invoice-paid")).toHaveLength(1);
    const receipts = (await mails()).filter((m) => m.subject === `Payment received for your ${Y} tax filing`);
    expect(receipts.map((m) => m.to)).toEqual(["alice@example.com"]);
    expect(receipts[0]?.text).toContain(invoice.number);
    expect(await getDb().select().from(stripeEvents)).toMatchObject([{ id: sent.event.id, type: "checkout.session.completed" }]);
    // The page the client comes back to reads the books; another client learns nothing.
    expect(await checkoutState(a, session.id)).toBe("paid");
    expect(await checkoutState(b, session.id)).toBe("confirming");
  });

  it("books a payment Stripe tells of at 9 pm in New York on January 31 on January 31, New York's day", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    // 9 pm EST on Saturday January 31, 2026: already February 1 in UTC.
    const sent = await atMoment("2026-02-01T02:00:00Z", async () => stripe.completeSession((await checkout(a, invoice)).id, "card"));
    expect(sent.status).toBe(200);
    expect((await paymentsOf(invoice.id)).map((p) => [p.status, p.receivedOn])).toEqual([["succeeded", "2026-01-31"]]);
  });

  it("answers Stripe at once while the mail server takes the connection and never answers; the receipt waits in the outbox", async () => {
    const smtp = await startSmtpServer("hang");
    process.env.SMTP_URL = smtp.url;
    resetEnvForTests();
    try {
      const invoice = await sentInvoice(a.id, Y, 29_900);
      const session = await checkout(a, invoice);
      const start = performance.now();
      const sent = await stripe.completeSession(session.id, "card");
      // Waiting for the mail server would take its 15 seconds (mail.server.ts): Stripe gives up on a
      // webhook after 10. The bound leaves room for a loaded machine.
      expect(performance.now() - start).toBeLessThan(8_000);
      expect(sent.status).toBe(200);
      expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 29_900 });
      const [receipt] = await getDb().select({ kind: mailOutbox.kind, to: mailOutbox.recipient }).from(mailOutbox);
      expect(receipt).toEqual({ kind: "fee-paid", to: "alice@example.com" });
    } finally {
      vi.spyOn(console, "error").mockImplementation(() => {});
      smtp.mode = "refuse";
      await outboxSettled();
      vi.restoreAllMocks();
      delete process.env.SMTP_URL;
      resetEnvForTests();
      await smtp.close();
    }
  });

  it("refuses a forged, tampered, unsigned or stale event with 400 and stores nothing", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    const paid = { ...session, status: "complete", payment_status: "paid", payment_intent: "pi_forged" };
    const errors = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const forged = stripe.signedEvent("checkout.session.completed", paid, { secret: "whsec_someone_else" });
      expect(await postWebhook(forged.payload, forged.signature)).toMatchObject({ status: 400 });
      const genuine = stripe.signedEvent("checkout.session.completed", paid);
      const tampered = genuine.payload.replace('"amount_total": 29900', '"amount_total": 1');
      expect(tampered).not.toBe(genuine.payload);
      expect(await postWebhook(tampered, genuine.signature)).toMatchObject({ status: 400 });
      expect(await postWebhook(genuine.payload, null)).toMatchObject({ status: 400 });
      expect(await postWebhook(genuine.payload, "t=1,v1=00")).toMatchObject({ status: 400 });
      // Signed more than 300 seconds ago: a replay of an old delivery.
      const stale = stripe.signedEvent("checkout.session.completed", paid, { timestamp: Math.floor(Date.now() / 1000) - 301 });
      expect(await postWebhook(stale.payload, stale.signature)).toMatchObject({ status: 400 });
    } finally {
      errors.mockRestore();
    }
    expect(await getDb().select().from(stripeEvents)).toEqual([]);
    expect(await paymentsOf(invoice.id)).toEqual([]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
  });

  it("processes an event delivered again once, and two deliveries at once once", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    const paid = { ...session, status: "complete", payment_status: "paid", payment_intent: "pi_twice" };
    const event = stripe.signedEvent("checkout.session.completed", paid);
    const [first, second] = await Promise.all([postWebhook(event.payload, event.signature), postWebhook(event.payload, event.signature)]);
    expect([first?.status, second?.status]).toEqual([200, 200]);
    // Delivered again later (a retry), and the same session told of in another event.
    expect((await postWebhook(event.payload, event.signature)).status).toBe(200);
    const other = stripe.signedEvent("checkout.session.completed", paid);
    expect((await postWebhook(other.payload, other.signature)).status).toBe(200);

    expect(await paymentsOf(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect(await auditOf("invoice-paid")).toHaveLength(1);
    expect((await mails()).filter((m) => m.subject === `Payment received for your ${Y} tax filing`)).toHaveLength(1);
    expect((await getDb().select().from(stripeEvents)).map((e) => e.id).sort()).toEqual([event.event.id, other.event.id].sort());
  });

  it("keeps a bank payment processing until it clears, then records it paid", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    expect((await stripe.completeSession(session.id, "bank")).status).toBe(200);
    expect(await paymentsOf(invoice.id)).toMatchObject([{ method: "bank", status: "processing", amountCents: 29_900 }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
    expect(await paymentFlag(a.id)).toBe(false);
    expect(await auditOf("payment-processing")).toHaveLength(1);
    expect(await checkoutState(a, session.id)).toBe("processing");
    // While it clears, no second payment can be started.
    expect(await startCheckout(a, invoice.id, IP)).toEqual({ ok: false, status: 409, message: FEE_TEXTS.processing });

    expect((await stripe.asyncPayment(session.id, "succeeded")).status).toBe(200);
    expect(await paymentsOf(invoice.id)).toMatchObject([{ method: "bank", status: "succeeded", amountCents: 29_900 }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect(await paymentFlag(a.id)).toBe(true);
    expect(await checkoutState(a, session.id)).toBe("paid");
    expect((await mails()).filter((m) => m.subject === `Payment received for your ${Y} tax filing`)).toHaveLength(1);
  });

  it("records a bank payment that failed, and the invoice stays to be paid", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    await stripe.completeSession(session.id, "bank");
    expect((await stripe.asyncPayment(session.id, "failed")).status).toBe(200);
    expect(await paymentsOf(invoice.id)).toMatchObject([{ method: "bank", status: "failed" }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
    expect(await auditOf("payment-failed")).toHaveLength(1);
    expect(await checkoutState(a, session.id)).toBe("failed");
    // A later word on it (out of order) changes nothing.
    expect((await stripe.asyncPayment(session.id, "succeeded")).status).toBe(200);
    expect(await paymentsOf(invoice.id)).toMatchObject([{ status: "failed" }]);
    // The client can try again.
    expect((await startCheckout(a, invoice.id, IP)).ok).toBe(true);
  });

  it("records nothing for a session about another client's invoice, an unknown invoice or another currency", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    const paid = { ...session, status: "complete", payment_status: "paid", payment_intent: "pi_elsewhere" };
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const variants = [
        { ...paid, id: "cs_test_other_client", metadata: { ...paid.metadata, clientId: b.id } },
        { ...paid, id: "cs_test_unknown", metadata: { ...paid.metadata, invoiceId: randomUUID() } },
        { ...paid, id: "cs_test_not_uuid", metadata: { ...paid.metadata, invoiceId: "1 or 1=1" } },
        { ...paid, id: "cs_test_euro", currency: "eur" },
        { ...paid, id: "cs_test_nothing", metadata: {} },
      ];
      for (const object of variants) expect((await stripe.sendEvent("checkout.session.completed", object)).status).toBe(200);
      expect(warnings).toHaveBeenCalledTimes(variants.length);
    } finally {
      warnings.mockRestore();
    }
    expect(await getDb().select().from(payments)).toEqual([]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
    // Each is stored as seen: Stripe is not asked to send it again.
    expect(await getDb().select().from(stripeEvents)).toHaveLength(5);
  });

  it("records what Stripe received even above what was due: the invoice is paid, the part above kept to give back", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    const more = { ...session, amount_total: 35_000, amount_subtotal: 35_000, status: "complete", payment_status: "paid", payment_intent: "pi_more" };
    expect((await stripe.sendEvent("checkout.session.completed", more)).status).toBe(200);
    expect(await paymentsOf(invoice.id)).toMatchObject([{ amountCents: 35_000, status: "succeeded", excessCents: 5_100 }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 35_000 });
  });

  it("confirms a pending refund from refund.updated: the invoice goes back to partly paid, then to sent", async () => {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    await stripe.completeSession(session.id, "card");
    const [payment] = await paymentsOf(invoice.id);
    // A refund as refunds.server.ts asks for one: Stripe's refund, and our pending row.
    const refundOf = async (cents: number) => {
      const refund = await stripeAccount()!.client.refunds.create({ payment_intent: payment!.stripePaymentIntentId!, amount: cents });
      expect(refund.status).toBe("pending");
      await getDb().insert(refunds).values({ paymentId: payment!.id, amountCents: cents, status: "pending", stripeRefundId: refund.id, requestedBy: admin.id });
      return refund.id;
    };
    const refundRow = async (id: string) => (await getDb().select().from(refunds).where(eq(refunds.stripeRefundId, id)))[0]!;

    const part = await refundOf(10_000);
    // Still pending: nothing moves.
    expect((await stripe.refundUpdate(part, "pending")).status).toBe(200);
    expect(await refundRow(part)).toMatchObject({ status: "pending", confirmedAt: null });
    const done = await stripe.refundUpdate(part, "succeeded");
    expect(done.status).toBe(200);
    expect(await refundRow(part)).toMatchObject({ status: "succeeded" });
    expect((await refundRow(part)).confirmedAt).toBeInstanceOf(Date);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "partly-paid", paidCents: 19_900 });
    expect(await auditOf("refund-recorded")).toHaveLength(1);

    // One Stripe refuses; then the rest through charge.refunded, which lists the charge's refunds.
    const refused = await refundOf(19_900);
    expect((await stripe.refundUpdate(refused, "failed")).status).toBe(200);
    expect(await refundRow(refused)).toMatchObject({ status: "failed" });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "partly-paid", paidCents: 19_900 });
    expect(await auditOf("refund-failed")).toHaveLength(1);
    const rest = await refundOf(19_900);
    const charge = { id: "ch_test", object: "charge", refunds: { object: "list", data: [{ ...stripe.refunds.get(rest)!, status: "succeeded" }, { ...stripe.refunds.get(part)!, status: "succeeded" }] } };
    expect((await stripe.sendEvent("charge.refunded", charge)).status).toBe(200);
    expect(await refundRow(rest)).toMatchObject({ status: "succeeded" });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
    // The refund told of again changes nothing.
    expect((await stripe.refundUpdate(part, "succeeded")).status).toBe(200);
    expect(await auditOf("refund-recorded")).toHaveLength(2);
  });

  it("stores an event of another kind as seen and changes nothing", async () => {
    const sent = await stripe.sendEvent("customer.created", { id: "cus_test", object: "customer" });
    expect(sent.status).toBe(200);
    expect(await getDb().select().from(stripeEvents)).toMatchObject([{ id: sent.event.id, type: "customer.created" }]);
  });

  it("answers a GET with 405", async () => {
    const response = (await webhook.loader(routeArgs(new Request(WEBHOOK_URL)))) as Response;
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});

describe("a refund made in Stripe's Dashboard", () => {
  async function paidByCard() {
    const invoice = await sentInvoice(a.id, Y, 29_900);
    const session = await checkout(a, invoice);
    await stripe.completeSession(session.id, "card");
    const [payment] = await paymentsOf(invoice.id);
    return { invoice, payment: payment!, paymentIntent: stripe.sessions.get(session.id)!.payment_intent as string };
  }
  const refundsOf = (paymentId: string) => getDb().select().from(refunds).where(eq(refunds.paymentId, paymentId));

  it("is recorded in the books once (refund.created and charge.refunded, each delivered again), audited, and reopens the invoice as ours do", async () => {
    const { invoice, payment, paymentIntent } = await paidByCard();
    const { refund, created, refunded } = await stripe.dashboardRefund(paymentIntent, 10_000);
    expect([created.status, refunded.status]).toEqual([200, 200]);
    // Delivered again, and told of again in another event.
    const again = stripe.signedEvent("refund.created", { ...refund }, { id: created.event.id });
    expect((await postWebhook(again.payload, again.signature)).status).toBe(200);
    expect((await stripe.sendEvent("charge.refunded", stripe.chargeOf(paymentIntent))).status).toBe(200);
    expect((await stripe.sendEvent("refund.updated", { ...refund })).status).toBe(200);

    expect(await refundsOf(payment.id)).toMatchObject([
      { amountCents: 10_000, status: "succeeded", stripeRefundId: refund.id, requestedBy: null, reason: "Made in Stripe's Dashboard", confirmedAt: expect.any(Date) },
    ]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "partly-paid", paidCents: 19_900 });
    expect((await auditOf("refund-recorded")).map((e) => [e.actorId, e.clientId, e.detail])).toEqual([
      [null, a.id, `${invoice.number}: $100.00 of a Card payment of $299.00 refunded in Stripe's Dashboard`],
    ]);
    // What is left of the payment to refund from here counts it.
    expect(await refundPayment(admin.actor, payment.id, { amount: "199.01" }, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.refundAmount });

    // The rest refunded there too: the invoice is owed again.
    await stripe.dashboardRefund(paymentIntent, 19_900);
    expect(await refundsOf(payment.id)).toHaveLength(2);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
  });

  it("told only by charge.refunded (whose charge does not list its refunds): read from Stripe and recorded", async () => {
    const { invoice, payment, paymentIntent } = await paidByCard();
    // Made in the Dashboard: Stripe's refund, no metadata of ours.
    const made = await stripeAccount()!.client.refunds.create({ payment_intent: paymentIntent, amount: 5_000 });
    stripe.refunds.get(made.id)!.status = "succeeded";
    stripe.requests.length = 0;
    expect((await stripe.sendEvent("charge.refunded", stripe.chargeOf(paymentIntent))).status).toBe(200);
    expect(stripe.requests.map((r) => [r.method, r.path, r.body])).toEqual([["GET", "/v1/refunds", { payment_intent: paymentIntent, limit: "100" }]]);
    expect(await refundsOf(payment.id)).toMatchObject([{ amountCents: 5_000, status: "succeeded", stripeRefundId: made.id, requestedBy: null }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "partly-paid", paidCents: 24_900 });
  });

  it("pending when made, then succeeded: one refund, counted once it succeeded", async () => {
    const { invoice, payment, paymentIntent } = await paidByCard();
    const { refund } = await stripe.dashboardRefund(paymentIntent, 29_900, { status: "pending" });
    expect(await refundsOf(payment.id)).toMatchObject([{ status: "pending", stripeRefundId: refund.id }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect((await auditOf("refund-requested")).map((e) => e.detail)).toEqual([`${invoice.number}: $299.00 of a Card payment of $299.00 refunded in Stripe's Dashboard, pending`]);
    expect((await stripe.refundUpdate(refund.id as string, "succeeded")).status).toBe(200);
    expect(await refundsOf(payment.id)).toMatchObject([{ status: "succeeded" }]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "sent", paidCents: 0 });
  });

  it("of a payment that is not ours: stored as seen, nothing recorded", async () => {
    const sent = await stripe.sendEvent("refund.created", { id: "re_elsewhere", object: "refund", amount: 1_000, currency: "usd", payment_intent: "pi_elsewhere", status: "succeeded", metadata: {} });
    expect(sent.status).toBe(200);
    expect(await getDb().select().from(refunds)).toEqual([]);
    expect(await getDb().select().from(stripeEvents)).toMatchObject([{ id: sent.event.id }]);
  });
});

describe("what the server lets through to the webhook", () => {
  it("exempts the webhook, and only it, from the origin check", () => {
    const base = { method: "POST", appUrl: "http://localhost:3000", host: "localhost:3000", secFetchSite: undefined };
    // Stripe's servers send no Origin; anyone may send any: the signature decides.
    expect(isAllowedOrigin({ ...base, path: "/api/stripe/webhook", origin: undefined, secFetchSite: "cross-site" })).toBe(true);
    expect(isAllowedOrigin({ ...base, path: "/api/stripe/webhook", origin: "https://evil.example" })).toBe(true);
    // Everything else is still refused from another site, the webhook's neighbours included.
    for (const path of ["/contact", "/my-tax-filing/2025", "/api/stripe/webhook.data", "/api/stripe/webhook/", "/api/stripe/webhooks", "/API/stripe/webhook", "/api/auth/callback/google"]) {
      expect(isAllowedOrigin({ ...base, path, origin: "https://evil.example" })).toBe(false);
      expect(isAllowedOrigin({ ...base, path, origin: undefined, secFetchSite: "cross-site" })).toBe(false);
    }
    expect(isAllowedOrigin({ ...base, method: "PUT", path: "/api/stripe/webhook", origin: "https://evil.example" })).toBe(false);
  });

  it("takes an event of up to 1 MB, and a form's 64 KB elsewhere", () => {
    expect(bodyLimitFor("/api/stripe/webhook").maxBytes).toBe(STRIPE_EVENT_MAX_BYTES);
    expect(bodyLimitFor("/api/stripe/webhook.data").maxBytes).toBe(64 * 1024);
  });
});
