import { describe, expect, it } from "vitest";
import { categoryOptions, residencyNote, residencyRules, residencyResultText, statusPhrase } from "~/content/residency";
import {
  SPT_MINIMUM_DAYS,
  SPT_TOTAL_DAYS,
  STUDENT_EXEMPT_YEARS,
  TEACHER_PRIOR_EXEMPT_LIMIT,
  VISA_CATEGORIES,
  daysInYear,
  decideResidency,
  emptyResidencyValues,
  exemptYears,
  formatSixths,
  lastCompletedTaxYear,
  parseYearList,
  RESIDENCY_MESSAGES,
  taxYearChoices,
  validateResidency,
} from "~/domain/residency";
import type { ResidencyInput, ResidencyNote, ResidencyResult, ResidencyValues, VisaCategory, YearDays } from "~/domain/residency";

const CURRENT_YEAR = 2026;

function days(present: number, extra: Partial<YearDays> = {}): YearDays {
  return { present, commuting: 0, transit: 0, crew: 0, medical: 0, otherStatus: 0, ...extra };
}

function input(
  category: VisaCategory,
  [y0, y1, y2]: [YearDays | number, YearDays | number, YearDays | number],
  lists: { studentYears?: number[]; teacherYears?: number[]; taxYear?: number } = {},
): ResidencyInput {
  const d = (v: YearDays | number) => (typeof v === "number" ? days(v) : v);
  return {
    taxYear: lists.taxYear ?? 2025,
    category,
    studentYears: lists.studentYears ?? [],
    teacherYears: lists.teacherYears ?? [],
    days: [d(y0), d(y1), d(y2)],
  };
}

/** Each year's counted days and term, and the total, as the page shows them. */
function arithmetic(result: ResidencyResult) {
  return {
    counted: result.years.map((y) => y.counted),
    terms: result.years.map((y) => formatSixths(y.termSixths)),
    total: formatSixths(result.totalSixths),
  };
}

/** Submitted form values: the fields not given are left empty, as an untouched form sends them. */
function values(fields: Partial<ResidencyValues>): ResidencyValues {
  return { ...emptyResidencyValues, taxYear: "2025", category: "not-exempt", present0: "0", present1: "0", present2: "0", ...fields };
}

describe("the substantial presence test", () => {
  it("Publication 519's example: 120 days in each of three years is 120 + 40 + 20 = 180 days, so the test is not met", () => {
    const result = decideResidency(input("not-exempt", [120, 120, 120]));
    expect(arithmetic(result)).toEqual({ counted: [120, 120, 120], terms: ["120.00", "40.00", "20.00"], total: "180.00" });
    expect(result.years.map((y) => [y.year, y.divisor])).toEqual([
      [2025, 1],
      [2024, 3],
      [2023, 6],
    ]);
    expect(result.meetsMinimumDays).toBe(true);
    expect(result.meetsTotal).toBe(false);
    expect(result.status).toBe("nonresident");
    expect(result.form).toBe("1040-NR");
    expect(result.reasons).toContain("Your days over 2023 to 2025 add up to 180.00, fewer than 183.");
    expect(result.reasons).toContain("You do not meet the substantial presence test for 2025.");
  });

  it("is met at exactly 183 days, and uses exact fractions rather than whole days", () => {
    // 182 + 2/3 + 2/6 = 183 exactly; rounding each term down to whole days would give 182.
    const exact = decideResidency(input("not-exempt", [182, 2, 2]));
    expect(arithmetic(exact)).toEqual({ counted: [182, 2, 2], terms: ["182.00", "0.67", "0.33"], total: "183.00" });
    expect(exact.status).toBe("resident");
    expect(exact.basis).toBe("substantial-presence-test");
    expect(exact.form).toBe("1040");

    const short = decideResidency(input("not-exempt", [182, 2, 1]));
    expect(arithmetic(short).total).toBe("182.83");
    expect(short.meetsTotal).toBe(false);
    expect(short.status).toBe("nonresident");
  });

  it("needs at least 31 days in the year checked, even when the three-year total passes 183", () => {
    const thirty = decideResidency(input("not-exempt", [30, 365, 365]));
    expect(arithmetic(thirty).total).toBe("212.50");
    expect(thirty.meetsTotal).toBe(true);
    expect(thirty.meetsMinimumDays).toBe(false);
    expect(thirty.status).toBe("nonresident");
    expect(thirty.reasons).toContain("You were in the US only 30 days in 2025 that count, fewer than the 31 needed.");

    const thirtyOne = decideResidency(input("not-exempt", [31, 365, 365]));
    expect(thirtyOne.status).toBe("resident");
    expect(thirtyOne.reasons).toContain("You were in the US 31 days in 2025 that count, at least the 31 needed.");
  });

  it("does not count commuting, transit, foreign-vessel crew or medical days", () => {
    const result = decideResidency(
      input("not-exempt", [days(200, { commuting: 50, transit: 10, crew: 5, medical: 10 }), days(90, { transit: 3 }), days(60, { crew: 6 })]),
    );
    expect(result.years[0].excluded).toEqual({ commuting: 50, transit: 10, crew: 5, medical: 10 });
    expect(arithmetic(result)).toEqual({ counted: [125, 87, 54], terms: ["125.00", "29.00", "9.00"], total: "163.00" });
    expect(result.status).toBe("nonresident");
    expect(result.reasons[0]).toBe(
      "Your visa status does not make you an exempt individual, so all your days in the US count, apart from the days you listed as not counting.",
    );
    // Days excluded for a medical condition are explained on Form 8843.
    expect(result.notes).toContain("form-8843");

    const withoutMedical = decideResidency(input("not-exempt", [days(200, { commuting: 50 }), 0, 0]));
    expect(withoutMedical.notes).not.toContain("form-8843");
  });
});

describe("exempt students (F, J, M or Q)", () => {
  it("are exempt in their first 5 calendar years: no day counts and Form 8843 applies", () => {
    const result = decideResidency(input("student", [365, 365, 365], { studentYears: [2021, 2022, 2023, 2024, 2025] }));
    expect(arithmetic(result)).toEqual({ counted: [0, 0, 0], terms: ["0.00", "0.00", "0.00"], total: "0.00" });
    expect(result.years.map((y) => y.exemptDays)).toEqual([365, 365, 365]);
    expect(result.status).toBe("nonresident");
    expect(result.notes).toContain("form-8843");
    expect(result.reasons).toContain(
      "In 2025 you were an exempt individual as a student: 2025 was your 5th calendar year as an exempt student, teacher or trainee, and students are exempt in their first 5, so your days as a student in 2025 do not count.",
    );
  });

  it("count any part of a year as a whole year, so the 6th calendar year's days count", () => {
    // Arrived in December 2020: 2020 is year 1, so 2025 is year 6.
    const result = decideResidency(input("student", [365, 365, 365], { studentYears: [2020, 2021, 2022, 2023, 2024, 2025] }));
    expect(arithmetic(result).counted).toEqual([365, 0, 0]);
    expect(result.status).toBe("resident");
    expect(result.notes).toContain("student-beyond-five-years");
    expect(result.notes).not.toContain("form-8843");
    expect(result.reasons).toContain(
      "In 2025 you were not an exempt individual as a student: you had already been exempt as a student, teacher or trainee in 5 calendar years (2020, 2021, 2022, 2023 and 2024), and students are exempt only in their first 5. Your days in 2025 count.",
    );
  });

  it("count days in another status (a change to H-1B during an exempt year)", () => {
    const result = decideResidency(
      input("student", [days(365, { otherStatus: 92 }), 365, 365], { studentYears: [2021, 2022, 2023, 2024, 2025] }),
    );
    expect(arithmetic(result).counted).toEqual([92, 0, 0]);
    expect(result.years[0].exemptDays).toBe(273);
    expect(result.status).toBe("nonresident");
    expect(result.notes).toEqual(expect.arrayContaining(["form-8843", "first-year-choice"]));
  });

  it("count the days of years not spent as a student", () => {
    // F-1 until 2023, then H-1B: the 2024 and 2025 days count; 2023's do not.
    const result = decideResidency(input("student", [365, 366, 365], { studentYears: [2019, 2020, 2021, 2022, 2023] }));
    expect(arithmetic(result)).toEqual({ counted: [365, 366, 0], terms: ["365.00", "122.00", "0.00"], total: "487.00" });
    expect(result.status).toBe("resident");
    expect(result.reasons).toContain("You were not a student, teacher or trainee in 2025, so your days in 2025 count.");
  });

  it("years as a teacher or trainee use up the student's 5 years", () => {
    const decisions = exemptYears([2020, 2021, 2022, 2023, 2024, 2025], [2018, 2019]);
    expect([...decisions.values()].filter((d) => d.exempt).map((d) => d.year)).toEqual([2018, 2019, 2020, 2021, 2022]);
  });
});

describe("exempt teachers and trainees (J or Q)", () => {
  it("are exempt unless exempt in 2 of the 6 preceding calendar years", () => {
    const twoYears = decideResidency(input("teacher", [365, 365, 0], { teacherYears: [2024, 2025] }));
    expect(twoYears.years.map((y) => y.counted)).toEqual([0, 0, 0]);
    expect(twoYears.status).toBe("nonresident");
    expect(twoYears.notes).toContain("form-8843");
    expect(twoYears.reasons).toContain(
      "In 2025 you were an exempt individual as a teacher or trainee: of the 6 years before (2019 to 2024), you were exempt only in 2024, fewer than 2, so your days as a teacher or trainee in 2025 do not count.",
    );

    const third = decideResidency(input("teacher", [365, 366, 365], { teacherYears: [2023, 2024, 2025] }));
    expect(third.years.map((y) => y.counted)).toEqual([365, 0, 0]);
    expect(third.status).toBe("resident");
    expect(third.notes).toContain("teacher-foreign-employer");
    expect(third.reasons).toContain(
      "In 2025 you were not an exempt individual as a teacher or trainee: of the 6 years before (2019 to 2024), you were already exempt in 2023 and 2024, and teachers and trainees are not exempt after 2 of them. Your days in 2025 count.",
    );
  });

  it("look back only 6 years, and only at years in which they were exempt", () => {
    const exemptIn = (teacherYears: number[], studentYears: number[] = []) =>
      [...exemptYears(studentYears, teacherYears).values()].filter((d) => d.exempt).map((d) => d.year);
    // 2017 and 2018 are more than 6 years before 2025.
    expect(exemptIn([2017, 2018, 2025])).toEqual([2017, 2018, 2025]);
    // 2019 is within the 6 years before 2025 (2019 to 2024), 2018 is not.
    expect(exemptIn([2018, 2019, 2025])).toEqual([2018, 2019, 2025]);
    expect(exemptIn([2019, 2020, 2025])).toEqual([2019, 2020]);
    // Seven years in a row: exempt in the first two, then again once only one of the 6 before was exempt.
    expect(exemptIn([2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026])).toEqual([2019, 2020, 2026]);
    // Years as an exempt student count too.
    expect(exemptIn([2024, 2025], [2019, 2020, 2021, 2022, 2023])).toEqual([2019, 2020, 2021, 2022, 2023]);
  });

  it("with no listed year among the three, every day counts", () => {
    const result = decideResidency(input("teacher", [200, 0, 0], { teacherYears: [2015, 2016] }));
    expect(result.years[0].counted).toBe(200);
    expect(result.status).toBe("resident");
  });
});

describe("green card holders", () => {
  it("are residents by the green card test whatever the days", () => {
    const result = decideResidency(input("green-card", [0, 0, 0]));
    expect(result.status).toBe("resident");
    expect(result.basis).toBe("green-card-test");
    expect(result.form).toBe("1040");
    expect(result.meetsSubstantialPresence).toBe(false);
    expect(result.notes).toEqual(["green-card"]);
    expect(result.reasons[0]).toBe(
      "You had a green card at some time in 2025, so you are a resident by the green card test, whatever your days in the US.",
    );
  });
});

describe("notes", () => {
  it("closer connection and dual status for a resident with fewer than 183 days in the year", () => {
    const result = decideResidency(input("not-exempt", [150, 150, 150]));
    expect(arithmetic(result).total).toBe("225.00");
    expect(result.notes).toEqual(["closer-connection", "dual-status"]);
  });

  it("no closer connection from 183 days in the year, and no dual status for a full year", () => {
    expect(decideResidency(input("not-exempt", [183, 0, 0])).notes).toEqual(["dual-status"]);
    expect(decideResidency(input("not-exempt", [365, 365, 365])).notes).toEqual([]);
  });

  it("the first-year choice for a nonresident with at least 31 days in the year", () => {
    expect(decideResidency(input("not-exempt", [120, 120, 120])).notes).toEqual(["first-year-choice"]);
    expect(decideResidency(input("not-exempt", [30, 0, 0])).notes).toEqual([]);
  });
});

describe("calendar", () => {
  it("knows leap years", () => {
    expect([2023, 2024, 2025, 1900, 2000].map(daysInYear)).toEqual([365, 366, 365, 365, 366]);
  });

  it("the default year is the last completed tax year", () => {
    expect(lastCompletedTaxYear(new Date(2026, 10, 22))).toBe(2025);
    expect(lastCompletedTaxYear(new Date(2026, 0, 1))).toBe(2025);
    expect(lastCompletedTaxYear(new Date(2027, 0, 1))).toBe(2026);
    expect(taxYearChoices(new Date(2026, 10, 22))).toEqual([2026, 2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017, 2016]);
  });

  it("shows sixths of a day with two decimals", () => {
    expect([1080, 200, 1, 5, 0, 1097].map(formatSixths)).toEqual(["180.00", "33.33", "0.17", "0.83", "0.00", "182.83"]);
  });
});

describe("reading the lists of years", () => {
  it("takes years and ranges, in any order, with commas, spaces, dashes or 'to'", () => {
    expect(parseYearList("2019-2021, 2024", 2025)).toEqual({ ok: true, value: [2019, 2020, 2021, 2024] });
    expect(parseYearList("2024 2021 to 2022; 2021", 2025)).toEqual({ ok: true, value: [2021, 2022, 2024] });
    expect(parseYearList("2021 \u2013 2023 and 2025", 2025)).toEqual({ ok: true, value: [2021, 2022, 2023, 2025] });
    expect(parseYearList("  ", 2025)).toEqual({ ok: true, value: [] });
  });

  it("refuses ranges written backwards, years after the year checked and text that is not years", () => {
    expect(parseYearList("2025-2023", 2025)).toEqual({ ok: false, message: "Write the earlier year first: 2023-2025, not 2025-2023." });
    expect(parseYearList("2023-2026", 2025)).toEqual({
      ok: false,
      message: "2026 is after 2025, the year you are checking. List only years up to 2025.",
    });
    expect(parseYearList("1970", 2025)).toEqual({ ok: false, message: "1970 is too early. List years from 1985 to 2025." });
    expect(parseYearList("since 2021", 2025)).toEqual({ ok: false, message: RESIDENCY_MESSAGES.yearsFormat });
    expect(parseYearList("21-23", 2025)).toEqual({ ok: false, message: RESIDENCY_MESSAGES.yearsFormat });
  });
});

describe("the form's schema", () => {
  it("accepts a complete answer and reads it into numbers and year lists", () => {
    const checked = validateResidency(
      values({
        category: "student",
        studentYears: "2022-2025",
        teacherYears: "",
        present0: "300",
        medical0: "10",
        otherStatus0: "45",
        present1: " 366 ",
        present2: "100",
        transit2: "",
      }),
      CURRENT_YEAR,
    );
    expect(checked).toEqual({
      ok: true,
      data: {
        taxYear: 2025,
        category: "student",
        studentYears: [2022, 2023, 2024, 2025],
        teacherYears: [],
        days: [days(300, { medical: 10, otherStatus: 45 }), days(366), days(100)],
      },
    });
  });

  it("refuses negative days, decimals, words and empty days present, with a message per field", () => {
    const checked = validateResidency(
      values({ present0: "-5", present1: "12.5", present2: "", commuting0: "ten" }),
      CURRENT_YEAR,
    );
    expect(checked).toEqual({
      ok: false,
      errors: {
        present0: "Days cannot be negative.",
        commuting0: "Enter a number of days, for example 120.",
        present1: "Enter whole days, without decimals.",
        present2: "Enter the number of days you were in the US in 2023. Enter 0 if none.",
      },
    });
  });

  it("refuses more days than the year has: 366 in 2024, but not 365 in 2025", () => {
    const checked = validateResidency(values({ present0: "366", present1: "366", present2: "366", crew1: "367" }), CURRENT_YEAR);
    expect(checked).toEqual({
      ok: false,
      errors: {
        present0: "2025 has 365 days. Enter 365 or fewer.",
        crew1: "2024 has 366 days. Enter 366 or fewer.",
        present2: "2023 has 365 days. Enter 365 or fewer.",
      },
    });
  });

  it("refuses more days that don't count than days present", () => {
    const checked = validateResidency(values({ present1: "120", commuting1: "100", medical1: "50" }), CURRENT_YEAR);
    expect(checked).toEqual({
      ok: false,
      errors: { present1: "The days that don't count in 2024 add up to 150, more than the 120 days you were in the US." },
    });
    const other = validateResidency(
      values({ category: "student", studentYears: "2025", present0: "100", transit0: "10", otherStatus0: "91" }),
      CURRENT_YEAR,
    );
    expect(other).toEqual({
      ok: false,
      errors: {
        otherStatus0:
          "You were in the US 90 days in 2025 apart from the days that don't count. Days in another status cannot be more.",
      },
    });
  });

  it("refuses status years out of order or after the year checked, and asks for them when the status needs them", () => {
    expect(validateResidency(values({ category: "student", studentYears: "2025-2023" }), CURRENT_YEAR)).toEqual({
      ok: false,
      errors: { studentYears: "Write the earlier year first: 2023-2025, not 2025-2023." },
    });
    expect(
      validateResidency(values({ taxYear: "2024", category: "teacher", teacherYears: "2024, 2025", studentYears: "2019" }), CURRENT_YEAR),
    ).toEqual({
      ok: false,
      errors: { teacherYears: "2025 is after 2024, the year you are checking. List only years up to 2024." },
    });
    expect(validateResidency(values({ category: "student" }), CURRENT_YEAR)).toEqual({
      ok: false,
      errors: { studentYears: "List the calendar years you were in the US as a student, for example 2023-2025." },
    });
    expect(validateResidency(values({ category: "teacher", studentYears: "2020" }), CURRENT_YEAR)).toEqual({
      ok: false,
      errors: {
        teacherYears:
          "List the calendar years you were in the US as a teacher, researcher or trainee, for example 2024, 2025.",
      },
    });
  });

  it("ignores the status years and days in another status when the status is not exempt", () => {
    const checked = validateResidency(
      values({ category: "not-exempt", studentYears: "nonsense", otherStatus0: "-1", present0: "40" }),
      CURRENT_YEAR,
    );
    expect(checked.ok && checked.data.studentYears).toEqual([]);
    expect(checked.ok && checked.data.days[0]).toEqual(days(40));
  });

  it("refuses a missing status and a year out of range", () => {
    expect(validateResidency(values({ category: "", taxYear: "2027" }), CURRENT_YEAR)).toEqual({
      ok: false,
      errors: { taxYear: "Choose a year from 2016 to 2026.", category: "Choose the status that describes you." },
    });
    expect(validateResidency(values({ category: "diplomat" }), CURRENT_YEAR)).toEqual({
      ok: false,
      errors: { category: "Choose the status that describes you." },
    });
  });
});

describe("the page's texts", () => {
  it("state the same numbers as the rules", () => {
    const presence = residencyRules.tests.find((t) => t.name === "The substantial presence test")!.text;
    expect(presence).toContain(`at least ${SPT_MINIMUM_DAYS} days`);
    expect(presence).toContain(`at least ${SPT_TOTAL_DAYS} days`);
    expect(presence).toMatch(/one third of the days in the year before and one sixth of the days two years before/);
    expect(residencyRules.example).toContain("120 + 40 + 20 = 180");
    expect(residencyRules.exempt[0]).toContain(`first ${STUDENT_EXEMPT_YEARS} calendar years`);
    expect(residencyRules.exempt[0]).toContain(`first ${TEACHER_PRIOR_EXEMPT_LIMIT}`);
    expect(categoryOptions.map((o) => o.value)).toEqual([...VISA_CATEGORIES]);
  });

  it("name the status in the IRS's words", () => {
    expect(statusPhrase("resident")).toBe("resident alien for tax purposes");
    expect(statusPhrase("nonresident")).toBe("nonresident alien for tax purposes");
    expect(residencyResultText.heading(2025, "nonresident")).toBe("Your result for 2025: nonresident alien for tax purposes");
    expect(residencyResultText.disclaimerTitle).toBe("Guidance, not tax advice");
  });

  it("give each note the form or condition it is about", () => {
    const text = (note: ResidencyNote) => {
      const { title, text } = residencyNote(note, 2025);
      return `${title} ${typeof text === "string" ? text : text.map((p) => (typeof p === "string" ? p : p.text)).join("")}`;
    };
    expect(text("form-8843")).toContain("Form 8843");
    expect(text("closer-connection")).toMatch(/fewer than 183 days in 2025.*Form 8840.*green card/);
    expect(text("first-year-choice")).toMatch(/test for 2026.*part of 2025.*31 days in a row.*75%/);
    expect(text("green-card")).toMatch(/whatever your days in the US/);
    expect(text("dual-status")).toMatch(/not a resident in 2024/);
    expect(text("student-beyond-five-years")).toMatch(/do not intend to live in the US permanently/);
    expect(text("teacher-foreign-employer")).toMatch(/foreign employer/);
  });
});
