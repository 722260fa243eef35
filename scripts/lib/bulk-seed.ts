// Clients at scale for the benchmark's cost curve, made by the database itself from
// generate_series: accounts, profiles, cases of one tax year at every stage, taxpayer records,
// documents, requested items and messages, all fake (addresses under example.com/.org/.net,
// SSNs in the ITIN range 9xx-7x-xxxx, US phone numbers starting 555) but shaped like real ones.
// Client number i (1, 2, 3, …) is the same client whatever the step that makes it: seeding
// 10,000 then 100,000 gives the same 100,000 clients as seeding 100,000 at once.
//
// Documents are rows only: no file is put in storage (a seeded document does not download).
// Only the SSNs are made here in Node: each is encrypted for its owner (AES-GCM with the owner's
// id as additional data, crypto.server.ts), which SQL cannot do; they go to the database as one
// text parameter per batch. Runs in scripts/lib/fixture-db.ts with the server's configuration.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { VISA_STATUSES } from "~/domain/auth";
import { REQUEST_TEMPLATES } from "~/content/request-templates";
import { FILING_STATUSES, TIME_ZONES, VISA_TYPES } from "~/domain/taxpayer";
import { encryptSecret } from "~/server/platform/crypto.server";
import type { Database } from "~/server/db/client.server";
import { BULK_MAX_CLIENTS } from "./fixtures";

export const BULK_FIRST_NAMES = [
  "Aarav", "Aditi", "Akira", "Alejandro", "Amara", "Ananya", "Andrei", "Arjun", "Ayesha", "Bao",
  "Camila", "Chen", "Chiamaka", "Daniel", "Deepika", "Diego", "Dmitri", "Elena", "Emeka", "Farah",
  "Fatima", "Gabriel", "Hana", "Hiroshi", "Ines", "Isabela", "Ivan", "Jia", "Joon", "Kavya",
  "Kenji", "Kiran", "Lakshmi", "Leila", "Li", "Lucas", "Mai", "Malik", "Mariam", "Mateo",
  "Mei", "Minh", "Nadia", "Naveen", "Neha", "Nikhil", "Noor", "Olga", "Oluwaseun", "Omar",
  "Pablo", "Pooja", "Priya", "Rahul", "Ravi", "Rin", "Rohan", "Sakura", "Samir", "Sana",
  "Sara", "Shreya", "Siddharth", "Sofia", "Soo-ah", "Sunil", "Tanvi", "Thanh", "Tomas", "Tunde",
  "Valentina", "Varun", "Vikram", "Wei", "Xin", "Yara", "Yasmin", "Yuki", "Yusuf", "Zara",
];

/**
 * 100 last names, each carried by exactly one client in every hundred (client i has the name
 * i * 37 mod 100): what the name search finds at every size is 1% of the clients, about what the
 * commonest surnames of a firm's clientele are. The first name changes every 100 clients.
 */
export const BULK_LAST_NAMES = [
  "Acharya", "Adeyemi", "Agarwal", "Ahmed", "Alvarez", "Ansari", "Bae", "Banerjee", "Bhatt", "Cao",
  "Castillo", "Chandra", "Chatterjee", "Cheng", "Choi", "Chowdhury", "Cruz", "Das", "Desai", "Dinh",
  "Dubey", "Eze", "Fernandes", "Flores", "Fujita", "Ghosh", "Gomez", "Gupta", "Haddad", "Hashemi",
  "Hossain", "Huang", "Ibrahim", "Iyer", "Jain", "Joshi", "Kapoor", "Karimi", "Kaur", "Khan",
  "Kim", "Kobayashi", "Kulkarni", "Kumar", "Le", "Lopez", "Mehta", "Menon", "Mishra", "Morales",
  "Mukherjee", "Murthy", "Nair", "Nakamura", "Nguyen", "Novak", "Okafor", "Okonkwo", "Ortiz", "Pandey",
  "Park", "Patel", "Pham", "Pillai", "Qureshi", "Rahman", "Rao", "Reddy", "Reyes", "Rivera",
  "Romero", "Saito", "Saxena", "Sen", "Shah", "Sharma", "Shin", "Sinha", "Srinivasan", "Suzuki",
  "Tan", "Tanaka", "Thakur", "Tiwari", "Tran", "Trivedi", "Vargas", "Varma", "Verma", "Vu",
  "Wang", "Watanabe", "Wu", "Xu", "Yadav", "Yamamoto", "Yang", "Yilmaz", "Zhang", "Zhou",
];

const CITIES: ReadonlyArray<readonly [city: string, state: string, zip: string]> = [
  ["Austin", "TX", "78701"], ["Boston", "MA", "02115"], ["Chicago", "IL", "60607"], ["Columbus", "OH", "43210"],
  ["Dallas", "TX", "75201"], ["Edison", "NJ", "08817"], ["Fremont", "CA", "94538"], ["Houston", "TX", "77005"],
  ["Jersey City", "NJ", "07302"], ["Los Angeles", "CA", "90007"], ["Minneapolis", "MN", "55455"], ["New York", "NY", "10027"],
  ["Philadelphia", "PA", "19104"], ["Phoenix", "AZ", "85004"], ["Pittsburgh", "PA", "15213"], ["Raleigh", "NC", "27606"],
  ["San Jose", "CA", "95112"], ["Seattle", "WA", "98105"], ["Sunnyvale", "CA", "94086"], ["Tempe", "AZ", "85281"],
];

const STREETS = ["Maple Avenue", "Oak Street", "College Road", "Lake Drive", "Park Lane", "Cedar Court", "Hill Street", "River Road"];
const OCCUPATIONS = ["Software Engineer", "Graduate Student", "Data Analyst", "Research Assistant", "Physician", "Accountant", "Teaching Assistant", "Product Manager", "Civil Engineer", "Postdoctoral Researcher"];
const FILE_NAMES: ReadonlyArray<readonly [category: string, name: string, kb: number]> = [
  ["w-2", "W2_2025_employer.pdf", 182],
  ["1042-s", "1042-S scholarship.pdf", 96],
  ["1099-forms", "1099-INT savings.pdf", 74],
  ["passport-visa", "passport photo page.jpg", 1450],
  ["passport-visa", "I-94 travel history.pdf", 120],
  ["bank-statements", "bank statement December.pdf", 310],
  ["prior-us-returns", "2024 federal return.pdf", 880],
  ["other-documents", "days in the US.docx", 38],
];
const CLIENT_MESSAGES = [
  "Hello, I have uploaded my W-2. Is there anything else you need from me?",
  "I moved in June. Should I give you my new address for the return?",
  "My employer sent a corrected W-2 yesterday. I will upload it tonight.",
  "Could you tell me when the draft will be ready? I travel next month.",
];
const STAFF_MESSAGES = [
  "Thank you, we have everything for now. We will write when the draft is ready.",
  "Yes, please add the new address under Taxpayer Information, then we will update the return.",
  "Thank you. Please upload the corrected copy; we will use it instead of the first one.",
  "The draft should be ready within a week. We will send a message as soon as it is.",
];
const REQUEST_STATES = ["requested", "uploaded", "received", "returned", "requested", "not-applicable"] as const;

/** Client number i's account id: a UUID-shaped name made from the run's tag, the same in SQL and here. */
export function bulkClientId(tag: string, i: number): string {
  const hex = createHash("md5").update(`${tag}-${i}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const BULK_ID = (tag: string) => sql`md5(${tag}::text || '-' || i)::uuid::text`;

/** Client number i's fake SSN (ITIN range, never a real SSN): its plain text and last four digits. */
export function bulkSsn(i: number): string {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  return `9${pad(i % 100, 2)}-7${i % 10}-${pad(i % 10000, 4)}`;
}

/** How many workflow stages client number i has completed (0 to 8, evenly spread). */
export function bulkStagesDone(i: number): number {
  return i % 9;
}

/** The rows of a query's result, as node-postgres and PGlite each give them. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** A list of texts as one parameter (none of them holds a "|"), split again by the database. */
function textList(values: readonly string[]): string {
  for (const v of values) if (v.includes("|")) throw new Error(`"${v}" holds a "|"`);
  return values.join("|");
}

/**
 * The encrypted SSNs of clients a..b with a record (past TAX INFO), "" for the others. Gives the
 * event loop a turn every 1,000 clients, so that the queries of the batch before go on meanwhile.
 */
async function encryptedSsns(tag: string, a: number, b: number): Promise<string[]> {
  const ssns: string[] = [];
  for (let i = a; i <= b; i++) {
    ssns.push(bulkStagesDone(i) >= 2 ? encryptSecret(bulkSsn(i), bulkClientId(tag, i)) : "");
    if ((i - a) % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  return ssns;
}

export type BulkSeedOptions = {
  /** Clients 1..`from` exist already; this makes `from`+1..`to`. */
  from: number;
  to: number;
  tag: string;
  taxYear: number;
  /** Staff the cases are assigned to (in turn; every third case is unassigned). */
  staffIds: readonly string[];
  /** Clients made per statement (the SSNs of a batch travel as one parameter). */
  batch?: number;
  onProgress?: (done: number) => void;
  /** maintenance_work_mem while the indexes are built again (e.g. "256MB"); the database's own when absent. */
  maintenanceMemory?: string;
};

const BULK_TABLES = ["user", "profiles", "client_cases", "taxpayer_records", "documents", "document_requests", "case_messages"] as const;

/** Rows made, per table. */
export type BulkCounts = Record<"user" | "profiles" | "client_cases" | "taxpayer_records" | "documents" | "document_requests" | "case_messages", number>;

const STAGE_COLUMNS = ["home", "taxinfo", "documents", "preparation", "draft", "payment", "efiling", "finalcopies"] as const;

/**
 * Makes clients `from`+1..`to` in one transaction, `batch` clients per statement. The trigger
 * that gives each new client account its case (migration 0006) does not run meanwhile: the cases
 * are made here with their stage, assignee and dates. Returns the rows made, per table.
 */
export async function bulkSeed(db: Database, options: BulkSeedOptions): Promise<BulkCounts> {
  const { from, to, tag, taxYear, staffIds } = options;
  const batch = options.batch ?? 50_000;
  if (staffIds.length === 0) throw new Error("bulkSeed needs at least one staff member to assign cases to");
  if (to > BULK_MAX_CLIENTS) throw new Error(`bulkSeed makes at most ${BULK_MAX_CLIENTS} clients`);
  const counts: BulkCounts = { user: 0, profiles: 0, client_cases: 0, taxpayer_records: 0, documents: 0, document_requests: 0, case_messages: 0 };
  const firsts = textList(BULK_FIRST_NAMES);
  const lasts = textList(BULK_LAST_NAMES);
  const staff = textList(staffIds);
  const template = REQUEST_TEMPLATES.find((t) => t.id === "1040nr-student")!;
  const items = template.items.slice(0, 4);
  const id = BULK_ID(tag);
  // Client i joined 15 s after client i-1: client 2,000,000 a day ago, client 1 a year before.
  const joined = sql`(now() - interval '1 day' - (${BULK_MAX_CLIENTS}::int - i) * interval '15 seconds')`;
  const n = (result: unknown) => Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
  // Client i's name and e-mail address, from the lists in `names`: the account has them, and
  // its case the search text made of them (the trigger that writes it does not run here).
  const names = sql`select string_to_array(${firsts}::text, '|') as f, string_to_array(${lasts}::text, '|') as l,
                           cardinality(string_to_array(${firsts}::text, '|')) as nf,
                           cardinality(string_to_array(${lasts}::text, '|')) as nl`;
  const clientName = sql`f[1 + (i / 100) % nf] || ' ' || l[1 + (i * 37) % nl]`;
  const clientEmail = sql`lower(replace(f[1 + (i / 100) % nf], '-', '') || '.' || l[1 + (i * 37) % nl]) || i || '@example.' || (array['com', 'org', 'net'])[1 + i % 3]`;

  await db.transaction(async (tx) => {
    // A superuser (PostgreSQL's own role, or PGlite's) loads as replication does: no triggers
    // at all, so no foreign-key check per row (the rows are consistent by construction) and no
    // case made by the trigger. Any other role has the case trigger turned off by name.
    const [role] = rowsOf<{ superuser: boolean }>(await tx.execute(sql`select current_setting('is_superuser') = 'on' as superuser`));
    if (role?.superuser) await tx.execute(sql`set local session_replication_role = replica`);
    else await tx.execute(sql`alter table "user" disable trigger user_client_case`);
    // A step that at least doubles the clients builds the tables' secondary indexes again at the
    // end, exactly as they were defined (pg_get_indexdef), instead of keeping them up to date row
    // by row: for the trigram index alone, half the time. Primary keys and unique constraints stay.
    const rebuild = to - from >= from;
    const secondary = rebuild
      ? rowsOf<{ name: string; def: string }>(
          await tx.execute(sql`
            select format('%I', x.relname) as name, pg_get_indexdef(i.indexrelid) as def
            from pg_index i join pg_class t on t.oid = i.indrelid join pg_class x on x.oid = i.indexrelid
            where t.relnamespace = 'public'::regnamespace and t.relname in (${sql.join(BULK_TABLES.map((name) => sql`${name}::text`), sql`, `)})
              and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`),
        )
      : [];
    for (const index of secondary) await tx.execute(sql.raw(`drop index ${index.name}`));
    // The next batch's SSNs are encrypted while the database stores this one.
    let next = encryptedSsns(tag, from + 1, Math.min(to, from + batch));
    for (let a = from + 1; a <= to; a += batch) {
      const b = Math.min(to, a + batch - 1);
      const ssns = await next;
      if (b < to) next = encryptedSsns(tag, b + 1, Math.min(to, b + batch));
      const range = sql`generate_series(${a}::int, ${b}::int) as i`;

      counts.user += n(
        await tx.execute(sql`
          with names as (${names}),
          made as (
            insert into "user" (id, name, email, email_verified, role, created_at, updated_at)
            select ${id}, ${clientName}, ${clientEmail}, true, 'user', ${joined}, ${joined}
            from ${range}, names
            returning id, name, email, created_at
          ),
          profile as (
            insert into profiles (id, email, full_name, phone, visa_status, created_at, updated_at)
            select id, email, name, null, (array[${sql.join(VISA_STATUSES.map((v) => sql`${v}::text`), sql`, `)}])[1 + abs(hashtext(id)) % ${VISA_STATUSES.length}::int], created_at, created_at
            from made
            returning 1
          ) select count(*) as n from profile`),
      );
      counts.profiles = counts.user;

      counts.client_cases += n(
        await tx.execute(sql`
          with names as (${names}),
          made as (
            insert into client_cases (user_id, tax_year, search_text, assignee_id, ${sql.raw(STAGE_COLUMNS.join(", "))}, current_stage, awaiting_reply_since,
              residency_status, residency_missing, created_at, updated_at)
            select ${id}, ${taxYear}::int, lower(${clientName} || ' ' || ${clientEmail}),
                   case when i % 3 = 0 then null else (string_to_array(${staff}::text, '|'))[1 + (i / 3) % ${staffIds.length}::int] end,
                   ${sql.raw(STAGE_COLUMNS.map((_, k) => `i % 9 > ${k}`).join(", "))},
                   (array[${sql.raw(STAGE_COLUMNS.map((s) => `'${s}'`).join(", "))}])[least(i % 9, 7) + 1],
                   case when i % 20 = 0 then ${joined} + interval '3 days' end,
                   -- The residency the case stores: a third each, and one case in five without a history.
                   case when i % 5 = 0 then null else (array['nonresident', 'resident', 'dual-status'])[1 + i % 3] end, i % 5 = 0,
                   ${joined}, ${joined} + interval '2 days'
            from ${range}, names
            returning 1
          ) select count(*) as n from made`),
      );

      counts.taxpayer_records += n(
        await tx.execute(sql`
          with made as (
            insert into taxpayer_records (user_id, tax_year, name_as_per_ssn, middle_name, last_name, ssn_tin, ssn_last4,
              date_of_birth, occupation, time_zone, filing_status, first_entry_date_usa, visa_type, primary_country_code,
              primary_contact, secondary_country_code, secondary_contact, alternate_email, city, state, zipcode,
              current_mailing_address, created_at, updated_at)
            select ${id}, ${taxYear}::int, n.f[1 + (i / 100) % n.nf], '', n.l[1 + (i * 37) % n.nl], s.cipher, lpad((i % 10000)::text, 4, '0'),
                   date '1970-01-01' + (i * 37 % 12000), (string_to_array(${textList(OCCUPATIONS)}::text, '|'))[1 + i % ${OCCUPATIONS.length}::int],
                   (string_to_array(${textList(TIME_ZONES)}::text, '|'))[1 + i % ${TIME_ZONES.length}::int],
                   (string_to_array(${textList(FILING_STATUSES)}::text, '|'))[1 + i % ${FILING_STATUSES.length}::int],
                   date '2012-01-01' + (i * 13 % 4000), (string_to_array(${textList(VISA_TYPES)}::text, '|'))[1 + i % ${VISA_TYPES.length}::int],
                   case when i % 4 = 0 then '+1' else '+91' end, '555' || lpad((i % 10000000)::text, 7, '0'),
                   '+91', case when i % 3 = 0 then '' else '98' || lpad((i * 7 % 100000000)::text, 8, '0') end,
                   case when i % 5 = 0 then 'alt' || i || '@example.org' else '' end,
                   c.city[1 + i % ${CITIES.length}::int], c.state[1 + i % ${CITIES.length}::int], c.zip[1 + i % ${CITIES.length}::int],
                   (1 + i % 9000) || ' ' || (string_to_array(${textList(STREETS)}::text, '|'))[1 + i % ${STREETS.length}::int] || ', Apt ' || (1 + i % 40),
                   ${joined} + interval '1 day', ${joined} + interval '4 days'
            from unnest(string_to_array(${textList(ssns)}::text, '|')) with ordinality as s(cipher, k)
            cross join lateral (select ${a}::int + k::int - 1 as i) as x
            cross join (select string_to_array(${firsts}::text, '|') as f, string_to_array(${lasts}::text, '|') as l,
                               cardinality(string_to_array(${firsts}::text, '|')) as nf,
                               cardinality(string_to_array(${lasts}::text, '|')) as nl) as n
            cross join (select string_to_array(${textList(CITIES.map((c) => c[0]))}::text, '|') as city,
                               string_to_array(${textList(CITIES.map((c) => c[1]))}::text, '|') as state,
                               string_to_array(${textList(CITIES.map((c) => c[2]))}::text, '|') as zip) as c
            where s.cipher <> ''
            returning 1
          ) select count(*) as n from made`),
      );

      // Documents: clients past TAX INFO, one in four with two, one in four with one.
      counts.documents += n(
        await tx.execute(sql`
          with files as (select string_to_array(${textList(FILE_NAMES.map((f) => f[0]))}::text, '|') as cat,
                                string_to_array(${textList(FILE_NAMES.map((f) => f[1]))}::text, '|') as name,
                                string_to_array(${textList(FILE_NAMES.map((f) => String(f[2])))}::text, '|') as kb),
          made as (
            insert into documents (client_id, tax_year, category, original_name, size, content_type, storage_key, uploaded_by, from_client, shared_at, created_at)
            select ${id}, ${taxYear}::int, files.cat[1 + (i + k) % ${FILE_NAMES.length}::int], files.name[1 + (i + k) % ${FILE_NAMES.length}::int],
                   files.kb[1 + (i + k) % ${FILE_NAMES.length}::int]::int * 1024 + i % 1000,
                   case when files.name[1 + (i + k) % ${FILE_NAMES.length}::int] like '%.jpg' then 'image/jpeg'
                        when files.name[1 + (i + k) % ${FILE_NAMES.length}::int] like '%.docx' then 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
                        else 'application/pdf' end,
                   gen_random_uuid()::text, ${id}, true, null, ${joined} + k * interval '1 day' + interval '5 days'
            from ${range}, files, generate_series(1, case when i % 9 < 2 then 0 when i % 4 = 0 then 2 when i % 4 = 1 then 1 else 0 end) as k
            returning 1
          ) select count(*) as n from made`),
      );

      // Requested items: one client in five between TAX INFO and DRAFT, four items each in every state.
      counts.document_requests += n(
        await tx.execute(sql`
          with tpl as (select string_to_array(${textList(items.map((t) => t.title))}::text, '|') as title,
                              string_to_array(${textList(items.map((t) => t.detail))}::text, '|') as detail,
                              string_to_array(${textList(items.map((t) => t.category))}::text, '|') as cat),
          req as (
            select i, k, (array[${sql.raw(REQUEST_STATES.map((s) => `'${s}'`).join(", "))}])[1 + (i / 5 + k) % 6] as state,
                   ${joined} + interval '6 days' as at
            from ${range}, generate_series(1, ${items.length}::int) as k
            where i % 5 = 0 and i % 9 between 1 and 4
          ),
          made as (
            insert into document_requests (client_id, tax_year, position, title, detail, category, template, state, client_note,
              return_reason, outstanding_since, created_by, answered_at, reviewed_by, reviewed_at, created_at, updated_at)
            select ${id}, ${taxYear}::int, k, tpl.title[k], tpl.detail[k], tpl.cat[k], ${template.id}::text, state,
                   case when state = 'not-applicable' then 'I had no income from a US source this year.' else '' end,
                   case when state = 'returned' then 'The scan is cut off at the bottom: please upload all of the page.' else '' end,
                   case when state in ('requested', 'returned') then at end,
                   (string_to_array(${staff}::text, '|'))[1 + i % ${staffIds.length}::int],
                   case when state not in ('requested') then at + interval '2 days' end,
                   case when state in ('received', 'returned') then (string_to_array(${staff}::text, '|'))[1 + i % ${staffIds.length}::int] end,
                   case when state in ('received', 'returned') then at + interval '3 days' end,
                   at, at + interval '3 days'
            from req, tpl
            returning 1
          ) select count(*) as n from made`),
      );

      // Messages: one client in ten asked and was answered; one in twenty wrote again and waits (awaiting_reply_since).
      counts.case_messages += n(
        await tx.execute(sql`
          with texts as (select string_to_array(${textList(CLIENT_MESSAGES)}::text, '|') as c, string_to_array(${textList(STAFF_MESSAGES)}::text, '|') as s),
          made as (
            insert into case_messages (client_id, tax_year, author_id, from_client, body, read_at, created_at)
            select ${id}, ${taxYear}::int,
                   case when k = 2 then (string_to_array(${staff}::text, '|'))[1 + i % ${staffIds.length}::int] else ${id} end,
                   k <> 2,
                   case when k = 2 then texts.s[1 + i / 10 % ${STAFF_MESSAGES.length}::int] else texts.c[1 + (i / 10 + k) % ${CLIENT_MESSAGES.length}::int] end,
                   case when k = 3 or (k = 2 and i % 30 = 0) then null else ${joined} + k * interval '1 day' + interval '1 hour' end,
                   case when k = 3 then ${joined} + interval '3 days' else ${joined} + k * interval '1 day' end
            from ${range}, texts, generate_series(1, case when i % 20 = 0 then 3 when i % 10 = 0 then 2 else 0 end) as k
            returning 1
          ) select count(*) as n from made`),
      );
      options.onProgress?.(b);
    }
    if (secondary.length > 0) {
      if (options.maintenanceMemory) await tx.execute(sql.raw(`set local maintenance_work_mem = '${options.maintenanceMemory}'`));
      for (const index of secondary) await tx.execute(sql.raw(index.def));
    }
    if (role?.superuser) await tx.execute(sql`set local session_replication_role = origin`);
    else await tx.execute(sql`alter table "user" enable trigger user_client_case`);
    // The triggers that keep the panel's tallies did not run either: they are counted again.
    await tx.execute(sql`select recount_tallies()`);
  });
  return counts;
}
