import { describe, expect, it } from "vitest";
import { adminQueryString, clientCode, csvCell, filterClients, flagsFromForm, parseAdminQuery, showingText, toCsv } from "~/domain/admin";
import type { AdminClientRow } from "~/domain/admin";
import { currentStage, noFlags, STAGES, workflowCounters } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";

const flagsUpTo = (n: number): WorkflowFlags =>
  Object.fromEntries(STAGES.map((s, i) => [s.key, i < n])) as WorkflowFlags;

function row(id: string, stage: StageKey, extra: Partial<AdminClientRow> = {}): AdminClientRow {
  return {
    id,
    code: clientCode(Number(id.replace(/\D/g, "")) || 1),
    name: `Client ${id}`,
    email: `${id}@example.com`,
    assignee: null,
    stage,
    flags: flagsUpTo(STAGES.findIndex((s) => s.key === stage)),
    documentCount: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}

describe("stages", () => {
  it("are the spec's eight, in order", () => {
    expect(STAGES.map((s) => s.label)).toEqual(["HOME", "TAX INFO", "DOCUMENTS", "PREPARATION", "DRAFT", "PAYMENT", "E-FILING", "FINAL COPIES"]);
  });
  it("the current stage is the first not completed, FINAL COPIES when all are", () => {
    expect(currentStage(noFlags)).toBe("home");
    expect(currentStage(flagsUpTo(2))).toBe("documents");
    expect(currentStage({ ...noFlags, home: true, documents: true })).toBe("taxinfo");
    expect(currentStage(flagsUpTo(8))).toBe("finalcopies");
    expect(currentStage(flagsUpTo(7))).toBe("finalcopies");
  });
  it("reads the tiles of a workflow form", () => {
    const form = new URLSearchParams([["completed", "home"], ["completed", "taxinfo"], ["completed", "bogus"]]);
    expect(flagsFromForm(form)).toEqual({ flags: { ...noFlags, home: true, taxinfo: true }, stage: "documents" });
  });
});

describe("counters (spec section 4)", () => {
  it("counts active, pending documents and completed", () => {
    const cases = [
      { stage: "home" as const, flags: noFlags },
      { stage: "documents" as const, flags: flagsUpTo(2) },
      { stage: "documents" as const, flags: flagsUpTo(2) },
      { stage: "finalcopies" as const, flags: flagsUpTo(7) },
      { stage: "finalcopies" as const, flags: flagsUpTo(8) },
    ];
    expect(workflowCounters(cases)).toEqual({ total: 5, active: 4, pendingDocuments: 2, completed: 1 });
  });
});

describe("filters", () => {
  const staff = { id: "s1", name: "Asha Patel", email: "asha@taxbridge.example" };
  const rows = [row("c1", "home"), row("c2", "documents", { assignee: staff }), row("c3", "documents", { name: "Zhang Wei" }), row("c4", "draft")];
  it("HOME lists all, another section its own stage", () => {
    expect(filterClients(rows, { section: "home", q: "", stage: "all" })).toHaveLength(4);
    expect(filterClients(rows, { section: "documents", q: "", stage: "all" }).map((r) => r.id)).toEqual(["c2", "c3"]);
  });
  it("search matches name, e-mail, client id and assignee, case-insensitively", () => {
    const find = (q: string) => filterClients(rows, { section: "home", q, stage: "all" }).map((r) => r.id);
    expect(find("zhang")).toEqual(["c3"]);
    expect(find("C4@EXAMPLE")).toEqual(["c4"]);
    expect(find("TB-00001")).toEqual(["c1"]);
    expect(find("asha")).toEqual(["c2"]);
    expect(find("nobody")).toEqual([]);
  });
  it("the stage filter applies on top of the section and search", () => {
    expect(filterClients(rows, { section: "home", q: "", stage: "draft" }).map((r) => r.id)).toEqual(["c4"]);
    expect(filterClients(rows, { section: "documents", q: "", stage: "draft" })).toEqual([]);
  });
  it("keeps its state in the URL, ignoring what it does not know", () => {
    const q = parseAdminQuery(new URLSearchParams("section=draft&q=%20wei%20&stage=bogus&page=-3"));
    expect(q).toEqual({ section: "draft", q: "wei", stage: "all", page: 1 });
    expect(adminQueryString(q, { page: 2 })).toBe("?section=draft&q=wei&page=2");
    expect(adminQueryString(parseAdminQuery(new URLSearchParams()))).toBe("");
  });
  it("says which clients are shown", () => {
    expect(showingText(1, 10, 37)).toBe("Showing 1-10 of 37 clients");
    expect(showingText(4, 10, 37)).toBe("Showing 31-37 of 37 clients");
    expect(showingText(1, 10, 0)).toBe("Showing 0 of 0 clients");
  });
});

describe("CSV", () => {
  it("quotes every cell and neutralises formulas", () => {
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    for (const f of ["=1+1", "+1", "-2", "@SUM(A1)", "\tx"]) expect(csvCell(f)).toBe(`"'${f}"`);
    expect(csvCell(null)).toBe('""');
    expect(csvCell(3)).toBe('"3"');
    expect(toCsv([["a", "b"], ["=c", "d"]])).toBe('"a","b"\r\n"\'=c","d"\r\n');
  });
});
