/**
 * Who on the staff may do what (docs/product/accounts.md#who-may-open-what: `admin` does
 * everything; `preparer` works on cases: clients, their documents, workflow and notes, but has no
 * team page, no CSV export, no contact-form messages, no audit trail, no undelivered e-mails and no
 * Payments page; they make and send invoices and record payments, but only admins void and refund). These tables are the one
 * place the rule lives (the return's records, app/server/returns, are case work: admins and
 * preparers may do all of it, as "cases" says): the admin panel's layout consults them for every route it holds, before any
 * loader or action runs, and the panel's menu shows only what they allow.
 */
import type { Role } from "./auth";

export const STAFF_ROLES = ["admin", "preparer"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(role: Role | string | null | undefined): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role ?? "");
}

/** The parts of the staff panel, each opened to some roles. */
export type StaffArea = "cases" | "export" | "contact-messages" | "audit" | "team" | "mail" | "payments" | "engagement";

export const STAFF_POLICY: Record<StaffArea, readonly StaffRole[]> = {
  cases: ["admin", "preparer"],
  export: ["admin"],
  "contact-messages": ["admin"],
  audit: ["admin"],
  team: ["admin"],
  mail: ["admin"],
  // The firm's money: outstanding invoices, the month's payments, the CSV for the books, the
  // final-copies setting (docs/product/fees.md#who-may-do-what).
  payments: ["admin"],
  // The engagement letter's templates, whether drafts wait for an accepted letter, and the season's
  // start, which opens the new year for last year's clients (docs/product/engagement.md).
  engagement: ["admin"],
};

/**
 * Every route of the staff panel (its path as app/routes.ts writes it, which is what the router
 * reports as the matched route's pattern) and the area it belongs to. The area is decided from
 * the route that matched, never from the address's text: the router matches addresses without
 * regard to case and after percent-decoding (/admin/TEAM, /admin/te%61m and /admin/Team.data are
 * the team page). A route this table does not name is refused to everyone.
 */
export const STAFF_ROUTES: Readonly<Record<string, StaffArea>> = {
  "/admin": "cases",
  "/admin/dashboard": "cases",
  "/admin/inbox": "cases",
  "/admin/clients/:clientId/documents": "cases",
  "/admin/clients/:clientId/documents/upload": "cases",
  "/admin/clients/:clientId/return-versions/:versionId": "cases",
  "/admin/clients/:clientId/invoices/:invoiceId/:file": "cases",
  "/admin/clients/:clientId/engagement-letters/:letterId": "cases",
  // A case and its sections (domain/case-sections.ts); the overview is the case's own address.
  "/admin/clients/:clientId/:year": "cases",
  "/admin/clients/:clientId/:year/taxpayer": "cases",
  "/admin/clients/:clientId/:year/residency": "cases",
  "/admin/clients/:clientId/:year/residency/history": "cases",
  "/admin/clients/:clientId/:year/documents": "cases",
  "/admin/clients/:clientId/:year/requests": "cases",
  "/admin/clients/:clientId/:year/messages": "cases",
  "/admin/clients/:clientId/:year/workflow": "cases",
  "/admin/clients/:clientId/:year/return": "cases",
  "/admin/clients/:clientId/:year/fee": "cases",
  "/admin/clients/:clientId/:year/engagement": "cases",
  "/admin/clients/:clientId/:year/notes": "cases",
  "/admin/clients.csv": "export",
  "/admin/messages": "contact-messages",
  "/admin/audit": "audit",
  "/admin/team": "team",
  "/admin/notices": "mail",
  "/admin/payments": "payments",
  "/admin/payments.csv": "payments",
  "/admin/engagement": "engagement",
  "/admin/season": "engagement",
};

/**
 * The area of the staff panel's route `pattern` (the matched route's path: the router joins its
 * routes' paths without a leading slash), or null for a route the table does not name.
 */
export function staffAreaOfRoute(pattern: string): StaffArea | null {
  const path = `/${pattern.replace(/^\/+/, "")}`;
  return Object.hasOwn(STAFF_ROUTES, path) ? STAFF_ROUTES[path]! : null;
}

/** Whether a staff member of `role` may use `area` (clients, unknown roles and unknown areas: none). */
export function staffMay(role: Role | string | null | undefined, area: StaffArea | null): boolean {
  return area !== null && isStaffRole(role) && STAFF_POLICY[area].includes(role);
}

/** What a staff member is told when the policy refuses them a page. */
export const NOT_FOR_YOUR_ROLE = "This part of the panel is for administrators.";
