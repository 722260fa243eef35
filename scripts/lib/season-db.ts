// The database side of the season's start benchmark (scripts/lib/season-bench.ts). Runs with the
// server stopped (PGlite admits one process at a time) and with the server's own configuration
// (DATA_DIR, DATABASE_URL, AUTH_SECRET, SSN_ENCRYPTION_KEY), as scripts/lib/fixture-db.ts does.
//
//   tsx scripts/lib/season-db.ts seed --out FILE --clients N --tag TAG --year Y
//     last year's clients: N clients made in SQL (scripts/lib/bulk-seed.ts: accounts, profiles,
//     cases at every stage, taxpayer records, documents, requested items, messages), every one
//     with a case for Y-1 and none for Y, each with an e-mail address of their own
//   tsx scripts/lib/season-db.ts verify --out FILE --year Y [--kill-at ISO]
//     what the season's starts left: the cases, letters and queued e-mails of Y, the runs and
//     their clients' outcomes, and (with --kill-at) what was done when the server was killed
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { closeDatabase, databaseKind, getDb, migrateDatabase } from "~/server/db/client.server";
import { bulkSeed } from "./bulk-seed";
import type { BulkCounts } from "./bulk-seed";

/** What `seed` writes. */
export type SeasonSeedFile = {
  tag: string;
  clients: number;
  year: number;
  rows: BulkCounts;
  insertSeconds: number;
  vacuumSeconds: number;
  /** Read back after seeding: client accounts, their cases of last year, and of the year (none). */
  check: { clients: number; lastYearCases: number; yearCases: number; distinctEmails: number };
};

export type SeasonRunRow = {
  id: string;
  total: number;
  startedAt: string;
  finishedAt: string | null;
  opened: number;
  hadYear: number;
  gone: number;
  /** Not opened after an error (logged by the server; a later run opens them). */
  failed: number;
  pending: number;
  /** Clients of the run done by the time of --kill-at, and the first done after it. */
  doneByKill: number | null;
  firstDoneAfterKill: string | null;
  firstDoneAt: string | null;
  lastDoneAt: string | null;
};

export type RetriedMail = { recipient: string; attempts: number; createdAt: string; lastAttemptAt: string | null; sentAt: string | null; status: string };

/** What `verify` writes. */
export type SeasonVerifyFile = {
  year: number;
  clients: number;
  /** Of those clients: with a case of Y-1, with a case of Y, with both. */
  lastYearCases: number;
  yearCases: number;
  bothYears: number;
  letters: number;
  lettersDistinctClients: number;
  /** The engagement-letter e-mails of the outbox, by status, and their distinct recipients. */
  letterMails: { total: number; sent: number; pending: number; failed: number; distinctRecipients: number; firstSentAt: string | null; lastSentAt: string | null };
  /** Engagement-letter e-mails sent by the time of --kill-at. */
  sentByKill: number | null;
  /** Engagement-letter e-mails tried more than once (at least once, not exactly once). */
  retried: RetriedMail[];
  /** Every other e-mail of the outbox, by kind and status. */
  otherMails: Array<{ kind: string; status: string; n: number }>;
  runs: SeasonRunRow[];
  /** The e-mail addresses of the clients (lower case). */
  clientEmails: string[];
};

const { positionals, values: options } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    clients: { type: "string" },
    tag: { type: "string" },
    year: { type: "string" },
    "kill-at": { type: "string" },
  },
});

/** The rows of a query's result, as node-postgres and PGlite each give them. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

async function query<T>(statement: SQL): Promise<T[]> {
  return rowsOf<T>(await getDb().execute(statement));
}

async function one(statement: SQL): Promise<number> {
  const [row] = await query<{ n: number | string }>(statement);
  return Number(row?.n ?? 0);
}

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

function whole(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

async function seed(out: string, clients: number, tag: string, year: number): Promise<void> {
  const db = getDb();
  const staff = await query<{ id: string }>(sql`select id from "user" where role in ('admin', 'preparer') and deactivated_at is null order by created_at, id`);
  if (staff.length === 0) throw new Error("no staff member to assign last year's cases to: seed the admin first");
  const existing = await one(sql`select count(*) as n from "user" where role = 'user'`);
  if (existing > 0) throw new Error(`the database already holds ${existing} clients: the season's start benchmark needs one that holds none`);
  const started = performance.now();
  const rows = await bulkSeed(db, {
    from: 0,
    to: clients,
    tag,
    taxYear: year - 1,
    staffIds: staff.map((s) => s.id),
    maintenanceMemory: databaseKind() === "postgres" ? "256MB" : undefined,
  });
  const insertSeconds = (performance.now() - started) / 1000;
  const vacuumStarted = performance.now();
  await db.execute(sql`vacuum analyze`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const check = {
    clients: await one(sql`select count(*) as n from "user" where role = 'user' and deactivated_at is null`),
    lastYearCases: await one(sql`select count(*) as n from client_cases c join "user" u on u.id = c.user_id where u.role = 'user' and c.tax_year = ${year - 1}`),
    yearCases: await one(sql`select count(*) as n from client_cases c join "user" u on u.id = c.user_id where u.role = 'user' and c.tax_year = ${year}`),
    distinctEmails: await one(sql`select count(distinct lower(email)) as n from "user" where role = 'user'`),
  };
  if (check.clients !== clients || check.lastYearCases !== clients || check.yearCases !== 0 || check.distinctEmails !== clients)
    throw new Error(`the seeded clients are not last year's only: ${JSON.stringify(check)}`);
  const file: SeasonSeedFile = { tag, clients, year, rows, insertSeconds, vacuumSeconds, check };
  writeFileSync(out, JSON.stringify(file, null, 2), { mode: 0o600 });
  console.info(`Made ${clients} clients of ${year - 1} in ${insertSeconds.toFixed(1)} s (vacuum analyze ${vacuumSeconds.toFixed(1)} s).`);
}

async function verify(out: string, year: number, killAt: string | undefined): Promise<void> {
  const clientsOf = sql`select id from "user" where role = 'user' and deactivated_at is null`;
  const casesOf = (y: number) => one(sql`select count(*) as n from client_cases where tax_year = ${y} and user_id in (${clientsOf})`);
  const [mails] = await query<Record<string, unknown>>(sql`
    select count(*) as total,
           count(*) filter (where status = 'sent') as sent,
           count(*) filter (where status = 'pending') as pending,
           count(*) filter (where status = 'failed') as failed,
           count(distinct lower(recipient)) as recipients,
           min(sent_at) as first_sent, max(sent_at) as last_sent
    from mail_outbox where kind = 'engagement-letter'`);
  const retried = await query<Record<string, unknown>>(sql`
    select recipient, attempts, created_at, last_attempt_at, sent_at, status
    from mail_outbox where kind = 'engagement-letter' and attempts > 1 order by last_attempt_at`);
  const runs = await query<Record<string, unknown>>(sql`
    select r.id, r.total, r.started_at, r.finished_at,
           count(*) filter (where c.outcome = 'opened') as opened,
           count(*) filter (where c.outcome = 'had-year') as had_year,
           count(*) filter (where c.outcome = 'gone') as gone,
           count(*) filter (where c.outcome = 'failed') as failed,
           count(*) filter (where c.outcome is null) as pending,
           ${killAt ? sql`count(*) filter (where c.done_at <= ${killAt}::timestamptz)` : sql`null`} as done_by_kill,
           ${killAt ? sql`min(c.done_at) filter (where c.done_at > ${killAt}::timestamptz)` : sql`null`} as first_done_after_kill,
           min(c.done_at) as first_done, max(c.done_at) as last_done
    from season_starts r left join season_start_clients c on c.run_id = r.id
    group by r.id, r.total, r.started_at, r.finished_at
    order by r.started_at`);
  const file: SeasonVerifyFile = {
    year,
    clients: await one(sql`select count(*) as n from (${clientsOf}) as c`),
    lastYearCases: await casesOf(year - 1),
    yearCases: await casesOf(year),
    bothYears: await one(sql`
      select count(*) as n from client_cases a join client_cases b on b.user_id = a.user_id and b.tax_year = ${year}
      where a.tax_year = ${year - 1} and a.user_id in (${clientsOf})`),
    letters: await one(sql`select count(*) as n from engagement_letters where tax_year = ${year}`),
    lettersDistinctClients: await one(sql`select count(distinct client_id) as n from engagement_letters where tax_year = ${year}`),
    letterMails: {
      total: Number(mails?.total ?? 0),
      sent: Number(mails?.sent ?? 0),
      pending: Number(mails?.pending ?? 0),
      failed: Number(mails?.failed ?? 0),
      distinctRecipients: Number(mails?.recipients ?? 0),
      firstSentAt: iso(mails?.first_sent),
      lastSentAt: iso(mails?.last_sent),
    },
    sentByKill: killAt
      ? await one(sql`select count(*) as n from mail_outbox where kind = 'engagement-letter' and status = 'sent' and sent_at <= ${killAt}::timestamptz`)
      : null,
    retried: retried.map((r) => ({
      recipient: String(r.recipient),
      attempts: Number(r.attempts),
      createdAt: iso(r.created_at)!,
      lastAttemptAt: iso(r.last_attempt_at),
      sentAt: iso(r.sent_at),
      status: String(r.status),
    })),
    otherMails: (
      await query<{ kind: string; status: string; n: number | string }>(sql`
        select kind, status, count(*) as n from mail_outbox where kind <> 'engagement-letter' group by kind, status order by kind, status`)
    ).map((r) => ({ kind: r.kind, status: r.status, n: Number(r.n) })),
    runs: runs.map((r) => ({
      id: String(r.id),
      total: Number(r.total),
      startedAt: iso(r.started_at)!,
      finishedAt: iso(r.finished_at),
      opened: Number(r.opened),
      hadYear: Number(r.had_year),
      gone: Number(r.gone),
      failed: Number(r.failed),
      pending: Number(r.pending),
      doneByKill: r.done_by_kill === null || r.done_by_kill === undefined ? null : Number(r.done_by_kill),
      firstDoneAfterKill: iso(r.first_done_after_kill),
      firstDoneAt: iso(r.first_done),
      lastDoneAt: iso(r.last_done),
    })),
    clientEmails: (await query<{ email: string }>(sql`select lower(email) as email from "user" where role = 'user' and deactivated_at is null`)).map((r) => r.email),
  };
  writeFileSync(out, JSON.stringify(file), { mode: 0o600 });
}

const command = positionals[0];
try {
  if (!options.out || (command !== "seed" && command !== "verify") || (command === "seed" && !options.tag)) {
    console.error("Usage: season-db.ts seed --out FILE --clients N --tag TAG --year Y | verify --out FILE --year Y [--kill-at ISO]");
    process.exitCode = 2;
  } else {
    await migrateDatabase();
    const year = whole("year", options.year);
    if (command === "seed") await seed(options.out, whole("clients", options.clients), options.tag!, year);
    else await verify(options.out, year, options["kill-at"]);
  }
} catch (error) {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  console.error(`season-db ${command}:`, error instanceof Error ? error.message : error, cause);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
