import { describe, expect, it } from "vitest";
import {
  daysLeftToResubmit,
  describeRejectCode,
  isKnownRejectCode,
  normalizeRejectCode,
  REJECT_CODE_FORMAT_MESSAGE,
  REJECT_CODES,
  rejectCodeSchema,
  resubmissionDeadline,
  resubmissionDeadlinePassed,
} from "~/domain/reject-codes";
import { resendDaysText } from "~/domain/returns";

const REQUIRED = {
  "IND-031-04": "taxpayer",
  "IND-032-04": "spouse",
  "IND-180-01": "taxpayer",
  "IND-181-01": "taxpayer",
  "IND-182-01": "spouse",
  "IND-183-01": "spouse",
  "IND-452": "taxpayer",
  "IND-507": "dependent",
  "IND-524": "taxpayer",
  "IND-996": "dependent",
  "R0000-500-01": "taxpayer",
  "R0000-503-02": "spouse",
  "R0000-504-02": "dependent",
  "F1040-526-03": "spouse",
  "FW2-502": "employer",
} as const;

describe("the reject code catalogue", () => {
  it("explains each common individual reject code, and says whose details it concerns", () => {
    for (const [code, concerns] of Object.entries(REQUIRED)) {
      const entry = REJECT_CODES[code];
      expect(entry, code).toBeDefined();
      expect(entry?.code).toBe(code);
      expect(entry?.concerns, code).toBe(concerns);
      expect(isKnownRejectCode(code)).toBe(true);
    }
  });

  it("writes each explanation and both kinds of advice in short sentences, and never the same advice twice", () => {
    for (const entry of Object.values(REJECT_CODES)) {
      for (const text of [entry.title, entry.explanation, entry.beforeDeadline, entry.afterDeadline]) {
        expect(text.trim(), entry.code).not.toBe("");
        // Plain English for an international reader: no sentence longer than 40 words.
        for (const sentence of text.split(/(?<=[.:])\s+/)) expect(sentence.split(/\s+/).length, `${entry.code}: ${sentence}`).toBeLessThanOrEqual(40);
      }
      expect(entry.beforeDeadline).not.toBe(entry.afterDeadline);
      expect(entry.beforeDeadline).toContain("we have 5 days from the rejection to send the return again");
      expect(entry.afterDeadline).toContain("The 5 days the IRS gives to correct a rejected return");
      expect(entry.afterDeadline).toContain("penalty and interest for filing late may apply");
    }
  });

  it("explains the terms a client may not know where they are used", () => {
    expect(REJECT_CODES["IND-031-04"]?.explanation).toContain("AGI (adjusted gross income)");
    expect(REJECT_CODES["IND-180-01"]?.explanation).toContain("An IP PIN (Identity Protection PIN) is a 6-digit number");
    expect(REJECT_CODES["IND-452"]?.explanation).toContain("ITIN: the tax number for people who cannot get an SSN");
    expect(REJECT_CODES["FW2-502"]?.explanation).toContain("EIN (the employer's tax number)");
  });

  it("cannot be changed at run time", () => {
    expect(Object.isFrozen(REJECT_CODES)).toBe(true);
    expect(Object.isFrozen(REJECT_CODES["IND-452"])).toBe(true);
  });
});

describe("reject code format", () => {
  it("accepts codes as the IRS writes them, in any case and with spaces around", () => {
    expect(normalizeRejectCode(" ind-031-04 ")).toBe("IND-031-04");
    expect(normalizeRejectCode("FW2-502")).toBe("FW2-502");
    expect(normalizeRejectCode("R0000-500-01")).toBe("R0000-500-01");
    expect(normalizeRejectCode("F8962-070")).toBe("F8962-070");
    expect(isKnownRejectCode("ind-452")).toBe(true);
  });

  it("refuses what is not a reject code", () => {
    for (const bad of ["", "IND", "IND-31-04", "IND-031-4", "IND_031_04", "031-04", "IND-031-04-01", "IND 031 04", "constructor", "__proto__"]) {
      expect(normalizeRejectCode(bad), bad).toBeNull();
      expect(isKnownRejectCode(bad), bad).toBe(false);
    }
    const parsed = rejectCodeSchema.safeParse("IND031");
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(REJECT_CODE_FORMAT_MESSAGE);
    expect(rejectCodeSchema.safeParse(12).error?.issues[0]?.message).toBe(REJECT_CODE_FORMAT_MESSAGE);
    expect(rejectCodeSchema.parse(" fw2-502")).toBe("FW2-502");
    expect(() => describeRejectCode("not a code", { deadlinePassed: false })).toThrow(RangeError);
  });
});

describe("describeRejectCode", () => {
  it("gives the advice for before or after the deadline", () => {
    const before = describeRejectCode("ind-180-01", { deadlinePassed: false });
    expect(before).toEqual({
      code: "IND-180-01",
      known: true,
      concerns: "taxpayer",
      title: "Your IP PIN did not match",
      explanation: REJECT_CODES["IND-180-01"]?.explanation,
      whatToDo: REJECT_CODES["IND-180-01"]?.beforeDeadline,
    });
    expect(describeRejectCode("IND-180-01", { deadlinePassed: true }).whatToDo).toBe(REJECT_CODES["IND-180-01"]?.afterDeadline);
  });

  it("gives a general explanation for a code the catalogue does not hold", () => {
    const unknown = describeRejectCode("F8962-070", { deadlinePassed: false });
    expect(unknown).toEqual({
      code: "F8962-070",
      known: false,
      concerns: null,
      title: "The IRS could not accept the return",
      explanation:
        "The IRS checks every return it receives against its records. Something on your return did not pass one of these checks. We are looking at what the IRS found and will tell you what it means.",
      whatToDo: "You do not need to do anything yet. If we need a document or an answer from you, we will ask you in your portal.",
    });
    expect(describeRejectCode("F8962-070", { deadlinePassed: true }).whatToDo).toMatch(
      /^The 5 days the IRS gives .* You do not need to do anything yet\. .* penalty and interest for filing late may apply/,
    );
  });
});

describe("the 5-day resubmission deadline, on New York's calendar", () => {
  it("ends at midnight New York time at the end of the 5th day after the rejection", () => {
    // Rejected Monday March 2, 2026 at 10:00 in New York (EST, UTC-5).
    const rejectedAt = new Date("2026-03-02T15:00:00Z");
    expect(resubmissionDeadline(rejectedAt).toISOString()).toBe("2026-03-08T04:59:59.999Z");
    // Rejected on March 3: the last day, Sunday March 8, is the day clocks change to summer time (EDT, UTC-4).
    expect(resubmissionDeadline(new Date("2026-03-03T15:00:00Z")).toISOString()).toBe("2026-03-09T03:59:59.999Z");
  });

  it("counts a rejection late in the evening in New York on New York's day, not UTC's", () => {
    // 23:30 in New York on April 20 is already April 21 in UTC.
    const rejectedAt = new Date("2026-04-21T03:30:00Z");
    expect(resubmissionDeadline(rejectedAt).toISOString()).toBe("2026-04-26T03:59:59.999Z");
  });

  it("counts the days left, 0 on the last day and after it", () => {
    const rejectedAt = new Date("2026-03-02T15:00:00Z");
    expect(daysLeftToResubmit(rejectedAt, rejectedAt)).toBe(5);
    expect(daysLeftToResubmit(rejectedAt, new Date("2026-03-03T04:59:00Z"))).toBe(5); // 23:59 March 2 in New York
    expect(daysLeftToResubmit(rejectedAt, new Date("2026-03-03T05:00:00Z"))).toBe(4);
    expect(daysLeftToResubmit(rejectedAt, new Date("2026-03-07T12:00:00Z"))).toBe(0);
    expect(resubmissionDeadlinePassed(rejectedAt, new Date("2026-03-08T04:59:59.999Z"))).toBe(false);
    expect(resubmissionDeadlinePassed(rejectedAt, new Date("2026-03-08T05:00:00Z"))).toBe(true);
    expect(daysLeftToResubmit(rejectedAt, new Date("2026-03-20T12:00:00Z"))).toBe(0);
  });
});

describe("the days left to send a rejected return again, as staff read them", () => {
  it("counts the days down to the last day, then says the period has passed", () => {
    expect([5, 2, 1, 0, -1, -30].map(resendDaysText)).toEqual([
      "5 days left to send again",
      "2 days left to send again",
      "1 day left to send again",
      "Last day today",
      "Past the 5-day period",
      "Past the 5-day period",
    ]);
  });
});
