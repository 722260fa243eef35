import { describe, expect, it } from "vitest";
import { filingCounters } from "~/domain/portal";
import { caseComplete, noFlags, STAGE_KEYS } from "~/domain/workflow";

describe("My Tax Filing's counters", () => {
  const allDone = Object.fromEntries(STAGE_KEYS.map((k) => [k, true])) as typeof noFlags;

  it("a case is complete only with all eight stages done", () => {
    expect(caseComplete(allDone)).toBe(true);
    expect(caseComplete(noFlags)).toBe(false);
    expect(caseComplete({ ...allDone, finalcopies: false })).toBe(false);
    expect(caseComplete({ ...allDone, home: false })).toBe(false);
  });

  it("Completed counts complete cases and In Progress the rest, whatever the tax information's status", () => {
    expect(filingCounters([{ complete: false }, { complete: false }])).toEqual({ total: 2, completed: 0, inProgress: 2 });
    expect(filingCounters([{ complete: true }, { complete: false }, { complete: true }])).toEqual({
      total: 3,
      completed: 2,
      inProgress: 1,
    });
    expect(filingCounters([])).toEqual({ total: 0, completed: 0, inProgress: 0 });
  });
});
