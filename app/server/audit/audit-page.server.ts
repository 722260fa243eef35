import { AUDIT_MAX_PAGES, AUDIT_PAGE_SIZE, parseAuditQuery, SYSTEM_ACTOR } from "~/domain/audit";
import type { AuditQuery } from "~/domain/audit";
import { clientsMatching, countClientsMatching } from "~/server/clients/list.server";
import { countAudit, everyStaffMember, listAudit } from "./audit.server";
import type { AuditAction } from "./audit.server";
import { describeAction } from "~/server/cases/case-page.server";

// The audit trail's page (routes/admin/audit.tsx): its filters, its page of entries, and each
// entry's people by name. Callers sit under the admin layout (admins only).

type Staff = Awaited<ReturnType<typeof everyStaffMember>>;

/** The names two or more staff members share. */
function sharedNames(staff: Staff): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const s of staff) (seen.has(s.name) ? shared : seen).add(s.name);
  return shared;
}

/** Staff names for the entries' details: the name, with the account id where two staff share it. */
function staffNames(staff: Staff): Map<string, string> {
  const shared = sharedNames(staff);
  return new Map(staff.map((s) => [s.id, shared.has(s.name) ? `${s.name} (${s.id})` : s.name]));
}

/** The actor filter's choices: each staff member by name, with the e-mail where two share it. */
function actorChoices(staff: Staff): Array<{ value: string; label: string }> {
  const shared = sharedNames(staff);
  return [
    ...staff.map((s) => ({ value: s.id, label: shared.has(s.name) ? `${s.name} (${s.email})` : s.name })),
    { value: SYSTEM_ACTOR, label: "System (nobody signed in)" },
  ];
}

/** Kinds whose stored detail names a staff member by account id (cases/workflow.server.ts writes them). */
const NAMES_BY_ID: ReadonlySet<AuditAction> = new Set<AuditAction>(["workflow-saved", "case-assigned"]);

/** An entry's detail as the page shows it: the case page's words where the stored text holds an account id. */
function auditDetail(action: AuditAction, detail: string | null, names: ReadonlyMap<string, string>): string | null {
  if (NAMES_BY_ID.has(action) && detail) return describeAction(action, detail, names);
  return detail;
}

/**
 * One page of the trail for the URL's query: up to AUDIT_PAGE_SIZE entries, newest first. A page
 * past the end shows the last one; an actor who is not staff (nor "system") and a kind that is not
 * one are left out of the filter and named in `problems`.
 */
export async function loadAuditPage(params: URLSearchParams) {
  const parsed = parseAuditQuery(params);
  const problems = [...parsed.problems];
  const staff = await everyStaffMember();
  let query: AuditQuery = parsed.query;
  if (query.actor !== "" && query.actor !== SYSTEM_ACTOR && !staff.some((s) => s.id === query.actor)) {
    problems.push("The person in this link is not on the staff; entries by anyone are shown.");
    query = { ...query, actor: "" };
  }
  const filter = {
    clientIds: query.client ? clientsMatching(query.client) : undefined,
    actor: query.actor || undefined,
    action: query.action || undefined,
  };
  const deepest = AUDIT_PAGE_SIZE * AUDIT_MAX_PAGES;
  const [matchingClients, counted] = await Promise.all([
    query.client ? countClientsMatching(query.client) : null,
    countAudit(filter, deepest + 1),
  ]);
  const pageCount = Math.max(1, Math.ceil(Math.min(counted, deepest) / AUDIT_PAGE_SIZE));
  query = { ...query, page: Math.min(query.page, pageCount) };
  const entries = await listAudit({ filter, limit: AUDIT_PAGE_SIZE, offset: (query.page - 1) * AUDIT_PAGE_SIZE });
  const names = staffNames(staff);
  return {
    query,
    problems,
    matchingClients,
    /** Entries the filters find, counted up to the deepest page's last. */
    matching: Math.min(counted, deepest),
    /** Whether the filters find more entries than the pages reach. */
    more: counted > deepest,
    pageCount,
    actors: actorChoices(staff),
    entries: entries.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      actorId: e.actorId,
      actorName: e.actorName,
      actorEmail: e.actorEmail,
      action: e.action,
      clientId: e.clientId,
      clientLabel: e.clientLabel,
      detail: auditDetail(e.action, e.detail, names),
      ipAddress: e.ipAddress,
    })),
  };
}
