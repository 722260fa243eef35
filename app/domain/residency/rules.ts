/**
 * Resident, nonresident or dual-status for one tax year, per person of a client's household, from
 * their own visa and travel history (IRS Publication 519 (2025), chapter 1; the IRS pages on
 * residency starting and ending dates and on the first-year choice). Each rule is cited in
 * docs/product/residency.md. Pure: the history and `today` in, the outcome with its arithmetic out.
 */
import { addDays, daysBetween } from "../business-days";
import {
  exemptYears,
  formatSixths,
  ordinal,
  SPT_MINIMUM_DAYS,
  SPT_TOTAL_DAYS,
  STUDENT_EXEMPT_YEARS,
  TEACHER_LOOKBACK_YEARS,
  TEACHER_PRIOR_EXEMPT_LIMIT,
} from "../residency";
import type { ExemptDecision } from "../residency";
import { DERIVATIVE_OF, NO_FINDINGS, STATUS_LABELS } from "./history";
import type { Household, IsoDay, PersonHistory, Status, StatusPeriod } from "./history";

/** Up to this many days of presence may be left out of a residency starting date (the de minimis rule). */
export const DE_MINIMIS_DAYS = 10;
/** The first-year choice: consecutive days present, the share of the rest of the year, and absences forgiven. */
export const FIRST_YEAR_RUN = 31;
export const FIRST_YEAR_SHARE = 0.75;
export const FIRST_YEAR_ABSENCE = 5;
/** An ITIN not on a federal return for this many consecutive tax years expires at the end of the next. */
export const ITIN_UNUSED_YEARS = 3;
/** ITINs issued before this year have expired unless renewed. */
export const ITIN_OLD_BEFORE = 2013;
/** FBAR: foreign accounts above this at any time in the year (cents). */
export const FBAR_THRESHOLD_CENTS = 10_000_00;
/** Form 8938 for a taxpayer living in the US: above these at year end / at any time (cents), doubled when filing jointly. */
export const FORM_8938_YEAR_END_CENTS = 50_000_00;
export const FORM_8938_ANY_TIME_CENTS = 75_000_00;

type ExemptKind = "student" | "teacher" | "derivative";

/** One year of the substantial presence test's table. */
export type PresenceRow = {
  year: number;
  /** Days in the US (arrival and departure days included; transit days not). */
  present: number;
  /** Days in transit between two foreign places. */
  transit: number;
  /** Days present as an exempt individual, which do not count. */
  exempt: number;
  /** Why those days were exempt, or why days in an exempt status were not (null when neither). */
  exemptWhy: string | null;
  counted: number;
  /** 1 for the tax year, 3 for the year before, 6 for the one before that. */
  divisor: 1 | 3 | 6;
  /** The year's share of the 183 days, in sixths of a day (exact). */
  termSixths: number;
};

export type ResidencyStatus = "resident" | "nonresident" | "dual-status" | "citizen";

export type ResidencyRule = "citizen" | "green-card-test" | "substantial-presence-test" | "not-met";

export type ResidencyChoice =
  | { kind: "first-year-choice"; from: IsoDay; share: string; nextYear: "met" | "pending"; nextYearMetOn: IsoDay; text: string }
  | { kind: "closer-connection"; available: boolean; text: string }
  | { kind: "possible-termination"; on: IsoDay; text: string }
  | { kind: "joint-6013g" | "joint-6013h"; spouse: string; text: string };

export type ResidencyForm = "1040" | "1040-NR" | "dual-status-1040" | "dual-status-1040-NR" | "8843" | "residency-statement";

export type ResidencyFlag = {
  kind: "itin-expired" | "itin-expiring" | "itin-old" | "fica-refund" | "india-treaty" | "fbar" | "form-8938";
  text: string;
};

export type ResidencyOutcome = {
  person: string;
  name: string;
  role: PersonHistory["role"];
  taxYear: number;
  status: ResidencyStatus;
  rule: ResidencyRule;
  /** The first and last day of residency in the year (null when nonresident). */
  residentFrom: IsoDay | null;
  residentUntil: IsoDay | null;
  /** The tax year and the two before it, newest first. */
  table: [PresenceRow, PresenceRow, PresenceRow];
  totalSixths: number;
  /** The total as a decimal, "183.33". */
  total: string;
  meetsSubstantialPresence: boolean;
  /** The day of the tax year on which the substantial presence test was met (null when it was not). */
  metOn: IsoDay | null;
  greenCardTest: boolean;
  /** Any day of the year as an exempt individual (Form 8843). */
  exemptIndividual: boolean;
  reasons: string[];
  choices: ResidencyChoice[];
  forms: ResidencyForm[];
  flags: ResidencyFlag[];
  /** What the history lacks to be sure, in words. */
  missing: string[];
  /** One paragraph in plain words, to the client ("You were …") or about the person ("Priya was …"). */
  summary: string;
};

/* ------------------------------------------------------------------ days */

const firstDay = (year: number): IsoDay => `${year}-01-01`;
const lastDay = (year: number): IsoDay => `${year}-12-31`;
const yearOf = (day: IsoDay) => Number(day.slice(0, 4));
const earlier = (a: IsoDay, b: IsoDay) => (a < b ? a : b);
const later = (a: IsoDay, b: IsoDay) => (a > b ? a : b);

/** Every day of presence of `stays` up to `today`, with the days in transit apart. */
function presenceOf(stays: readonly PersonHistory["stays"][number][], today: IsoDay): { present: Set<IsoDay>; transit: Set<IsoDay> } {
  const present = new Set<IsoDay>();
  const transit = new Set<IsoDay>();
  for (const stay of stays) {
    const end = stay.departure ?? today;
    for (let day = stay.arrival; day <= end && day <= today; day = addDays(day, 1)) (stay.transit ? transit : present).add(day);
  }
  for (const day of present) transit.delete(day);
  return { present, transit };
}

function statusOn(periods: readonly StatusPeriod[], day: IsoDay): StatusPeriod | null {
  let found: StatusPeriod | null = null;
  for (const p of periods) if (p.from <= day && (p.to === null || day <= p.to) && (!found || p.from >= found.from)) found = p;
  return found;
}

/** Whether a status on a day makes its holder a student, a teacher or trainee, or a family member who follows another. */
function exemptKindOf(period: StatusPeriod | null): ExemptKind | null {
  if (!period) return null;
  switch (period.status) {
    case "F-1":
    case "M-1":
      return "student";
    case "J-1":
      return period.category === null || period.category === "student" ? "student" : "teacher";
    case "Q-1":
      return period.category === null || period.category === "student" ? "student" : "teacher";
    default:
      return DERIVATIVE_OF[period.status] ? "derivative" : null;
  }
}

function inYear(days: Iterable<IsoDay>, year: number): IsoDay[] {
  const prefix = `${year}-`;
  return [...days].filter((d) => d.startsWith(prefix)).sort();
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function listOf(items: readonly (string | number)[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "March 1, 2025". */
export function longDay(day: IsoDay): string {
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  return `${months[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;
}

/* ------------------------------------------------------------------ one person's days */

/** A person's days, year by year: present, in transit, exempt and why, counted. */
class PersonDays {
  readonly present: Set<IsoDay>;
  readonly transit: Set<IsoDay>;
  /** Days present that are exempt (after the 5-year and 2-of-6 rules, and following another for family). */
  readonly exempt = new Set<IsoDay>();
  readonly decisions: Map<number, ExemptDecision>;
  /** Days present with no status period in the history. */
  readonly unknownStatus: IsoDay[] = [];
  readonly kindByDay = new Map<IsoDay, ExemptKind>();

  constructor(
    readonly person: PersonHistory,
    today: IsoDay,
    principals: readonly PersonDays[],
  ) {
    const { present, transit } = presenceOf(person.stays, today);
    this.present = present;
    this.transit = transit;
    const studentYears = new Set<number>();
    const teacherYears = new Set<number>();
    for (const day of present) {
      const period = statusOn(person.periods, day);
      if (!period) this.unknownStatus.push(day);
      const kind = exemptKindOf(period);
      if (!kind) continue;
      this.kindByDay.set(day, kind);
      if (kind === "student") studentYears.add(yearOf(day));
      if (kind === "teacher") teacherYears.add(yearOf(day));
    }
    const exceptionYears = Object.entries(person.findings)
      .filter(([, f]) => f.studentException)
      .map(([year]) => Number(year));
    this.decisions = exemptYears([...studentYears], [...teacherYears], exceptionYears);
    for (const [day, kind] of this.kindByDay) {
      const decision = this.decisions.get(yearOf(day));
      const exempt =
        kind === "derivative"
          ? principals.some((p) => p.exempt.has(day) && p.holds(day, DERIVATIVE_OF[statusOn(person.periods, day)!.status]!))
          : kind === "student"
            ? decision?.studentExempt === true
            : decision?.teacherExempt === true;
      if (exempt) this.exempt.add(day);
    }
    this.unknownStatus.sort();
  }

  holds(day: IsoDay, status: Status): boolean {
    return statusOn(this.person.periods, day)?.status === status;
  }

  countedIn(year: number): IsoDay[] {
    return inYear(this.present, year).filter((d) => !this.exempt.has(d));
  }

  /** The substantial presence test for `year`, in sixths of a day. */
  spt(year: number): { counted: number; totalSixths: number; met: boolean } {
    const counted = this.countedIn(year).length;
    const totalSixths = counted * 6 + this.countedIn(year - 1).length * 2 + this.countedIn(year - 2).length;
    return { counted, totalSixths, met: counted >= SPT_MINIMUM_DAYS && totalSixths >= SPT_TOTAL_DAYS * 6 };
  }

  /** The day the test was met: the day the year's counted days reach 31 and the weighted total 183. */
  metOn(year: number): IsoDay | null {
    const counted = this.countedIn(year);
    const earlierSixths = this.countedIn(year - 1).length * 2 + this.countedIn(year - 2).length;
    const index = counted.findIndex((_, i) => i + 1 >= SPT_MINIMUM_DAYS && (i + 1) * 6 + earlierSixths >= SPT_TOTAL_DAYS * 6);
    return index === -1 ? null : counted[index]!;
  }

  lprPeriods(): StatusPeriod[] {
    return this.person.periods.filter((p) => p.status === "LPR");
  }

  /** A lawful permanent resident on any day of `year`. */
  greenCardIn(year: number): boolean {
    return this.lprPeriods().some((p) => p.from <= lastDay(year) && (p.to === null || p.to >= firstDay(year)));
  }

  citizenOn(day: IsoDay): boolean {
    return statusOn(this.person.periods, day)?.status === "USC";
  }

  /** Resident under either test (no choice made): what "resident in the year before or after" asks. */
  residentByTests(year: number): boolean {
    return this.greenCardIn(year) || this.spt(year).met;
  }

  row(year: number, divisor: 1 | 3 | 6): PresenceRow {
    const present = inYear(this.present, year);
    const exempt = present.filter((d) => this.exempt.has(d)).length;
    const counted = present.length - exempt;
    return {
      year,
      present: present.length,
      transit: inYear(this.transit, year).length,
      exempt,
      exemptWhy: this.exemptWhy(year, present),
      counted,
      divisor,
      termSixths: (counted * 6) / divisor,
    };
  }

  private exemptWhy(year: number, present: readonly IsoDay[]): string | null {
    const kinds = new Set(present.map((d) => this.kindByDay.get(d)).filter((k): k is ExemptKind => k !== undefined));
    if (kinds.size === 0) return null;
    const decision = this.decisions.get(year);
    const parts: string[] = [];
    if (kinds.has("student") && decision) {
      const nth = decision.priorExemptYears.length + 1;
      parts.push(
        decision.studentExempt
          ? nth <= STUDENT_EXEMPT_YEARS
            ? `student: ${ordinal(nth)} calendar year as an exempt student, teacher or trainee (exempt in the first ${STUDENT_EXEMPT_YEARS})`
            : `student: past ${STUDENT_EXEMPT_YEARS} exempt years (${listOf(decision.priorExemptYears)}), exempt because staff recorded the exception`
          : `student: not exempt, already exempt in ${plural(decision.priorExemptYears.length, "calendar year")} (${listOf(decision.priorExemptYears)})`,
      );
    }
    if (kinds.has("teacher") && decision) {
      const from = year - TEACHER_LOOKBACK_YEARS;
      parts.push(
        decision.teacherExempt
          ? `teacher or trainee: exempt in ${decision.recentExemptYears.length === 0 ? "none" : listOf(decision.recentExemptYears)} of ${from} to ${year - 1}, fewer than ${TEACHER_PRIOR_EXEMPT_LIMIT}`
          : `teacher or trainee: not exempt, already exempt in ${listOf(decision.recentExemptYears)} of ${from} to ${year - 1}`,
      );
    }
    if (kinds.has("derivative")) {
      const exemptDays = present.filter((d) => this.kindByDay.get(d) === "derivative" && this.exempt.has(d)).length;
      parts.push(
        exemptDays > 0
          ? "family member (F-2, J-2, M-2 or Q-3): exempt while the person they depend on is"
          : "family member (F-2, J-2, M-2 or Q-3): not exempt, the person they depend on was not exempt",
      );
    }
    return parts.join("; ");
  }
}

/* ------------------------------------------------------------------ dates */

/** The leading periods of presence left out under the de minimis rule: whole periods, 10 days at most, never all. */
function afterDeMinimis(counted: readonly IsoDay[]): { start: IsoDay; leftOut: number } {
  const runs: IsoDay[][] = [];
  for (const day of counted) {
    const last = runs.at(-1);
    if (last && daysBetween(last.at(-1)!, day) === 1) last.push(day);
    else runs.push([day]);
  }
  let leftOut = 0;
  let i = 0;
  while (i < runs.length - 1 && leftOut + runs[i]!.length <= DE_MINIMIS_DAYS) leftOut += runs[i++]!.length;
  return { start: runs[i]![0]!, leftOut };
}

/** The first-year choice's earliest start in `year`: 31 days in a row, and 75% of the days from there to December 31 with 5 absences forgiven. */
function firstYearStart(counted: readonly IsoDay[], year: number): { from: IsoDay; present: number; span: number } | null {
  const set = new Set(counted);
  for (const start of counted) {
    let run = true;
    for (let k = 1; k < FIRST_YEAR_RUN && run; k++) run = set.has(addDays(start, k));
    if (!run) continue;
    const span = daysBetween(start, lastDay(year)) + 1;
    const present = counted.filter((d) => d >= start).length;
    const forgiven = Math.min(FIRST_YEAR_ABSENCE, span - present);
    if ((present + forgiven) * 4 >= span * 3) return { from: start, present, span };
  }
  return null;
}

/* ------------------------------------------------------------------ the outcome */

function subject(person: PersonHistory): { was: string; files: string; your: string; you: string } {
  return person.role === "client"
    ? { was: "You were", files: "You file", your: "your", you: "you" }
    : { was: `${person.name} was`, files: `${person.name} files`, your: "their", you: person.name };
}

/**
 * The outcome of every person of the household for `taxYear`, the client first. `today`
 * (New York's day) closes a stay still open and decides what the next year has shown so far.
 */
export function decideHousehold(household: Household, taxYear: number, today: IsoDay): ResidencyOutcome[] {
  const principals: PersonDays[] = [];
  const ordered = [...household.people].sort((a, b) => Number(isDerivativeOnly(a)) - Number(isDerivativeOnly(b)));
  const daysByKey = new Map<string, PersonDays>();
  for (const person of ordered) {
    const days = new PersonDays(person, today, principals);
    if (!isDerivativeOnly(person)) principals.push(days);
    daysByKey.set(person.key, days);
  }
  const outcomes = household.people.map((person) => decidePerson(daysByKey.get(person.key)!, taxYear, today, household));
  addJointChoices(outcomes, daysByKey, taxYear);
  return outcomes.sort((a, b) => roleOrder(a.role) - roleOrder(b.role));
}

const roleOrder = (role: PersonHistory["role"]) => ["client", "spouse", "dependant"].indexOf(role);

function isDerivativeOnly(person: PersonHistory): boolean {
  return person.periods.length > 0 && person.periods.every((p) => DERIVATIVE_OF[p.status] !== undefined);
}

function decidePerson(days: PersonDays, taxYear: number, today: IsoDay, household: Household): ResidencyOutcome {
  const { person } = days;
  const findings = person.findings[taxYear] ?? NO_FINDINGS;
  const table: ResidencyOutcome["table"] = [days.row(taxYear, 1), days.row(taxYear - 1, 3), days.row(taxYear - 2, 6)];
  const spt = days.spt(taxYear);
  const greenCard = days.greenCardIn(taxYear);
  const who = subject(person);
  const reasons: string[] = [];
  const choices: ResidencyChoice[] = [];
  const missing = missingOf(days, taxYear);
  const counted = days.countedIn(taxYear);
  const presentDays = inYear(days.present, taxYear);
  const exemptIndividual = table[0].exempt > 0;

  const base = {
    person: person.key,
    name: person.name,
    role: person.role,
    taxYear,
    table,
    totalSixths: spt.totalSixths,
    total: formatSixths(spt.totalSixths),
    meetsSubstantialPresence: spt.met,
    metOn: days.metOn(taxYear),
    greenCardTest: greenCard,
    exemptIndividual,
    missing,
  };

  if (days.citizenOn(firstDay(taxYear)) && days.citizenOn(lastDay(taxYear))) {
    return {
      ...base,
      status: "citizen",
      rule: "citizen",
      residentFrom: firstDay(taxYear),
      residentUntil: lastDay(taxYear),
      reasons: [`${who.was} a US citizen for all of ${taxYear}: the residency tests are for aliens only.`],
      choices,
      forms: person.role === "dependant" ? [] : ["1040"],
      flags: [],
      summary: `${who.was} a US citizen for all of ${taxYear}. ${person.role === "dependant" ? "" : `${who.files} Form 1040.`}`.trim(),
    };
  }

  // The arithmetic, year by year.
  for (const row of table) {
    if (row.exemptWhy) reasons.push(`${row.year}: ${plural(row.exempt, "day")} of ${row.present} present did not count (${row.exemptWhy}).`);
  }
  reasons.push(
    `Days that count: ${table[0].counted} in ${taxYear}, a third of ${table[1].counted} in ${taxYear - 1} and a sixth of ${table[2].counted} in ${taxYear - 2}: ${formatSixths(spt.totalSixths)} in all, ${spt.totalSixths >= SPT_TOTAL_DAYS * 6 ? "at least" : "fewer than"} ${SPT_TOTAL_DAYS}; ${table[0].counted >= SPT_MINIMUM_DAYS ? "at least" : "fewer than"} ${SPT_MINIMUM_DAYS} in ${taxYear}.`,
  );
  const metOn = days.metOn(taxYear);
  reasons.push(`The substantial presence test for ${taxYear} is ${metOn ? `met, on ${longDay(metOn)}` : "not met"}.`);
  if (greenCard) reasons.push(`${who.was} a lawful permanent resident (green card) during ${taxYear}: the green card test is met.`);

  const resident = greenCard || spt.met;
  const rule: ResidencyRule = greenCard ? "green-card-test" : spt.met ? "substantial-presence-test" : "not-met";
  let from: IsoDay | null = null;
  let until: IsoDay | null = null;
  const forms: ResidencyForm[] = [];

  if (resident) {
    // Residency starting date.
    if (days.residentByTests(taxYear - 1)) {
      from = firstDay(taxYear);
      reasons.push(`${who.was} a resident in ${taxYear - 1} as well, so residency runs from January 1, ${taxYear}.`);
    } else {
      const starts: IsoDay[] = [];
      if (spt.met) {
        if (findings.deMinimis) {
          const { start, leftOut } = afterDeMinimis(counted);
          starts.push(start);
          if (leftOut > 0) {
            reasons.push(
              `Under the de minimis rule ${plural(leftOut, "day")} of presence before ${longDay(start)} are left out of the starting date (staff recorded a closer connection abroad on them); they still count for the test.`,
            );
            forms.push("residency-statement");
          }
        } else starts.push(counted[0]!);
        reasons.push(`Under the substantial presence test residency starts on the first day present that counts: ${longDay(starts.at(-1)!)}.`);
      }
      if (greenCard) {
        const asLpr = presentDays.find((d) => days.lprPeriods().some((p) => p.from <= d && (p.to === null || d <= p.to)));
        const granted = days.lprPeriods().find((p) => p.from <= lastDay(taxYear))?.from ?? firstDay(taxYear);
        const start = asLpr ?? later(granted, firstDay(taxYear));
        starts.push(start);
        reasons.push(`Under the green card test residency starts on the first day present as a lawful permanent resident: ${longDay(start)}.`);
      }
      from = starts.reduce(earlier);
    }
    // Residency termination date.
    until = lastDay(taxYear);
    if (!days.residentByTests(taxYear + 1)) {
      const nextKnown = today > lastDay(taxYear + 1);
      const lprEnd = days
        .lprPeriods()
        .filter((p) => p.to !== null && yearOf(p.to) === taxYear && p.to < lastDay(taxYear))
        .map((p) => addDays(p.to!, 1))
        .at(-1);
      const stillLpr = days.lprPeriods().some((p) => p.from <= lastDay(taxYear) && (p.to === null || p.to >= lastDay(taxYear)));
      // Days as an exempt individual are not presence for the ending date.
      const lastPresent = counted.at(-1);
      // Under the green card test: the first day no longer a permanent resident; under the substantial presence test: the last day present.
      const candidates: IsoDay[] = [];
      if (greenCard && lprEnd && !stillLpr) candidates.push(lprEnd);
      if (spt.met && lastPresent && lastPresent < lastDay(taxYear) && !(greenCard && stillLpr)) candidates.push(lastPresent);
      const ends: IsoDay[] = [];
      if (candidates.length > 0) {
        const end = candidates.reduce(later);
        if (findings.abroadAfterLeaving) ends.push(end);
        else
          choices.push({
            kind: "possible-termination",
            on: end,
            text: `Residency may end on ${longDay(end)} if ${who.your} tax home was abroad for the rest of ${taxYear} and ${who.your} connection closer there${nextKnown ? "" : `, and ${who.you} ${who.you === "you" ? "are" : "is"} not a resident in ${taxYear + 1}`} (a statement with the return).`,
          });
      }
      if (ends.length > 0 && !(greenCard && stillLpr)) {
        until = ends.reduce(later);
        reasons.push(`Residency ends on ${longDay(until)}${nextKnown ? "" : `, provided ${who.you} ${who.you === "you" ? "are" : "is"} not a resident in ${taxYear + 1}`}.`);
        if (!forms.includes("residency-statement")) forms.push("residency-statement");
      }
    }
  }

  const status: ResidencyStatus = !resident ? "nonresident" : from === firstDay(taxYear) && until === lastDay(taxYear) ? "resident" : "dual-status";

  if (!resident) {
    // The choices of a year that is not a resident one.
    if (!days.residentByTests(taxYear - 1)) {
      const start = firstYearStart(counted, taxYear);
      if (start) {
        const next = nextYearTest(days, taxYear, today);
        if (next) {
          const share = `${((start.present / start.span) * 100).toFixed(1)}%`;
          choices.push({
            kind: "first-year-choice",
            from: start.from,
            share,
            nextYear: next.met ? "met" : "pending",
            nextYearMetOn: next.on,
            text: next.met
              ? `First-year choice: ${who.you} may choose to be a resident from ${longDay(start.from)} (31 days in a row from then, and ${start.present} of the ${start.span} days to December 31 present, ${share}), since the substantial presence test was met in ${taxYear + 1} on ${longDay(next.on)}.`
              : `First-year choice: ${who.you} may choose to be a resident from ${longDay(start.from)} (31 days in a row from then, and ${start.present} of the ${start.span} days to December 31 present, ${share}) once the substantial presence test is met in ${taxYear + 1}: on ${longDay(next.on)} at the earliest, if present every day until then. The ${taxYear} return then waits: file Form 4868 for an extension.`,
          });
        }
      }
    }
  } else if (!greenCard && spt.counted < SPT_TOTAL_DAYS) {
    choices.push({
      kind: "closer-connection",
      available: !person.greenCardSteps,
      text: person.greenCardSteps
        ? `The closer connection exception is closed: ${who.you} took steps toward a green card.`
        : `Closer connection exception: with fewer than ${SPT_TOTAL_DAYS} days in ${taxYear}, a tax home abroad all year and a closer connection there, ${who.you} may be treated as a nonresident (Form 8840).`,
    });
  }

  // The return's form (a dependant has none of their own here) and the 8843.
  if (person.role === "dependant") forms.splice(0, forms.length);
  else if (status === "resident") forms.unshift("1040");
  else if (status === "nonresident") forms.unshift("1040-NR");
  else forms.unshift(until === lastDay(taxYear) ? "dual-status-1040" : "dual-status-1040-NR");
  if (exemptIndividual) forms.push("8843");

  const flags = flagsOf(days, taxYear, status, household, exemptIndividual);
  if (status !== "nonresident" && status !== "resident" && from !== null && until !== null) {
    reasons.push(`${taxYear} is a dual-status year: resident from ${longDay(from)} to ${longDay(until)}, nonresident on the other days.`);
  }
  return {
    ...base,
    status,
    rule,
    residentFrom: from,
    residentUntil: until,
    reasons,
    choices,
    forms,
    flags,
    summary: summaryOf(person, taxYear, status, from, until, days, forms),
  };
}

/** The next year's substantial presence test: met on a day, or the earliest day it can be met if present every day from now; null when it cannot be. */
function nextYearTest(days: PersonDays, taxYear: number, today: IsoDay): { met: boolean; on: IsoDay } | null {
  const next = taxYear + 1;
  const have = days.countedIn(next);
  const needed = Math.max(SPT_MINIMUM_DAYS, Math.ceil((SPT_TOTAL_DAYS * 6 - days.countedIn(taxYear).length * 2 - days.countedIn(taxYear - 1).length) / 6));
  if (have.length >= needed) return { met: true, on: have[needed - 1]! };
  if (today >= lastDay(next)) return null;
  const from = today < firstDay(next) ? firstDay(next) : days.present.has(today) ? addDays(today, 1) : today;
  const on = addDays(from, needed - have.length - 1);
  return on <= lastDay(next) ? { met: false, on } : null;
}

function missingOf(days: PersonDays, taxYear: number): string[] {
  const missing: string[] = [];
  const { person } = days;
  const window = (d: IsoDay) => yearOf(d) >= taxYear - 2 && yearOf(d) <= taxYear;
  if (person.stays.length === 0) missing.push(`${person.role === "client" ? "Your" : `${person.name}'s`} stays in the US (arrival and departure days).`);
  if (person.periods.length === 0) missing.push(`${person.role === "client" ? "Your" : `${person.name}'s`} visa or status periods.`);
  else {
    const gaps = days.unknownStatus.filter(window);
    if (gaps.length > 0)
      missing.push(`The status on ${plural(gaps.length, "day")} present from ${longDay(gaps[0]!)} to ${longDay(gaps.at(-1)!)}: no status period covers them.`);
  }
  if (person.periods.some((p) => p.status === "J-1" && p.category === null))
    missing.push("What the J-1 program is for: student, or teacher, trainee, researcher or scholar.");
  if (person.itin && person.itin.lastUsedYear === null) missing.push("The last tax year the ITIN was on a federal return.");
  if (person.role === "client" && person.citizenship === null) missing.push("Your country of citizenship.");
  return missing;
}

function flagsOf(days: PersonDays, taxYear: number, status: ResidencyStatus, household: Household, exemptIndividual: boolean): ResidencyFlag[] {
  const { person } = days;
  const flags: ResidencyFlag[] = [];
  if (person.itin) {
    const base = Math.max(person.itin.lastUsedYear ?? person.itin.issuedYear, person.itin.issuedYear);
    const expiresEnd = base + ITIN_UNUSED_YEARS + 1;
    if (taxYear >= expiresEnd) {
      flags.push({
        kind: "itin-expired",
        text: `The ITIN was last on a federal return for ${base}: unused for ${base + 1} to ${base + ITIN_UNUSED_YEARS}, it expired on December 31, ${expiresEnd}. Renew it with Form W-7 attached to the ${taxYear} return.`,
      });
    } else if (taxYear === expiresEnd - 1) {
      flags.push({
        kind: "itin-expiring",
        text: `The ITIN was last on a federal return for ${base}: it expires on December 31, ${expiresEnd} unless the ${taxYear} return uses it before then.`,
      });
    }
    if (person.itin.issuedYear < ITIN_OLD_BEFORE)
      flags.push({ kind: "itin-old", text: `ITINs issued before ${ITIN_OLD_BEFORE} have expired unless renewed since: check, and renew with Form W-7 if not.` });
  }
  if (exemptIndividual && person.ficaWithheld === true && status !== "citizen") {
    flags.push({
      kind: "fica-refund",
      text: `Social Security and Medicare tax was withheld from an exempt individual's pay: ask the employer to refund it first, then claim it with Forms 843 and 8316.`,
    });
  }
  const studentOrApprentice = inYear(days.present, taxYear).some((d) => {
    const p = statusOn(person.periods, d);
    return p !== null && (p.status === "F-1" || p.status === "M-1" || ((p.status === "J-1" || p.status === "Q-1") && (p.category === "student" || p.category === "trainee" || p.category === null)));
  });
  if (person.citizenship?.trim().toLowerCase() === "india" && studentOrApprentice && (status === "nonresident" || status === "dual-status")) {
    flags.push({
      kind: "india-treaty",
      text: "A student or business apprentice from India: the standard deduction on Form 1040-NR under article 21(2) of the US-India treaty.",
    });
  }
  const highest = household.foreignAccountsHighestCents;
  if (person.role === "client" && highest !== null && (status === "resident" || status === "dual-status")) {
    if (highest > FBAR_THRESHOLD_CENTS)
      flags.push({
        kind: "fbar",
        text: `Foreign accounts above $10,000 at some time in ${taxYear}: FBAR (FinCEN Form 114), due April 15, ${taxYear + 1}, extended to October 15 without asking.`,
      });
    const factor = household.filesJointly ? 2 : 1;
    if (highest > FORM_8938_ANY_TIME_CENTS * factor)
      flags.push({ kind: "form-8938", text: `Foreign assets above $${((FORM_8938_ANY_TIME_CENTS * factor) / 100).toLocaleString("en-US")} at some time in ${taxYear}: Form 8938 with the return.` });
    else if (highest > FORM_8938_YEAR_END_CENTS * factor)
      flags.push({
        kind: "form-8938",
        text: `Foreign assets above $${((FORM_8938_YEAR_END_CENTS * factor) / 100).toLocaleString("en-US")}: Form 8938 if they were above it on December 31, ${taxYear}.`,
      });
  }
  return flags;
}

/** The choices of a married couple: to be treated as residents for the whole year and file jointly. */
function addJointChoices(outcomes: ResidencyOutcome[], daysByKey: Map<string, PersonDays>, taxYear: number): void {
  const client = outcomes.find((o) => o.role === "client");
  const spouse = outcomes.find((o) => o.role === "spouse");
  if (!client || !spouse) return;
  const residentAtEnd = (o: ResidencyOutcome) =>
    o.status === "citizen" || daysByKey.get(o.person)!.citizenOn(lastDay(taxYear)) || ((o.status === "resident" || o.status === "dual-status") && o.residentUntil === lastDay(taxYear));
  for (const [one, other] of [
    [client, spouse],
    [spouse, client],
  ] as const) {
    if (!residentAtEnd(other) || one.status === "citizen") continue;
    const you = one.role === "client" ? "you" : one.name;
    if (!residentAtEnd(one)) {
      one.choices.push({
        kind: "joint-6013g",
        spouse: other.name,
        text: `Married at the end of ${taxYear} to a US citizen or resident (${other.name}): ${you} and ${other.name} may choose to treat ${you === "you" ? "you" : you} as a resident for all of ${taxYear} and file jointly (section 6013(g)).`,
      });
    } else if (one.status === "dual-status" && one.residentFrom !== firstDay(taxYear)) {
      one.choices.push({
        kind: "joint-6013h",
        spouse: other.name,
        text: `A nonresident at the start of ${taxYear}, a resident at its end, married to a US citizen or resident (${other.name}): ${you} and ${other.name} may choose to be treated as residents for all of ${taxYear} and file jointly (section 6013(h)).`,
      });
    }
  }
}

const FORM_WORDS: Record<ResidencyForm, string> = {
  "1040": "Form 1040",
  "1040-NR": "Form 1040-NR",
  "dual-status-1040": "a dual-status return (Form 1040, with Form 1040-NR as its statement)",
  "dual-status-1040-NR": "a dual-status return (Form 1040-NR, with Form 1040 as its statement)",
  "8843": "Form 8843",
  "residency-statement": "a statement of the residency dates",
};

function summaryOf(
  person: PersonHistory,
  taxYear: number,
  status: ResidencyStatus,
  from: IsoDay | null,
  until: IsoDay | null,
  days: PersonDays,
  forms: readonly ResidencyForm[],
): string {
  const who = subject(person);
  const statusWords = (() => {
    const lastStatus = inYear(days.present, taxYear)
      .map((d) => statusOn(person.periods, d))
      .filter((p): p is StatusPeriod => p !== null)
      .at(-1);
    const decision = days.decisions.get(taxYear);
    const exemptYear = decision && decision.studentExempt && lastStatus && exemptKindOf(lastStatus) === "student" ? decision.priorExemptYears.length + 1 : null;
    if (!lastStatus) return "";
    const label = STATUS_LABELS[lastStatus.status];
    const was = who.you === "you" ? "you were" : `${person.name} was`;
    const asLabel = lastStatus.status === "other" ? "in another status" : `${/^(a|[FHLMO]-|E )/.test(label) ? "an" : "a"} ${label}`;
    return exemptYear !== null
      ? `: ${was} ${asLabel}, and ${taxYear} was ${who.your} ${ordinal(exemptYear)} year as one`
      : `: ${was} ${asLabel}`;
  })();
  const head =
    status === "resident"
      ? `${who.was} a resident alien for all of ${taxYear}${statusWords}.`
      : status === "nonresident"
        ? `${who.was} a nonresident alien for all of ${taxYear}${statusWords}.`
        : `${who.was} a dual-status alien in ${taxYear}: a resident from ${longDay(from!)} to ${longDay(until!)}, a nonresident on the other days${statusWords}.`;
  const formWords = forms.map((f) => FORM_WORDS[f]);
  return formWords.length > 0 ? `${head} ${who.files} ${listOf(formWords)}.` : head;
}
