/**
 * Who on the staff may do what (decisions.md: `admin` does everything; `preparer` works on
 * cases: clients, their documents, workflow and notes, but has no team page, no CSV export, no
 * contact-form messages and no audit trail). This table is the one place the rule lives: the
 * admin panel's layout consults it for every URL it holds, before any loader or action runs,
 * and the panel's menu shows only what it allows.
 */
import type { Role } from "./auth";

export const STAFF_ROLES = ["admin", "preparer"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(role: Role | string | null | undefined): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role ?? "");
}

/** The parts of the staff panel, each opened to some roles. */
export type StaffArea = "cases" | "export" | "contact-messages" | "audit" | "team";

export const STAFF_POLICY: Record<StaffArea, readonly StaffRole[]> = {
  cases: ["admin", "preparer"],
  export: ["admin"],
  "contact-messages": ["admin"],
  audit: ["admin"],
  team: ["admin"],
};

/** Which area each staff URL belongs to: the first pattern that matches; anything else is a case's. */
const AREAS: ReadonlyArray<{ area: StaffArea; path: RegExp }> = [
  { area: "export", path: /^\/admin\/clients\.csv(?:\.data)?$/ },
  { area: "contact-messages", path: /^\/admin\/messages(?:\.data|\/.*)?$/ },
  { area: "audit", path: /^\/admin\/audit(?:\.data|\/.*)?$/ },
  { area: "team", path: /^\/admin\/team(?:\.data|\/.*)?$/ },
];

/** The area a staff URL's path belongs to. */
export function staffAreaOf(pathname: string): StaffArea {
  const path = pathname.replace(/\/+$/, "") || "/";
  return AREAS.find((a) => a.path.test(path))?.area ?? "cases";
}

/** Whether a staff member of `role` may use `area` (clients and unknown roles may use none). */
export function staffMay(role: Role | string | null | undefined, area: StaffArea): boolean {
  return isStaffRole(role) && STAFF_POLICY[area].includes(role);
}

/** What a staff member is told when the policy refuses them a page. */
export const NOT_FOR_YOUR_ROLE = "This part of the panel is for administrators.";
