import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/residency";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { FINDING_FIELDS } from "~/components/admin/case/residency/person-outcome";
import { ResidencySection } from "~/components/admin/case/residency/residency-section";
import { isResidencyIntent, parseDollars, RESIDENCY_SECTION_MESSAGES, residencyDoneMessage } from "~/components/admin/case/residency/words";
import type { ResidencyActionResult, ResidencyDone, ResidencyIntent } from "~/components/admin/case/residency/words";
import { caseHref, dashboardReturn } from "~/domain/admin-links";
import { hasControlCharacters } from "~/domain/validation";
import { NO_STORE } from "~/server/auth/session.server";
import { caseOfRoute } from "~/server/cases/case-action.server";
import { readHistory, saveFindings, setCaseFacts } from "~/server/residency/history.server";
import { caseResidency, confirmResidency } from "~/server/residency/outcome.server";
import type { ResidencyResult } from "~/server/residency/outcome.server";

// The case's residency (/admin/clients/:clientId/:year/residency, docs/product/residency.md):
// each person's outcome for the year with the substantial presence test's table and their
// history (read only), staff's findings per person, the case's facts and staff's confirmation
// of the client's status. Every form posts here with its `intent`; the client and the year are
// the route's, never the form's. A change redirects back with `?done=`; a refusal answers with
// the message of each field and changes nothing.

export function headers() {
  return NO_STORE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const [view, history] = await Promise.all([caseResidency(staff, client.id, taxYear), readHistory(staff, client.id)]);
  const done = residencyDoneMessage(new URL(request.url).searchParams.get("done"));
  return data(
    {
      view: view
        ? {
            outcome: view.outcome,
            status: view.status,
            computedAt: view.computedAt,
            foreignAccountsHighestCents: view.foreignAccountsHighestCents,
            filesJointly: view.filesJointly,
            confirmation: view.confirmation,
          }
        : { outcome: null, status: null, computedAt: null, foreignAccountsHighestCents: null, filesJointly: false, confirmation: null },
      people: history?.people ?? [],
      savedAt: history?.savedAt ?? null,
      done,
    },
    { headers: NO_STORE },
  );
}

function refuse(intent: ResidencyIntent | "unknown", errors: Record<string, string>, extra: Omit<ResidencyActionResult, "intent" | "ok" | "errors"> = {}, status = 400) {
  return data<ResidencyActionResult>({ intent, ok: false, errors, ...extra }, { status, headers: NO_STORE });
}

/** A server function's refusal as the form's: the field names of the page (a 404 of a person or case named by the form is the form's mistake: 400). */
function refused(intent: ResidencyIntent, result: Exclude<ResidencyResult, { ok: true }>, rename: Record<string, string>, extra: Omit<ResidencyActionResult, "intent" | "ok" | "errors"> = {}) {
  const errors = Object.fromEntries(Object.entries(result.errors).map(([field, message]) => [rename[field] ?? field, message]));
  return refuse(intent, errors, extra, result.status === 403 ? 403 : 400);
}

/** A checkbox as posted: "on" ticked, absent not; anything else is not a checkbox's answer. */
function ticked(form: FormData, name: string): boolean | null {
  const values = form.getAll(name);
  if (values.length === 0) return false;
  return values.length === 1 && values[0] === "on" ? true : null;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const ip = context.clientIp;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse("unknown", { form: RESIDENCY_SECTION_MESSAGES.unknown });
  }
  const one = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = one("intent");
  if (!isResidencyIntent(intent)) return refuse("unknown", { form: RESIDENCY_SECTION_MESSAGES.unknown });
  // PostgreSQL cannot store a NUL, and no person types one: the field that holds it is named.
  for (const [name, value] of form) {
    if (typeof value !== "string") return refuse(intent, { form: RESIDENCY_SECTION_MESSAGES.unknown });
    if (value.includes("\u0000")) return refuse(intent, { [name === "intent" ? "form" : name]: RESIDENCY_SECTION_MESSAGES.controlCharacters });
  }
  const url = new URL(request.url);
  const done = (key: ResidencyDone) => {
    const here = caseHref(client.id, taxYear, dashboardReturn(url.searchParams.get("back")), "residency");
    return redirect(`${here}${here.includes("?") ? "&" : "?"}done=${key}`, { headers: NO_STORE });
  };

  switch (intent) {
    case "save-findings": {
      const person = one("person");
      const values = Object.fromEntries(FINDING_FIELDS.map((f) => [f.name, one(f.name)]));
      const errors: Record<string, string> = {};
      const findings: Record<string, boolean> = {};
      for (const f of FINDING_FIELDS) {
        const value = ticked(form, f.name);
        if (value === null) errors[f.name] = RESIDENCY_SECTION_MESSAGES.yesNo;
        else findings[f.name] = value;
      }
      if (person === "") errors.person = RESIDENCY_SECTION_MESSAGES.noSuchPerson;
      if (Object.keys(errors).length > 0) return refuse(intent, errors, { person, values });
      const saved = await saveFindings(staff, client.id, person, taxYear, findings, ip);
      if (!saved.ok) return refused(intent, saved, {}, { person, values });
      return done("findings-saved");
    }

    case "save-facts": {
      const values = { foreignAccounts: one("foreignAccounts"), filesJointly: one("filesJointly") };
      const errors: Record<string, string> = {};
      const dollars = parseDollars(values.foreignAccounts);
      if (!dollars.ok) errors.foreignAccounts = dollars.message;
      const jointly = ticked(form, "filesJointly");
      if (jointly === null) errors.filesJointly = RESIDENCY_SECTION_MESSAGES.yesNo;
      if (!dollars.ok || jointly === null) return refuse(intent, errors, { values });
      const saved = await setCaseFacts(staff, client.id, taxYear, { foreignAccountsHighestCents: dollars.cents, filesJointly: jointly }, ip);
      if (!saved.ok) return refused(intent, saved, { foreignAccountsHighestCents: "foreignAccounts" }, { values });
      return done("facts-saved");
    }

    case "confirm":
    case "confirm-other": {
      const values = { status: one("status"), reason: intent === "confirm" ? "" : one("reason") };
      if (hasControlCharacters(values.reason)) return refuse(intent, { reason: RESIDENCY_SECTION_MESSAGES.controlCharacters }, { values });
      const confirmed = await confirmResidency(staff, client.id, taxYear, values.status, values.reason.trim() === "" ? null : values.reason, ip);
      if (!confirmed.ok) return refused(intent, confirmed, {}, { values });
      return done("confirmed");
    }
  }
}

export default function CaseResidency() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  return (
    <ResidencySection
      key={`${frame.client.id}/${frame.taxYear}`}
      clientId={frame.client.id}
      taxYear={frame.taxYear}
      back={frame.back}
      view={loaded.view}
      people={loaded.people}
      savedAt={loaded.savedAt}
      done={loaded.done}
      result={result}
    />
  );
}
