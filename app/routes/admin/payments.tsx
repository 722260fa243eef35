import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/payments";
import { PaymentsPage } from "~/components/admin/fee/payments-page";
import { PAYMENTS_PAGE_TEXTS } from "~/domain/fee-section";
import { seo } from "~/seo";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { finalCopiesWaitForPayment, setFinalCopiesWaitForPayment } from "~/server/fees/final-copies-gate.server";
import { invoicesToRefund, outstandingInvoices, paymentsThisMonth } from "~/server/fees/payments-report.server";

// The Payments page (/admin/payments, admins only by domain/policy.ts, docs/product/fees.md):
// money received that is not owed, outstanding invoices by age, this month's payments and refunds, the CSV for the books, and
// the firm's setting "Final copies wait for payment".

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Payments",
    description: "Outstanding invoices, this month's payments and the CSV for the books.",
    noindex: true,
  });

export function headers() {
  return NO_STORE;
}

export async function loader() {
  const [outstanding, month, toRefund, waitForPayment] = await Promise.all([outstandingInvoices(), paymentsThisMonth(), invoicesToRefund(), finalCopiesWaitForPayment()]);
  return data({ outstanding, month, toRefund, waitForPayment }, { headers: NO_STORE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data({ ok: false, message: PAYMENTS_PAGE_TEXTS.badRequest }, { status: 400, headers: NO_STORE });
  }
  const intent = form.get("intent");
  const value = form.get("waitForPayment");
  if (intent !== "final-copies-gate" || (value !== "on" && value !== "off"))
    return data({ ok: false, message: PAYMENTS_PAGE_TEXTS.badRequest }, { status: 400, headers: NO_STORE });
  const changed = await setFinalCopiesWaitForPayment(admin, value === "on", context.clientIp);
  if (!changed.ok) return data({ ok: false, message: changed.error }, { status: changed.status ?? 400, headers: NO_STORE });
  return data({ ok: true, message: value === "on" ? PAYMENTS_PAGE_TEXTS.gateOn : PAYMENTS_PAGE_TEXTS.gateOff }, { headers: NO_STORE });
}

export default function AdminPayments() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return <PaymentsPage {...loaded} answer={answer} />;
}
