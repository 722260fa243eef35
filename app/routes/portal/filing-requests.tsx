import { data, redirect } from "react-router";
import type { Route } from "./+types/filing-requests";
import {
  ClientRequestForm,
  ENHANCED_FIELD,
  requestCodeOf,
  requestIdOf,
  requestResult,
  requestResultSearch,
} from "~/domain/requests";
import type { RequestCode, RequestResult } from "~/domain/requests";
import { parseTaxYear } from "~/domain/tax-year";
import { hitClientLimit, retryAfter } from "~/server/limits/client-limits.server";
import { parseForm } from "~/server/http/form.server";
import { caseState } from "~/server/cases/cases.server";
import { answerRequest, withdrawAnswer } from "~/server/requests/requests.server";
import type { ClientRequestOutcome } from "~/server/requests/requests.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";

// The client's answers to their requested items of one tax year (/my-tax-filing/:year/requests):
// "doesn't apply" or "can't get it" with a note, or taking such an answer back. The filing page
// posts here. With JavaScript the answer comes back in place (the page's script marks its posts);
// without it the browser is sent back to the filing page (303), whose address carries the answer.
// Files are uploaded against an item through the year's upload address (filing-documents.ts).

/** A GET has nothing to show here: the list is on the filing page. */
export function loader({ params }: Route.LoaderArgs) {
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null) throw data(null, { status: 404, headers: NO_STORE });
  return redirect(`/my-tax-filing/${taxYear}#requests`, { headers: NO_STORE });
}

const STATUS: Record<ClientRequestOutcome, number> = { done: 200, "no-such-item": 404, "item-changed": 409 };

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const parsed = await parseForm(request, ClientRequestForm);
  const enhanced = [parsed.raw[ENHANCED_FIELD] ?? ""].flat()[0] === "1";
  const taxYear = parseTaxYear(params.year);

  const reply = (result: RequestResult, status: number, headers: Record<string, string> = {}) => {
    if (enhanced || taxYear === null) return data<RequestResult>(result, { status, headers: { ...NO_STORE, ...headers } });
    const anchor = result.requestId ? `request-${result.requestId}` : "requests";
    return redirect(`/my-tax-filing/${taxYear}?${requestResultSearch(result)}#${anchor}`, {
      status: 303,
      headers: NO_STORE,
    });
  };

  // Another client's year, or one this client has not started, is the same 404 (nothing said back).
  if (taxYear === null || !(await caseState(user.id, taxYear)))
    return data<RequestResult>(requestResult("no-such-case"), { status: 404, headers: NO_STORE });

  if (!parsed.ok) {
    const requestId = requestIdOf([parsed.raw.requestId ?? ""].flat()[0]);
    return reply(requestResult(requestCodeOf(parsed.first.message), requestId), 400);
  }
  const form = parsed.values;
  if (form.requestId === null) return reply(requestResult("no-such-item"), 404);
  const requestId = form.requestId;
  // Answers and take-backs are counted together; past the limit the item is left as it is.
  const limit = await hitClientLimit("answer", user.id);
  if (!limit.allowed) return reply(requestResult("too-many-answers", requestId), 429, retryAfter(limit));

  let outcome: ClientRequestOutcome;
  let done: RequestCode;
  if (form.intent === "answer") {
    outcome = await answerRequest(user, { taxYear, requestId, answer: form.answer, note: form.note }, context.clientIp);
    done = form.answer === "not-applicable" ? "answered-not-applicable" : "answered-unavailable";
  } else {
    outcome = await withdrawAnswer(user, { taxYear, requestId }, context.clientIp);
    done = "withdrawn";
  }
  const code: RequestCode = outcome === "done" ? done : outcome;
  // An item that is not on the list any more is reported for the list as a whole.
  return reply(requestResult(code, outcome === "no-such-item" ? null : requestId), STATUS[outcome]);
}
