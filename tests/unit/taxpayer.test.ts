import { describe, expect, it } from "vitest";
import {
  emptyTaxpayerValues,
  filingStatusOf,
  FILING_STATUSES,
  formatSsnInput,
  formatUsDate,
  maskSsn,
  TIME_ZONES,
  validateTaxpayer,
  VISA_TYPES,
} from "~/domain/taxpayer";
import { atMoment } from "../helpers/clock";

const valid = {
  ...emptyTaxpayerValues,
  name_as_per_ssn: "Meera",
  last_name: "Iyer",
  ssn_tin: "912-70-1234",
  date_of_birth: "1994-02-28",
  occupation: "Research Scholar",
  filing_status: "Single",
  first_entry_date_usa: "2019-08-15",
  visa_type: "F1-OPT",
  primary_contact: "98765 43210",
  city: "Chennai",
  state: "Tamil Nadu",
  zipcode: "600 001",
  current_mailing_address: "12 Beach Road, Mylapore",
};
const errorsOf = (v: Record<string, string>) => {
  const r = validateTaxpayer(v);
  return r.ok ? {} : r.errors;
};

describe("option lists and defaults (docs/product/taxpayer-information.md#options-and-defaults)", () => {
  it("has the documented lists", () => {
    expect(TIME_ZONES).toEqual(["IST", "EST", "PST", "MST", "CST"]);
    expect(FILING_STATUSES).toEqual(["Single", "Married Filing Jointly", "Married Filing Separately", "Head of Household", "Qualifying Surviving Spouse"]);
    expect(VISA_TYPES).toHaveLength(17);
    expect(VISA_TYPES[0]).toBe("B1");
    expect(VISA_TYPES.at(-1)).toBe("Not Available");
    expect(emptyTaxpayerValues).toMatchObject({ time_zone: "IST", primary_country_code: "+91", secondary_country_code: "+91", filing_status: "", visa_type: "" });
  });
});

describe("taxpayer schema", () => {
  it("accepts a complete record", () => {
    expect(validateTaxpayer(valid).ok).toBe(true);
  });
  it("requires every required field with its own message", () => {
    const errors = errorsOf(emptyTaxpayerValues);
    expect(errors).toMatchObject({
      name_as_per_ssn: "First name is required",
      last_name: "Last name is required",
      ssn_tin: "SSN or ITIN is required",
      date_of_birth: "Date of birth is required",
      occupation: "Occupation is required",
      filing_status: "Please select filing status",
      first_entry_date_usa: "First entry date to the USA is required",
      visa_type: "Please select your visa type",
      primary_contact: "Primary contact number is required",
      city: "City is required",
      state: "State is required",
      zipcode: "Zip code is required",
      current_mailing_address: "Current mailing address is required",
    });
    expect(errors.middle_name).toBeUndefined();
    expect(errors.secondary_contact).toBeUndefined();
    expect(errors.alternate_email).toBeUndefined();
  });
  it("refuses placeholder and unknown choices", () => {
    expect(errorsOf({ ...valid, filing_status: "Please select filing status" }).filing_status).toBe("Please select filing status");
    expect(errorsOf({ ...valid, visa_type: "Please select" }).visa_type).toBe("Please select your visa type");
    expect(errorsOf({ ...valid, time_zone: "GMT" }).time_zone).toBe("Please select a time zone");
    expect(errorsOf({ ...valid, primary_country_code: "+44" }).primary_country_code).toBe("Please select a country code");
  });
  it("wants the SSN or ITIN as NNN-NN-NNNN", () => {
    for (const bad of ["123456789", "123-45-678", "abc-de-fghi", "123-45-67890"]) expect(errorsOf({ ...valid, ssn_tin: bad }).ssn_tin).toBe("Enter the SSN or ITIN as NNN-NN-NNNN (9 digits)");
  });
  it("wants real dates, not in the future, born after 1900 and before entering the USA", () => {
    expect(errorsOf({ ...valid, date_of_birth: "1994-02-30" }).date_of_birth).toBe("Enter a real date");
    expect(errorsOf({ ...valid, first_entry_date_usa: "2999-01-01" }).first_entry_date_usa).toBe("This date cannot be in the future");
    expect(errorsOf({ ...valid, date_of_birth: "1899-12-31" }).date_of_birth).toBe("Date of birth must be after January 1, 1900");
    expect(errorsOf({ ...valid, date_of_birth: "2020-01-01" }).date_of_birth).toBe("Date of birth must be before your first entry to the USA");
  });
  it("takes today from New York's calendar, the firm's, wherever the form is filled", async () => {
    // 9:30 pm on January 30, 2026 in New York; already January 31 in UTC and in India.
    const errors = (v: Record<string, string>) => atMoment("2026-01-31T02:30:00Z", () => errorsOf({ ...valid, ...v }));
    expect((await errors({ first_entry_date_usa: "2026-01-31" })).first_entry_date_usa).toBe("This date cannot be in the future");
    expect((await errors({ first_entry_date_usa: "2026-01-30" })).first_entry_date_usa).toBeUndefined();
    expect((await errors({ date_of_birth: "2026-01-30", first_entry_date_usa: "2026-01-30" })).date_of_birth).toBe("Date of birth must be before your first entry to the USA");
  });
  it("checks postal codes, phone numbers and the alternate e-mail", () => {
    for (const ok of ["07302", "600 001", "SW1A-1AA", "10001-1234"]) expect(errorsOf({ ...valid, zipcode: ok }).zipcode).toBeUndefined();
    for (const bad of ["12", "12345678901", "<b>1</b>"]) expect(errorsOf({ ...valid, zipcode: bad }).zipcode).toBeDefined();
    expect(errorsOf({ ...valid, primary_contact: "12345" }).primary_contact).toBe("Enter a phone number of 7 to 15 digits");
    expect(errorsOf({ ...valid, secondary_contact: "1234567890123456" }).secondary_contact).toBe("Enter a phone number of 7 to 15 digits");
    expect(errorsOf({ ...valid, alternate_email: "meera@" }).alternate_email).toBe("Please enter a valid email");
    expect(errorsOf({ ...valid, alternate_email: "meera@example.in" }).alternate_email).toBeUndefined();
  });
});

describe("display rules", () => {
  it("formats the SSN as the client types", () => {
    expect(formatSsnInput("1")).toBe("1");
    expect(formatSsnInput("1234")).toBe("123-4");
    expect(formatSsnInput("123456")).toBe("123-45-6");
    expect(formatSsnInput("123-45-67890")).toBe("123-45-6789");
    expect(formatSsnInput("abc")).toBe("");
  });
  it("masks all but the last four characters", () => {
    expect(maskSsn("123-45-6789")).toBe("***-**-6789");
    expect(maskSsn("")).toBe("N/A");
  });
  it("writes dates in US long form, N/A when missing", () => {
    expect(formatUsDate("2025-01-05")).toBe("January 5, 2025");
    expect(formatUsDate("2024-12-31T23:30:00.000Z")).toBe("December 31, 2024");
    expect(formatUsDate(null)).toBe("N/A");
    expect(formatUsDate("")).toBe("N/A");
    expect(formatUsDate("not a date")).toBe("N/A");
  });
  it("Submitted needs first name, last name, SSN and date of birth", () => {
    expect(filingStatusOf({ name_as_per_ssn: "A", last_name: "B", ssn_tin: "1", date_of_birth: "2000-01-01" })).toBe("Submitted");
    expect(filingStatusOf({ name_as_per_ssn: "A", last_name: "B", ssn_tin: "", date_of_birth: "2000-01-01" })).toBe("Incomplete");
  });
});
