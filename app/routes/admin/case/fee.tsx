import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/fee";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { FeeSection } from "~/components/admin/fee/fee-section";
import type { FeeActionResult } from "~/components/admin/fee/fee-section";
import { addDays, newYorkDay } from "~/domain/business-days";
import { caseSectionPath } from "~/domain/case-sections";
import { ADMIN_FEE_INTENTS, FEE_SECTION_MESSAGES, feeDoneMessage, invoiceInputFromFields, isFeeIntent } from "~/domain/fee-section";
import type { FeeDone, FeeIntent, InvoiceInput } from "~/domain/fee-section";
import { DEFAULT_DUE_DAYS, FEE_MESSAGES } from "~/domain/fees";
import { NO_STORE } from "~/server/auth/session.server";
import { caseOfRoute } from "~/server/cases/case-action.server";
import { caseFees, invoiceOfCase, paymentOfCase } from "~/server/fees/fee-reads.server";
import { setFinalCopiesBeforePayment } from "~/server/fees/final-copies-gate.server";
import { createInvoice, sendInvoice, updateDraft, voidInvoice } from "~/server/fees/invoices.server";
import { recordOfflinePayment } from "~/server/fees/payments.server";
import { refundPayment } from "~/server/fees/refunds.server";

// The case's fee (/admin/clients/:clientId/:year/fee, docs/product/fees.md): its invoices with
// their payments and refunds, a new invoice from the price list, and whether the case's final
// copies wait for payment. Every form posts here with its `intent`; a change redirects back
// with `?done=`, a refusal answers with its message beside its form and changes nothing.
// Preparers make, send and take payments; voiding and refunding are an administrator's (403).

export function headers() {
  return NO_STORE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const fees = await caseFees(staff, { clientId: client.id, taxYear });
  const done = feeDoneMessage(new URL(request.url).searchParams.get("done"));
  const today = newYorkDay();
  return data(
    { fees, done, isAdmin: staff.role === "admin", today, defaultDueOn: addDays(today, DEFAULT_DUE_DAYS) },
    { headers: NO_STORE },
  );
}

function refuse(intent: FeeIntent | "unknown", message: string, status = 400, extra: Omit<FeeActionResult, "intent" | "ok" | "message"> = {}) {
  return data<FeeActionResult>({ intent, ok: false, message, ...extra }, { status, headers: NO_STORE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const ref = { clientId: client.id, taxYear };
  const ip = context.clientIp;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse("unknown", FEE_SECTION_MESSAGES.unknown);
  }
  const all = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
  const one = (name: string) => all(name)[0] ?? "";
  const intent = one("intent");
  if (!isFeeIntent(intent)) return refuse("unknown", FEE_SECTION_MESSAGES.unknown);
  // Voiding and refunding are an administrator's: a preparer is refused before anything is read.
  if (ADMIN_FEE_INTENTS.has(intent) && staff.role !== "admin") return refuse(intent, FEE_MESSAGES.adminsOnly, 403);
  // PostgreSQL cannot store a NUL, and no person types one.
  for (const [, value] of form) if (typeof value === "string" && value.includes("\u0000")) return refuse(intent, FEE_SECTION_MESSAGES.controlCharacters);
  const done = (key: FeeDone) => redirect(`${caseSectionPath(ref.clientId, taxYear, "fee")}?done=${key}`, { headers: NO_STORE });
  const invoiceId = one("invoiceId");
  // A record named in the form that is not there is the form's mistake: 400, like bad input.
  const status = (s: 403 | 404 | undefined) => (s === 403 ? 403 : 400);

  switch (intent) {
    case "create-invoice":
    case "update-invoice": {
      const input: InvoiceInput = invoiceInputFromFields(all);
      const then = one("then") === "send" ? "send" : "save";
      let id = invoiceId;
      if (intent === "update-invoice") {
        if (!(await invoiceOfCase(ref, invoiceId))) return refuse(intent, FEE_MESSAGES.noSuchInvoice, 400, { target: invoiceId });
        const updated = await updateDraft(staff, invoiceId, input, ip);
        if (!updated.ok) return refuse(intent, updated.error, status(updated.status), { target: invoiceId, invoice: input });
      } else {
        const created = await createInvoice(staff, ref, input, ip);
        if (!created.ok) return refuse(intent, created.error, status(created.status), { invoice: input });
        id = created.invoiceId;
      }
      if (then === "save") return done("invoice-saved");
      const sent = await sendInvoice(staff, id, ip);
      if (!sent.ok) return refuse("send-invoice", sent.error, status(sent.status), { target: id });
      return done("invoice-sent");
    }

    case "send-invoice": {
      if (!(await invoiceOfCase(ref, invoiceId))) return refuse(intent, FEE_MESSAGES.noSuchInvoice, 400, { target: invoiceId });
      const sent = await sendInvoice(staff, invoiceId, ip);
      if (!sent.ok) return refuse(intent, sent.error, status(sent.status), { target: invoiceId });
      return done("invoice-sent");
    }

    case "void-invoice": {
      const values = { reason: one("reason") };
      if (!(await invoiceOfCase(ref, invoiceId))) return refuse(intent, FEE_MESSAGES.noSuchInvoice, 400, { target: invoiceId });
      const voided = await voidInvoice(staff, invoiceId, values.reason, ip);
      if (!voided.ok) return refuse(intent, voided.error, status(voided.status), { target: invoiceId, values });
      return done("invoice-voided");
    }

    case "record-payment": {
      const values = { method: one("method"), amount: one("amount"), reference: one("reference"), receivedOn: one("receivedOn") };
      if (!(await invoiceOfCase(ref, invoiceId))) return refuse(intent, FEE_MESSAGES.noSuchInvoice, 400, { target: invoiceId });
      const recorded = await recordOfflinePayment(staff, invoiceId, values, ip);
      if (!recorded.ok) return refuse(intent, recorded.error, status(recorded.status), { target: invoiceId, values });
      return done(recorded.becamePaid ? "payment-recorded-paid" : "payment-recorded");
    }

    case "refund-payment": {
      const paymentId = one("paymentId");
      const values = { amount: one("amount"), reason: one("reason") };
      if (!(await paymentOfCase(ref, paymentId))) return refuse(intent, FEE_MESSAGES.noSuchPayment, 400, { target: paymentId });
      const refunded = await refundPayment(staff, paymentId, values, ip);
      if (!refunded.ok) return refuse(intent, refunded.error, status(refunded.status), { target: paymentId, values });
      return done(refunded.status === "succeeded" ? "refund-recorded" : refunded.unanswered ? "refund-unanswered" : "refund-requested");
    }

    case "final-copies-override": {
      const release = one("release") === "on";
      const values = { reason: one("reason") };
      const changed = await setFinalCopiesBeforePayment(staff, ref, release, values.reason, ip);
      if (!changed.ok) return refuse(intent, changed.error, status(changed.status), { values });
      return done(release ? "override-on" : "override-off");
    }
  }
}

export default function CaseFee() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  return <FeeSection key={`${frame.client.id}/${frame.taxYear}`} clientId={frame.client.id} {...loaded} result={result} />;
}
