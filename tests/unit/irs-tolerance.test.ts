import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/domain/validation";
import { DOLLARS_MESSAGES, parseDollarsToCents, toleranceFormSchema, withinIrsTolerance } from "~/domain/irs-tolerance";

const zero = { incomeOrAgiCents: 0, taxCents: 0, withholdingCents: 0, refundOrOwedCents: 0 };

describe("withinIrsTolerance", () => {
  it("needs no new signature up to $50 of income or AGI and $14 of each other figure, either way", () => {
    expect(withinIrsTolerance(zero)).toEqual({ within: true, exceeded: [] });
    expect(
      withinIrsTolerance({ incomeOrAgiCents: 5000, taxCents: -1400, withholdingCents: 1400, refundOrOwedCents: -1400 }),
    ).toEqual({ within: true, exceeded: [] });
    expect(withinIrsTolerance({ ...zero, incomeOrAgiCents: -5000 })).toEqual({ within: true, exceeded: [] });
  });

  it("names each figure past its limit, one cent is enough", () => {
    expect(withinIrsTolerance({ ...zero, incomeOrAgiCents: 5001 })).toEqual({ within: false, exceeded: ["incomeOrAgiCents"] });
    expect(withinIrsTolerance({ ...zero, incomeOrAgiCents: -5001 })).toEqual({ within: false, exceeded: ["incomeOrAgiCents"] });
    expect(withinIrsTolerance({ ...zero, taxCents: 1401 }).exceeded).toEqual(["taxCents"]);
    expect(withinIrsTolerance({ ...zero, withholdingCents: -1401 }).exceeded).toEqual(["withholdingCents"]);
    expect(withinIrsTolerance({ ...zero, refundOrOwedCents: 1401 }).exceeded).toEqual(["refundOrOwedCents"]);
    expect(
      withinIrsTolerance({ incomeOrAgiCents: 10_000, taxCents: 2000, withholdingCents: 0, refundOrOwedCents: -2000 }),
    ).toEqual({ within: false, exceeded: ["incomeOrAgiCents", "taxCents", "refundOrOwedCents"] });
    // $14 of income is within $50; $14.01 of tax is not.
    expect(withinIrsTolerance({ ...zero, incomeOrAgiCents: 1401 }).within).toBe(true);
  });

  it("refuses amounts that are not whole cents", () => {
    expect(() => withinIrsTolerance({ ...zero, taxCents: 14.5 })).toThrow("taxCents must be a whole number of cents, not 14.5");
    expect(() => withinIrsTolerance({ ...zero, incomeOrAgiCents: Number.NaN })).toThrow(RangeError);
    expect(() => withinIrsTolerance({ ...zero, withholdingCents: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => withinIrsTolerance({ ...zero, refundOrOwedCents: 2 ** 60 })).toThrow(RangeError);
  });
});

describe("dollar amounts typed by staff", () => {
  it("reads the usual ways of writing dollars into exact cents", () => {
    const cases: [string, number][] = [
      ["12.34", 1234],
      ["$1,234.00", 123_400],
      ["-5", -500],
      ["-$0.50", -50],
      ["$-14", -1400],
      ["+50", 5000],
      [" 0.1 ", 10],
      ["0.07", 7],
      ["1,000,000.99", 100_000_099],
      ["007.10", 710],
      ["-0", 0],
      ["99,999,999,999.99", 9_999_999_999_999],
    ];
    for (const [typed, cents] of cases) expect(parseDollarsToCents(typed), typed).toEqual({ ok: true, cents });
    // Amounts that floating point gets wrong: 1.15 * 100 is 114.99999999999999, 0.29 * 100 is 28.999999999999996.
    expect(parseDollarsToCents("1.15")).toEqual({ ok: true, cents: 115 });
    expect(parseDollarsToCents("0.29")).toEqual({ ok: true, cents: 29 });
    expect(parseDollarsToCents("4.35")).toEqual({ ok: true, cents: 435 });
  });

  it("says what is wrong with anything else", () => {
    expect(parseDollarsToCents("")).toEqual({ ok: false, message: DOLLARS_MESSAGES.required });
    expect(parseDollarsToCents("   ")).toEqual({ ok: false, message: DOLLARS_MESSAGES.required });
    expect(parseDollarsToCents("1.234")).toEqual({ ok: false, message: "Use at most 2 digits after the decimal point" });
    expect(parseDollarsToCents("100,000,000,000")).toEqual({ ok: false, message: "This amount is too large" });
    for (const bad of ["abc", "1,23", "12,3456", "1e3", "12.", ".5", "$", "--5", "-$-5", "5-", "1 000", "0x10", "Infinity", "NaN", "١٢"])
      expect(parseDollarsToCents(bad), bad).toEqual({ ok: false, message: "Enter an amount in dollars, like 12.34, $1,234.00 or -5" });
  });

  it("parses the staff's form into the differences the rule takes", () => {
    const parsed = toleranceFormSchema.safeParse({ incomeOrAgi: "$50.00", tax: "-14", withholding: "0", refundOrOwed: "13.99" });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ incomeOrAgiCents: 5000, taxCents: -1400, withholdingCents: 0, refundOrOwedCents: 1399 });
    expect(withinIrsTolerance(parsed.data!)).toEqual({ within: true, exceeded: [] });
  });

  it("gives each field of the form its own message", () => {
    const parsed = toleranceFormSchema.safeParse({ incomeOrAgi: "fifty", tax: "1.999", refundOrOwed: "" });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({
      incomeOrAgi: "Enter an amount in dollars, like 12.34, $1,234.00 or -5",
      tax: "Use at most 2 digits after the decimal point",
      withholding: "Enter the difference in dollars (0 if there is none)",
      refundOrOwed: "Enter the difference in dollars (0 if there is none)",
    });
  });
});
