import { describe, expect, it } from "vitest";
import { currentFilingYear, openableYears, parseTaxYear, yearFromSearch } from "~/domain/tax-year";

describe("tax years", () => {
  const nov2026 = new Date("2026-11-23T12:00:00Z");

  it("files the year before the calendar year, all year long, New York's year", () => {
    expect(currentFilingYear(nov2026)).toBe(2025);
    // 7 pm on New Year's Eve in New York is already 2027 in UTC: the season has not turned.
    expect(currentFilingYear(new Date("2027-01-01T00:00:00Z"))).toBe(2025);
    expect(currentFilingYear(new Date("2027-01-01T04:59:59Z"))).toBe(2025);
    expect(currentFilingYear(new Date("2027-01-01T05:00:00Z"))).toBe(2026);
    expect(currentFilingYear(new Date("2026-12-31T23:59:59Z"))).toBe(2025);
  });

  it("opens the season's year and three before it", () => {
    expect(openableYears(nov2026)).toEqual([2025, 2024, 2023, 2022]);
  });

  it("reads only four-digit years the product knows", () => {
    expect(parseTaxYear("2024", nov2026)).toBe(2024);
    expect(parseTaxYear("2026", nov2026)).toBe(2026);
    for (const raw of ["2027", "2019", "24", "2024 ", "२०२४", "", undefined, 2024]) expect(parseTaxYear(raw, nov2026)).toBeNull();
  });

  it("takes the season's year from a URL that names none, and refuses one it does not know", () => {
    expect(yearFromSearch(new URLSearchParams(), nov2026)).toBe(2025);
    expect(yearFromSearch(new URLSearchParams("year=2023"), nov2026)).toBe(2023);
    expect(yearFromSearch(new URLSearchParams("year=1999"), nov2026)).toBeNull();
  });
});
