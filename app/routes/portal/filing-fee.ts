import { data, redirect } from "react-router";
import type { Route } from "./+types/filing-fee";
import { FEE_MESSAGES, FEE_TEXTS } from "~/domain/fees";
import type { FeeResultKey } from "~/domain/fee-client";
import { parseTaxYear } from "~/domain/tax-year";
import { z } from "~/domain/zod";
import { caseState } from "~/server/cases/cases.server";
import { startCheckout } from "~/server/fees/checkout.server";
import { invoiceOfCase } from "~/server/fees/fee-reads.server";
import { announcePayment } from "~/server/fees/payments.server";
import { parseForm } from "~/server/http/form.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";

// The client's fee forms of one tax year (/my-tax-filing/:year/fee, docs/product/fees.md#paying):
// "Pay by card" opens a Stripe Checkout page made on the server from the invoice (the amount is
// read from the invoice, never from the form), and "I have sent the payment" tells staff of a
// wire or Zelle payment. The browser is sent on to Stripe, or back to the filing page with the
// answer's key in its address (`?fee=`).

/** A GET has nothing to show here: the fee is on the filing page. */
export function loader({ params }: Route.LoaderArgs) {
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null) throw data(null, { status: 404, headers: NO_STORE });
  return redirect(`/my-tax-filing/${taxYear}#fee`, { headers: NO_STORE });
}

const FeeForm = z.object({
  intent: z.enum(["pay-card", "announce-payment"]),
  invoiceId: z.uuid(),
});

const ANNOUNCE_KEYS: Partial<Record<string, FeeResultKey>> = {
  [FEE_MESSAGES.notifiedAlready]: "announced-already",
  [FEE_MESSAGES.notPayable]: "not-payable",
};
const CHECKOUT_KEYS: Partial<Record<string, FeeResultKey>> = {
  [FEE_MESSAGES.cardNotConfigured]: "card-not-configured",
  [FEE_MESSAGES.notPayable]: "not-payable",
  [FEE_TEXTS.processing]: "bank-processing",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  // Another client's year, or one this client has not started: the same 404, nothing said back.
  if (taxYear === null || !(await caseState(user.id, taxYear))) throw data(null, { status: 404, headers: NO_STORE });
  const parsed = await parseForm(request, FeeForm);
  if (!parsed.ok) throw data(null, { status: 400, headers: NO_STORE });
  // An invoice that is not of this case (another client's, another year's) is the same 404 as one
  // that does not exist.
  if (!(await invoiceOfCase({ clientId: user.id, taxYear }, parsed.values.invoiceId))) throw data(null, { status: 404, headers: NO_STORE });
  const back = (key: FeeResultKey) => redirect(`/my-tax-filing/${taxYear}?fee=${key}#fee`, { status: 303, headers: NO_STORE });

  if (parsed.values.intent === "announce-payment") {
    const announced = await announcePayment(user, parsed.values.invoiceId, context.clientIp);
    if (announced.ok) return back("announced");
    if (announced.status === 404) throw data(null, { status: 404, headers: NO_STORE });
    return back(ANNOUNCE_KEYS[announced.error] ?? "not-payable");
  }
  const checkout = await startCheckout(user, parsed.values.invoiceId, context.clientIp);
  if (checkout.ok) return redirect(checkout.url, { status: 303, headers: NO_STORE });
  if (checkout.status === 404) throw data(null, { status: 404, headers: NO_STORE });
  return back(CHECKOUT_KEYS[checkout.message] ?? "card-unavailable");
}
