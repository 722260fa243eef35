import { describe, expect, it } from "vitest";
import { differsFromResidency, residencyReturnForm } from "~/domain/residency/return-form";
import type { ResidencyOutcome } from "~/domain/residency/rules";

const outcome = (status: ResidencyOutcome["status"], forms: ResidencyOutcome["forms"]) => [{ role: "client", status, forms } as ResidencyOutcome];

describe("the return's form a residency calls for", () => {
  it("1040 for a resident or a citizen, 1040-NR for a nonresident, the year-end part's for a dual-status year", () => {
    expect(residencyReturnForm(outcome("resident", ["1040"]), null)).toBe("1040");
    expect(residencyReturnForm(outcome("citizen", ["1040"]), null)).toBe("1040");
    expect(residencyReturnForm(outcome("nonresident", ["1040-NR", "8843"]), null)).toBe("1040-NR");
    expect(residencyReturnForm(outcome("dual-status", ["dual-status-1040"]), null)).toBe("1040");
    expect(residencyReturnForm(outcome("dual-status", ["dual-status-1040-NR", "residency-statement"]), null)).toBe("1040-NR");
    expect(residencyReturnForm(null, null)).toBeNull();
  });

  it("the status staff confirmed wins", () => {
    expect(residencyReturnForm(outcome("nonresident", ["1040-NR"]), "resident")).toBe("1040");
    expect(residencyReturnForm(outcome("resident", ["1040"]), "nonresident")).toBe("1040-NR");
    // Confirmed dual-status over another computed status: no form to default to.
    expect(residencyReturnForm(outcome("resident", ["1040"]), "dual-status")).toBeNull();
  });

  it("compares the 1040 family with the 1040-NR, not amendments or extensions", () => {
    expect(differsFromResidency("1040-NR", "1040")).toBe(true);
    expect(differsFromResidency("1040-NR", "1040-SR")).toBe(true);
    expect(differsFromResidency("1040", "1040-NR")).toBe(true);
    expect(differsFromResidency("1040", "1040-SR")).toBe(false);
    expect(differsFromResidency("1040-NR", "1040-X")).toBe(false);
    expect(differsFromResidency("1040-NR", "4868")).toBe(false);
    expect(differsFromResidency(null, "1040")).toBe(false);
  });
});
