// Deterministic sample data shared by the load benchmark and the crash test: taxpayer
// records that pass the form's rules, the seeding file's shape, and the password of the
// seeded accounts. Pure: no database, no I/O.
import { FILING_STATUSES, TIME_ZONES, VISA_TYPES } from "~/domain/taxpayer";
import type { TaxpayerValues } from "~/domain/taxpayer";

/** The password of every seeded account (sessions are made once, at seeding). */
export const FIXTURE_PASSWORD = "fixture pass phrase 1";

export const FIRST_NAMES = [
  "Aarav",
  "Priya",
  "Mateo",
  "Mei",
  "Oluwaseun",
  "Sofia",
  "Hiroshi",
  "Fatima",
  "Lucas",
  "Ananya",
  "Daniel",
  "Chloe",
] as const;
export const LAST_NAMES = ["Sharma", "Nair", "Garcia", "Lin", "Adeyemi", "Rossi", "Tanaka", "Khan"] as const;

/** The admin-list search of the benchmark: one of the last names, so about 1 client in 8 matches. */
export const SEARCH_TERM = "tanaka";

/** The listed client number `i`'s display name (first and last names cycle independently). */
export function listClientName(i: number): string {
  return `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]}`;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * Version `version` of client `client`'s taxpayer record. Almost every field carries the
 * version, so a record stored half from one save and half from another is recognisable.
 * SSNs are in the ITIN range (9xx-7x-xxxx): never a real SSN.
 */
export function taxpayerValuesFor(client: number, version: number): TaxpayerValues {
  return {
    name_as_per_ssn: `Client${client}`,
    middle_name: `V${version}`,
    last_name: `Fixture${version}`,
    ssn_tin: `9${pad(client % 100, 2)}-7${version % 10}-${pad(version % 10000, 4)}`,
    date_of_birth: `19${80 + (client % 20)}-${pad(1 + (version % 12), 2)}-${pad(1 + (version % 28), 2)}`,
    occupation: `Occupation ${version}`,
    time_zone: TIME_ZONES[version % TIME_ZONES.length]!,
    filing_status: FILING_STATUSES[version % FILING_STATUSES.length]!,
    first_entry_date_usa: `2015-${pad(1 + (version % 12), 2)}-${pad(1 + (client % 28), 2)}`,
    visa_type: VISA_TYPES[version % VISA_TYPES.length]!,
    primary_country_code: version % 2 ? "+1" : "+91",
    primary_contact: `98${pad((client * 100003 + version) % 100000000, 8)}`,
    secondary_country_code: "+91",
    secondary_contact: version % 3 === 0 ? "" : `97${pad(version % 100000000, 8)}`,
    alternate_email: `alt.${client}.${version}@example.com`,
    city: `City ${version}`,
    state: `State ${version}`,
    zipcode: pad(version % 100000, 5),
    current_mailing_address: `${version} Fixture Street, unit ${client}`,
  };
}

/** What the seeding script writes for the benchmark and the crash test. */
export type SeedFile = {
  /** Clients with a live session, in seeding order, each with the tax year of its case and record (--case-years). */
  clients: Array<{ id: string; email: string; cookie: string; record: TaxpayerValues | null; taxYear: number }>;
  /** The admin (second factor confirmed and passed on this session), when asked for. */
  admin: { id: string; email: string; cookie: string } | null;
  /** A preparer (second factor confirmed and passed on this session), when asked for. */
  preparer: { id: string; email: string; cookie: string } | null;
  /** Every preparer asked for (--preparers N), the first being `preparer`; each as `preparer` is. */
  preparers: Array<{ id: string; email: string; cookie: string }>;
  /** Ids of clients made for the admin list (no session). */
  listClientIds: string[];
  /** With --filing: whose case has the return and the fee, its year, and text its page shows. */
  filing?: { clientIndex: number; taxYear: number; expect: string } | null;
  /** Clients in the admin list after seeding (all of them, not only this run's). */
  totalClients: number;
  /** Clients of the whole list that SEARCH_TERM matches. */
  searchMatches: number;
};

/** What `dump` writes: each seeded client's stored record, read as the app reads it. */
export type DumpFile = {
  clients: Array<{ email: string; rows: number; values: TaxpayerValues | null }>;
};

/** The most clients scripts/lib/bulk-seed.ts makes (their dates are spread over the year before the last). */
export const BULK_MAX_CLIENTS = 2_000_000;

/** A database time: the median and the slowest of `runs` runs, in ms. */
export type QueryTiming = { p50: number; max: number; runs: number };

/** What `bulk` writes: the step's clients, its times, and the samples the benchmark uses. */
export type BulkFile = {
  /** Client numbers from+1..to were made. */
  from: number;
  to: number;
  taxYear: number;
  /** Rows made, per table. */
  rows: Record<string, number>;
  insertSeconds: number;
  vacuumSeconds: number;
  /** Client accounts in the database after the step. */
  totalClients: number;
  /** The database time of the panel's counts, called as the pages call them. */
  counters: Record<"clientCounters" | "countClients" | "caseYears" | "staffUnreadTotal", QueryTiming>;
  /** A client with a record, documents, requested items and messages: the case page opened. */
  caseClient: { id: string; name: string; email: string; number: number; index: number };
  /** The client the uploads go to. */
  uploadClient: { id: string };
  /** The searches made, each with how many clients it finds. */
  searches: Record<"name" | "email" | "code", { term: string; matches: number }>;
  /** The residency filter measured (?residency=nonresident), with how many of the year's cases it keeps. */
  residency: { filter: "nonresident"; matches: number };
};
