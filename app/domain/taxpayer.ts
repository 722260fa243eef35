import { isRealDay, newYorkDay } from "./business-days";
import { z } from "./zod";
import { CONTROL_CHARACTERS_MESSAGE, EMAIL_SHAPE, fieldErrors, hasControlCharacters } from "./validation";
import type { FieldErrors } from "./validation";

/**
 * The taxpayer information record's option lists and defaults
 * (docs/product/taxpayer-information.md#options-and-defaults).
 */
export const TIME_ZONES = ["IST", "EST", "PST", "MST", "CST"] as const;
export const DEFAULT_TIME_ZONE = "IST";
export const FILING_STATUSES = [
  "Single",
  "Married Filing Jointly",
  "Married Filing Separately",
  "Head of Household",
  "Qualifying Surviving Spouse",
] as const;
export const FILING_STATUS_PLACEHOLDER = "Please select filing status";
export const VISA_TYPES = [
  "B1",
  "B2",
  "H1-A",
  "H1-B",
  "H-4",
  "L-2",
  "L1-A",
  "L1-B",
  "F1-OPT",
  "F1-CPT",
  "M",
  "J",
  "Q",
  "EAD",
  "Green Card",
  "US Citizen",
  "Not Available",
] as const;
export const VISA_TYPE_PLACEHOLDER = "Please select";
export const COUNTRY_CODES = ["+91", "+1"] as const;

export type TimeZone = (typeof TIME_ZONES)[number];
export type TaxFilingStatus = (typeof FILING_STATUSES)[number];
export type VisaType = (typeof VISA_TYPES)[number];
export type CountryCode = (typeof COUNTRY_CODES)[number];
export const DEFAULT_COUNTRY_CODE = "+91";

export const TAXPAYER_FIELDS = [
  "name_as_per_ssn",
  "middle_name",
  "last_name",
  "ssn_tin",
  "date_of_birth",
  "occupation",
  "time_zone",
  "filing_status",
  "first_entry_date_usa",
  "visa_type",
  "primary_country_code",
  "primary_contact",
  "secondary_country_code",
  "secondary_contact",
  "alternate_email",
  "city",
  "state",
  "zipcode",
  "current_mailing_address",
] as const;
export type TaxpayerField = (typeof TAXPAYER_FIELDS)[number];
export type TaxpayerValues = Record<TaxpayerField, string>;

/** Labels on the form, the filing card and the details modal. */
export const TAXPAYER_LABELS: Record<TaxpayerField, string> = {
  name_as_per_ssn: "First Name (as per SSN)",
  middle_name: "Middle Name",
  last_name: "Last Name",
  ssn_tin: "SSN / ITIN",
  date_of_birth: "Date of Birth",
  occupation: "Occupation",
  time_zone: "Time Zone",
  filing_status: "Filing Status",
  first_entry_date_usa: "First Entry Date to USA",
  visa_type: "Visa Type",
  primary_country_code: "Primary Country Code",
  primary_contact: "Primary Contact Number",
  secondary_country_code: "Secondary Country Code",
  secondary_contact: "Secondary Contact Number",
  alternate_email: "Alternate Email",
  city: "City",
  state: "State",
  zipcode: "Zip Code",
  current_mailing_address: "Current Mailing Address",
};

/** Fields marked required on the form (docs/product/taxpayer-information.md#fields). */
export const REQUIRED_TAXPAYER_FIELDS: ReadonlySet<TaxpayerField> = new Set([
  "name_as_per_ssn",
  "last_name",
  "ssn_tin",
  "date_of_birth",
  "occupation",
  "time_zone",
  "filing_status",
  "first_entry_date_usa",
  "visa_type",
  "primary_contact",
  "city",
  "state",
  "zipcode",
  "current_mailing_address",
]);

export const TAXPAYER_MESSAGES = {
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  ssnRequired: "SSN or ITIN is required",
  ssnShape: "Enter the SSN or ITIN as NNN-NN-NNNN (9 digits)",
  dobRequired: "Date of birth is required",
  dobBefore1900: "Date of birth must be after January 1, 1900",
  dobAfterEntry: "Date of birth must be before your first entry to the USA",
  occupationRequired: "Occupation is required",
  timeZoneRequired: "Please select a time zone",
  filingStatusRequired: "Please select filing status",
  entryRequired: "First entry date to the USA is required",
  dateInvalid: "Enter a real date",
  dateFuture: "This date cannot be in the future",
  visaRequired: "Please select your visa type",
  countryCodeInvalid: "Please select a country code",
  primaryRequired: "Primary contact number is required",
  phoneShape: "Enter a phone number of 7 to 15 digits",
  emailShape: "Please enter a valid email",
  cityRequired: "City is required",
  stateRequired: "State is required",
  zipRequired: "Zip code is required",
  zipShape: "Enter a postal code of 3 to 10 letters, digits, spaces or hyphens",
  addressRequired: "Current mailing address is required",
  tooLong: "This is too long",
  saved: "Your details have been saved successfully.",
  saveFailed: "Failed to save information. Please try again.",
  loadFailed:
    "We could not load your saved information, so the form is not shown (saving it now could erase what we have). Please reload the page in a few minutes.",
} as const;

/** The form's starting values for a client with no record yet. */
export const emptyTaxpayerValues: TaxpayerValues = {
  name_as_per_ssn: "",
  middle_name: "",
  last_name: "",
  ssn_tin: "",
  date_of_birth: "",
  occupation: "",
  time_zone: DEFAULT_TIME_ZONE,
  filing_status: "",
  first_entry_date_usa: "",
  visa_type: "",
  primary_country_code: DEFAULT_COUNTRY_CODE,
  primary_contact: "",
  secondary_country_code: DEFAULT_COUNTRY_CODE,
  secondary_contact: "",
  alternate_email: "",
  city: "",
  state: "",
  zipcode: "",
  current_mailing_address: "",
};

/** Formats digits as NNN-NN-NNNN while the client types. */
export function formatSsnInput(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/** The SSN or ITIN with only its last 4 characters visible. */
export function maskSsn(value: string | null | undefined): string {
  const last4 = (value ?? "").replace(/\D/g, "").slice(-4);
  return last4.length === 4 ? `***-**-${last4}` : "N/A";
}

/** Built once: toLocaleDateString builds a new formatter on every call, which costs far more. */
const usDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** A date in US long form ("January 5, 2025"), or N/A when missing or unreadable. */
export function formatUsDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "N/A";
  const date =
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) return "N/A";
  return usDate.format(date);
}

export type FilingStatus = "Submitted" | "Incomplete";

/**
 * Submitted when the four identity fields are all present
 * (docs/product/taxpayer-information.md#submitted-or-incomplete).
 */
export function filingStatusOf(record: {
  name_as_per_ssn?: string | null;
  last_name?: string | null;
  ssn_tin?: string | null;
  date_of_birth?: string | null;
}): FilingStatus {
  return record.name_as_per_ssn && record.last_name && record.ssn_tin && record.date_of_birth ? "Submitted" : "Incomplete";
}

/** A field as typed, trimmed: the first value of a field sent twice, "" for one not sent or not text. */
const text = z.preprocess((v) => {
  const first: unknown = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" ? first.trim() : "";
}, z.string());
const printable = (v: string) => !hasControlCharacters(v);
const required = (message: string, max = 100) =>
  text.pipe(z.string().min(1, message).max(max, TAXPAYER_MESSAGES.tooLong).refine(printable, CONTROL_CHARACTERS_MESSAGE));
const optional = (max = 100) => text.pipe(z.string().max(max, TAXPAYER_MESSAGES.tooLong).refine(printable, CONTROL_CHARACTERS_MESSAGE));
const choice = <const T extends readonly [string, ...string[]]>(options: T, message: string) =>
  text.pipe(z.enum(options, { error: message }));
const phoneDigits = (v: string) => v.replace(/[\s().-]/g, "");
const isPhone = (v: string) => /^\d{7,15}$/.test(phoneDigits(v));

function pastDate(requiredMessage: string) {
  return text.pipe(
    z
      .string()
      .min(1, requiredMessage)
      .refine(isRealDay, TAXPAYER_MESSAGES.dateInvalid)
      .refine((v) => v <= newYorkDay(), TAXPAYER_MESSAGES.dateFuture),
  );
}

/**
 * The taxpayer information form: one schema for browser and server
 * (docs/product/taxpayer-information.md#checks).
 * Required fields are required, placeholder choices refused, shapes checked.
 */
export const TaxpayerSchema = z
  .object({
    name_as_per_ssn: required(TAXPAYER_MESSAGES.firstNameRequired, 50),
    middle_name: optional(50),
    last_name: required(TAXPAYER_MESSAGES.lastNameRequired, 50),
    ssn_tin: text.pipe(
      z.string().min(1, TAXPAYER_MESSAGES.ssnRequired).regex(/^\d{3}-\d{2}-\d{4}$/, TAXPAYER_MESSAGES.ssnShape),
    ),
    date_of_birth: pastDate(TAXPAYER_MESSAGES.dobRequired).refine((v) => v >= "1900-01-02", TAXPAYER_MESSAGES.dobBefore1900),
    occupation: required(TAXPAYER_MESSAGES.occupationRequired),
    time_zone: choice(TIME_ZONES, TAXPAYER_MESSAGES.timeZoneRequired),
    filing_status: choice(FILING_STATUSES, TAXPAYER_MESSAGES.filingStatusRequired),
    first_entry_date_usa: pastDate(TAXPAYER_MESSAGES.entryRequired),
    visa_type: choice(VISA_TYPES, TAXPAYER_MESSAGES.visaRequired),
    primary_country_code: choice(COUNTRY_CODES, TAXPAYER_MESSAGES.countryCodeInvalid),
    primary_contact: text.pipe(z.string().min(1, TAXPAYER_MESSAGES.primaryRequired).refine(isPhone, TAXPAYER_MESSAGES.phoneShape)),
    secondary_country_code: choice(COUNTRY_CODES, TAXPAYER_MESSAGES.countryCodeInvalid),
    secondary_contact: text.pipe(z.string().refine((v) => v === "" || isPhone(v), TAXPAYER_MESSAGES.phoneShape)),
    alternate_email: text.pipe(
      z.string().max(254, TAXPAYER_MESSAGES.tooLong).refine((v) => v === "" || EMAIL_SHAPE.test(v), TAXPAYER_MESSAGES.emailShape),
    ),
    city: required(TAXPAYER_MESSAGES.cityRequired),
    state: required(TAXPAYER_MESSAGES.stateRequired),
    zipcode: text.pipe(z.string().min(1, TAXPAYER_MESSAGES.zipRequired).regex(/^[A-Za-z0-9 -]{3,10}$/, TAXPAYER_MESSAGES.zipShape)),
    current_mailing_address: required(TAXPAYER_MESSAGES.addressRequired, 300),
  })
  .superRefine((v, ctx) => {
    if (isRealDay(v.date_of_birth) && isRealDay(v.first_entry_date_usa) && v.date_of_birth >= v.first_entry_date_usa) {
      ctx.addIssue({ code: "custom", path: ["date_of_birth"], message: TAXPAYER_MESSAGES.dobAfterEntry });
    }
  });

export type TaxpayerInput = z.output<typeof TaxpayerSchema>;

export type TaxpayerCheck = { ok: true; data: TaxpayerInput } | { ok: false; errors: FieldErrors<TaxpayerField> };

export function validateTaxpayer(input: Record<string, unknown>): TaxpayerCheck {
  const result = TaxpayerSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrors<TaxpayerField>(result.error) };
}
