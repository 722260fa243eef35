import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FEE_MESSAGES } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, invoices, payments, refunds } from "~/server/db/schema";
import { confirmStripeRefund, refundPayment } from "~/server/fees/refunds.server";
import { createInvoice, sendInvoice } from "~/server/fees/invoices.server";
import { settleInvoiceInTx } from "~/server/fees/settle.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { account, dayFromToday, IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { startStripeServer, stripeEnv } from "../helpers/stripe-server";
import type { StripeStandIn } from "../helpers/stripe-server";
import { sampleTaxpayer } from "../helpers/taxpayer";

// A refund of a Stripe payment (docs/product/fees.md#refunds), with Stripe's library pointed at the
// tests' local stand-in (scripts/lib/stripe-stand-in.js): the refund is pending with Stripe's id
// until the webhook's word (confirmStripeRefund), asked with the refund's id as the idempotency
// key; Stripe's refusal marks it failed and says so.

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

  it("marks the refund failed and says so when Stripe refuses the request", async () => {
    stripe.refuse((request) => request.path === "/v1/refunds");
    expect(await refundPayment(admin.actor, paymentId, { amount: "10" }, IP)).toEqual({ ok: false, error: FEE_MESSAGES.refundFailed });
    expect(await refundRows()).toMatchObject([{ status: "failed", stripeRefundId: null }]);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "refund-failed"))).toHaveLength(1);
    expect(await invoiceStatus()).toMatchObject({ status: "paid", paidCents: 29_900 });
    // A failed refund does not hold the amount: the whole payment can still be refunded.
    stripe.refuse(null);
    expect(await refundPayment(admin.actor, paymentId, { amount: "299" }, IP)).toMatchObject({ ok: true, status: "pending" });
  });
});
