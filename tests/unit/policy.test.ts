import { describe, expect, it } from "vitest";
import { homeFor } from "~/domain/auth";
import { isStaffRole, staffAreaOfRoute, staffMay } from "~/domain/policy";

describe("the staff policy table", () => {
  it("places every route of the panel in one part, by the route's pattern as the router reports it", () => {
    expect(staffAreaOfRoute("admin/clients.csv")).toBe("export");
    expect(staffAreaOfRoute("/admin/clients.csv")).toBe("export");
    expect(staffAreaOfRoute("admin/messages")).toBe("contact-messages");
    expect(staffAreaOfRoute("admin/audit")).toBe("audit");
    expect(staffAreaOfRoute("admin/team")).toBe("team");
    for (const pattern of ["admin", "admin/dashboard", "admin/inbox", "admin/clients/:clientId/:year", "admin/clients/:clientId/documents", "admin/clients/:clientId/documents/upload"])
      expect(staffAreaOfRoute(pattern)).toBe("cases");
  });

  it("names no part for a route it does not list, and such a route is refused to every role", () => {
    for (const pattern of ["admin/Team", "admin/new-report", "admin/messagesx", "admin/team.data", "", "toString", "__proto__"])
      expect(staffAreaOfRoute(pattern)).toBeNull();
    for (const role of ["admin", "preparer"]) expect(staffMay(role, null)).toBe(false);
  });

  it("gives admins everything, preparers the cases, clients and unknown roles nothing", () => {
    for (const area of ["cases", "export", "contact-messages", "audit", "team", "mail", "payments"] as const) expect(staffMay("admin", area)).toBe(true);
    expect(staffMay("preparer", "cases")).toBe(true);
    for (const area of ["export", "contact-messages", "audit", "team", "mail", "payments"] as const) expect(staffMay("preparer", area)).toBe(false);
    for (const role of ["user", "", null, undefined, "superuser"]) expect(staffMay(role, "cases")).toBe(false);
    expect([isStaffRole("admin"), isStaffRole("preparer"), isStaffRole("user")]).toEqual([true, true, false]);
    expect([homeFor("admin"), homeFor("preparer"), homeFor("user")]).toEqual(["/admin/dashboard", "/admin/dashboard", "/dashboard"]);
  });
});
