import type { ScheduledJob } from "~/server/platform/scheduler.server";
import { expireUnwantedSessions } from "./checkout-sessions.server";
import { sweepPendingRefunds } from "./refunds.server";
import { stripeAccount } from "./stripe.server";

// What is owed to Stripe's side of the books and could not be done when it was wanted
// (docs/decisions/0033-card-payments-and-refunds-that-hold.md), done again every minute by one
// process at a time (the scheduler's lock): Checkout Sessions the invoice no longer wants that
// Stripe has not yet expired, and refunds whose outcome Stripe has not told yet (their answer
// was lost, the process stopped before asking, or Stripe is still working on them).

export const STRIPE_SWEEP_JOB = "stripe-sweep";

/** Between two sweeps: an unwanted payment page stays payable about this long at most when Stripe did not answer the first time. */
const INTERVAL_MS = 60_000;

/** One sweep: expire the unwanted sessions, then ask about the pending refunds. Nothing when card payments are not set up. */
export async function sweepStripe(now = new Date()): Promise<{ sessionsOpen: number; refundsSettled: number; refundsPending: number }> {
  if (!stripeAccount()) return { sessionsOpen: 0, refundsSettled: 0, refundsPending: 0 };
  const sessionsOpen = await expireUnwantedSessions();
  const refunds = await sweepPendingRefunds(now);
  return { sessionsOpen, refundsSettled: refunds.settled, refundsPending: refunds.pending };
}

export function stripeSweepJob(): ScheduledJob {
  return {
    name: STRIPE_SWEEP_JOB,
    intervalMs: INTERVAL_MS,
    firstRunMs: INTERVAL_MS,
    leaseMs: 5 * 60_000,
    async run() {
      const swept = await sweepStripe();
      if (swept.sessionsOpen + swept.refundsSettled + swept.refundsPending > 0)
        console.info(
          `[fees] Stripe sweep: ${swept.sessionsOpen} payment pages still to expire, ${swept.refundsSettled} refunds settled, ${swept.refundsPending} still pending`,
        );
    },
  };
}
