import { data, redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import { caseHref, dashboardReturn } from "~/domain/admin-links";
import { CASE_MESSAGES, CasePageForm } from "~/domain/case-forms";
import type { CaseActionResult } from "~/domain/case-forms";
import { parseTaxYear } from "~/domain/tax-year";
import { findCase } from "~/server/clients/list.server";
import { resendInvitation } from "~/server/clients/invitations.server";
import { addNote, caseExists, openCase, revealSsn } from "~/server/cases/cases.server";
import { saveCaseWorkflow } from "~/server/cases/workflow.server";
import { shareDocuments } from "~/server/documents/changes.server";
import { parseForm } from "~/server/http/form.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { OUTSIDE_US_MESSAGES } from "~/server/consents/outside-us.server";

// The staff's case page (docs/product/workflow.md#the-case-page): what its layout and its
// sections share on the server. Callers sit under the admin layout, which has checked the staff
// member and the policy.

type CaseRouteArgs = {
  request: Request;
  params: { clientId: string; year: string };
  context: Readonly<RouterContextProvider>;
};

/** The 404 of a case page: a year that is not a year, a client or case that does not exist. */
export function caseNotFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The case of the URL (with its workflow and assignee, as the client list reads it), or the 404. */
export async function caseOfRoute({ params, context }: Pick<CaseRouteArgs, "params" | "context">) {
  const staff = context.get(staffContext);
  const taxYear = parseTaxYear(params.year);
  // A NUL names no account (and the database would refuse it in a query).
  if (taxYear === null || params.clientId.includes("\u0000")) caseNotFound();
  const client = await findCase(params.clientId, taxYear, staff.id);
  if (!client) caseNotFound();
  return { staff, client, taxYear };
}

/** The case page's intents, each answered by the section whose form sends it. */
export type CaseIntent = Exclude<CaseActionResult["intent"], "unknown">;

function answer(result: CaseActionResult, status = 200) {
  return data<CaseActionResult>(result, { status, headers: NO_STORE });
}

/**
 * The case page's changes: reveal the SSN/ITIN, share or stop sharing documents, save the
 * workflow, add a note, send the invitation again, open another year. The case's own address
 * takes every intent (as it always has); a section's address takes only those of its own forms
 * (`accepts`), so that the answer shows where the form is.
 */
export async function caseAction(
  { request, params, context }: CaseRouteArgs,
  accepts?: readonly CaseIntent[],
): Promise<ReturnType<typeof answer>> {
  const staff = context.get(staffContext);
  const ip = context.clientIp;
  const clientId = params.clientId;
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null || clientId.includes("\u0000") || !(await caseExists(clientId, taxYear)))
    return answer({ intent: "unknown", ok: false, message: CASE_MESSAGES.noSuchCase }, 404);

  const parsed = await parseForm(request, CasePageForm);
  const accepted = (intent: string) => accepts === undefined || (accepts as readonly string[]).includes(intent);
  if (!parsed.ok) {
    const intent = [parsed.raw.intent ?? ""].flat()[0] ?? "";
    const body = [parsed.raw.body ?? ""].flat()[0] ?? "";
    if (intent === "add-note" && accepted(intent))
      return answer({ intent, ok: false, message: parsed.first.message, body }, 400);
    if ((intent === "share" || intent === "unshare") && accepted(intent))
      return answer({ intent, ok: false, message: parsed.first.message }, 400);
    return answer({ intent: "unknown", ok: false, message: CASE_MESSAGES.unknown }, 400);
  }
  const form = parsed.values;
  if (!accepted(form.intent)) return answer({ intent: "unknown", ok: false, message: CASE_MESSAGES.unknown }, 400);

  switch (form.intent) {
    case "reveal-ssn": {
      const ssn = await revealSsn(staff, clientId, taxYear, ip);
      if (ssn === "outside-us") return answer({ intent: form.intent, ok: false, message: OUTSIDE_US_MESSAGES.noReveal }, 403);
      return ssn === null
        ? answer({ intent: form.intent, ok: false, message: CASE_MESSAGES.nothingToReveal }, 404)
        : answer({ intent: form.intent, ok: true, ssn });
    }

    case "share":
    case "unshare": {
      const shared = form.intent === "share";
      const changed = await shareDocuments(
        staff,
        { clientId, taxYear, documentIds: form.documentIds, shared },
        ip,
      );
      if (changed.length === 0)
        return answer({ intent: form.intent, ok: false, message: CASE_MESSAGES.shareUnchanged }, 400);
      return answer({
        intent: form.intent,
        ok: true,
        message: shared ? CASE_MESSAGES.shared(changed.length) : CASE_MESSAGES.unshared(changed.length),
      });
    }

    case "save-workflow": {
      const { intent, assigneeId, completed } = form;
      if (form.clientId !== clientId || form.taxYear !== taxYear)
        return answer({ intent, ok: false, message: CASE_MESSAGES.otherCase }, 400);
      if (assigneeId === null) return answer({ intent, ok: false, message: CASE_MESSAGES.noSuchStaff }, 400);
      const saved = await saveCaseWorkflow(
        staff,
        { clientId, taxYear, ...completed, assigneeId: assigneeId || null },
        ip,
      );
      if (saved.outcome !== "saved") {
        if (saved.outcome === "not-disclosed") return answer({ intent, ok: false, message: OUTSIDE_US_MESSAGES.cannotAssign("That staff member") }, 400);
        return saved.outcome === "no-such-case"
          ? answer({ intent, ok: false, message: CASE_MESSAGES.noSuchCase }, 404)
          : answer({ intent, ok: false, message: CASE_MESSAGES.noSuchStaff }, 400);
      }
      const message =
        saved.from === saved.to
          ? CASE_MESSAGES.workflowSaved
          : CASE_MESSAGES.stageMoved(saved.to, saved.clientNotified);
      return answer({ intent, ok: true, message });
    }

    case "add-note": {
      const outcome = await addNote(staff, clientId, taxYear, form.body, ip);
      if (outcome === "added")
        return answer({ intent: form.intent, ok: true, message: CASE_MESSAGES.noteAdded });
      const message = outcome === "empty" ? CASE_MESSAGES.noteEmpty : CASE_MESSAGES.noSuchCase;
      return answer(
        { intent: form.intent, ok: false, message, body: form.body },
        outcome === "empty" ? 400 : 404,
      );
    }

    case "resend-invitation": {
      const sent = await resendInvitation(staff, clientId, ip);
      if (sent.outcome === "queued")
        return answer({ intent: form.intent, ok: true, message: CASE_MESSAGES.invitationSent(sent.email) });
      const refused = {
        "has-password": [CASE_MESSAGES.invitationNotNeeded, 409],
        deactivated: [CASE_MESSAGES.invitationDeactivated, 409],
        "no-such-client": [CASE_MESSAGES.noSuchCase, 404],
      } as const;
      const [message, status] = refused[sent.outcome];
      return answer({ intent: form.intent, ok: false, message }, status);
    }

    case "open-year": {
      const year = form.taxYear;
      if (year === null)
        return answer({ intent: form.intent, ok: false, message: CASE_MESSAGES.chooseYear }, 400);
      const outcome = await openCase(staff, clientId, year, ip);
      if (outcome === "opened") {
        const back = dashboardReturn(new URL(request.url).searchParams.get("back"));
        throw redirect(caseHref(clientId, year, back), { headers: NO_STORE });
      }
      const message =
        outcome === "exists"
          ? CASE_MESSAGES.yearExists(year)
          : outcome === "year-not-open"
            ? CASE_MESSAGES.chooseYear
            : CASE_MESSAGES.noSuchCase;
      return answer({ intent: form.intent, ok: false, message }, outcome === "no-such-client" ? 404 : 400);
    }
  }
}
