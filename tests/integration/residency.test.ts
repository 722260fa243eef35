import { afterEach, describe, expect, it, vi } from "vitest";
import type { ResidencyAnswer } from "~/routes/tools/residency-calculator";
import { action, loader } from "~/routes/tools/residency-calculator";
import { formRequest, routeArgs, unwrap } from "../helpers/route";

const PATH = "/tools/residency-calculator";

/** A whole form as the browser sends it: every field present, the ones not given empty. */
function form(fields: Record<string, string>): Record<string, string> {
  const empty = Object.fromEntries(
    ["studentYears", "teacherYears", ...[0, 1, 2].flatMap((o) => ["commuting", "transit", "crew", "medical", "otherStatus"].map((k) => `${k}${o}`))].map(
      (f) => [f, ""],
    ),
  );
  return { ...empty, ...fields };
}

async function post(fields: Record<string, string>) {
  const result = await action(routeArgs(formRequest(PATH, form(fields))) as never);
  return unwrap<ResidencyAnswer>(result);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("residency calculator page", () => {
  it("offers the last completed tax year by default, from the server's date", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 22, 12));
    const page = await loader();
    expect(page.defaultYear).toBe(2025);
    expect(page.yearChoices[0]).toBe(2026);
    expect(page.yearChoices).toContain(2016);

    vi.setSystemTime(new Date(2027, 0, 2, 12));
    expect((await loader()).defaultYear).toBe(2026);
  });

  it("answers a valid form with the verdict and the arithmetic", async () => {
    const answer = await post({ taxYear: "2025", category: "not-exempt", present0: "120", present1: "120", present2: "120" });
    expect(answer.status).toBe(200);
    if (!answer.body.ok) throw new Error("expected a result");
    const { result } = answer.body;
    expect(result.status).toBe("nonresident");
    expect(result.form).toBe("1040-NR");
    expect(result.years.map((y) => [y.year, y.counted, y.termSixths])).toEqual([
      [2025, 120, 720],
      [2024, 120, 240],
      [2023, 120, 120],
    ]);
    expect(result.totalSixths).toBe(1080);
    expect(result.reasons).toContain("Your days over 2023 to 2025 add up to 180.00, fewer than 183.");
    // The values come back so the page can show the form as it was sent.
    expect(answer.body.values.present0).toBe("120");
  });

  it("decides an exempt student's years on the server", async () => {
    const answer = await post({
      taxYear: "2025",
      category: "student",
      studentYears: "2020-2025",
      present0: "365",
      present1: "366",
      present2: "365",
    });
    if (!answer.body.ok) throw new Error("expected a result");
    expect(answer.body.result.status).toBe("resident");
    expect(answer.body.result.years.map((y) => y.counted)).toEqual([365, 0, 0]);
    expect(answer.body.result.notes).toContain("student-beyond-five-years");
  });

  it("refuses invalid input with 400 and a message per field, and no result", async () => {
    const answer = await post({
      taxYear: "2025",
      category: "teacher",
      teacherYears: "2025-2023",
      present0: "-3",
      present1: "367",
      present2: "10",
      crew2: "11",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.ok).toBe(false);
    expect(answer.body).not.toHaveProperty("result");
    if (answer.body.ok) throw new Error("expected errors");
    expect(answer.body.errors).toEqual({
      teacherYears: "Write the earlier year first: 2023-2025, not 2025-2023.",
      present0: "Days cannot be negative.",
      present1: "2024 has 366 days. Enter 366 or fewer.",
      present2: "The days that don't count in 2023 add up to 11, more than the 10 days you were in the US.",
    });
    expect(answer.body.values.teacherYears).toBe("2025-2023");
  });

  it("refuses a year that has not started, and a form with no answers", async () => {
    const future = await post({ taxYear: String(new Date().getFullYear() + 1), category: "not-exempt", present0: "1", present1: "1", present2: "1" });
    expect(future.status).toBe(400);
    expect(future.body.ok ? {} : future.body.errors).toHaveProperty("taxYear");

    const result = await action(routeArgs(formRequest(PATH, {})) as never);
    const empty = unwrap<ResidencyAnswer>(result);
    expect(empty.status).toBe(400);
    expect(empty.body.ok ? {} : Object.keys(empty.body.errors).sort()).toEqual(["category", "present0", "present1", "present2", "taxYear"]);
  });
});
