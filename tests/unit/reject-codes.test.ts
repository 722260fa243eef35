import { describe, expect, it } from "vitest";
import { newYorkDay } from "~/domain/business-days";
import { describeRejectCode, normalizeRejectCode, REJECT_CODES } from "~/domain/reject-codes";
import { resendBy, resendDaysLeft, resendDaysText } from "~/domain/returns";

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
      expect(describeRejectCode(code, { deadlinePassed: false }).known).toBe(true);
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
    expect(describeRejectCode("ind-452", { deadlinePassed: false })).toMatchObject({ code: "IND-452", known: true });
  });

  it("refuses what is not a reject code", () => {
    for (const bad of ["", "IND", "IND-31-04", "IND-031-4", "IND_031_04", "031-04", "IND-031-04-01", "IND 031 04", "constructor", "__proto__"]) {
      expect(normalizeRejectCode(bad), bad).toBeNull();
    }
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
  it("ends on the 5th calendar day after the day of the rejection, across months and years", () => {
    expect(resendBy("2026-03-02")).toBe("2026-03-07");
    expect(resendBy("2026-02-26")).toBe("2026-03-03");
    expect(resendBy("2028-02-26")).toBe("2028-03-02");
    expect(resendBy("2026-12-29")).toBe("2027-01-03");
  });

  it("counts the days left from New York's today: 5 on the day of the rejection, 0 on the last day, negative after", () => {
    expect(resendDaysLeft("2026-03-02", "2026-03-02")).toBe(5);
    expect(resendDaysLeft("2026-03-02", "2026-03-06")).toBe(1);
    expect(resendDaysLeft("2026-03-02", "2026-03-07")).toBe(0);
    expect(resendDaysLeft("2026-03-02", "2026-03-08")).toBe(-1);
    // Across the spring clock change (March 8, 2026): days, not hours, are counted.
    expect(resendDaysLeft("2026-03-05", "2026-03-09")).toBe(1);
  });

  it("keeps the last day until midnight in New York, not 7 pm (midnight in UTC)", () => {
    // 7:30 pm on Saturday March 7, 2026 in New York (EST) is already March 8 in UTC.
    const evening = new Date("2026-03-08T00:30:00Z");
    expect(resendDaysText(resendDaysLeft("2026-03-02", newYorkDay(evening)))).toBe("Last day today");
    // 11:59 pm on March 7 still is; 12:00 am on March 8 is past.
    expect(resendDaysText(resendDaysLeft("2026-03-02", newYorkDay(new Date("2026-03-08T04:59:59Z"))))).toBe("Last day today");
    expect(resendDaysText(resendDaysLeft("2026-03-02", newYorkDay(new Date("2026-03-08T05:00:00Z"))))).toBe("Past the 5-day period");
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
