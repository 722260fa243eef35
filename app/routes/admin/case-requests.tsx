import { data, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/case-requests";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { RequestsSection } from "~/components/admin/case/requests-section";
import { caseHref, dashboardReturn } from "~/domain/admin-links";
import {
  ENHANCED_FIELD,
  StaffRequestForm,
  requestCodeOf,
  requestIdOf,
  requestResult,
  requestResultSearch,
} from "~/domain/requests";
import type { RequestCode, RequestResult } from "~/domain/requests";
import { parseTaxYear } from "~/domain/tax-year";
import { templatesFor } from "~/content/request-templates";
import { residencyTemplate } from "~/content/residency-template";
import { caseOfRoute } from "~/server/cases/case-action.server";
import { caseExists } from "~/server/cases/cases.server";
import { storedResidency } from "~/server/residency/outcome.server";
import { parseForm } from "~/server/http/form.server";
import {
  addRequestItem,
  addTemplateItems,
  caseVisa,
  listCaseRequests,
  receiveRequest,
  removeRequest,
  returnRequest,
} from "~/server/requests/requests.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";

// The case's requested items (/admin/clients/:clientId/:year/requests), a section of the case
// page, and staff's changes to them: start from a template, add an item, mark one received,
// return it with a reason, remove one never answered. With JavaScript the answer comes back in
// place; without it the browser is sent back to this section (303), whose address carries the
// answer.

/** This section's address, with the list the case was opened from. */
function requestsPage(clientId: string, taxYear: number, request: Request): string {
  return caseHref(clientId, taxYear, dashboardReturn(new URL(request.url).searchParams.get("back")), "requests");
}

export function headers() {
  return NO_STORE;
}

/** The items asked of the client, and the templates to start from (the client's visa's first). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const [requests, visa, residency] = await Promise.all([
    listCaseRequests(staff, client.id, taxYear),
    caseVisa(client.id, taxYear),
    storedResidency(client.id, taxYear),
  ]);
  const templates = templatesFor(visa);
  // What the case's residency calls for comes first, when it calls for anything.
  const fromResidency = residencyTemplate(residency.outcome, taxYear);
  const choice = (t: { id: string; label: string; items: readonly unknown[] }) => ({ id: t.id, label: t.label, items: t.items.length });
  return data(
    {
      requests,
      templates: { suggested: [...(fromResidency ? [fromResidency] : []), ...templates.suggested].map(choice), others: templates.others.map(choice) },
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = context.get(staffContext);
  const ip = context.clientIp;
  const clientId = params.clientId;
  const taxYear = parseTaxYear(params.year);
  const parsed = await parseForm(request, StaffRequestForm);
  const enhanced = [parsed.raw[ENHANCED_FIELD] ?? ""].flat()[0] === "1";

  const reply = (result: RequestResult, status: number, n = 0) => {
    if (enhanced || taxYear === null) return data<RequestResult>(result, { status, headers: NO_STORE });
    const page = requestsPage(clientId, taxYear, request);
    const anchor = result.requestId ? `request-${result.requestId}` : "requests";
    return redirect(`${page}${page.includes("?") ? "&" : "?"}${requestResultSearch(result, n)}#${anchor}`, {
      status: 303,
      headers: NO_STORE,
    });
  };

  if (taxYear === null || clientId.includes("\u0000") || !(await caseExists(clientId, taxYear)))
    return data<RequestResult>(requestResult("no-such-case"), { status: 404, headers: NO_STORE });
  const c = { clientId, taxYear };

  if (!parsed.ok) {
    const requestId = requestIdOf([parsed.raw.requestId ?? ""].flat()[0]);
    return reply(requestResult(requestCodeOf(parsed.first.message), requestId), 400);
  }
  const form = parsed.values;

  switch (form.intent) {
    case "add-template": {
      const added = await addTemplateItems(staff, c, form.template, ip);
      if (added.outcome === "added") return reply(requestResult("template-added", null, added.count), 200, added.count);
      if (added.outcome === "nothing") return reply(requestResult("template-nothing"), 200);
      if (added.outcome === "no-such-template") return reply(requestResult("choose-template"), 400);
      return reply(requestResult("no-such-case"), 404);
    }

    case "add-item": {
      const outcome = await addRequestItem(staff, c, { title: form.title, detail: form.detail, category: form.category }, ip);
      if (outcome === "added") return reply(requestResult("item-added"), 200);
      return outcome === "title-exists"
        ? reply(requestResult("title-exists"), 409)
        : reply(requestResult("no-such-case"), 404);
    }

    case "receive":
    case "return":
    case "remove": {
      if (form.requestId === null) return reply(requestResult("no-such-item"), 404);
      const requestId = form.requestId;
      const outcome =
        form.intent === "receive"
          ? await receiveRequest(staff, c, requestId, ip)
          : form.intent === "return"
            ? await returnRequest(staff, c, { requestId, reason: form.reason }, ip)
            : await removeRequest(staff, c, requestId, ip);
      if (outcome === "no-such-item") return reply(requestResult("no-such-item"), 404);
      if (outcome === "done") {
        const done: RequestCode = form.intent === "receive" ? "received" : form.intent === "return" ? "returned" : "removed";
        // A removed item has no place on the page to show its answer: the list's place shows it.
        return reply(requestResult(done, form.intent === "remove" ? null : requestId), 200);
      }
      return reply(requestResult(outcome, requestId), 409);
    }
  }
}

export default function CaseRequests() {
  const d = useLoaderData<typeof loader>();
  const frame = useCaseFrame();
  return (
    <RequestsSection
      key={`${frame.client.id}/${frame.taxYear}`}
      clientId={frame.client.id}
      taxYear={frame.taxYear}
      back={frame.back}
      items={d.requests}
      templates={d.templates}
    />
  );
}
