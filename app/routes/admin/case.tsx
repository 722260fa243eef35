import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/case";
import { ActivitySection } from "~/components/admin/case/activity-section";
import { CaseHeader } from "~/components/admin/case/case-header";
import { CaseMessagesLink } from "~/components/admin/case/messages-link";
import { DocumentsSection } from "~/components/admin/case/documents-section";
import { NotesSection } from "~/components/admin/case/notes-section";
import { RequestsSection } from "~/components/admin/case/requests-section";
import { TaxpayerSection } from "~/components/admin/case/taxpayer-section";
import { WorkflowSection } from "~/components/admin/case/workflow-section";
import { Alert } from "~/components/ui/field";
import { caseHref, dashboardReturn } from "~/domain/admin-links";
import { CASE_MESSAGES, CasePageForm } from "~/domain/case-forms";
import type { CaseActionResult } from "~/domain/case-forms";
import { openableYears, parseTaxYear } from "~/domain/tax-year";
import { templatesFor } from "~/content/request-templates";
import { seo } from "~/seo";
import { findCase } from "~/server/clients/list.server";
import { invitationStanding, resendInvitation } from "~/server/clients/invitations.server";
import { listStaff } from "~/server/team/active-staff.server";
import { recordAudit } from "~/server/audit/audit.server";
import { caseActivity, clientCaseYears } from "~/server/cases/case-page.server";
import {
  addNote,
  markCaseViewed,
  maskedTaxpayer,
  openCase,
  revealSsn,
  listNotes,
} from "~/server/cases/cases.server";
import { caseExists } from "~/server/cases/cases.server";
import { listCaseDocuments } from "~/server/documents/listing.server";
import { parseForm } from "~/server/http/form.server";
import { caseVisa, listCaseRequests } from "~/server/requests/requests.server";
import { caseMessagesSummary } from "~/server/messages/unread.server";
import { saveCaseWorkflow } from "~/server/cases/workflow.server";
import { shareDocuments } from "~/server/documents/changes.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: args.loaderData
      ? `Case ${args.loaderData.client.code}, tax year ${args.loaderData.taxYear}`
      : "Client case",
    description: "A client's case of one tax year.",
    noindex: true,
  });

export function headers() {
  return NO_STORE;
}

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const taxYear = parseTaxYear(params.year);
  // A NUL names no account (and the database would refuse it in a query).
  if (taxYear === null || params.clientId.includes("\u0000")) notFound();
  const client = await findCase(params.clientId, taxYear, staff.id);
  if (!client) notFound();
  const back = dashboardReturn(new URL(request.url).searchParams.get("back"));

  const staffList = await listStaff();
  const staffNames = new Map(staffList.map((s) => [s.id, s.name]));
  // The documents are read before the view is recorded: the client's uploads since this staff
  // member last opened the case are marked new on this visit.
  const [taxpayer, documents, notes, activity, years, invitation] = await Promise.all([
    maskedTaxpayer(client.id, taxYear),
    listCaseDocuments(staff, client.id, taxYear),
    listNotes(client.id, taxYear),
    caseActivity(client.id, taxYear, staffNames),
    clientCaseYears(client.id),
    invitationStanding(client.id),
  ]);
  const messages = await caseMessagesSummary(client.id, taxYear);
  const [requests, visa] = await Promise.all([listCaseRequests(staff, client.id, taxYear), caseVisa(client.id, taxYear)]);
  const templates = templatesFor(visa);
  const choice = (t: { id: string; label: string; items: readonly unknown[] }) => ({ id: t.id, label: t.label, items: t.items.length });
  await markCaseViewed(staff.id, client.id, taxYear);
  await recordAudit({
    actor: staff,
    action: "case-viewed",
    clientId: client.id,
    taxYear,
    ip: context.clientIp,
  });

  return data(
    {
      client: { id: client.id, code: client.code, name: client.name, email: client.email },
      taxYear,
      back,
      years,
      openable: openableYears().filter((y) => !years.includes(y)),
      messages,
      invitationPending: invitation === "pending",
      workflow: { stage: client.stage, flags: client.flags, assignee: client.assignee },
      staff: staffList,
      taxpayer,
      documents,
      notes,
      activity,
      requests,
      requestTemplates: { suggested: templates.suggested.map(choice), others: templates.others.map(choice) },
    },
    { headers: NO_STORE },
  );
}

function answer(result: CaseActionResult, status = 200) {
  return data<CaseActionResult>(result, { status, headers: NO_STORE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = context.get(staffContext);
  const ip = context.clientIp;
  const clientId = params.clientId;
  const taxYear = parseTaxYear(params.year);
  if (taxYear === null || clientId.includes("\u0000") || !(await caseExists(clientId, taxYear)))
    return answer({ intent: "unknown", ok: false, message: CASE_MESSAGES.noSuchCase }, 404);

  const parsed = await parseForm(request, CasePageForm);
  if (!parsed.ok) {
    const intent = [parsed.raw.intent ?? ""].flat()[0];
    const body = [parsed.raw.body ?? ""].flat()[0] ?? "";
    if (intent === "add-note") return answer({ intent, ok: false, message: parsed.first.message, body }, 400);
    if (intent === "share" || intent === "unshare")
      return answer({ intent, ok: false, message: parsed.first.message }, 400);
    return answer({ intent: "unknown", ok: false, message: CASE_MESSAGES.unknown }, 400);
  }
  const form = parsed.values;

  switch (form.intent) {
    case "reveal-ssn": {
      const ssn = await revealSsn(staff, clientId, taxYear, ip);
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
      if (sent.outcome === "sent")
        return answer({ intent: form.intent, ok: true, message: CASE_MESSAGES.invitationSent(sent.email) });
      const refused = {
        "has-password": [CASE_MESSAGES.invitationNotNeeded, 409],
        deactivated: [CASE_MESSAGES.invitationDeactivated, 409],
        "not-sent": [CASE_MESSAGES.invitationNotSent, 502],
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

export default function CasePage() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const caseKey = `${d.client.id}/${d.taxYear}`;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <CaseHeader
        client={d.client}
        taxYear={d.taxYear}
        back={d.back}
        years={d.years}
        openable={d.openable}
        stage={d.workflow.stage}
        result={result?.intent === "open-year" ? result : undefined}
        invitationPending={d.invitationPending}
        invitationResult={result?.intent === "resend-invitation" ? result : undefined}
      />
      <CaseMessagesLink clientId={d.client.id} taxYear={d.taxYear} summary={d.messages} />
      {result?.intent === "unknown" ? <Alert tone="error">{result.message}</Alert> : null}
      <TaxpayerSection
        key={`taxpayer-${caseKey}`}
        taxYear={d.taxYear}
        taxpayer={d.taxpayer}
        result={result?.intent === "reveal-ssn" ? result : undefined}
      />
      <DocumentsSection
        key={`documents-${caseKey}`}
        clientId={d.client.id}
        taxYear={d.taxYear}
        back={d.back}
        documents={d.documents}
        result={result?.intent === "share" || result?.intent === "unshare" ? result : undefined}
      />
      <RequestsSection
        key={`requests-${caseKey}`}
        clientId={d.client.id}
        taxYear={d.taxYear}
        back={d.back}
        items={d.requests}
        templates={d.requestTemplates}
      />
      <WorkflowSection
        key={`workflow-${caseKey}`}
        clientId={d.client.id}
        taxYear={d.taxYear}
        workflow={d.workflow}
        staff={d.staff}
        result={result?.intent === "save-workflow" ? result : undefined}
      />
      <NotesSection notes={d.notes} result={result?.intent === "add-note" ? result : undefined} />
      <ActivitySection activity={d.activity} />
    </div>
  );
}
