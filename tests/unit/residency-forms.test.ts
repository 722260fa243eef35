import { describe, expect, it } from "vitest";
import {
  countHistory,
  countsText,
  HISTORY_LIMITS,
  joinTouchingStays,
  latestHistoryDay,
  parseCaseFacts,
  parseConfirmation,
  parseFindings,
  parseHistoryInput,
  RESIDENCY_FORM_MESSAGES as M,
} from "~/domain/residency/forms";
import { readI94History } from "~/domain/residency/i94";

// The history's input and its checks (app/domain/residency/forms.ts), with a fixed New York today.
const TODAY = "2026-03-15";

const client = (over: Record<string, unknown> = {}) => ({
  key: "client",
  role: "client",
  name: "Priya Raman",
  relation: null,
  dateOfBirth: "1998-04-02",
  citizenship: "India",
  taxResidence: "India",
  ownStays: true,
  greenCardSteps: false,
  itin: null,
  ficaWithheld: false,
  school: "State University",
  sponsor: null,
  periods: [{ status: "F-1", category: null, from: "2024-08-10", to: null }],
  stays: [{ arrival: "2024-08-10", departure: null, transit: false, source: "typed" }],
  ...over,
});

const errorsOf = (raw: unknown, today = TODAY) => {
  const r = parseHistoryInput(raw, today);
  return r.ok ? {} : r.errors;
};

describe("a valid history", () => {
  it("reads the client, a spouse and a dependant, texts trimmed and blanks null", () => {
    const r = parseHistoryInput(
      {
        people: [
          client({ name: "  Priya Raman ", sponsor: "   ", ownStays: false }),
          { key: "anything", role: "spouse", name: "Arjun", ownStays: false, periods: [{ status: "F-2", from: "2024-09-01" }] },
          { key: "new-1", role: "dependant", name: "Asha", relation: "child", itin: { issuedYear: "2024", lastUsedYear: "" } },
        ],
      },
      TODAY,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [me, spouse, child] = r.value.people;
    expect(me).toMatchObject({ key: "client", name: "Priya Raman", sponsor: null, ownStays: true });
    // A spouse's key is always "spouse", whatever was sent.
    expect(spouse).toMatchObject({
      key: "spouse",
      role: "spouse",
      ownStays: false,
      greenCardSteps: false,
      itin: null,
      ficaWithheld: null,
      periods: [{ status: "F-2", category: null, from: "2024-09-01", to: null }],
      stays: [],
    });
    expect(child).toMatchObject({ key: "new-1", relation: "child", itin: { issuedYear: 2024, lastUsedYear: null } });
  });

  it("reads the JSON field as posted", () => {
    expect(parseHistoryInput(JSON.stringify({ people: [client()] }), TODAY).ok).toBe(true);
    expect(errorsOf("{not json")).toEqual({ form: M.badForm });
    expect(errorsOf(null)).toEqual({ form: M.badForm });
    expect(errorsOf({ people: "everyone" })).toEqual({ form: M.badForm });
    expect(errorsOf({ people: [client({ stays: "none" })] })).toEqual({ form: M.badForm });
  });

  it("lets a J-1 period carry its program, a Q-1 with or without one", () => {
    const r = parseHistoryInput(
      {
        people: [
          client({
            periods: [
              { status: "J-1", category: "researcher", from: "2020-01-01", to: "2021-12-31" },
              { status: "Q-1", category: null, from: "2022-01-01", to: "2022-06-30" },
              { status: "Q-1", category: "trainee", from: "2022-07-01", to: "2022-12-31" },
            ],
          }),
        ],
      },
      TODAY,
    );
    expect(r.ok).toBe(true);
  });
});

describe("each bad field has its own message, keyed by its path", () => {
  it("dates: required, real, from 1950, at most a year after today", () => {
    expect(latestHistoryDay(TODAY)).toBe("2027-03-15");
    expect(latestHistoryDay("2028-02-29")).toBe("2029-03-01");
    const errors = errorsOf({
      people: [
        client({
          periods: [
            { status: "F-1", from: "", to: null },
            { status: "F-1", from: "2025-02-30", to: null },
            { status: "F-1", from: "1949-12-31", to: "1949-12-31" },
            { status: "F-1", from: "2027-03-16", to: null },
          ],
          stays: [{ arrival: "03/01/2025", departure: "2027-03-15" }],
        }),
      ],
    });
    expect(errors).toEqual({
      "people.0.periods.0.from": "Enter a date.",
      "people.0.periods.1.from": "Enter a real date as YYYY-MM-DD.",
      "people.0.periods.2.from": "Enter a date from January 1, 1950.",
      "people.0.periods.2.to": "Enter a date from January 1, 1950.",
      "people.0.periods.3.from": "Enter a date no later than March 15, 2027, a year from today.",
      "people.0.stays.0.arrival": "Enter a real date as YYYY-MM-DD.",
    });
  });

  it("a period that ends before it starts, and periods that overlap", () => {
    expect(errorsOf({ people: [client({ periods: [{ status: "F-1", from: "2024-08-10", to: "2024-08-09" }] })] })).toEqual({
      "people.0.periods.0.to": "The last day in the status cannot be before its first day.",
    });
    // A period of one day is fine; so is the next status from the day after.
    expect(
      errorsOf({
        people: [
          client({
            periods: [
              { status: "F-1", from: "2020-08-10", to: "2024-06-30" },
              { status: "H-1B", from: "2024-07-01", to: "2024-07-01" },
              { status: "H-1B", from: "2024-07-02", to: null },
            ],
          }),
        ],
      }),
    ).toEqual({});
    // Listed in any order: the later-starting of two overlapping periods carries the message.
    expect(
      errorsOf({
        people: [
          client({
            periods: [
              { status: "H-1B", from: "2024-06-30", to: null },
              { status: "F-1", from: "2020-08-10", to: "2024-06-30" },
              { status: "LPR", from: "2026-01-01", to: null },
            ],
          }),
        ],
      }),
    ).toEqual({
      "people.0.periods.0.from": M.periodsOverlap("2020-08-10", "2024-06-30"),
      "people.0.periods.2.from": M.periodsOverlap("2024-06-30", null),
    });
    expect(M.periodsOverlap("2024-06-30", null)).toBe(
      "This period overlaps the one from 2024-06-30 to now: a person holds one status at a time, so end the earlier one the day before this one starts.",
    );
  });

  it("a departure before its arrival, and stays of one person that share a day", () => {
    expect(errorsOf({ people: [client({ stays: [{ arrival: "2024-08-10", departure: "2024-08-09" }] })] })).toEqual({
      "people.0.stays.0.departure": "The departure cannot be before the arrival.",
    });
    // A one-day stay is fine.
    expect(errorsOf({ people: [client({ stays: [{ arrival: "2024-08-10", departure: "2024-08-10" }] })] })).toEqual({});
    expect(
      errorsOf({
        people: [
          client({
            stays: [
              { arrival: "2024-08-10", departure: "2024-12-20" },
              { arrival: "2024-12-20", departure: "2025-05-01" },
              { arrival: "2025-06-01", departure: null },
              { arrival: "2025-09-01", departure: "2025-09-02" },
            ],
          }),
        ],
      }),
    ).toEqual({
      "people.0.stays.1.arrival": "This stay shares days with the stay from 2024-08-10 to 2024-12-20: a day can be in one stay only.",
      "people.0.stays.3.arrival": "This stay shares days with the stay from 2025-06-01 to now: a day can be in one stay only.",
    });
    // Two people's stays may share days.
    expect(
      errorsOf({
        people: [client(), { key: "spouse", role: "spouse", name: "Arjun", ownStays: true, stays: [{ arrival: "2024-08-10", departure: null }] }],
      }),
    ).toEqual({});
  });

  it("status and program category", () => {
    expect(
      errorsOf({
        people: [
          client({
            periods: [
              { status: "F-9", from: "2018-01-01", to: "2018-12-31" },
              { status: "J-1", category: null, from: "2019-01-01", to: "2019-12-31" },
              { status: "J-1", category: "tourist", from: "2020-01-01", to: "2020-12-31" },
              { status: "H-1B", category: "scholar", from: "2021-01-01", to: null },
            ],
          }),
        ],
      }),
    ).toEqual({
      "people.0.periods.0.status": "Choose a status from the list.",
      "people.0.periods.1.category": "Choose what the J-1 program is for: student, teacher, trainee, researcher or scholar.",
      "people.0.periods.2.category": "Choose a category from the list: student, teacher, trainee, researcher or scholar.",
      "people.0.periods.3.category": "Only a J-1 or Q-1 status has a program category.",
    });
  });

  it("names: 1 to 100 characters, no control characters; other texts at most 100", () => {
    expect(
      errorsOf({
        people: [
          client({ name: "   ", citizenship: "x".repeat(101) }),
          { key: "k1", role: "dependant", relation: "child", name: "Ann\u0007" },
          { key: "k2", role: "dependant", relation: "child", name: "y".repeat(101), school: 7 },
          { key: "k3", role: "dependant", relation: "child" },
        ],
      }),
    ).toEqual({
      "people.0.name": "Enter the person's name.",
      "people.0.citizenship": "Enter at most 100 characters.",
      "people.1.name": "This contains characters that are not allowed",
      "people.2.name": "Enter at most 100 characters.",
      "people.2.school": "Enter this as text.",
      "people.3.name": "Enter the person's name.",
    });
    expect(errorsOf({ people: [client({ name: "y".repeat(100) })] })).toEqual({});
  });

  it("ITIN years: 1996 to this year, the last use not before the issue", () => {
    const itin = (v: unknown) => errorsOf({ people: [client({ itin: v })] });
    expect(itin({ issuedYear: 1995, lastUsedYear: null })).toEqual({ "people.0.itin.issuedYear": "Enter a year from 1996 to 2026." });
    expect(itin({ issuedYear: 2020, lastUsedYear: 2027 })).toEqual({ "people.0.itin.lastUsedYear": "Enter a year from 1996 to 2026." });
    expect(itin({ issuedYear: 2020.5, lastUsedYear: null })).toEqual({ "people.0.itin.issuedYear": "Enter a year from 1996 to 2026." });
    expect(itin({ issuedYear: "", lastUsedYear: 2020 })).toEqual({ "people.0.itin.issuedYear": "Enter the year the ITIN was issued." });
    expect(itin({ issuedYear: 2021, lastUsedYear: 2020 })).toEqual({
      "people.0.itin.lastUsedYear": "The last year the ITIN was used cannot be before the year it was issued.",
    });
    expect(itin("yes")).toEqual({ "people.0.itin": "Enter the year the ITIN was issued." });
    expect(itin({ issuedYear: 1996, lastUsedYear: 2026 })).toEqual({});
  });

  it("roles, relations, keys and yes-or-no answers", () => {
    expect(
      errorsOf({
        people: [
          client({ relation: "child", ficaWithheld: "maybe" }),
          client({ greenCardSteps: "no" }),
          { role: "spouse", name: "A" },
          { role: "spouse", name: "B" },
          { key: "d1", role: "dependant", name: "C" },
          { key: "d1", role: "dependant", name: "D", relation: "parent" },
          { key: "spouse", role: "dependant", name: "E", relation: "other" },
          { role: "cousin", name: "F" },
        ],
      }),
    ).toEqual({
      "people.0.relation": "Only a dependant has a relation.",
      "people.0.ficaWithheld": "Choose yes, no or not known.",
      "people.1.greenCardSteps": "Choose yes or no.",
      "people.3.role": "Only one person can be your spouse.",
      "people.4.relation": "Choose how this dependant is related to you: child, parent or other.",
      "people.5.key": M.keyInvalid,
      "people.6.key": M.keyInvalid,
      "people.7.role": "Choose who this person is: you, your spouse or a dependant.",
    });
    // The second client is refused once the first has been read.
    expect(errorsOf({ people: [client(), client()] })).toEqual({ "people.1.role": "Only one person can be you (the client)." });
    expect(errorsOf({ people: [] })).toEqual({ people: "The history needs its client: add yourself first." });
    expect(errorsOf({ people: [{ key: "d", role: "dependant", name: "Kid", relation: "child" }] })).toEqual({ people: M.noClient });
  });

  it("at most 10 people, 60 periods and 400 stays per client", () => {
    expect(HISTORY_LIMITS).toEqual({ people: 10, periods: 60, stays: 400 });
    const kids = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, role: "dependant", name: `Kid ${i}`, relation: "child" }));
    expect(errorsOf({ people: [client(), ...kids(9)] })).toEqual({});
    expect(errorsOf({ people: [client(), ...kids(10)] })).toEqual({ people: "A household can list at most 10 people." });

    const periods = (n: number, from = 1960) =>
      Array.from({ length: n }, (_, i) => ({ status: "B-1/B-2", from: `${from + i}-01-01`, to: `${from + i}-01-31` }));
    const stays = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const day = new Date(Date.UTC(1980, 0, 1 + i * 3)).toISOString().slice(0, 10);
        return { arrival: day, departure: day };
      });
    // Counted over all the people.
    const spouse = (p: unknown[], s: unknown[]) => ({ key: "spouse", role: "spouse", name: "S", ownStays: true, periods: p, stays: s });
    expect(errorsOf({ people: [client({ periods: periods(30), stays: stays(200) }), spouse(periods(30), stays(200))] })).toEqual({});
    expect(errorsOf({ people: [client({ periods: periods(30), stays: stays(200) }), spouse(periods(31), stays(201))] })).toEqual({
      periods: "A history can hold at most 60 status periods in all. Join periods of the same status that follow each other.",
      stays: "A history can hold at most 400 stays in all.",
    });
  });
});

describe("a case's facts, staff's findings and confirmation", () => {
  it("foreign accounts in whole cents, 0 or more, or none", () => {
    expect(parseCaseFacts({ foreignAccountsHighestCents: 1_234_567, filesJointly: true })).toEqual({
      ok: true,
      value: { foreignAccountsHighestCents: 1_234_567, filesJointly: true },
    });
    expect(parseCaseFacts({ foreignAccountsHighestCents: "", filesJointly: false })).toEqual({
      ok: true,
      value: { foreignAccountsHighestCents: null, filesJointly: false },
    });
    for (const bad of [-1, 10.5, "100", 1e15])
      expect(parseCaseFacts({ foreignAccountsHighestCents: bad, filesJointly: false })).toEqual({
        ok: false,
        errors: { foreignAccountsHighestCents: M.foreignAccountsInvalid },
      });
    expect(parseCaseFacts({ foreignAccountsHighestCents: null })).toEqual({ ok: false, errors: { filesJointly: "Choose yes or no." } });
  });

  it("findings are three yes-or-no answers", () => {
    expect(parseFindings({ studentException: true, deMinimis: false, abroadAfterLeaving: false }).ok).toBe(true);
    expect(parseFindings({ studentException: "on", deMinimis: false })).toEqual({
      ok: false,
      errors: { studentException: "Choose yes or no.", abroadAfterLeaving: "Choose yes or no." },
    });
  });

  it("a confirmation names a status, with a reason of at most 500 characters", () => {
    expect(parseConfirmation({ status: "resident", reason: "  " })).toEqual({ ok: true, value: { status: "resident", reason: null } });
    expect(parseConfirmation({ status: "alien", reason: null })).toEqual({
      ok: false,
      errors: { status: "Choose resident, nonresident, dual-status or US citizen." },
    });
    expect(parseConfirmation({ status: "resident", reason: "x".repeat(501) })).toEqual({ ok: false, errors: { reason: "Write at most 500 characters." } });
  });
});

describe("helpers for the page and the audit trail", () => {
  it("says what a history holds in counts", () => {
    const counts = countHistory({
      people: [
        { periods: [1, 2], stays: [{ source: "i94" }, { source: "i94" }, { source: "typed" }] },
        { periods: [], stays: [{ source: "i94" }, { source: "typed" }] },
      ],
    });
    expect(counts).toEqual({ people: 2, periods: 2, stays: 5, fromI94: 3 });
    expect(countsText(counts)).toBe("2 people, 2 periods, 5 stays (3 from an I-94 paste)");
    expect(countsText({ people: 1, periods: 1, stays: 1, fromI94: 0 })).toBe("1 person, 1 period, 1 stay");
  });

  it("joins an I-94 day trip into one stay, which the checks then accept", () => {
    const reading = readI94History(
      ["2025-07-20 Departure NYC", "2025-03-02 Arrival BUF", "2025-03-02 Departure BUF", "2024-09-01 Arrival NYC"].join("\n"),
      TODAY,
    );
    const read = reading.stays.map((s) => ({ ...s, transit: false, source: "i94" as const }));
    expect(errorsOf({ people: [client({ stays: read })] })).toEqual({
      "people.0.stays.1.arrival": M.staysOverlap("2024-09-01", "2025-03-02"),
    });
    const joined = joinTouchingStays(read);
    expect(joined).toEqual([{ arrival: "2024-09-01", departure: "2025-07-20", transit: false, source: "i94" }]);
    expect(errorsOf({ people: [client({ stays: joined })] })).toEqual({});
  });
});
