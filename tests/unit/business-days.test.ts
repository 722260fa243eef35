import { describe, expect, it } from "vitest";
import {
  addDays,
  businessDaysBetween,
  businessMsBetween,
  calendarDay,
  daysBetween,
  federalHolidays,
  isBusinessDay,
  isRealDay,
  newYorkDay,
  waitedTooLong,
  waitingCutoff,
} from "~/domain/business-days";
import { atMoment } from "../helpers/clock";

// "Waited more than 2 business days" is counted on New York's clock, on weekdays that are not
// US federal holidays (on their observed dates). Every moment below is written in UTC, with New
// York's time beside it.

const at = (iso: string) => new Date(iso);
const HOUR = 60 * 60 * 1000;

describe("the firm's today: New York's calendar day", () => {
  it("is still yesterday in New York from 7 or 8 pm, when UTC's day has turned", () => {
    expect(newYorkDay(at("2026-01-31T02:30:00Z"))).toBe("2026-01-30"); // 9:30 pm EST
    expect(newYorkDay(at("2026-02-01T02:00:00Z"))).toBe("2026-01-31"); // 9 pm EST on January 31
    expect(newYorkDay(at("2026-02-01T04:59:59Z"))).toBe("2026-01-31");
    expect(newYorkDay(at("2026-02-01T05:00:00Z"))).toBe("2026-02-01"); // midnight EST
    expect(newYorkDay(at("2026-07-01T03:59:59Z"))).toBe("2026-06-30"); // 11:59:59 pm EDT
    expect(newYorkDay(at("2026-07-01T04:00:00Z"))).toBe("2026-07-01");
    expect(newYorkDay(at("2026-12-31T23:30:00Z"))).toBe("2026-12-31"); // 6:30 pm on New Year's Eve
    expect(newYorkDay(at("2027-01-01T04:30:00Z"))).toBe("2026-12-31");
  });

  it("keeps the day across the clock changes, which happen at 2 am on a Sunday", () => {
    // March 8, 2026: 1:59 am EST, then 3:00 am EDT.
    expect(newYorkDay(at("2026-03-08T06:59:00Z"))).toBe("2026-03-08");
    expect(newYorkDay(at("2026-03-08T07:00:00Z"))).toBe("2026-03-08");
    expect(newYorkDay(at("2026-03-09T03:59:59Z"))).toBe("2026-03-08"); // 11:59:59 pm EDT
    expect(newYorkDay(at("2026-03-08T04:59:59Z"))).toBe("2026-03-07"); // 11:59:59 pm EST the night before
    // November 1, 2026: 1:59 am EDT, then 1:00 am EST again.
    expect(newYorkDay(at("2026-11-01T03:59:59Z"))).toBe("2026-10-31");
    expect(newYorkDay(at("2026-11-01T04:00:00Z"))).toBe("2026-11-01");
    expect(newYorkDay(at("2026-11-02T04:59:59Z"))).toBe("2026-11-01"); // 11:59:59 pm EST
    expect(newYorkDay(at("2026-11-02T05:00:00Z"))).toBe("2026-11-02");
  });

  it("is now's when no moment is given", async () => {
    expect(await atMoment("2026-01-31T02:30:00Z", () => newYorkDay())).toBe("2026-01-30");
  });
});

describe("days written YYYY-MM-DD", () => {
  it("knows the real ones", () => {
    for (const good of ["2026-01-31", "2028-02-29", "2000-02-29", "1900-01-01", "0050-06-15", "9999-12-31"]) expect(isRealDay(good), good).toBe(true);
    for (const bad of ["2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-31", "26-01-31", "2026-01-31T00:00", " 2026-01-31", ""])
      expect(isRealDay(bad), bad).toBe(false);
  });

  it("adds and counts calendar days across months, leap days, years and clock changes", () => {
    expect(addDays("2026-01-31", 1)).toBe("2026-02-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-29", 5)).toBe("2027-01-03");
    expect(addDays("2026-03-03", -3)).toBe("2026-02-28");
    expect(addDays("2026-03-07", 2)).toBe("2026-03-09");
    expect(daysBetween("2026-03-07", "2026-03-09")).toBe(2);
    expect(daysBetween("2026-03-09", "2026-03-07")).toBe(-2);
    expect(daysBetween("2026-12-29", "2027-01-03")).toBe(5);
    expect(daysBetween("2026-05-05", "2026-05-05")).toBe(0);
    expect(calendarDay(2026, 4, 31)).toBe("2026-05-01");
    expect(calendarDay(2026, 3, 0)).toBe("2026-02-28");
  });
});

describe("US federal holidays, on their observed dates", () => {
  it("lists 2026's eleven, Independence Day kept on Friday July 3", () => {
    expect(federalHolidays(2026)).toEqual([
      "2026-01-01",
      "2026-01-19",
      "2026-02-16",
      "2026-05-25",
      "2026-06-19",
      "2026-07-03",
      "2026-09-07",
      "2026-10-12",
      "2026-11-11",
      "2026-11-26",
      "2026-12-25",
    ]);
  });

  it("keeps a Saturday holiday on the Friday before and a Sunday one on the Monday after, across the new year", () => {
    // Juneteenth and Christmas 2021 fell on Saturdays; New Year's Day 2022 too, kept on December 31, 2021.
    const y2021 = federalHolidays(2021);
    expect(y2021).toContain("2021-06-18");
    expect(y2021).toContain("2021-12-24");
    expect(y2021).toContain("2021-12-31");
    expect(y2021).toContain("2021-01-01");
    // 2022 has no New Year's Day of its own; Christmas 2022 (a Sunday) is kept on Monday the 26th.
    const y2022 = federalHolidays(2022);
    expect(y2022.filter((d) => d.startsWith("2022-01-0"))).toEqual([]);
    expect(y2022).toContain("2022-12-26");
    expect(y2022).toHaveLength(10);
    // New Year's Day 2023, a Sunday, is kept on Monday January 2.
    expect(federalHolidays(2023)[0]).toBe("2023-01-02");
    // Juneteenth became a federal holiday in 2021.
    expect(federalHolidays(2020)).not.toContain("2020-06-19");
    expect(federalHolidays(2020)).toHaveLength(10);
  });

  it("knows weekends and holidays from business days", () => {
    expect(isBusinessDay("2026-03-06")).toBe(true); // Friday
    expect(isBusinessDay("2026-03-07")).toBe(false); // Saturday
    expect(isBusinessDay("2026-03-08")).toBe(false); // Sunday
    expect(isBusinessDay("2026-07-03")).toBe(false); // Independence Day, observed
    expect(isBusinessDay("2026-07-04")).toBe(false); // the day itself, a Saturday
    expect(isBusinessDay("2026-07-06")).toBe(true);
    expect(isBusinessDay("2026-11-26")).toBe(false); // Thanksgiving
    expect(isBusinessDay("2026-11-27")).toBe(true); // the Friday after is a working day
    expect(isBusinessDay("2021-12-31")).toBe(false);
  });
});

describe("waiting more than 2 business days", () => {
  /** Not yet at `deadline`, and more than 2 business days one millisecond after it. */
  function expectDeadline(since: string, deadline: string, cutoff = since) {
    const s = at(since);
    const d = at(deadline);
    expect(waitedTooLong(s, d), `${since} at ${deadline}`).toBe(false);
    expect(waitedTooLong(s, new Date(d.getTime() + 1)), `${since} just after ${deadline}`).toBe(true);
    // At the deadline, the database's cutoff lets through exactly the messages sent before `since`
    // (for one sent on a day off: before the end of the last business day).
    expect(waitingCutoff(d).toISOString()).toBe(at(cutoff).toISOString());
  }

  it("counts two whole weekdays", () => {
    // Monday March 2, 2026, 10:00 EST: until Wednesday 10:00 EST.
    expectDeadline("2026-03-02T15:00:00Z", "2026-03-04T15:00:00Z");
  });

  it("does not count the weekend, and keeps New York's clock across the change to summer time", () => {
    // Friday March 6, 2026, 15:00 EST; clocks go forward on Sunday March 8. Until Tuesday March
    // 10, 15:00 EDT: 19:00 UTC, not 20:00.
    expectDeadline("2026-03-06T20:00:00Z", "2026-03-10T19:00:00Z");
    // And back in the autumn: Friday October 30, 2026, 16:00 EDT; clocks go back on November 1.
    // Until Tuesday November 3, 16:00 EST: 21:00 UTC.
    expectDeadline("2026-10-30T20:00:00Z", "2026-11-03T21:00:00Z");
  });

  it("starts a message sent on a weekend at the next business day", () => {
    // Saturday March 7, 2026, noon: Monday and Tuesday count, until Wednesday 00:00 EDT. At that
    // moment, everything sent before Friday's end (Saturday 00:00 EST) has waited longer.
    expectDeadline("2026-03-07T17:00:00Z", "2026-03-11T04:00:00Z", "2026-03-07T05:00:00Z");
    // Sunday 23:59 waits the same as Saturday; Friday 23:59 one minute more.
    expect(waitedTooLong(at("2026-03-09T03:59:00Z"), at("2026-03-11T04:00:00Z"))).toBe(false);
    expect(waitedTooLong(at("2026-03-07T04:59:00Z"), at("2026-03-11T04:00:00Z"))).toBe(true);
    expect(waitedTooLong(at("2026-03-09T03:59:00Z"), at("2026-03-11T04:00:00.001Z"))).toBe(true);
  });

  it("skips federal holidays, on their observed dates, across a new year", () => {
    // Wednesday before Thanksgiving 2026, 10:00 EST: Thursday is a holiday, then Friday and Monday.
    expectDeadline("2026-11-25T15:00:00Z", "2026-11-30T15:00:00Z");
    // Thursday July 2, 2026, 09:00 EDT: Friday July 3 is Independence Day observed.
    expectDeadline("2026-07-02T13:00:00Z", "2026-07-07T13:00:00Z");
    // Thursday December 30, 2021, noon: Friday the 31st is New Year's Day 2022 observed.
    expectDeadline("2021-12-30T17:00:00Z", "2022-01-04T17:00:00Z");
  });

  it("reads the day in New York, not in UTC", () => {
    // Friday February 27, 2026, 23:30 EST is already Saturday in UTC. In New York, half an hour
    // of Friday counts: until Tuesday March 3, 23:30 EST (in UTC it would be Wednesday 00:00).
    expectDeadline("2026-02-28T04:30:00Z", "2026-03-04T04:30:00Z");
  });

  it("counts whole business days waited", () => {
    expect(businessDaysBetween(at("2026-03-02T15:00:00Z"), at("2026-03-02T20:00:00Z"))).toBe(0);
    expect(businessDaysBetween(at("2026-03-06T20:00:00Z"), at("2026-03-13T20:00:00Z"))).toBe(5);
    // Thanksgiving week: the Thursday does not count.
    expect(businessDaysBetween(at("2026-11-23T15:00:00Z"), at("2026-11-30T15:00:00Z"))).toBe(4);
    // Saturday to Sunday: nothing.
    expect(businessMsBetween(at("2026-03-07T15:00:00Z"), at("2026-03-08T23:00:00Z"))).toBe(0);
    // Within one business day, the hours between.
    expect(businessMsBetween(at("2026-03-02T15:00:00Z"), at("2026-03-02T18:00:00Z"))).toBe(3 * HOUR);
    // Backwards is no time at all.
    expect(businessMsBetween(at("2026-03-04T15:00:00Z"), at("2026-03-02T15:00:00Z"))).toBe(0);
  });

  it("agrees with the database's cutoff for any pair of moments", () => {
    // A fixed pseudo-random walk over six years, so a failure can be reproduced.
    let seed = 20260304;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const start = Date.UTC(2020, 0, 1);
    const span = Date.UTC(2026, 11, 31) - start;
    for (let i = 0; i < 1500; i++) {
      const now = new Date(start + Math.floor(next() * span));
      const since = new Date(now.getTime() - Math.floor(next() * 12 * 24 * HOUR));
      const cutoff = waitingCutoff(now);
      expect(waitedTooLong(since, now), `${since.toISOString()} at ${now.toISOString()}`).toBe(
        since.getTime() < cutoff.getTime(),
      );
      // Right at the cutoff: exactly two business days, not more; a moment earlier, more.
      expect(waitedTooLong(cutoff, now)).toBe(false);
      expect(waitedTooLong(new Date(cutoff.getTime() - 1), now)).toBe(true);
    }
  });

  it("agrees with the database's cutoff at every midnight of a year in New York, where days off meet business days", () => {
    const hourInNewYork = (t: number) =>
      Number(new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "numeric", hourCycle: "h23" }).format(t));
    for (let day = 0; day < 366; day++) {
      const utcMidnight = Date.UTC(2026, 0, 1 + day);
      const now = [4, 5].map((h) => utcMidnight + h * HOUR).find((t) => hourInNewYork(t) === 0)!;
      const cutoff = waitingCutoff(new Date(now));
      expect(waitedTooLong(cutoff, new Date(now)), new Date(now).toISOString()).toBe(false);
      expect(waitedTooLong(new Date(cutoff.getTime() - 1), new Date(now)), new Date(now).toISOString()).toBe(true);
      for (const back of [1, 30, 47, 48, 49, 60, 72, 95, 96, 97, 120]) {
        const since = new Date(now - back * HOUR);
        expect(waitedTooLong(since, new Date(now))).toBe(since.getTime() < cutoff.getTime());
      }
    }
  });
});
