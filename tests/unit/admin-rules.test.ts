import { describe, expect, it } from "vitest";
import {
  adminQueryString,
  csvCell,
  formsByIntent,
  MarkHandledForm,
  MAX_PAGE,
  parseAdminQuery,
  SaveWorkflowForm,
  showingText,
  toCsv,
  ViewCaseForm,
} from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { caseComplete, currentStage, flagsWithProgress, noFlags, noProgress, STAGES } from "~/domain/workflow";
import type { WorkflowFlags } from "~/domain/workflow";

const flagsUpTo = (n: number): WorkflowFlags =>
  Object.fromEntries(STAGES.map((s, i) => [s.key, i < n])) as WorkflowFlags;

describe("stages", () => {
  it("are the documented eight, in order", () => {
    expect(STAGES.map((s) => s.label)).toEqual(["HOME", "TAX INFO", "DOCUMENTS", "PREPARATION", "DRAFT", "PAYMENT", "E-FILING", "FINAL COPIES"]);
  });
  it("the current stage is the first not completed, FINAL COPIES when all are", () => {
    expect(currentStage(noFlags)).toBe("home");
    expect(currentStage(flagsUpTo(2))).toBe("documents");
    expect(currentStage({ ...noFlags, home: true, documents: true })).toBe("taxinfo");
    expect(currentStage(flagsUpTo(8))).toBe("finalcopies");
    expect(currentStage(flagsUpTo(7))).toBe("finalcopies");
  });
  it("the client reads a stage never before the furthest the return's and the fee's records reached", () => {
    const shown = (flags: WorkflowFlags, progress: Partial<typeof noProgress>) => currentStage(flagsWithProgress(flags, { ...noProgress, ...progress }));
    // Staff ticked nothing: each record moves the stage on by itself.
    expect(shown(noFlags, {})).toBe("home");
    expect(shown(noFlags, { draftSent: true })).toBe("draft");
    expect(shown(noFlags, { draftSent: true, draftApproved: true })).toBe("payment");
    expect(shown(noFlags, { draftSent: true, draftApproved: true, feePaid: true })).toBe("efiling");
    // Approved, signed, transmitted and rejected: E-FILING, paid or not.
    expect(shown(noFlags, { draftSent: true, draftApproved: true, transmitted: true })).toBe("efiling");
    expect(shown(noFlags, { draftSent: true, draftApproved: true, transmitted: true, accepted: true })).toBe("finalcopies");
    const released = flagsWithProgress(noFlags, { ...noProgress, draftSent: true, draftApproved: true, transmitted: true, accepted: true, finalCopiesReleased: true });
    expect(caseComplete(released)).toBe(true);
    // The stages passed are completed; later flags staff ticked stay so.
    expect(flagsWithProgress({ ...noFlags, efiling: true }, { ...noProgress, draftSent: true })).toEqual({ ...flagsUpTo(4), efiling: true });
    // A fee paid early completes PAYMENT only: the stage stays where the flags and the records put it.
    expect(shown({ ...noFlags, home: true }, { feePaid: true })).toBe("taxinfo");
    expect(flagsWithProgress(noFlags, { ...noProgress, feePaid: true }).payment).toBe(true);
    // Flags staff ticked further than the records still count.
    expect(shown(flagsUpTo(6), { draftSent: true })).toBe("efiling");
  });
  it("reads the tiles of a workflow form", () => {
    const form = { intent: "save-workflow", clientId: "c1", completed: ["home", "taxinfo", "bogus"] };
    expect(SaveWorkflowForm.parse(form).completed).toEqual({ flags: { ...noFlags, home: true, taxinfo: true }, stage: "documents" });
    expect(SaveWorkflowForm.parse({ ...form, completed: "draft" }).completed.flags).toEqual({ ...noFlags, draft: true });
    expect(SaveWorkflowForm.parse({ intent: "save-workflow" })).toMatchObject({ clientId: "", assigneeId: "", completed: { flags: noFlags } });
  });
  it("reads an id that holds a NUL as naming no account, and a repeated id as its first", () => {
    expect(ViewCaseForm.parse({ intent: "view-case", clientId: "a\u0000b" }).clientId).toBeNull();
    expect(ViewCaseForm.parse({ intent: "view-case", clientId: ["c1", "c2"] }).clientId).toBe("c1");
    expect(SaveWorkflowForm.parse({ intent: "save-workflow", clientId: "c1", assigneeId: "\u0000" }).assigneeId).toBeNull();
    expect(SaveWorkflowForm.parse({ intent: "save-workflow", clientId: "c1", assigneeId: "", taxYear: "2024" }).taxYear).toBe(2024);
    expect(SaveWorkflowForm.parse({ intent: "save-workflow", clientId: "c1", assigneeId: "", taxYear: "24" }).taxYear).toBeNull();
  });
  it("tells the panel's forms apart by their first intent, and refuses an unknown one on that field", () => {
    const Forms = formsByIntent([ViewCaseForm, SaveWorkflowForm]);
    expect(Forms.parse({ intent: ["view-case", "save-workflow"], clientId: "c1" })).toEqual({
      intent: "view-case",
      clientId: "c1",
      taxYear: currentFilingYear(),
    });
    for (const intent of ["remove", undefined, ["", "view-case"]]) {
      const parsed = Forms.safeParse({ intent, clientId: "c1" });
      expect(parsed.success).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0]?.path).toEqual(["intent"]);
    }
  });
  it("marks a message handled only by a UUID", () => {
    const id = "0b7c2f3e-9d7a-4a53-8f7e-2f4c1b9a6d10";
    expect(MarkHandledForm.safeParse({ intent: "mark-handled", messageId: id.toUpperCase() }).success).toBe(true);
    expect(MarkHandledForm.safeParse({ intent: "mark-handled", messageId: `${id}\u0000` }).success).toBe(false);
    expect(MarkHandledForm.safeParse({ intent: "remove", messageId: id }).success).toBe(false);
  });
});

describe("the panel's URL state", () => {
  it("keeps its state in the URL, ignoring what it does not know", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const q = parseAdminQuery(new URLSearchParams("section=draft&q=%20wei%20&stage=bogus&return=signed&page=-3"), now);
    expect(q).toEqual({ year: 2025, section: "draft", q: "wei", stage: "all", returnFilter: "all", residencyFilter: "all", page: 1 });
    expect(adminQueryString(q, { page: 2 }, now)).toBe("?section=draft&q=wei&page=2");
    expect(adminQueryString(parseAdminQuery(new URLSearchParams(), now), {}, now)).toBe("");
    // The tax year: the filing season's by default, kept in the URL otherwise, unknown ones ignored.
    expect(parseAdminQuery(new URLSearchParams("year=2023"), now).year).toBe(2023);
    expect(adminQueryString(parseAdminQuery(new URLSearchParams("year=2023&page=2"), now), {}, now)).toBe("?year=2023&page=2");
    for (const year of ["1999", "2028", "20x5", "", "2025.0"])
      expect(parseAdminQuery(new URLSearchParams({ year }), now).year).toBe(2025);
    // The return filter: one of three, kept in the URL as ?return=.
    const rejected = parseAdminQuery(new URLSearchParams("return=rejected&stage=efiling"), now);
    expect(rejected).toMatchObject({ returnFilter: "rejected", stage: "efiling" });
    expect(adminQueryString(rejected, {}, now)).toBe("?stage=efiling&return=rejected");
    for (const value of ["awaiting-approval", "awaiting-signature"])
      expect(parseAdminQuery(new URLSearchParams({ return: value }), now).returnFilter).toBe(value);
    for (const value of ["Rejected", "all", "", "rejected "])
      expect(parseAdminQuery(new URLSearchParams({ return: value }), now).returnFilter).toBe("all");
    // The residency filter: one of six, kept in the URL as ?residency=, after the return filter.
    const flagged = parseAdminQuery(new URLSearchParams("residency=flagged&return=rejected"), now);
    expect(flagged).toMatchObject({ residencyFilter: "flagged", returnFilter: "rejected" });
    expect(adminQueryString(flagged, {}, now)).toBe("?return=rejected&residency=flagged");
    expect(adminQueryString(flagged, { residencyFilter: "all" }, now)).toBe("?return=rejected");
    for (const value of ["resident", "nonresident", "dual-status", "first-year-choice", "history-missing", "flagged"])
      expect(parseAdminQuery(new URLSearchParams({ residency: value }), now).residencyFilter).toBe(value);
    for (const value of ["Resident", "citizen", "all", "", "flagged "])
      expect(parseAdminQuery(new URLSearchParams({ residency: value }), now).residencyFilter).toBe("all");
  });
  it("reads a page number too large to page to as the highest page", () => {
    for (const page of ["99999999999999999999", "1".padEnd(400, "0"), String(Number.MAX_SAFE_INTEGER)])
      expect(parseAdminQuery(new URLSearchParams({ page })).page).toBe(MAX_PAGE);
    expect(parseAdminQuery(new URLSearchParams({ page: "Infinity" })).page).toBe(1);
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
