import { and, eq, inArray, sql } from "drizzle-orm";
import { amountDue, FEE_MESSAGES, FEE_TEXTS, isPayable } from "~/domain/fees";
import { isUuid } from "~/domain/validation";
import { getDb } from "~/server/db/client.server";
import { checkoutSessions, invoices, payments } from "~/server/db/schema";
import type { CheckoutSessionRow } from "./checkout-sessions.server";
import { CHECKOUT_LIFETIME_MS, CHECKOUT_REUSE_MARGIN_MS, closeSession, expireUnwantedSessions, makeSession } from "./checkout-sessions.server";
import { lockInvoice } from "./fee-records.server";
import { stripeAccount } from "./stripe.server";

// A client's card (or US bank account) payment of an invoice through Stripe Checkout
// (docs/decisions/0030-stripe-checkout-and-webhook.md): the server makes the Checkout Session
// for what the invoice still owes, read from the database, and sends the client to Stripe's
// page. Nothing is recorded here: the payment is recorded only when Stripe's signed webhook
// says so (app/server/fees/webhook.server.ts), never from the page the client comes back to.

export type CheckoutStart = { ok: true; url: string } | { ok: false; status: number; message: string };

type Step =
  | { kind: "refused"; status: number; message: string }
  | { kind: "page"; url: string }
  | { kind: "make"; row: CheckoutSessionRow }
  | { kind: "close"; row: CheckoutSessionRow };

/**
 * What to do for invoice `invoiceId` of `clientId`, under the invoice's row lock (so that two
 * requests at once take turns): refuse (`configured`: whether card payments are set up), offer the open session again (same amount, still long
 * enough to live), close the one that can no longer be offered, or make a new one (its row is
 * written first, `creating`: the database keeps at most one such per invoice).
 */
async function nextStep(clientId: string, invoiceId: string, configured: boolean): Promise<Step> {
  return getDb().transaction(async (tx): Promise<Step> => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (!invoice || invoice.clientId !== clientId) return { kind: "refused", status: 404, message: FEE_MESSAGES.noSuchInvoice };
    const due = amountDue(invoice.totalCents, invoice.paidCents);
    if (!isPayable(invoice.status) || due <= 0) return { kind: "refused", status: 409, message: FEE_MESSAGES.notPayable };
    // A bank payment still clearing may pay the whole invoice: a second payment now could pay it twice.
    const [processing] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, "processing")))
      .limit(1);
    if (processing) return { kind: "refused", status: 409, message: FEE_TEXTS.processing };
    if (!configured) return { kind: "refused", status: 503, message: FEE_MESSAGES.cardNotConfigured };
    const [current] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.invoiceId, invoiceId), inArray(checkoutSessions.status, ["creating", "open"])))
      .for("update");
    if (current) {
      const offered = current.unwantedAt === null && current.amountCents === due && current.expiresAt.getTime() > Date.now() + CHECKOUT_REUSE_MARGIN_MS;
      if (offered) return current.status === "open" && current.url ? { kind: "page", url: current.url } : { kind: "make", row: current };
      if (current.unwantedAt === null) await tx.update(checkoutSessions).set({ unwantedAt: sql`now()` }).where(eq(checkoutSessions.id, current.id));
      return { kind: "close", row: current };
    }
    const [row] = await tx
      .insert(checkoutSessions)
      .values({ invoiceId, amountCents: due, expiresAt: new Date(Date.now() + CHECKOUT_LIFETIME_MS) })
      .returning();
    if (!row) throw new Error("no Checkout Session row returned");
    return { kind: "make", row };
  });
}

/**
 * Opens a Stripe Checkout Session for invoice `invoiceId` of `client` (the signed-in client;
 * another client's invoice is no invoice) and answers its address. Only an invoice that can be
 * paid now (sent or partly paid), with no bank payment of it still processing, and only when
 * card payments are configured. The amount is what the invoice still owes; nothing the browser
 * sends takes part. The session lives CHECKOUT_LIFETIME_MS, and is the invoice's only one that
 * can be paid: asked again for the same amount, the same page is offered; once the amount owed
 * has changed, the old one is expired before a new one is made (and when Stripe cannot be
 * reached to expire it, none is made). Nothing is audited: no money has moved yet (`_ip` is
 * the request's address, taken like every fee action's).
 */
export async function startCheckout(client: { id: string; email: string }, invoiceId: string, _ip: string): Promise<CheckoutStart> {
  if (!isUuid(invoiceId)) return { ok: false, status: 404, message: FEE_MESSAGES.noSuchInvoice };
  const unavailable = { ok: false as const, status: 502, message: FEE_MESSAGES.cardUnavailable };
  // At most: close the old session, then make the new one.
  for (let attempt = 0; attempt < 3; attempt++) {
    const step = await nextStep(client.id, invoiceId, stripeAccount() !== null);
    if (step.kind === "refused") return { ok: false, status: step.status, message: step.message };
    if (step.kind === "page") return { ok: true, url: step.url };
    if (step.kind === "close") {
      const closed = await closeSession(step.row);
      // Paid meanwhile: the payment is on its way from Stripe's webhook.
      if (closed === "complete") return { ok: false, status: 409, message: FEE_TEXTS.confirming };
      if (closed === "open") return unavailable;
      continue;
    }
    const made = await makeSession(step.row);
    if (made.kind !== "made") return unavailable;
    // The invoice may have stopped wanting it while Stripe was asked (a payment recorded, the invoice voided).
    const [row] = await getDb().select({ unwantedAt: checkoutSessions.unwantedAt }).from(checkoutSessions).where(eq(checkoutSessions.id, step.row.id));
    if (row?.unwantedAt) {
      await expireUnwantedSessions(invoiceId);
      return { ok: false, status: 409, message: FEE_MESSAGES.notPayable };
    }
    return { ok: true, url: made.session.url! };
  }
  return unavailable;
}

/**
 * Where a client's Stripe payment stands when they come back from Stripe's page with
 * `sessionId`, read from this server's own records (what the webhook recorded): "paid",
 * "processing" (a bank payment clearing), "failed" (a bank payment that did not clear), or
 * "confirming" while the webhook has not arrived yet (FEE_TEXTS.confirming). Another client's
 * session, or one that is not a session at all, reads "confirming": nothing is told about it.
 */
export async function checkoutState(client: { id: string }, sessionId: string): Promise<"paid" | "processing" | "failed" | "confirming"> {
  if (!/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) return "confirming";
  const [payment] = await getDb()
    .select({ status: payments.status })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.stripeCheckoutSessionId, sessionId), eq(invoices.clientId, client.id)));
  if (!payment) return "confirming";
  return payment.status === "succeeded" ? "paid" : payment.status;
}
