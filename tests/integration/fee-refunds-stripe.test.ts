import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FEE_DONE } from "~/domain/fee-section";
import { FEE_MESSAGES } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, invoices, payments, refunds } from "~/server/db/schema";
import { confirmStripeRefund, refundPayment, sweepPendingRefunds } from "~/server/fees/refunds.server";
import { setStripeTimeoutForTests } from "~/server/fees/stripe.server";
import { sweepStripe } from "~/server/fees/stripe-sweep.server";
import { createInvoice, sendInvoice } from "~/server/fees/invoices.server";
import { settleInvoiceInTx } from "~/server/fees/settle.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { account, dayFromToday, IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { startStripeServer, stripeEnv } from "../helpers/stripe-server";
import type { StripeStandIn } from "../helpers/stripe-server";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { withCookie } from "./helpers";

// A refund of a Stripe payment (docs/product/fees.md#refunds), with Stripe's library pointed at the
// tests' local stand-in (scripts/lib/stripe-stand-in.js): the refund is pending with Stripe's id
// until Stripe's word (its webhook, or the sweep asking), asked with the refund's id as the
// idempotency key, again under the same key when Stripe's answer was lost; only Stripe's definite
// refusal marks it failed.

const Y = currentFilingYear();
let stripe: StripeStandIn;

beforeAll(async () => {
  // Refunds are asked of Stripe's API; nothing here delivers webhooks (the test confirms by hand).
  stripe = await startStripeServer({ deliver: () => Promise.resolve({ status: 200, body: "" }) });
  Object.assign(process.env, stripeEnv(stripe));
  resetEnvForTests();
});

afterAll(async () => {
  for (const name of Object.keys(stripeEnv(stripe))) delete process.env[name];
  resetEnvForTests();
  await stripe.close();
});

let admin: Account;
let a: Account;
let invoiceId: string;
let paymentId: string;

afterEach(() => {
  setStripeTimeoutForTests(null);
  stripe.timeOut(null, 0);
});

beforeEach(async () => {
  stripe.requests.length = 0;
  stripe.refuse(null);
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  a = await account("alice@example.com", "Alice Aardvark");
  expect(await saveTaxpayerRecord(a.id, sampleTaxpayer, Y)).toBe("created");
  const made = await createInvoice(
    admin.actor,
    { clientId: a.id, taxYear: Y },
    { lines: [{ description: "Standard Filing", quantity: "1", unitCents: "299" }], dueOn: dayFromToday(14) },
    IP,
  );
  if (!made.ok) throw new Error(made.error);
  invoiceId = made.invoiceId;
  await sendInvoice(admin.actor, invoiceId, IP);
  // A card payment as Stripe's webhook records it.
  const [card] = await getDb()
    .insert(payments)
    .values({ invoiceId, method: "card", status: "succeeded", amountCents: 29_900, receivedOn: dayFromToday(0), stripePaymentIntentId: "pi_feesrv", stripeCheckoutSessionId: "cs_feesrv" })
    .returning();
  paymentId = card!.id;
  await getDb().transaction((tx) => settleInvoiceInTx(tx, invoiceId, null, "", "card payment"));
});

const refundRows = () => getDb().select().from(refunds);
/** Stripe's refunds made for our refund `id` (the stand-in keeps every test's). */
const atStripeFor = (id: string) => [...stripe.refunds.values()].filter((r) => (r.metadata as Record<string, string> | undefined)?.refundId === id);
const invoiceStatus = async () => (await getDb().select().from(invoices).where(eq(invoices.id, invoiceId)))[0]!;

describe("refunding a Stripe payment", () => {
  it("asks Stripe with the refund's id as idempotency key, keeps it pending with Stripe's id, and settles when the webhook confirms it", async () => {
    const refunded = await refundPayment(admin.actor, paymentId, { amount: "50", reason: "Rush not needed" }, IP);
    expect(refunded).toMatchObject({ ok: true, status: "pending", invoiceStatus: "paid" });
    const [row] = await refundRows();
    const stripeRefundId = [...stripe.refunds.keys()][0];
    expect(stripeRefundId).toMatch(/^re_/);
    expect(row).toMatchObject({ status: "pending", stripeRefundId, amountCents: 5_000, requestedBy: admin.id, confirmedAt: null });
    expect(stripe.requests).toHaveLength(1);
    expect(stripe.requests[0]).toMatchObject({ method: "POST", path: "/v1/refunds", idempotencyKey: `refund-${row!.id}` });
    expect(stripe.requests[0]!.body).toMatchObject({ payment_intent: "pi_feesrv", amount: "5000", metadata: { refundId: row!.id, invoiceId } });
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "refund-requested"))).toHaveLength(1);
    // Not refunded until Stripe says so; what is pending cannot be refunded twice.
    expect(await invoiceStatus()).toMatchObject({ status: "paid", paidCents: 29_900 });
    expect(await refundPayment(admin.actor, paymentId, { amount: "249.01" }, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.refundAmount });

    const confirmed = await getDb().transaction((tx) => confirmStripeRefund(tx, stripeRefundId!, "succeeded"));
    expect(confirmed).toMatchObject({ invoiceId, changed: true });
    expect(await invoiceStatus()).toMatchObject({ status: "partly-paid", paidCents: 24_900 });
    expect((await refundRows())[0]!.confirmedAt).not.toBeNull();
  });

  it("marks the refund failed and says so when Stripe refuses the request (a 4xx: its definite no)", async () => {
    for (const answer of [
      { status: 400, type: "invalid_request_error", message: "Charge ch_1 has already been refunded." },
      { status: 402, type: "card_error", message: "The card was closed." },
    ]) {
      stripe.refuse((request) => request.path === "/v1/refunds", answer);
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        expect(await refundPayment(admin.actor, paymentId, { amount: "10" }, IP)).toEqual({ ok: false, error: FEE_MESSAGES.refundFailed });
      } finally {
        errors.mockRestore();
      }
    }
    expect(await refundRows()).toMatchObject([
      { status: "failed", stripeRefundId: null },
      { status: "failed", stripeRefundId: null },
    ]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "refund-failed"))).toHaveLength(2);
    expect(await invoiceStatus()).toMatchObject({ status: "paid", paidCents: 29_900 });
    // A failed refund does not hold the amount: the whole payment can still be refunded.
    stripe.refuse(null);
    expect(await refundPayment(admin.actor, paymentId, { amount: "299" }, IP)).toMatchObject({ ok: true, status: "pending" });
  });

  it("keeps the refund pending when Stripe's answer is not a definite no (5xx, 409 idempotency in progress, 429): nothing is guessed", async () => {
    const answers = [
      { status: 500, type: "api_error" },
      { status: 409, type: "idempotency_error", message: "There is currently another in-progress request using this idempotency key." },
      { status: 429, type: "rate_limit_error" },
    ];
    for (const [i, answer] of answers.entries()) {
      stripe.refuse((request) => request.path === "/v1/refunds", answer);
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        expect(await refundPayment(admin.actor, paymentId, { amount: "10" }, IP)).toMatchObject({ ok: true, status: "pending", unanswered: true });
      } finally {
        errors.mockRestore();
      }
      expect((await refundRows()).map((r) => r.status)).toEqual(new Array(i + 1).fill("pending"));
    }
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "refund-failed"))).toHaveLength(0);
  });
});

describe("a refund whose outcome is unknown", () => {
  const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000);

  it("Stripe times out after refunding: the refund stays pending, is asked again under the same key, and the client is refunded once", async () => {
    setStripeTimeoutForTests(200);
    // Stripe refunds, then answers after the client has stopped waiting (each of the library's tries).
    stripe.timeOut((request) => request.method === "POST" && request.path === "/v1/refunds", 1_000);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let made;
    try {
      made = await refundPayment(admin.actor, paymentId, { amount: "299", reason: "Client asked" }, IP);
    } finally {
      errors.mockRestore();
    }
    expect(made).toMatchObject({ ok: true, status: "pending", unanswered: true, invoiceStatus: "paid" });
    const [row] = await refundRows();
    expect(row).toMatchObject({ status: "pending", stripeRefundId: null, confirmedAt: null });
    // Stripe did refund, once, whatever the tries: every one carried the same key.
    const atStripe = atStripeFor(row!.id);
    expect(atStripe).toHaveLength(1);
    const posts = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds");
    expect(posts.length).toBeGreaterThan(1);
    expect(new Set(posts.map((r) => r.idempotencyKey))).toEqual(new Set([`refund-${row!.id}`]));
    // The admin cannot make it again: the pending refund holds the amount.
    expect(await refundPayment(admin.actor, paymentId, { amount: "299" }, IP)).toMatchObject({ ok: false, error: FEE_MESSAGES.refundAmount });
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "refund-failed"))).toHaveLength(0);

    // Stripe answers again: the sweep finds Stripe's refund by our id in its metadata, and makes no other.
    stripe.timeOut(null, 0);
    stripe.requests.length = 0;
    expect(await sweepStripe(inMinutes(3))).toMatchObject({ refundsSettled: 0, refundsPending: 1 });
    expect(stripe.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/v1/refunds"]]);
    expect(await refundRows()).toMatchObject([{ status: "pending", stripeRefundId: atStripe[0]!.id }]);
    // Stripe's late word confirms it: one refund of $299.00, the invoice owed again.
    await getDb().transaction((tx) => confirmStripeRefund(tx, atStripe[0]!.id, "succeeded"));
    expect(await refundRows()).toMatchObject([{ status: "succeeded", amountCents: 29_900 }]);
    expect(await invoiceStatus()).toMatchObject({ status: "sent", paidCents: 0 });
    expect(atStripeFor(row!.id)).toHaveLength(1);
  });

  it("the connection drops after Stripe refunded: pending, then the sweep reads Stripe's refund (GET /v1/refunds/:id) until it is final", async () => {
    stripe.hangUp((request) => request.method === "POST" && request.path === "/v1/refunds");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await refundPayment(admin.actor, paymentId, { amount: "50" }, IP)).toMatchObject({ ok: true, status: "pending", unanswered: true });
    } finally {
      errors.mockRestore();
    }
    stripe.hangUp(null);
    // Too soon: the request's own tries may still be under way.
    expect(await sweepPendingRefunds()).toEqual({ settled: 0, pending: 0 });
    await sweepPendingRefunds(inMinutes(3));
    const [row] = await refundRows();
    const [refund, ...more] = atStripeFor(row!.id);
    expect(more).toEqual([]);
    expect(await refundRows()).toMatchObject([{ status: "pending", stripeRefundId: refund!.id }]);
    // Stripe finishes it (its webhook lost): the next sweep reads it and records it.
    refund!.status = "succeeded";
    stripe.requests.length = 0;
    expect(await sweepPendingRefunds(inMinutes(4))).toEqual({ settled: 1, pending: 0 });
    expect(stripe.requests.map((r) => [r.method, r.path])).toEqual([["GET", `/v1/refunds/${refund!.id}`]]);
    expect(await refundRows()).toMatchObject([{ status: "succeeded" }]);
    expect(await invoiceStatus()).toMatchObject({ status: "partly-paid", paidCents: 24_900 });
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "refund-recorded"))).toHaveLength(1);
    expect(atStripeFor(row!.id)).toHaveLength(1);
  });

  it("a refund left pending by a crash (the row written, Stripe never asked) is asked by the sweep, with its key", async () => {
    const [row] = await getDb()
      .insert(refunds)
      .values({ paymentId, amountCents: 2_000, status: "pending", requestedBy: admin.id, createdAt: new Date(Date.now() - 10 * 60_000) })
      .returning();
    expect(await sweepStripe()).toMatchObject({ refundsPending: 1 });
    expect(stripe.requests.map((r) => [r.method, r.path, r.idempotencyKey])).toEqual([
      ["GET", "/v1/refunds", null],
      ["POST", "/v1/refunds", `refund-${row!.id}`],
    ]);
    expect(stripe.requests[1]!.body).toMatchObject({ payment_intent: "pi_feesrv", amount: "2000", metadata: { refundId: row!.id, invoiceId } });
    const [made] = atStripeFor(row!.id);
    expect(await refundRows()).toMatchObject([{ status: "pending", stripeRefundId: made!.id }]);
  });

  it("tells the admin in the Fee section that Stripe has not answered and the refund stays pending", async () => {
    const section = await routeModule("routes/admin/case/fee.tsx");
    stripe.refuse((request) => request.path === "/v1/refunds");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const posted = await routeOutcome(() =>
        section.action({
          ...routeArgs(
            withCookie(`/admin/clients/${a.id}/${Y}/fee`, admin.cookie, { method: "POST", body: new URLSearchParams({ intent: "refund-payment", paymentId, amount: "10" }) }),
          ),
          params: { clientId: a.id, year: String(Y) },
        } as never),
      );
      expect(posted).toMatchObject({ status: 302, location: `/admin/clients/${a.id}/${Y}/fee?done=refund-unanswered` });
    } finally {
      errors.mockRestore();
    }
    expect(FEE_DONE["refund-unanswered"]).toContain("do not make it again");
    expect(await refundRows()).toMatchObject([{ status: "pending" }]);
  });
});
