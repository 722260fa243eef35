/**
 * Resident or nonresident alien for tax purposes: the green card test and the substantial presence
 * test (IRS Publication 519, chapter 1). Pure rules: the page asks, this module decides.
 *
 * Year offsets: index 0 is the year being checked (Y), 1 is Y-1 and 2 is Y-2.
 */
import { z } from "./zod";
import { fieldErrors } from "./validation";
import type { FieldErrors } from "./validation";

/** Days that the three-year total must reach. */
export const SPT_TOTAL_DAYS = 183;
/** Days that must count in the year being checked. */
export const SPT_MINIMUM_DAYS = 31;
/** Each year's days are divided by these: all of Y, a third of Y-1, a sixth of Y-2. */
export const SPT_DIVISORS = [1, 3, 6] as const;
/** Students are exempt in their first 5 calendar years as an exempt student, teacher or trainee. */
export const STUDENT_EXEMPT_YEARS = 5;
/** Teachers and trainees are not exempt if they were exempt in 2 of the 6 preceding calendar years. */
export const TEACHER_LOOKBACK_YEARS = 6;
export const TEACHER_PRIOR_EXEMPT_LIMIT = 2;
/** The earliest calendar year accepted in the lists of years as a student, teacher or trainee. */
export const EARLIEST_STATUS_YEAR = 1985;
/** How many years before the current one can be checked. */
export const TAX_YEARS_BACK = 10;

export const YEAR_OFFSETS = [0, 1, 2] as const;
export type YearOffset = (typeof YEAR_OFFSETS)[number];

export const VISA_CATEGORIES = ["not-exempt", "student", "teacher", "green-card"] as const;
export type VisaCategory = (typeof VISA_CATEGORIES)[number];

/** Days that never count, whatever the visa. */
export const EXCLUDED_KINDS = ["commuting", "transit", "crew", "medical"] as const;
export type ExcludedKind = (typeof EXCLUDED_KINDS)[number];

export const DAY_KINDS = ["present", ...EXCLUDED_KINDS, "otherStatus"] as const;
export type DayKind = (typeof DAY_KINDS)[number];

export type DayField = `${DayKind}${YearOffset}`;
export type ResidencyField = "taxYear" | "category" | "studentYears" | "teacherYears" | DayField;

export function dayField(kind: DayKind, offset: YearOffset): DayField {
  return `${kind}${offset}`;
}

export const RESIDENCY_FIELDS: readonly ResidencyField[] = [
  "taxYear",
  "category",
  "studentYears",
  "teacherYears",
  ...YEAR_OFFSETS.flatMap((offset) => DAY_KINDS.map((kind) => dayField(kind, offset))),
];

export type ResidencyValues = Record<ResidencyField, string>;

export const emptyResidencyValues: ResidencyValues = Object.fromEntries(
  RESIDENCY_FIELDS.map((field) => [field, ""]),
) as ResidencyValues;

/* ------------------------------------------------------------------ calendar */

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInYear(year: number): 365 | 366 {
  return isLeapYear(year) ? 366 : 365;
}

/** The last calendar (tax) year that has ended on `today`. */
export function lastCompletedTaxYear(today: Date): number {
  return today.getFullYear() - 1;
}

/** The years a visitor can check, newest first: this year (so far) and the ten before it. */
export function taxYearChoices(today: Date): number[] {
  const current = today.getFullYear();
  return Array.from({ length: TAX_YEARS_BACK + 1 }, (_, i) => current - i);
}

/* ------------------------------------------------------------------ messages */

/** 1 → "1st", 2 → "2nd", 11 → "11th". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

export const RESIDENCY_MESSAGES = {
  banner: "Please fix the errors above.",
  taxYear: (first: number, last: number) => `Choose a year from ${first} to ${last}.`,
  category: "Choose the status that describes you.",
  presentRequired: (year: number) => `Enter the number of days you were in the US in ${year}. Enter 0 if none.`,
  negative: "Days cannot be negative.",
  notWhole: "Enter whole days, without decimals.",
  notNumber: "Enter a number of days, for example 120.",
  tooMany: (year: number) => `${year} has ${daysInYear(year)} days. Enter ${daysInYear(year)} or fewer.`,
  excludedAboveDays: (year: number, excluded: number, present: number) =>
    `The days that don't count in ${year} add up to ${excluded}, more than the ${present} days you were in the US.`,
  otherStatusAboveDays: (year: number, left: number) =>
    `You were in the US ${left} days in ${year} apart from the days that don't count. Days in another status cannot be more.`,
  yearsRequired: (status: "student" | "teacher") =>
    status === "student"
      ? "List the calendar years you were in the US as a student, for example 2023-2025."
      : "List the calendar years you were in the US as a teacher, researcher or trainee, for example 2024, 2025.",
  yearsFormat: "Write four-digit years or ranges, separated by commas, for example 2021-2023, 2025.",
  yearsOrder: (from: number, to: number) => `Write the earlier year first: ${to}-${from}, not ${from}-${to}.`,
  yearsAfterTaxYear: (year: number, taxYear: number) =>
    `${year} is after ${taxYear}, the year you are checking. List only years up to ${taxYear}.`,
  yearsTooEarly: (year: number, taxYear: number) =>
    `${year} is too early. List years from ${EARLIEST_STATUS_YEAR} to ${taxYear}.`,
} as const;

/* ------------------------------------------------------------------ parsing */

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** A day count typed by a person: whole, not negative, at most the days of its year. */
export function parseDayCount(raw: string, year: number, required: boolean): Parsed<number> {
  const text = raw.trim();
  if (text === "") {
    return required ? { ok: false, message: RESIDENCY_MESSAGES.presentRequired(year) } : { ok: true, value: 0 };
  }
  if (/^-\s*\d/.test(text)) return { ok: false, message: RESIDENCY_MESSAGES.negative };
  if (/^\d*[.,]\d+$/.test(text)) return { ok: false, message: RESIDENCY_MESSAGES.notWhole };
  if (!/^\+?\d+$/.test(text)) return { ok: false, message: RESIDENCY_MESSAGES.notNumber };
  const value = Number(text);
  if (value > daysInYear(year)) return { ok: false, message: RESIDENCY_MESSAGES.tooMany(year) };
  return { ok: true, value };
}

/**
 * A list of calendar years such as "2019-2021, 2024" (commas, semicolons or spaces between items;
 * "2019 to 2021" also works). Returns the distinct years, oldest first.
 */
export function parseYearList(raw: string, taxYear: number): Parsed<number[]> {
  const text = raw
    .trim()
    .replace(/\s*(?:[-\u2010-\u2015]|\bto\b)\s*/gi, "-")
    .replace(/\band\b/gi, ",");
  if (text === "") return { ok: true, value: [] };
  const years = new Set<number>();
  for (const item of text.split(/[\s,;]+/).filter(Boolean)) {
    const match = /^(\d{4})(?:-(\d{4}))?$/.exec(item);
    if (!match) return { ok: false, message: RESIDENCY_MESSAGES.yearsFormat };
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) return { ok: false, message: RESIDENCY_MESSAGES.yearsOrder(from, to) };
    for (const year of [from, to]) {
      if (year > taxYear) return { ok: false, message: RESIDENCY_MESSAGES.yearsAfterTaxYear(year, taxYear) };
      if (year < EARLIEST_STATUS_YEAR) return { ok: false, message: RESIDENCY_MESSAGES.yearsTooEarly(year, taxYear) };
    }
    for (let year = from; year <= to; year++) years.add(year);
  }
  return { ok: true, value: [...years].sort((a, b) => a - b) };
}

/* ------------------------------------------------------------------ input */

export type YearDays = {
  present: number;
  commuting: number;
  transit: number;
  crew: number;
  medical: number;
  /** Days in a status that is not exempt (e.g. H-1B after F-1), in a year otherwise spent as exempt. */
  otherStatus: number;
};

export type ResidencyInput = {
  taxYear: number;
  category: VisaCategory;
  /** Calendar years in the US as an F, J, M or Q student (any part of a year counts). */
  studentYears: number[];
  /** Calendar years in the US as a J or Q teacher, researcher or trainee. */
  teacherYears: number[];
  /** Index 0: the year checked; 1: the year before; 2: two years before. */
  days: [YearDays, YearDays, YearDays];
};

/** A field as typed: the first value of a field sent twice, "" for one not sent or not text. */
const text = z.preprocess((v) => {
  const first: unknown = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" ? first : "";
}, z.string());

/**
 * The calculator's form, for the browser and the server alike. `currentYear` is the calendar year
 * of "today" (the server hands its own to the page, so both check against the same years).
 */
export function residencySchema(currentYear: number) {
  const shape = Object.fromEntries(RESIDENCY_FIELDS.map((field) => [field, text])) as Record<ResidencyField, typeof text>;
  return z.object(shape).transform((values, ctx): ResidencyInput => {
    const issues: [ResidencyField, string][] = [];
    const fail = (field: ResidencyField, message: string) => issues.push([field, message]);

    const firstYear = currentYear - TAX_YEARS_BACK;
    const taxYearText = values.taxYear.trim();
    const taxYear = /^\d{4}$/.test(taxYearText) ? Number(taxYearText) : NaN;
    if (!(taxYear >= firstYear && taxYear <= currentYear)) fail("taxYear", RESIDENCY_MESSAGES.taxYear(firstYear, currentYear));

    const category = VISA_CATEGORIES.find((c) => c === values.category.trim());
    if (!category) fail("category", RESIDENCY_MESSAGES.category);

    // Without a valid year, day limits and year lists cannot be checked yet.
    const yearForLimits = Number.isNaN(taxYear) || issues.some(([f]) => f === "taxYear") ? currentYear : taxYear;
    const exemptStatus = category === "student" || category === "teacher";

    const lists = { studentYears: [] as number[], teacherYears: [] as number[] };
    if (exemptStatus) {
      for (const [field, status] of [
        ["studentYears", "student"],
        ["teacherYears", "teacher"],
      ] as const) {
        const parsed = parseYearList(values[field], yearForLimits);
        if (!parsed.ok) fail(field, parsed.message);
        else if (parsed.value.length === 0 && category === status) fail(field, RESIDENCY_MESSAGES.yearsRequired(status));
        else lists[field] = parsed.value;
      }
    }

    const days = YEAR_OFFSETS.map((offset) => {
      const year = yearForLimits - offset;
      const counts: YearDays = { present: 0, commuting: 0, transit: 0, crew: 0, medical: 0, otherStatus: 0 };
      let countsValid = true;
      for (const kind of DAY_KINDS) {
        if (kind === "otherStatus" && !exemptStatus) continue;
        const field = dayField(kind, offset);
        const parsed = parseDayCount(values[field], year, kind === "present");
        if (parsed.ok) counts[kind] = parsed.value;
        else {
          fail(field, parsed.message);
          countsValid = false;
        }
      }
      if (countsValid) {
        const excluded = excludedTotal(counts);
        if (excluded > counts.present) {
          fail(dayField("present", offset), RESIDENCY_MESSAGES.excludedAboveDays(year, excluded, counts.present));
        } else if (counts.otherStatus > counts.present - excluded) {
          fail(dayField("otherStatus", offset), RESIDENCY_MESSAGES.otherStatusAboveDays(year, counts.present - excluded));
        }
      }
      return counts;
    }) as ResidencyInput["days"];

    if (issues.length > 0 || !category) {
      for (const [field, message] of issues) ctx.addIssue({ code: "custom", path: [field], message });
      return z.NEVER;
    }
    return { taxYear, category, studentYears: lists.studentYears, teacherYears: lists.teacherYears, days };
  });
}

export type ResidencyCheck =
  | { ok: true; data: ResidencyInput }
  | { ok: false; errors: FieldErrors<ResidencyField> };

/** Checks a submission (the browser and the server both call this). */
export function validateResidency(input: Record<string, unknown>, currentYear: number): ResidencyCheck {
  const result = residencySchema(currentYear).safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrors<ResidencyField>(result.error) };
}

/* ------------------------------------------------------------------ exempt years */

export type ExemptDecision = {
  year: number;
  /** Which status the person was in that year (both if it changed during the year). */
  asStudent: boolean;
  asTeacher: boolean;
  /** Exempt as a student (within the first 5 years, or past them where staff recorded the exception). */
  studentExempt: boolean;
  /** Exempt as a teacher or trainee (exempt in fewer than 2 of the 6 years before). */
  teacherExempt: boolean;
  exempt: boolean;
  /** Years before this one in which the person was exempt (any status). */
  priorExemptYears: number[];
  /** Of those, the ones within the 6 calendar years before this one. */
  recentExemptYears: number[];
};

/**
 * Which listed years the person was an exempt individual in. A student is exempt unless already
 * exempt (as student, teacher or trainee) in 5 earlier calendar years, or past them in the years
 * of `exceptionYears` (where the person showed they do not intend to reside permanently and kept
 * to their visa); a teacher or trainee is exempt unless exempt in 2 of the 6 calendar years
 * before. Any part of a year counts as a year.
 */
export function exemptYears(
  studentYears: readonly number[],
  teacherYears: readonly number[],
  exceptionYears: readonly number[] = [],
): Map<number, ExemptDecision> {
  const students = new Set(studentYears);
  const teachers = new Set(teacherYears);
  const all = [...new Set([...studentYears, ...teacherYears])].sort((a, b) => a - b);
  const exemptSoFar: number[] = [];
  const decisions = new Map<number, ExemptDecision>();
  for (const year of all) {
    const prior = [...exemptSoFar];
    const recent = prior.filter((y) => y >= year - TEACHER_LOOKBACK_YEARS);
    const asStudent = students.has(year);
    const asTeacher = teachers.has(year);
    const studentExempt = asStudent && (prior.length < STUDENT_EXEMPT_YEARS || exceptionYears.includes(year));
    const teacherExempt = asTeacher && recent.length < TEACHER_PRIOR_EXEMPT_LIMIT;
    const exempt = studentExempt || teacherExempt;
    decisions.set(year, { year, asStudent, asTeacher, studentExempt, teacherExempt, exempt, priorExemptYears: prior, recentExemptYears: recent });
    if (exempt) exemptSoFar.push(year);
  }
  return decisions;
}

/* ------------------------------------------------------------------ the test */

export type YearBreakdown = {
  year: number;
  daysInYear: number;
  present: number;
  excluded: Record<ExcludedKind, number>;
  /** Days as an exempt individual (student, teacher or trainee). */
  exemptDays: number;
  /** Days that count for the test. */
  counted: number;
  divisor: (typeof SPT_DIVISORS)[number];
  /** The year's term in sixths of a day, so that sums stay exact (120 days / 3 = 240 sixths). */
  termSixths: number;
};

export type ResidencyNote =
  | "form-8843"
  | "closer-connection"
  | "first-year-choice"
  | "green-card"
  | "dual-status"
  | "student-beyond-five-years"
  | "teacher-foreign-employer";

export type ResidencyResult = {
  taxYear: number;
  category: VisaCategory;
  status: "resident" | "nonresident";
  /** What makes the person a resident, if anything. */
  basis: "green-card-test" | "substantial-presence-test" | null;
  meetsMinimumDays: boolean;
  meetsTotal: boolean;
  meetsSubstantialPresence: boolean;
  years: [YearBreakdown, YearBreakdown, YearBreakdown];
  totalSixths: number;
  reasons: string[];
  notes: ResidencyNote[];
  /** The federal return for the year (a dual-status year may need both). */
  form: "1040" | "1040-NR";
};

export function excludedTotal(days: Pick<YearDays, ExcludedKind>): number {
  return EXCLUDED_KINDS.reduce((sum, kind) => sum + days[kind], 0);
}

/** Sixths of a day as a number with two decimals: 1080 → "180.00", 200 → "33.33". */
export function formatSixths(sixths: number): string {
  const hundredths = Math.round((sixths * 100) / 6);
  const whole = Math.trunc(hundredths / 100);
  return `${whole}.${String(hundredths % 100).padStart(2, "0")}`;
}

function listYears(years: readonly number[]): string {
  if (years.length <= 1) return years.join("");
  return `${years.slice(0, -1).join(", ")} and ${years.at(-1)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function lookback(year: number): string {
  return `the ${TEACHER_LOOKBACK_YEARS} years before (${year - TEACHER_LOOKBACK_YEARS} to ${year - 1})`;
}

function exemptReason(decision: ExemptDecision, present: number): string {
  const { year, asStudent, asTeacher, priorExemptYears, recentExemptYears } = decision;
  const role = asStudent && asTeacher ? "a student, teacher or trainee" : asStudent ? "a student" : "a teacher or trainee";
  if (decision.exempt) {
    const studentOk = asStudent && priorExemptYears.length < STUDENT_EXEMPT_YEARS;
    const why = studentOk
      ? `${year} was your ${ordinal(priorExemptYears.length + 1)} calendar year as an exempt student, teacher or trainee, and students are exempt in their first ${STUDENT_EXEMPT_YEARS}`
      : recentExemptYears.length === 0
        ? `you were not exempt in any of ${lookback(year)}`
        : `of ${lookback(year)}, you were exempt only in ${listYears(recentExemptYears)}, fewer than ${TEACHER_PRIOR_EXEMPT_LIMIT}`;
    const daysNote = present > 0 ? `, so your days as ${role} in ${year} do not count` : "";
    return `In ${year} you were an exempt individual as ${role}: ${why}${daysNote}.`;
  }
  const parts: string[] = [];
  if (asStudent) {
    parts.push(
      `you had already been exempt as a student, teacher or trainee in ${plural(priorExemptYears.length, "calendar year")} (${listYears(priorExemptYears)}), and students are exempt only in their first ${STUDENT_EXEMPT_YEARS}`,
    );
  }
  if (asTeacher) {
    parts.push(
      `of ${lookback(year)}, you were already exempt in ${listYears(recentExemptYears)}, and teachers and trainees are not exempt after ${TEACHER_PRIOR_EXEMPT_LIMIT} of them`,
    );
  }
  return `In ${year} you were not an exempt individual as ${role}: ${parts.join("; and ")}. Your days in ${year} count.`;
}

/**
 * The green card test and the substantial presence test for `input.taxYear`, with each year's
 * arithmetic, the reasons in plain sentences, and the notes that apply.
 */
export function decideResidency(input: ResidencyInput): ResidencyResult {
  const { taxYear, category } = input;
  const greenCard = category === "green-card";
  const usesExemptYears = category === "student" || category === "teacher";
  const decisions = usesExemptYears ? exemptYears(input.studentYears, input.teacherYears) : new Map<number, ExemptDecision>();

  const years = YEAR_OFFSETS.map((offset): YearBreakdown => {
    const year = taxYear - offset;
    const d = input.days[offset];
    const excluded = { commuting: d.commuting, transit: d.transit, crew: d.crew, medical: d.medical };
    const afterExclusions = d.present - excludedTotal(d);
    const exemptDays = decisions.get(year)?.exempt ? afterExclusions - Math.min(d.otherStatus, afterExclusions) : 0;
    const counted = afterExclusions - exemptDays;
    const divisor = SPT_DIVISORS[offset];
    return {
      year,
      daysInYear: daysInYear(year),
      present: d.present,
      excluded,
      exemptDays,
      counted,
      divisor,
      termSixths: (counted * 6) / divisor,
    };
  }) as ResidencyResult["years"];

  const [current] = years;
  const totalSixths = years.reduce((sum, y) => sum + y.termSixths, 0);
  const meetsMinimumDays = current.counted >= SPT_MINIMUM_DAYS;
  const meetsTotal = totalSixths >= SPT_TOTAL_DAYS * 6;
  const meetsSubstantialPresence = meetsMinimumDays && meetsTotal;
  const resident = greenCard || meetsSubstantialPresence;

  const reasons: string[] = [];
  if (greenCard) {
    reasons.push(
      `You had a green card at some time in ${taxYear}, so you are a resident by the green card test, whatever your days in the US.`,
    );
  }
  if (category === "not-exempt") {
    const anyExcluded = years.some((y) => excludedTotal(y.excluded) > 0);
    reasons.push(
      `Your visa status does not make you an exempt individual, so all your days in the US count${
        anyExcluded ? ", apart from the days you listed as not counting" : ""
      }.`,
    );
  }
  if (usesExemptYears) {
    for (const y of [...years].reverse()) {
      const decision = decisions.get(y.year);
      if (decision) reasons.push(exemptReason(decision, y.present));
      else if (y.present > 0) reasons.push(`You were not a student, teacher or trainee in ${y.year}, so your days in ${y.year} count.`);
    }
  }
  reasons.push(
    meetsMinimumDays
      ? `You were in the US ${plural(current.counted, "day")} in ${taxYear} that count, at least the ${SPT_MINIMUM_DAYS} needed.`
      : `You were in the US only ${plural(current.counted, "day")} in ${taxYear} that count, fewer than the ${SPT_MINIMUM_DAYS} needed.`,
  );
  reasons.push(
    `Your days over ${taxYear - 2} to ${taxYear} add up to ${formatSixths(totalSixths)}, ${meetsTotal ? "at least" : "fewer than"} ${SPT_TOTAL_DAYS}.`,
  );
  reasons.push(
    `You ${meetsSubstantialPresence ? "meet" : "do not meet"} the substantial presence test for ${taxYear}${
      greenCard ? " (this does not change your result: the green card test already makes you a resident)" : ""
    }.`,
  );

  const notes: ResidencyNote[] = [];
  const exemptInYear = current.exemptDays > 0;
  if (exemptInYear || current.excluded.medical > 0) notes.push("form-8843");
  const yearDecision = decisions.get(taxYear);
  if (yearDecision && !yearDecision.exempt) {
    if (yearDecision.asStudent && yearDecision.priorExemptYears.length >= STUDENT_EXEMPT_YEARS) notes.push("student-beyond-five-years");
    if (yearDecision.asTeacher && yearDecision.recentExemptYears.length >= TEACHER_PRIOR_EXEMPT_LIMIT) notes.push("teacher-foreign-employer");
  }
  if (greenCard) notes.push("green-card");
  else if (meetsSubstantialPresence) {
    if (current.counted < SPT_TOTAL_DAYS) notes.push("closer-connection");
    if (current.counted < current.daysInYear) notes.push("dual-status");
  } else if (meetsMinimumDays) {
    notes.push("first-year-choice");
  }

  return {
    taxYear,
    category,
    status: resident ? "resident" : "nonresident",
    basis: greenCard ? "green-card-test" : meetsSubstantialPresence ? "substantial-presence-test" : null,
    meetsMinimumDays,
    meetsTotal,
    meetsSubstantialPresence,
    years,
    totalSixths,
    reasons,
    notes,
    form: resident ? "1040" : "1040-NR",
  };
}
