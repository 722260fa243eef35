import { describe, expect, it } from "vitest";
import { I94_MAX_LINES, I94_MESSAGES, readI94History } from "~/domain/residency/i94";
import type { I94Reading } from "~/domain/residency/i94";

// A client copies the table from the CBP I-94 site's "Get Travel History" result (Row, Date,
// Type, Location; newest first) and pastes it. The firm's today in these tests:
const TODAY = "2026-03-15";

const read = (text: string) => readI94History(text, TODAY);
const lines = (...rows: string[]) => rows.join("\n");

/** Stays as "arrival..departure" ("open" when the stay has no departure yet), oldest first. */
const stays = (reading: I94Reading) => reading.stays.map((s) => `${s.arrival}..${s.departure ?? "open"}`);
/** Events as "date kind port @line", oldest first. */
const events = (reading: I94Reading) => reading.events.map((e) => `${e.date} ${e.kind} ${e.port} @${e.line}`);

// The history reaches back ten years: it begins with the departure that ended a stay whose arrival
// is older than the history.
const TAB_PASTE = lines(
  "Row\tDate\tType\tLocation",
  "1\t2024-01-08\tArrival\tNYC",
  "2\t2023-12-15\tDeparture\tNYC",
  "3\t2022-08-20\tArrival\tSFR",
  "4\t2022-05-18\tDeparture\tSFR",
  "5\t2021-08-15\tArrival\tCHI",
  "6\t2021-05-20\tDeparture\tLOS",
);

const EXPECTED_EVENTS = [
  "2021-05-20 departure LOS @7",
  "2021-08-15 arrival CHI @6",
  "2022-05-18 departure SFR @5",
  "2022-08-20 arrival SFR @4",
  "2023-12-15 departure NYC @3",
  "2024-01-08 arrival NYC @2",
];
const EXPECTED_STAYS = ["2021-08-15..2022-05-18", "2022-08-20..2023-12-15", "2024-01-08..open"];
const FIRST_DEPARTURE_WARNING = {
  line: 7,
  text: "6\t2021-05-20\tDeparture\tLOS",
  message: I94_MESSAGES.startsWithDeparture(7, "2021-05-20"),
};

describe("reading the I-94 travel history table", () => {
  it("reads a tab-separated paste, newest first, into events and stays oldest first, the last one open", () => {
    const reading = read(TAB_PASTE);
    expect(events(reading)).toEqual(EXPECTED_EVENTS);
    expect(reading.stays).toEqual([
      { arrival: "2021-08-15", departure: "2022-05-18" },
      { arrival: "2022-08-20", departure: "2023-12-15" },
      { arrival: "2024-01-08", departure: null },
    ]);
    expect(reading.unread).toEqual([]);
    expect(reading.warnings).toEqual([FIRST_DEPARTURE_WARNING]);
    expect(FIRST_DEPARTURE_WARNING.message).toBe(
      "Line 7: your history begins with a departure on 2021-05-20. Your arrival before it is older than the history shows, so we did not count that stay. Tell us when you arrived.",
    );
  });

  it("reads the same table space-separated, with MM/DD/YYYY and M/D/YYYY dates and the type in any case", () => {
    const reading = read(
      lines(
        "Row  Date  Type  Location",
        "1  01/08/2024  ARRIVAL  NYC",
        "2  12/15/2023  departure  NYC",
        "3  8/20/2022  Arrival  SFR",
        "4  5/18/2022  Departure  SFR",
        "5  08/15/2021  arrival  CHI",
        "6  05/20/2021  DEPARTURE  LOS",
      ),
    );
    expect(events(reading)).toEqual(EXPECTED_EVENTS);
    expect(stays(reading)).toEqual(EXPECTED_STAYS);
    expect(reading.unread).toEqual([]);
    expect(reading.warnings.map((w) => w.message)).toEqual([FIRST_DEPARTURE_WARNING.message]);
  });

  it("reads the same events in the oldest-first order, with A and D for the type and port names of several words", () => {
    const reading = read(
      lines(
        "2021-05-20 D Los Angeles",
        "2021-08-15 a Chicago O'Hare",
        "2022-05-18 d San Francisco",
        "2022-08-20 A San Francisco",
        "2023-12-15 D New York",
        "2024-01-08 A New York",
      ),
    );
    expect(events(reading)).toEqual([
      "2021-05-20 departure Los Angeles @1",
      "2021-08-15 arrival Chicago O'Hare @2",
      "2022-05-18 departure San Francisco @3",
      "2022-08-20 arrival San Francisco @4",
      "2023-12-15 departure New York @5",
      "2024-01-08 arrival New York @6",
    ]);
    expect(stays(reading)).toEqual(EXPECTED_STAYS);
    expect(reading.warnings.map((w) => w.line)).toEqual([1]);
  });

  it("skips blank lines and the header, and ignores a row number written last", () => {
    const reading = read(
      lines(
        "",
        "Date\tType\tLocation\tRow",
        "2025-08-14\tArrival\tNYC\t1",
        "   ",
        "2025-05-30\tDeparture\tNYC\t2",
        "\t",
        "2024-08-16\tArrival\tBOS\t3",
        "",
        "",
      ),
    );
    expect(events(reading)).toEqual([
      "2024-08-16 arrival BOS @7",
      "2025-05-30 departure NYC @5",
      "2025-08-14 arrival NYC @3",
    ]);
    expect(stays(reading)).toEqual(["2024-08-16..2025-05-30", "2025-08-14..open"]);
    expect(reading.unread).toEqual([]);
    expect(reading.warnings).toEqual([]);
  });

  it("names a line it cannot read by its number and reads the rest", () => {
    const reading = read(
      lines(
        "Row\tDate\tType\tLocation",
        "1\t2025-08-14\tArrival\tNYC",
        "Print this page",
        "2\t2025-05-30\tNYC",
        "3\t14.08.2024\tArrival\tBOS",
        "4\t2024-08-16\tArrival\tBOS",
      ),
    );
    expect(reading.unread).toEqual([
      { line: 3, text: "Print this page", message: I94_MESSAGES.noDate(3) },
      { line: 4, text: "2\t2025-05-30\tNYC", message: I94_MESSAGES.noType(4) },
      { line: 5, text: "3\t14.08.2024\tArrival\tBOS", message: I94_MESSAGES.unreadableDate(5) },
    ]);
    expect(I94_MESSAGES.unreadableDate(5)).toBe(
      "Line 5: we could not read a date. Write it as 2025-08-14 or 08/14/2025.",
    );
    expect(I94_MESSAGES.noType(4)).toBe(
      "Line 4: we could not tell whether this is an arrival or a departure. Write Arrival or Departure beside the date.",
    );
    expect(events(reading)).toEqual(["2024-08-16 arrival BOS @6", "2025-08-14 arrival NYC @2"]);
  });

  it("rejects a date that is not a real calendar day", () => {
    const reading = read(
      lines(
        "1\t2025-02-30\tArrival\tNYC",
        "2\t02/29/2025\tDeparture\tNYC",
        "3\t14/08/2024\tArrival\tNYC",
        "4\t2024-02-29\tArrival\tNYC",
        "5\t2024-13-01\tDeparture\tNYC",
      ),
    );
    expect(reading.unread).toEqual([
      {
        line: 1,
        text: "1\t2025-02-30\tArrival\tNYC",
        message: "Line 1: 2025-02-30 is not a real date. Check the month and the day.",
      },
      {
        line: 2,
        text: "2\t02/29/2025\tDeparture\tNYC",
        message:
          "Line 2: 02/29/2025 is not a real date. Check the month and the day (the month comes first, as in 08/14/2025).",
      },
      { line: 3, text: "3\t14/08/2024\tArrival\tNYC", message: I94_MESSAGES.notRealDate(3, "14/08/2024") },
      { line: 5, text: "5\t2024-13-01\tDeparture\tNYC", message: I94_MESSAGES.notRealDate(5, "2024-13-01") },
    ]);
    // 2024 is a leap year: February 29 is real.
    expect(events(reading)).toEqual(["2024-02-29 arrival NYC @4"]);
    expect(stays(reading)).toEqual(["2024-02-29..open"]);
  });

  it("rejects a date after today and one before 1950, and takes today itself", () => {
    const reading = read(
      lines(
        "2026-03-16 Departure NYC",
        "03/15/2026 Departure NYC",
        "1949-12-31 Arrival NYC",
        "1950-01-01 Arrival NYC",
      ),
    );
    expect(reading.unread).toEqual([
      {
        line: 1,
        text: "2026-03-16 Departure NYC",
        message: "Line 1: 2026-03-16 is in the future. Check the date.",
      },
      {
        line: 3,
        text: "1949-12-31 Arrival NYC",
        message: "Line 3: 1949-12-31 is before 1950. Check the year.",
      },
    ]);
    expect(stays(reading)).toEqual(["1950-01-01..2026-03-15"]);
  });

  it("warns about two arrivals in a row on the second arrival's line, and counts no stay for the first", () => {
    const reading = read(
      lines(
        "Row\tDate\tType\tLocation",
        "1\t2025-06-01\tDeparture\tNYC",
        "2\t2024-09-01\tArrival\tNYC",
        "3\t2023-08-20\tArrival\tSFR",
      ),
    );
    expect(stays(reading)).toEqual(["2024-09-01..2025-06-01"]);
    expect(reading.warnings).toEqual([
      {
        line: 3,
        text: "2\t2024-09-01\tArrival\tNYC",
        message:
          "Line 3: two arrivals in a row, on 2023-08-20 and 2024-09-01. The departure between them is missing, so we did not count the stay that began on 2023-08-20. Tell us when you left the US.",
      },
    ]);
    expect(reading.unread).toEqual([]);
  });

  it("warns when the history starts with a departure, and counts no stay for it", () => {
    const reading = read(lines("2025-01-10 Arrival SEA", "2024-12-20 Departure SEA"));
    expect(stays(reading)).toEqual(["2025-01-10..open"]);
    expect(reading.warnings).toEqual([
      {
        line: 2,
        text: "2024-12-20 Departure SEA",
        message: I94_MESSAGES.startsWithDeparture(2, "2024-12-20"),
      },
    ]);
  });

  it("warns about two departures in a row on the second departure's line", () => {
    const reading = read(
      lines("2025-05-01 Departure NYC", "2024-12-20 Departure NYC", "2024-01-05 Arrival NYC"),
    );
    expect(stays(reading)).toEqual(["2024-01-05..2024-12-20"]);
    expect(reading.warnings).toEqual([
      {
        line: 1,
        text: "2025-05-01 Departure NYC",
        message:
          "Line 1: two departures in a row, on 2024-12-20 and 2025-05-01. The arrival between them is missing, so we did not count the stay that ended on 2025-05-01. Tell us when you arrived.",
      },
    ]);
  });

  it("reads a history with no events as empty", () => {
    expect(read("")).toEqual({ events: [], stays: [], unread: [], warnings: [] });
    expect(read("Row\tDate\tType\tLocation\n\n")).toEqual({
      events: [],
      stays: [],
      unread: [],
      warnings: [],
    });
  });
});

describe("events on the same day", () => {
  it("makes an arrival and a departure on the same day a one-day stay when the person was outside the US", () => {
    // Newest first, as the site lists them: the departure is above the arrival, or below it.
    for (const pasted of [
      lines(
        "2025-03-02 Departure BUF",
        "2025-03-02 Arrival BUF",
        "2024-12-01 Departure NYC",
        "2024-09-01 Arrival NYC",
      ),
      lines(
        "2025-03-02 Arrival BUF",
        "2025-03-02 Departure BUF",
        "2024-12-01 Departure NYC",
        "2024-09-01 Arrival NYC",
      ),
    ]) {
      const reading = read(pasted);
      expect(stays(reading)).toEqual(["2024-09-01..2024-12-01", "2025-03-02..2025-03-02"]);
      expect(reading.warnings).toEqual([]);
    }
  });

  it("makes a departure and an arrival on the same day a day trip when the person was in the US", () => {
    for (const pasted of [
      lines(
        "2025-07-20 Departure NYC",
        "2025-03-02 Arrival BUF",
        "2025-03-02 Departure BUF",
        "2024-09-01 Arrival NYC",
      ),
      lines(
        "2025-07-20 Departure NYC",
        "2025-03-02 Departure BUF",
        "2025-03-02 Arrival BUF",
        "2024-09-01 Arrival NYC",
      ),
    ]) {
      const reading = read(pasted);
      expect(stays(reading)).toEqual(["2024-09-01..2025-03-02", "2025-03-02..2025-07-20"]);
      expect(reading.warnings).toEqual([]);
    }
  });

  it("on the history's first day, ends the day with an arrival when a departure comes next", () => {
    const reading = read(
      lines("2025-07-20 Departure NYC", "2025-03-02 Arrival BUF", "2025-03-02 Departure BUF"),
    );
    expect(events(reading)).toEqual([
      "2025-03-02 departure BUF @3",
      "2025-03-02 arrival BUF @2",
      "2025-07-20 departure NYC @1",
    ]);
    expect(stays(reading)).toEqual(["2025-03-02..2025-07-20"]);
    expect(reading.warnings.map((w) => w.message)).toEqual([
      I94_MESSAGES.startsWithDeparture(3, "2025-03-02"),
    ]);
  });
});

describe("what the client's paste may repeat and how much may be pasted", () => {
  it("repeats at most 80 characters of a line", () => {
    const long = `Please note: ${"x".repeat(200)}`;
    const port = `NYC ${"y".repeat(200)}`;
    const reading = read(lines(long, `2025-08-14 Arrival ${port}`));
    expect(reading.unread).toEqual([
      { line: 1, text: `${long.slice(0, 80)}…`, message: I94_MESSAGES.noDate(1) },
    ]);
    expect(reading.events.map((e) => e.port)).toEqual([`${port.slice(0, 80)}…`]);
    expect(I94_MESSAGES.notRealDate(1, "z".repeat(100))).toBe(
      `Line 1: ${"z".repeat(80)}… is not a real date. Check the month and the day.`,
    );
  });

  it("reads a paste of 500 lines and nothing of a longer one", () => {
    const row = (i: number) => `${i}\t2025-08-14\tArrival\tNYC`;
    const full = Array.from({ length: I94_MAX_LINES }, (_, i) => row(i + 1));
    expect(I94_MAX_LINES).toBe(500);
    expect(read(`${full.join("\n")}\n\n`).events).toHaveLength(500);

    const tooLong = [...full, row(501), "2025-01-01\tDeparture\tNYC"];
    expect(read(tooLong.join("\n"))).toEqual({
      events: [],
      stays: [],
      unread: [
        {
          line: 501,
          text: "501\t2025-08-14\tArrival\tNYC",
          message:
            "Your paste has 502 lines, more than the 500 we can read, so we did not read it. Paste only the table of arrivals and departures.",
        },
      ],
      warnings: [],
    });
  });
});
