import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { isDocumentId } from "~/domain/documents";
import { logError } from "~/log";
import { getDb } from "~/server/db/client.server";
import { checkoutSessions, invoices, user } from "~/server/db/schema";
import type { Transaction } from "~/server/db/client.server";
import { getEnv } from "~/server/platform/env.server";
import { stripeAccount, stripeRefused } from "./stripe.server";

// The Checkout Sessions made for each invoice (table checkout_sessions,
// docs/decisions/0033-card-payments-and-refunds-that-hold.md): a session lives a short time
// (CHECKOUT_LIFETIME_MS), at most one per invoice can be paid at a time, and a session the
// invoice no longer wants (a payment was recorded, the invoice voided) is expired with Stripe's
// expire call. That call is made after the change that made the session unwanted has committed:
// its failure never undoes a payment; the sweep (app/server/fees/stripe-sweep.server.ts) asks
// again until Stripe says the session is closed.

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

/** The payment methods Checkout offers: a card, or a US bank account (which clears days later). */
export const CHECKOUT_METHODS = ["card", "us_bank_account"] as const;

/**
 * How long a session can be paid: Stripe takes an `expires_at` from 30 minutes to 24 hours ahead
 * of its own clock; 35 minutes leaves room for the clocks' difference.
 */
export const CHECKOUT_LIFETIME_MS = 35 * 60_000;

/** An open session is offered again while it has at least this long to live; otherwise a new one is made. */
export const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;

/**
 * A call made in the path of a person's request (after recording a payment, voiding): one try,
 * briefly; what it does not settle is left to the sweep, which waits as long as usual.
 */
const QUICK: Stripe.RequestOptions = { timeout: 5_000, maxNetworkRetries: 0 };

/** The idempotency key of session row `id`: asked again, Stripe answers the same session. */
export function checkoutIdempotencyKey(id: string): string {
  return `checkout-${id}`;
}

type Invoice = typeof invoices.$inferSelect;

/**
 * What Stripe is asked for session `row` of `invoice`: the same every time for one row (its
 * amount and expiry are the row's), so that asking again with the row's key is an idempotent
 * retry. The session and its PaymentIntent carry the invoice's id, client, tax year and number,
 * and the row's id (`checkoutId`).
 */
export function checkoutParams(invoice: Invoice, email: string, row: Pick<CheckoutSessionRow, "id" | "amountCents" | "expiresAt">): Stripe.Checkout.SessionCreateParams {
  const filing = `${getEnv().appUrl}/my-tax-filing/${invoice.taxYear}`;
  const metadata = { invoiceId: invoice.id, clientId: invoice.clientId, taxYear: String(invoice.taxYear), number: invoice.number, checkoutId: row.id };
  return {
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: "usd",
          unit_amount: row.amountCents,
          product_data: { name: `Invoice ${invoice.number} (tax year ${invoice.taxYear})` },
        },
      },
    ],
    allowed_payment_method_types: [...CHECKOUT_METHODS],
    customer_email: email,
    client_reference_id: invoice.id,
    metadata,
    payment_intent_data: { metadata },
    expires_at: Math.floor(row.expiresAt.getTime() / 1000),
    // Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}.
    success_url: `${filing}?checkout=done&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${filing}?checkout=cancelled`,
  };
}

/** The invoice of `row` and its client's e-mail (the session's customer_email). */
async function invoiceAndEmail(invoiceId: string): Promise<{ invoice: Invoice; email: string } | null> {
  const [found] = await getDb().select({ invoice: invoices, email: user.email }).from(invoices).innerJoin(user, eq(user.id, invoices.clientId)).where(eq(invoices.id, invoiceId));
  return found ?? null;
}

/** What became of asking Stripe to make a session: made (its id and page), refused for good, or unknown. */
export type Made = { kind: "made"; session: Stripe.Checkout.Session } | { kind: "refused" } | { kind: "unknown" };

/**
 * Asks Stripe for the session of row `row` (a new one, or, asked again under the same key, the
 * one Stripe made the first time) and stores its id and address. A refusal closes the row
 * (`failed`); an unknown outcome leaves it `creating`, to be asked again.
 */
export async function makeSession(row: CheckoutSessionRow, quick = false): Promise<Made> {
  const stripe = stripeAccount();
  const found = await invoiceAndEmail(row.invoiceId);
  if (!stripe || !found) return { kind: "unknown" };
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.client.checkout.sessions.create(checkoutParams(found.invoice, found.email, row), { idempotencyKey: checkoutIdempotencyKey(row.id), ...(quick ? QUICK : {}) });
    if (!session.url) throw new Error("Stripe answered a Checkout Session without its address");
  } catch (error) {
    logError("fees", `Stripe Checkout Session for ${found.invoice.number}`, error);
    if (!stripeRefused(error)) return { kind: "unknown" };
    await getDb()
      .update(checkoutSessions)
      .set({ status: "failed", closedAt: new Date() })
      .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, "creating")));
    return { kind: "refused" };
  }
  await getDb()
    .update(checkoutSessions)
    .set({ status: "open", stripeSessionId: session.id, url: session.url })
    .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.status, "creating")));
  return { kind: "made", session };
}

/**
 * Marks the sessions of invoice `invoiceId` that can still be paid as unwanted, in `tx` (the
 * transaction that records a payment of the invoice, or voids it): the amount they ask for is no
 * longer what is owed. They are expired once `tx` has committed (expireUnwantedSessions).
 */
export async function retireSessionsInTx(tx: Transaction, invoiceId: string): Promise<void> {
  await tx
    .update(checkoutSessions)
    .set({ unwantedAt: sql`now()` })
    .where(and(eq(checkoutSessions.invoiceId, invoiceId), inArray(checkoutSessions.status, ["creating", "open"]), isNull(checkoutSessions.unwantedAt)));
}

/** A session's row moves to `status` (complete when paid, in the webhook's transaction). */
export async function markSessionInTx(tx: Transaction, stripeSessionId: string, checkoutId: string | null, status: "complete" | "expired"): Promise<void> {
  const match = checkoutId && isDocumentId(checkoutId) ? sql`(${checkoutSessions.stripeSessionId} = ${stripeSessionId} or ${checkoutSessions.id} = ${checkoutId})` : eq(checkoutSessions.stripeSessionId, stripeSessionId);
  await tx
    .update(checkoutSessions)
    .set({ status, stripeSessionId, closedAt: new Date() })
    .where(and(match, inArray(checkoutSessions.status, ["creating", "open", "expired"])));
}

async function close(row: CheckoutSessionRow, status: "complete" | "expired" | "failed"): Promise<void> {
  await getDb()
    .update(checkoutSessions)
    .set({ status, closedAt: new Date() })
    .where(and(eq(checkoutSessions.id, row.id), inArray(checkoutSessions.status, ["creating", "open"])));
}

/**
 * Closes session `row` at Stripe: an open one is expired (Stripe's expire call); one Stripe
 * will not expire is asked after (it was paid meanwhile: complete; or it had expired). A row
 * still `creating` is first asked of Stripe under its key, to learn whether a session was made;
 * one whose expiry has passed needs nothing (Stripe takes no payment after it). Answers the
 * row's state after: "complete", "closed" (expired or never made), or "open" when Stripe's
 * answer is unknown (the sweep asks again).
 */
export async function closeSession(row: CheckoutSessionRow, quick = false): Promise<"complete" | "closed" | "open"> {
  const options = quick ? QUICK : {};
  const stripe = stripeAccount();
  if (!stripe) return "open";
  let sessionId = row.stripeSessionId;
  if (row.status === "creating") {
    if (row.expiresAt.getTime() <= Date.now()) {
      await close(row, "expired");
      return "closed";
    }
    const made = await makeSession(row, quick);
    if (made.kind === "refused") return "closed";
    if (made.kind === "unknown") return "open";
    sessionId = made.session.id;
  }
  if (!sessionId) return "open";
  try {
    await stripe.client.checkout.sessions.expire(sessionId, {}, options);
    await close(row, "expired");
    return "closed";
  } catch (error) {
    if (!stripeRefused(error)) {
      logError("fees", `expiring Stripe Checkout Session ${sessionId}`, error);
      return "open";
    }
  }
  // Stripe would not expire it: it is no longer open. Ask what it is.
  try {
    const session = await stripe.client.checkout.sessions.retrieve(sessionId, {}, options);
    if (session.status === "complete") {
      await close(row, "complete");
      return "complete";
    }
    if (session.status === "expired") {
      await close(row, "expired");
      return "closed";
    }
  } catch (error) {
    logError("fees", `reading Stripe Checkout Session ${sessionId}`, error);
  }
  return "open";
}

/**
 * Expires the unwanted sessions of invoice `invoiceId` (right after a payment is recorded or the
 * invoice voided, briefly: QUICK), or of every invoice (the sweep). Never throws: what is not
 * closed now stays unwanted and is asked again. Answers how many are still open.
 */
export async function expireUnwantedSessions(invoiceId?: string): Promise<number> {
  const quick = invoiceId !== undefined;
  if (!stripeAccount()) return 0;
  let rows: CheckoutSessionRow[];
  try {
    rows = await getDb()
      .select()
      .from(checkoutSessions)
      .where(
        and(
          isNotNull(checkoutSessions.unwantedAt),
          inArray(checkoutSessions.status, ["creating", "open"]),
          invoiceId ? eq(checkoutSessions.invoiceId, invoiceId) : undefined,
        ),
      );
  } catch (error) {
    logError("fees", "reading the Checkout Sessions to expire", error);
    return 0;
  }
  let open = 0;
  for (const row of rows) {
    try {
      if ((await closeSession(row, quick)) === "open") open++;
    } catch (error) {
      logError("fees", "expiring a Checkout Session", error);
      open++;
    }
  }
  return open;
}
