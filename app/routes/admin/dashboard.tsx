import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/dashboard";
import { AdminHeader } from "~/components/admin/admin-header";
import { ClientFilters } from "~/components/admin/client-filters";
import { ClientTable } from "~/components/admin/client-table";
import { FailedMailNotice } from "~/components/admin/failed-mail-notice";
import { RejectedReturns } from "~/components/admin/rejected-returns";
import { StatCards } from "~/components/admin/stat-cards";
import { useUnsavedWorkflows } from "~/components/admin/table/unsaved-workflows";
import { Alert } from "~/components/ui/field";
import {
  ADD_CLIENT_MESSAGES,
  ADMIN_PAGE_SIZE,
  adminQueryString,
  ASSIGN_MESSAGES,
  AssignForm,
  AssignSelectedForm,
  formsByIntent,
  parseAdminQuery,
  SaveWorkflowForm,
  UNASSIGNED,
  ViewCaseForm,
} from "~/domain/admin";
import type { AdminDashboardData } from "~/domain/admin";
import { AddClientForm } from "~/domain/auth";
import { staffMay } from "~/domain/policy";
import { seo } from "~/seo";
import { assignCases } from "~/server/cases/workflow.server";
import { caseYears, findCase, findCases } from "~/server/clients/list.server";
import { clientCounters, countersOutsideUs } from "~/server/cases/counters.server";
import { createClient } from "~/server/clients/invitations.server";
import { listStaff } from "~/server/team/active-staff.server";
import { OUTSIDE_US_MESSAGES, worksOutsideUs } from "~/server/consents/outside-us.server";
import { saveCaseWorkflow } from "~/server/cases/workflow.server";
import { recordAudit } from "~/server/audit/audit.server";
import { parseForm } from "~/server/http/form.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { countFailedMail } from "~/server/mail/outbox.server";
import { listRejectedReturns } from "~/server/returns/efile.server";
import { residencyFilterCounts } from "~/server/residency/counts.server";
import { returnFilterCounts } from "~/server/returns/timeline.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Administration", description: "TaxBridge administration panel.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = context.get(staffContext);
  const query = parseAdminQuery(new URL(request.url).searchParams);
  // The rejected returns are listed here, on the page staff open first each morning (the panel's
  // landing page), above the list: each has only days to be corrected and sent again. Every tax
  // year's, whatever the list shows.
  // Admins also see how many e-mails failed for good (a rejection notice or a spouse's signing
  // link nobody received): the page that lists them is theirs only (domain/policy.ts "mail").
  const [everyones, staff, years, returnCounts, residencyCounts, rejected, failedMail, outsideUs] = await Promise.all([
    clientCounters(query.year),
    listStaff(),
    caseYears(),
    returnFilterCounts(actor, query.year),
    residencyFilterCounts(actor, query.year),
    listRejectedReturns(actor),
    staffMay(actor.role, "mail") ? countFailedMail() : null,
    worksOutsideUs(actor.id),
  ]);
  // Staff who work outside the United States see only the clients whose consent to disclose is
  // in force (the list's `viewer`, set for them only: the condition would cost every other list
  // its plan): the counters' total of every client is not theirs.
  const viewer = outsideUs ? actor.id : undefined;
  const counters = outsideUs ? await countersOutsideUs(actor.id, query.year) : everyones;
  const listed = { ...query, viewer };
  const known = { staff, total: outsideUs ? undefined : counters.total, viewer: actor.id };
  const found = await findCases(listed, { number: query.page, size: ADMIN_PAGE_SIZE }, known);
  const pageCount = Math.max(1, Math.ceil(found.matching / ADMIN_PAGE_SIZE));
  // A page past the end (a stale link) shows the last page instead.
  const page = Math.min(query.page, pageCount);
  const rows =
    page === query.page ? found.rows : (await findCases(listed, { number: page, size: ADMIN_PAGE_SIZE }, known)).rows;
  const body: AdminDashboardData & { rejected: typeof rejected; failedMail: number | null } = {
    query: { ...query, page },
    rows,
    matching: found.matching,
    counters,
    // Counted from tallies of every case: not shown to staff who work outside the United States.
    ...(outsideUs ? {} : { returnCounts, residencyCounts }),
    staff,
    pageCount,
    years,
    rejected,
    failedMail,
  };
  return data(body, { headers: NO_STORE });
}

export type AdminActionResult =
  | { intent: "view-case"; ok: boolean }
  | { intent: "save-workflow"; ok: boolean; message: string }
  | { intent: "assign"; ok: boolean; clientId: string; message: string }
  | { intent: "assign-selected"; ok: boolean; message: string }
  | { intent: "add-client"; ok: true; email: string; again?: true }
  | { intent: "add-client"; ok: false; error: string; field?: string };

const DashboardForm = formsByIntent([ViewCaseForm, SaveWorkflowForm, AssignForm, AssignSelectedForm, AddClientForm]);

export async function action({ request, context }: Route.ActionArgs) {
  const actor = context.get(staffContext);
  const parsed = await parseForm(request, DashboardForm);
  if (!parsed.ok) {
    if (parsed.first.field === "intent")
      return data<AdminActionResult>({ intent: "save-workflow", ok: false, message: "Unknown request." }, { status: 400 });
    // Viewing a case and saving a workflow take any values: only Add New Client's details are refused.
    return data<AdminActionResult>({ intent: "add-client", ok: false, error: parsed.first.message, field: parsed.first.field }, { status: 400 });
  }
  const form = parsed.values;

  if (form.intent === "view-case") {
    const { intent, clientId, taxYear } = form;
    const known = clientId !== null && taxYear !== null && (await findCase(clientId, taxYear, actor.id)) !== null;
    if (known) await recordAudit({ actor, action: "case-viewed", clientId, taxYear, ip: context.clientIp });
    return data<AdminActionResult>({ intent, ok: known }, { status: known ? 200 : 404 });
  }

  if (form.intent === "save-workflow") {
    const { intent, clientId, taxYear, assigneeId, completed } = form;
    const { outcome } =
      clientId === null || taxYear === null
        ? { outcome: "no-such-case" as const }
        : assigneeId === null
          ? { outcome: "no-such-staff" as const }
          : await saveCaseWorkflow(actor, { clientId, taxYear, ...completed, assigneeId: assigneeId || null }, context.clientIp);
    const messages = {
      saved: "Workflow saved.",
      "no-such-case": "That client no longer exists.",
      "no-such-staff": ASSIGN_MESSAGES.noSuchStaff,
      "not-disclosed": OUTSIDE_US_MESSAGES.cannotAssign("That staff member"),
    };
    return data<AdminActionResult>({ intent, ok: outcome === "saved", message: messages[outcome] }, { status: outcome === "saved" ? 200 : 400 });
  }

  // The year shown, for the answers about a form that sent none the product knows.
  const shownYear = () => parseAdminQuery(new URL(request.url).searchParams).year;

  if (form.intent === "assign") {
    const { intent, clientId, taxYear, assigneeId } = form;
    const refuse = (message: string, status: number) =>
      data<AdminActionResult>({ intent, ok: false, clientId: clientId ?? "", message }, { status, headers: NO_STORE });
    if (taxYear === null || clientId === null) return refuse(ASSIGN_MESSAGES.noSuchCase(taxYear ?? shownYear()), 404);
    if (assigneeId === null) return refuse(ASSIGN_MESSAGES.noSuchStaff, 400);
    const done = await assignCases(actor, { taxYear, clientIds: [clientId], assigneeId: assigneeId || null }, context.clientIp);
    if (done.outcome === "no-such-staff") return refuse(ASSIGN_MESSAGES.noSuchStaff, 400);
    if (done.outcome === "not-disclosed") return refuse(OUTSIDE_US_MESSAGES.cannotAssign(done.assignee.name), 400);
    if (done.outcome !== "assigned") return refuse(ASSIGN_MESSAGES.noSuchCase(taxYear), 404);
    const message = ASSIGN_MESSAGES.assigned(done.clients[0]!.label, done.assignee?.name ?? null);
    return data<AdminActionResult>({ intent, ok: true, clientId, message }, { headers: NO_STORE });
  }

  if (form.intent === "assign-selected") {
    const { intent, taxYear, assigneeId, selected } = form;
    const refuse = (message: string) => data<AdminActionResult>({ intent, ok: false, message }, { status: 400, headers: NO_STORE });
    if (taxYear === null || selected === null) return refuse(ASSIGN_MESSAGES.otherYear(taxYear ?? shownYear()));
    if (selected.length === 0) return refuse(ASSIGN_MESSAGES.nothingSelected);
    if (assigneeId === "") return refuse(ASSIGN_MESSAGES.chooseAssignee);
    if (assigneeId === null) return refuse(ASSIGN_MESSAGES.noSuchStaff);
    const done = await assignCases(
      actor,
      { taxYear, clientIds: selected, assigneeId: assigneeId === UNASSIGNED ? null : assigneeId },
      context.clientIp,
    );
    if (done.outcome === "not-disclosed") return refuse(OUTSIDE_US_MESSAGES.cannotAssign(done.assignee.name));
    if (done.outcome !== "assigned") {
      const refusals = {
        "nothing-selected": ASSIGN_MESSAGES.nothingSelected,
        "too-many": ASSIGN_MESSAGES.tooMany,
        "no-such-staff": ASSIGN_MESSAGES.noSuchStaff,
        "not-this-year": ASSIGN_MESSAGES.otherYear(taxYear),
      };
      return refuse(refusals[done.outcome]);
    }
    const message = ASSIGN_MESSAGES.assignedSelected(done.clients.length, done.assignee?.name ?? null);
    return data<AdminActionResult>({ intent, ok: true, message }, { headers: NO_STORE });
  }

  // Add New Client: the client details, checked (the client sets the password).
  const { intent, fullName, email, phone, visaStatus } = form;
  const outcome = await createClient(actor, { name: fullName, email, phone, visaStatus }, context.clientIp);
  if (outcome === "exists")
    return data<AdminActionResult>({ intent, ok: false, error: ADD_CLIENT_MESSAGES.exists, field: "email" }, { status: 409 });
  return data<AdminActionResult>({ intent, ok: true, email, ...(outcome === "invited-again" ? { again: true as const } : {}) });
}

export default function AdminDashboard() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const unsaved = useUnsavedWorkflows();
  return (
    <>
      <AdminHeader query={d.query} addClientResult={result?.intent === "add-client" ? result : undefined} />
      <div className="mt-6 space-y-6">
        {result?.intent === "save-workflow" || result?.intent === "assign" ? (
          <Alert tone={result.ok ? "success" : "error"}>{result.message}</Alert>
        ) : null}
        <RejectedReturns rejected={d.rejected} />
        <FailedMailNotice failed={d.failedMail} />
        <StatCards counters={d.counters} year={d.query.year} />
        {/* A change of search, filter or year that staff chose not to make leaves the fields as the list is. */}
        <ClientFilters key={unsaved.kept} query={d.query} years={d.years} returnCounts={d.returnCounts} residencyCounts={d.residencyCounts} />
        {/* Another page, search, filter or year is another list: its panels start closed. */}
        <ClientTable
          key={adminQueryString(d.query)}
          rows={d.rows}
          query={d.query}
          matching={d.matching}
          pageCount={d.pageCount}
          staff={d.staff}
          unsaved={unsaved}
          bulkAnswer={result?.intent === "assign-selected" ? result : undefined}
        />
      </div>
    </>
  );
}
