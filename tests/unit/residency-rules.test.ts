import { describe, expect, it } from "vitest";
import type { Household, PersonHistory, Stay, StatusPeriod, StaffFindings } from "~/domain/residency/history";
import { NO_FINDINGS } from "~/domain/residency/history";
import { decideHousehold } from "~/domain/residency/rules";
import type { ResidencyOutcome } from "~/domain/residency/rules";

// The residency rules (app/domain/residency/rules.ts) against the IRS's own examples and rule
// statements, each cited as docs/product/residency.md cites it, and against the edges of each rule.

const period = (status: StatusPeriod["status"], from: string, to: string | null, category: StatusPeriod["category"] = null): StatusPeriod => ({
  status,
  category,
  from,
  to,
});
const stay = (arrival: string, departure: string | null, transit = false): Stay => ({ arrival, departure, transit });

function person(over: Partial<PersonHistory> & Pick<PersonHistory, "periods" | "stays">): PersonHistory {
  return {
    key: "client",
    role: "client",
    name: "Client",
    citizenship: "Brazil",
    greenCardSteps: false,
    itin: null,
    ficaWithheld: null,
    findings: {},
    ...over,
  };
}

function household(people: PersonHistory[], over: Partial<Household> = {}): Household {
  return { people, foreignAccountsHighestCents: null, filesJointly: false, ...over };
}

function decide(people: PersonHistory[] | PersonHistory, year: number, today = "2026-11-29", over: Partial<Household> = {}): ResidencyOutcome[] {
  return decideHousehold(household(Array.isArray(people) ? people : [people], over), year, today);
}

const one = (p: PersonHistory, year: number, today?: string) => decide(p, year, today)[0]!;
const findings = (f: Partial<StaffFindings>): StaffFindings => ({ ...NO_FINDINGS, ...f });

/** 120 days in the US (B-1/B-2) in each of `years`, from March 1. */
function visitsOf(years: number[], days = 120): Stay[] {
  return years.map((y) => {
    const end = new Date(Date.UTC(y, 2, 1 + days - 1)).toISOString().slice(0, 10);
    return stay(`${y}-03-01`, end);
  });
}

describe("the substantial presence test (IRS, The Substantial Presence Test)", () => {
  it("120 days in each of three years add up to 180: not a resident", () => {
    const o = one(person({ periods: [period("B-1/B-2", "2020-01-01", null)], stays: visitsOf([2023, 2024, 2025]) }), 2025);
    expect(o.table.map((r) => [r.year, r.counted, r.divisor])).toEqual([
      [2025, 120, 1],
      [2024, 120, 3],
      [2023, 120, 6],
    ]);
    expect(o.total).toBe("180.00");
    expect(o.meetsSubstantialPresence).toBe(false);
    expect(o.status).toBe("nonresident");
    expect(o.rule).toBe("not-met");
    expect(o.forms).toEqual(["1040-NR"]);
    expect(o.reasons).toContain("Days that count: 120 in 2025, a third of 120 in 2024 and a sixth of 120 in 2023: 180.00 in all, fewer than 183; at least 31 in 2025.");
  });

  it("a transit day between two foreign places is not a day of presence; arrival and departure days are", () => {
    const o = one(person({ periods: [period("B-1/B-2", "2025-01-01", null)], stays: [stay("2025-03-01", "2025-03-03"), stay("2025-04-10", "2025-04-10", true)] }), 2025);
    expect(o.table[0]).toMatchObject({ present: 3, transit: 1, counted: 3 });
  });

  it("a stay still open counts up to today", () => {
    const o = one(person({ periods: [period("H-1B", "2025-06-01", null)], stays: [stay("2025-06-01", null)] }), 2025, "2025-07-15");
    expect(o.table[0].present).toBe(45);
    expect(o.meetsSubstantialPresence).toBe(false);
  });
});

describe("exempt students (IRS, Tax residency status examples, example 1; Exempt individual: who is a student)", () => {
  // W: an F-1 graduate student who had never been in the US before arriving on 08-15-2018, and stayed.
  const w = person({ name: "W", periods: [period("F-1", "2018-08-15", null)], stays: [stay("2018-08-15", null)] });

  it("2018 to 2022 are W's 5 exempt years: a nonresident, Form 1040-NR and Form 8843", () => {
    const o = one(w, 2022);
    expect(o.status).toBe("nonresident");
    expect(o.table[0]).toMatchObject({ present: 365, exempt: 365, counted: 0 });
    expect(o.table[0].exemptWhy).toBe("student: 5th calendar year as an exempt student, teacher or trainee (exempt in the first 5)");
    expect(o.forms).toEqual(["1040-NR", "8843"]);
    expect(o.summary).toBe(
      "You were a nonresident alien for all of 2022: you were an F-1 student, and 2022 was your 5th year as one. You file Form 1040-NR and Form 8843.",
    );
  });

  it("2023 counts: W meets the test on 07-02-2023 and is a resident from 01-01-2023", () => {
    const o = one(w, 2023);
    expect(o.table[0]).toMatchObject({ present: 365, exempt: 0, counted: 365 });
    expect(o.table[0].exemptWhy).toBe("student: not exempt, already exempt in 5 calendar years (2018, 2019, 2020, 2021 and 2022)");
    expect(o.metOn).toBe("2023-07-02");
    expect(o.residentFrom).toBe("2023-01-01");
    expect(o.residentUntil).toBe("2023-12-31");
    expect(o.status).toBe("resident");
    expect(o.forms).toEqual(["1040"]);
  });

  it("the 5 years are counted across a gap, and the 6th counts unless staff record the exception", () => {
    const history = {
      periods: [period("F-1", "2015-08-20", "2017-12-20"), period("F-1", "2021-08-20", null)],
      stays: [stay("2015-08-20", "2017-12-20"), stay("2021-08-20", null)],
    };
    const sixth = one(person(history), 2023);
    expect(sixth.table.map((r) => [r.year, r.exempt])).toEqual([
      [2023, 0],
      [2022, 365],
      [2021, 134],
    ]);
    expect(sixth.table[0].exemptWhy).toBe("student: not exempt, already exempt in 5 calendar years (2015, 2016, 2017, 2021 and 2022)");
    expect(sixth.metOn).toBe("2023-07-02");
    const excepted = one(person({ ...history, findings: { 2023: findings({ studentException: true }) } }), 2023);
    expect(excepted.table[0].exempt).toBe(365);
    expect(excepted.status).toBe("nonresident");
    expect(excepted.table[0].exemptWhy).toBe(
      "student: past 5 exempt years (2015, 2016, 2017, 2021 and 2022), exempt because staff recorded the exception",
    );
  });
});

describe("exempt teachers and trainees (IRS, Tax residency status examples, example 2; Exempt individuals: teachers and trainees)", () => {
  // A: a J-1 research scholar who entered on 08-29-2021: exempt in 2021 and 2022.
  const a = person({ name: "A", periods: [period("J-1", "2021-08-29", null, "researcher")], stays: [stay("2021-08-29", null)] });

  it("A files Form 1040-NR for 2021 and 2022 and Form 1040 for 2023, a resident from 01-01-2023", () => {
    expect(one(a, 2021).forms).toEqual(["1040-NR", "8843"]);
    expect(one(a, 2022).forms).toEqual(["1040-NR", "8843"]);
    expect(one(a, 2022).table[0].exemptWhy).toBe("teacher or trainee: exempt in 2021 of 2016 to 2021, fewer than 2");
    const y2023 = one(a, 2023);
    expect(y2023.table[0].exemptWhy).toBe("teacher or trainee: not exempt, already exempt in 2021 and 2022 of 2017 to 2022");
    expect(y2023.metOn).toBe("2023-07-02");
    expect(y2023.residentFrom).toBe("2023-01-01");
    expect(y2023.forms).toEqual(["1040"]);
  });

  it("a scholar who arrives in December has used the first of the 2 years (IRS VITA, counting years of exemption)", () => {
    const o = one(person({ periods: [period("J-1", "2021-12-10", null, "scholar")], stays: [stay("2021-12-10", null)] }), 2023);
    expect(o.table.map((r) => r.exempt)).toEqual([0, 365, 22]);
    expect(o.residentFrom).toBe("2023-01-01");
  });

  it("exempt again after 2 of the 6 years before have passed, and a student's years count against a teacher", () => {
    const back = (year: number) =>
      person({
        periods: [period("J-1", "2019-01-10", "2020-12-20", "scholar"), period("J-1", `${year}-01-10`, null, "teacher")],
        stays: [stay("2019-01-10", "2020-12-20"), stay(`${year}-01-10`, `${year}-12-20`)],
      });
    expect(one(back(2024), 2024).table[0].exempt).toBe(0);
    expect(one(back(2027), 2027, "2028-01-05").table[0].exempt).toBe(345);
    const studentThenResearcher = person({
      periods: [period("F-1", "2020-08-20", "2022-12-31"), period("J-1", "2023-01-01", null, "researcher")],
      stays: [stay("2020-08-20", null)],
    });
    expect(one(studentThenResearcher, 2023).table[0].exemptWhy).toBe("teacher or trainee: not exempt, already exempt in 2020, 2021 and 2022 of 2017 to 2022");
  });
});

describe("residency starting dates (IRS, Residency starting and ending dates)", () => {
  it("green card test only: the first day present as a lawful permanent resident", () => {
    const o = one(
      person({ periods: [period("B-1/B-2", "2025-01-01", "2025-04-09"), period("LPR", "2025-04-10", null)], stays: [stay("2025-04-01", "2025-05-20")] }),
      2025,
      "2026-03-01",
    );
    expect(o.greenCardTest).toBe(true);
    expect(o.meetsSubstantialPresence).toBe(false);
    expect(o.residentFrom).toBe("2025-04-10");
    expect(o.status).toBe("dual-status");
    expect(o.forms).toEqual(["dual-status-1040"]);
  });

  it("a green card received abroad: the first day present after receiving it", () => {
    const o = one(person({ periods: [period("LPR", "2025-04-10", null)], stays: [stay("2025-05-02", null)] }), 2025, "2026-03-01");
    expect(o.residentFrom).toBe("2025-05-02");
  });

  it("both tests met: the earlier of the two days", () => {
    const o = one(
      person({ periods: [period("H-1B", "2025-02-01", "2025-08-31"), period("LPR", "2025-09-01", null)], stays: [stay("2025-02-01", null)] }),
      2025,
      "2026-03-01",
    );
    expect(o.residentFrom).toBe("2025-02-01");
    expect(o.reasons).toContain("Under the substantial presence test residency starts on the first day present that counts: February 1, 2025.");
  });

  it("a resident in any part of the year before is a resident from January 1", () => {
    const o = one(person({ periods: [period("H-1B", "2023-06-01", null)], stays: [stay("2023-06-01", null)] }), 2025);
    expect(o.residentFrom).toBe("2025-01-01");
    expect(o.status).toBe("resident");
  });

  it("up to 10 days of earlier presence are left out when staff recorded a closer connection abroad on them (the de minimis rule)", () => {
    const history = {
      periods: [period("B-1/B-2", "2025-01-01", "2025-02-28"), period("H-1B", "2025-03-01", null)],
      stays: [stay("2025-01-06", "2025-01-10"), stay("2025-03-01", null)],
    };
    expect(one(person(history), 2025).residentFrom).toBe("2025-01-06");
    const kept = one(person({ ...history, findings: { 2025: findings({ deMinimis: true }) } }), 2025);
    expect(kept.residentFrom).toBe("2025-03-01");
    expect(kept.meetsSubstantialPresence).toBe(true);
    expect(kept.forms).toEqual(["dual-status-1040", "residency-statement"]);
    // Two visits of 6 and 5 days: only whole periods, 10 days at most: the second visit starts residency.
    const two = one(
      person({
        periods: [period("B-1/B-2", "2025-01-01", "2025-02-28"), period("H-1B", "2025-03-01", null)],
        stays: [stay("2025-01-05", "2025-01-10"), stay("2025-02-01", "2025-02-05"), stay("2025-03-01", null)],
        findings: { 2025: findings({ deMinimis: true }) },
      }),
      2025,
    );
    expect(two.residentFrom).toBe("2025-02-01");
  });
});

describe("residency termination dates (IRS, Residency starting and ending dates)", () => {
  const leaver = (f: Partial<StaffFindings>) =>
    person({ periods: [period("H-1B", "2023-01-01", "2025-06-30")], stays: [stay("2023-01-01", "2025-06-30")], findings: { 2025: findings(f) } });

  it("the last day present, when the tax home and closer connection were abroad for the rest of the year and the next year is not a resident one", () => {
    const o = one(leaver({ abroadAfterLeaving: true }), 2025, "2027-01-10");
    expect(o.residentFrom).toBe("2025-01-01");
    expect(o.residentUntil).toBe("2025-06-30");
    expect(o.status).toBe("dual-status");
    expect(o.forms).toEqual(["dual-status-1040-NR", "residency-statement"]);
  });

  it("otherwise December 31, with the possible ending date for the firm to discuss", () => {
    const o = one(leaver({}), 2025, "2027-01-10");
    expect(o.status).toBe("resident");
    // Under 183 days in 2025, the closer connection exception is there to discuss as well.
    expect(o.choices.map((c) => c.kind)).toEqual(["possible-termination", "closer-connection"]);
    expect(o.choices.slice(0, 1)).toEqual([
      {
        kind: "possible-termination",
        on: "2025-06-30",
        text: "Residency may end on June 30, 2025 if your tax home was abroad for the rest of 2025 and your connection closer there (a statement with the return).",
      },
    ]);
  });

  it("a resident in the next year is a resident to the end of this one", () => {
    const back = person({
      periods: [period("H-1B", "2023-01-01", null)],
      stays: [stay("2023-01-01", "2025-06-30"), stay("2026-01-05", null)],
      findings: { 2025: findings({ abroadAfterLeaving: true }) },
    });
    expect(one(back, 2025, "2026-11-29").residentUntil).toBe("2025-12-31");
  });
});

describe("the first-year choice (IRS, Tax residency status: first-year choice)", () => {
  // Present from November 1 to December 1 (31 days in a row), away, back on December 17 to stay.
  const mover = person({ periods: [period("H-1B", "2025-11-01", null)], stays: [stay("2025-11-01", "2025-12-01"), stay("2025-12-17", null)] });

  it("31 days in a row and 46 of the 61 days to December 31 (75.4%), the test met the next year: residency may start on November 1", () => {
    const o = one(mover, 2025, "2027-02-01");
    expect(o.status).toBe("nonresident");
    expect(o.choices).toEqual([
      expect.objectContaining({ kind: "first-year-choice", from: "2025-11-01", share: "75.4%", nextYear: "met", nextYearMetOn: "2026-06-17" }),
    ]);
  });

  it("while the next year is not far enough along: the earliest day the test can be met, and Form 4868", () => {
    const [choice] = one(mover, 2025, "2026-02-01").choices;
    expect(choice).toMatchObject({ kind: "first-year-choice", nextYear: "pending", nextYearMetOn: "2026-06-17" });
    expect(choice!.text).toContain("on June 17, 2026 at the earliest, if present every day until then. The 2025 return then waits: file Form 4868 for an extension.");
  });

  it("up to 5 days of absence count as presence for the 75%, and no more", () => {
    const back = (day: string) => person({ periods: [period("H-1B", "2025-11-01", null)], stays: [stay("2025-11-01", "2025-12-01"), stay(day, null)] });
    // Back on December 22: 41 of 61 days, 46 with 5 absences forgiven (75.4%).
    expect(one(back("2025-12-22"), 2025, "2027-02-01").choices.map((c) => c.kind)).toEqual(["first-year-choice"]);
    // Back on December 23: 40 of 61, 45 with the 5 (73.8%): no choice.
    expect(one(back("2025-12-23"), 2025, "2027-02-01").choices).toEqual([]);
  });

  it("exempt days do not count, and a next year that cannot reach the test closes the choice", () => {
    const student = person({ periods: [period("F-1", "2025-11-01", null)], stays: [stay("2025-11-01", null)] });
    expect(one(student, 2025, "2027-02-01").choices).toEqual([]);
    const gone = person({ periods: [period("H-1B", "2025-11-01", null)], stays: [stay("2025-11-01", "2026-03-01")] });
    expect(one(gone, 2025, "2027-02-01").choices).toEqual([]);
  });
});

describe("the closer connection exception (IRS, Closer connection exception to the substantial presence test)", () => {
  const visitor = (steps: boolean) =>
    person({ periods: [period("B-1/B-2", "2020-01-01", null)], stays: visitsOf([2023, 2024]).concat(visitsOf([2025], 150)), greenCardSteps: steps });

  it("fewer than 183 days this year: Form 8840 may keep the person a nonresident, unless they took steps toward a green card", () => {
    const o = one(visitor(false), 2025);
    expect(o.total).toBe("210.00");
    expect(o.meetsSubstantialPresence).toBe(true);
    expect(o.choices).toContainEqual(expect.objectContaining({ kind: "closer-connection", available: true }));
    expect(one(visitor(true), 2025).choices).toContainEqual(
      expect.objectContaining({ kind: "closer-connection", available: false, text: "The closer connection exception is closed: you took steps toward a green card." }),
    );
  });
});

describe("the household", () => {
  const client = (years: number) =>
    person({ periods: [period("F-1", `${2025 - years + 1}-08-20`, null)], stays: [stay(`${2025 - years + 1}-08-20`, null)], name: "Ravi" });
  const spouse = person({ key: "spouse", role: "spouse", name: "Priya", periods: [period("F-2", "2024-01-10", null)], stays: [stay("2024-01-10", null)] });
  const child = person({ key: "child-1", role: "dependant", name: "Aarav", periods: [period("F-2", "2024-01-10", null)], stays: [stay("2024-01-10", null)] });

  it("family on F-2 follow the student: exempt while the student is, each with their own Form 8843", () => {
    const outcomes = decide([child, spouse, client(2)], 2025);
    expect(outcomes.map((o) => [o.role, o.status, o.forms])).toEqual([
      ["client", "nonresident", ["1040-NR", "8843"]],
      ["spouse", "nonresident", ["1040-NR", "8843"]],
      ["dependant", "nonresident", ["8843"]],
    ]);
    expect(outcomes[2]!.summary).toBe("Aarav was a nonresident alien for all of 2025: Aarav was an F-2 dependant. Aarav files Form 8843.");
  });

  it("and count once the student's exempt years are over", () => {
    const outcomes = decide([client(6), spouse], 2025);
    expect(outcomes.map((o) => o.table[0].exempt)).toEqual([0, 0]);
    expect(outcomes[1]!.table[0].exemptWhy).toBe("family member (F-2, J-2, M-2 or Q-3): not exempt, the person they depend on was not exempt");
  });

  it("a nonresident married to a resident may be treated as a resident for the year and file jointly: 6013(g), or 6013(h) in a dual-status first year", () => {
    const worker = person({ name: "Ana", periods: [period("H-1B", "2022-01-01", null)], stays: [stay("2022-01-01", null)] });
    const late = (arrival: string) => person({ key: "spouse", role: "spouse", name: "Luis", periods: [period("H-4", arrival, null)], stays: [stay(arrival, null)] });
    const [, october] = decide([worker, late("2025-10-01")], 2025);
    expect(october!.status).toBe("nonresident");
    // From October 1 to the year's end, present every day: the first-year choice is there too.
    expect(october!.choices.map((c) => c.kind)).toEqual(["first-year-choice", "joint-6013g"]);
    const [, march] = decide([worker, late("2025-03-01")], 2025);
    expect(march!.status).toBe("dual-status");
    expect(march!.choices.map((c) => c.kind)).toEqual(["joint-6013h"]);
  });
});

describe("flags", () => {
  it("an ITIN last on a return for 2020 expired on December 31, 2024 (IRS, ITIN expiration FAQs); a W-7 goes with the return", () => {
    const holder = (year: number) =>
      one(person({ periods: [period("B-1/B-2", "2020-01-01", null)], stays: visitsOf([year]), itin: { issuedYear: 2019, lastUsedYear: 2020 } }), year);
    expect(holder(2024).flags.map((f) => f.kind)).toEqual(["itin-expired"]);
    expect(holder(2024).flags[0]!.text).toBe(
      "The ITIN was last on a federal return for 2020: unused for 2021 to 2023, it expired on December 31, 2024. Renew it with Form W-7 attached to the 2024 return.",
    );
    expect(holder(2023).flags.map((f) => f.kind)).toEqual(["itin-expiring"]);
    expect(holder(2022).flags).toEqual([]);
  });

  it("FICA withheld from an exempt individual, and an Indian student's treaty deduction", () => {
    const o = one(
      person({ periods: [period("F-1", "2024-08-20", null)], stays: [stay("2024-08-20", null)], ficaWithheld: true, citizenship: "India" }),
      2025,
    );
    expect(o.flags.map((f) => f.kind)).toEqual(["fica-refund", "india-treaty"]);
  });

  it("a resident's foreign accounts: FBAR above $10,000, Form 8938 above $75,000 at any time ($150,000 jointly)", () => {
    const resident = person({ periods: [period("H-1B", "2022-01-01", null)], stays: [stay("2022-01-01", null)] });
    const kinds = (cents: number | null, jointly = false) =>
      decide(resident, 2025, "2026-11-29", { foreignAccountsHighestCents: cents, filesJointly: jointly })[0]!.flags.map((f) => f.kind);
    expect(kinds(80_000_00)).toEqual(["fbar", "form-8938"]);
    expect(kinds(80_000_00, true)).toEqual(["fbar"]);
    expect(kinds(120_000_00, true)).toEqual(["fbar", "form-8938"]);
    expect(kinds(10_000_01)).toEqual(["fbar"]);
    expect(kinds(10_000_00)).toEqual([]);
    expect(kinds(null)).toEqual([]);
    const visitor = person({ periods: [period("B-1/B-2", "2020-01-01", null)], stays: visitsOf([2025]) });
    expect(decide(visitor, 2025, "2026-11-29", { foreignAccountsHighestCents: 80_000_00 })[0]!.flags).toEqual([]);
  });
});

describe("what the history lacks", () => {
  it("names missing stays, days with no status, a J-1 without its program, and the citizenship", () => {
    const o = one(
      person({ citizenship: null, periods: [period("J-1", "2025-03-01", null)], stays: [stay("2025-02-20", "2025-06-01")], itin: { issuedYear: 2024, lastUsedYear: null } }),
      2025,
    );
    expect(o.missing).toEqual([
      "The status on 9 days present from February 20, 2025 to February 28, 2025: no status period covers them.",
      "What the J-1 program is for: student, or teacher, trainee, researcher or scholar.",
      "The last tax year the ITIN was on a federal return.",
      "Your country of citizenship.",
    ]);
    expect(one(person({ periods: [], stays: [] }), 2025).missing).toEqual(["Your stays in the US (arrival and departure days).", "Your visa or status periods."]);
  });
});
