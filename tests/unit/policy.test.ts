import { describe, expect, it } from "vitest";
import { homeFor } from "~/domain/auth";
import { isStaffRole, staffAreaOf, staffMay } from "~/domain/policy";

describe("the staff policy table", () => {
  it("places every staff URL in one part of the panel, its data requests too", () => {
    expect(staffAreaOf("/admin/clients.csv")).toBe("export");
    expect(staffAreaOf("/admin/messages")).toBe("contact-messages");
    expect(staffAreaOf("/admin/messages.data")).toBe("contact-messages");
    expect(staffAreaOf("/admin/audit/")).toBe("audit");
    expect(staffAreaOf("/admin/audit.data")).toBe("audit");
    expect(staffAreaOf("/admin/team")).toBe("team");
    for (const path of ["/admin/dashboard", "/admin/clients/abc/2025", "/admin/clients/abc/documents", "/admin/clients/abc/documents/upload", "/admin"])
      expect(staffAreaOf(path)).toBe("cases");
    // Look-alikes are not the admin-only pages (and fall to the cases' rule).
    expect(staffAreaOf("/admin/messagesx")).toBe("cases");
  });

  it("gives admins everything, preparers the cases, clients and unknown roles nothing", () => {
    for (const area of ["cases", "export", "contact-messages", "audit", "team"] as const) expect(staffMay("admin", area)).toBe(true);
    expect(staffMay("preparer", "cases")).toBe(true);
    for (const area of ["export", "contact-messages", "audit", "team"] as const) expect(staffMay("preparer", area)).toBe(false);
    for (const role of ["user", "", null, undefined, "superuser"]) expect(staffMay(role, "cases")).toBe(false);
    expect([isStaffRole("admin"), isStaffRole("preparer"), isStaffRole("user")]).toEqual([true, true, false]);
    expect([homeFor("admin"), homeFor("preparer"), homeFor("user")]).toEqual(["/admin/dashboard", "/admin/dashboard", "/dashboard"]);
  });
});
