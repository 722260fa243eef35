import { and, asc, count, desc, eq, exists, inArray, isNull, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { defaultService } from "~/domain/engagement";
import { isSeasonFilter, SEASON_FILTER_LABELS, SEASON_MESSAGES as M } from "~/domain/season";
import type { SeasonFilter, SeasonOutcome, SeasonProgress } from "~/domain/season";
import { openableYears } from "~/domain/tax-year";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { insertCaseInTx } from "~/server/cases/cases.server";
import { databaseKind, getDb } from "~/server/db/client.server";
import type { Transaction } from "~/server/db/client.server";
import { clientCases, invoices, seasonStartClients, seasonStarts, user } from "~/server/db/schema";
import { MAIL_OUTBOX_JOB } from "~/server/mail/outbox.server";
import { runJobSoon } from "~/server/platform/scheduler.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";
import { makeLetterInTx } from "./letters.server";

// The season's start (docs/product/engagement.md#the-seasons-start): an admin opens a tax year for
// a chosen set of last year's clients (all, those who paid last year's invoice, or those whose
// return was e-filed). The clients are chosen when the run starts (season_start_clients); the
// scheduler's job works through them in batches, each client in one transaction with their new
// case, its engagement letter and the e-mail queued in the outbox. A client who already has the
// year is left alone. A run stopped half way (a restart, a crash) goes on where it stopped, and
// the one-case-per-year key keeps anybody from a second letter or e-mail. The outbox sends the
// e-mails at its own pace.

/**
 * Clients worked in one transaction: about half a second on the embedded database, which runs in
 * the server's own thread and holds every other query while the transaction lasts.
 */
export const SEASON_BATCH = 20;

/** The job's name in `scheduled_jobs`. */
export const SEASON_JOB = "season-start";

/** The years a season's start can open: those a case can be opened for. */
export function seasonYears(): number[] {
  return openableYears();
}

/** Last year's clients the filter chooses, as a condition on `client_cases` rows of `taxYear - 1`. */
function chosen(taxYear: number, filter: SeasonFilter): SQL {
  const lastYear = taxYear - 1;
  const base = and(
    eq(clientCases.taxYear, lastYear),
    exists(
      getDb()
        .select({ one: sql`1` })
        .from(user)
        .where(and(eq(user.id, clientCases.userId), eq(user.role, "user"), isNull(user.deactivatedAt))),
    ),
  )!;
  if (filter === "filed") return and(base, eq(clientCases.efiling, true))!;
  if (filter === "paid")
    return and(
      base,
      exists(
        getDb()
          .select({ one: sql`1` })
          .from(invoices)
          .where(and(eq(invoices.clientId, clientCases.userId), eq(invoices.taxYear, lastYear), eq(invoices.status, "paid"))),
      ),
    )!;
  return base;
}

export type SeasonCount = { taxYear: number; filter: SeasonFilter; chosen: number; hadYear: number };

/** How many of last year's clients the filter chooses, and how many of them already have the year. */
export async function countSeason(taxYear: number, filter: SeasonFilter): Promise<SeasonCount> {
  const hasYear = sql`exists (select 1 from ${clientCases} as next where next.user_id = ${clientCases.userId} and next.tax_year = ${taxYear})`;
  const [row] = await getDb()
    .select({ chosen: count(), hadYear: sql<number>`count(*) filter (where ${hasYear})`.mapWith(Number) })
    .from(clientCases)
    .where(chosen(taxYear, filter));
  return { taxYear, filter, chosen: row?.chosen ?? 0, hadYear: row?.hadYear ?? 0 };
}

type Refusal = { ok: false; status: 400 | 409; errors: Record<string, string> };
const refuse = (errors: Record<string, string>, status: Refusal["status"] = 400): Refusal => ({ ok: false, status, errors });

/** A check the season's start form sends: the year, the filter and the count the admin confirmed. */
export function parseSeasonChoice(year: string, filter: string): { ok: true; taxYear: number; filter: SeasonFilter } | Refusal {
  const taxYear = /^\d{4}$/.test(year) ? Number(year) : NaN;
  const errors: Record<string, string> = {};
  if (!seasonYears().includes(taxYear)) errors.year = M.badYear;
  if (!isSeasonFilter(filter)) errors.filter = M.badFilter;
  if (Object.keys(errors).length > 0 || !isSeasonFilter(filter)) return refuse(errors);
  return { ok: true, taxYear, filter };
}

/**
 * Starts a season's start: the clients the filter chooses now are the run's, and the job is
 * asked to begin. `confirmed` is the number of clients the admin was shown; when it is no longer
 * the number chosen, nothing starts. One run at a time.
 */
export async function startSeason(
  admin: SessionUser,
  input: { year: string; filter: string; confirmed: string },
  ip: string,
): Promise<{ ok: true; runId: string } | Refusal> {
  if (admin.role !== "admin") return refuse({ form: M.badFilter });
  const choice = parseSeasonChoice(input.year, input.filter);
  if (!choice.ok) return choice;
  const { taxYear, filter } = choice;
  const outcome = await getDb().transaction(async (tx): Promise<{ ok: true; runId: string } | Refusal> => {
    // One run at a time: the lock orders two admins' starts, the unique index backs it.
    await tx.execute(sql`lock table ${seasonStarts} in share row exclusive mode`);
    const [open] = await tx.select({ id: seasonStarts.id }).from(seasonStarts).where(isNull(seasonStarts.finishedAt));
    if (open) return refuse({ form: M.running }, 409);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(clientCases).where(chosen(taxYear, filter));
    if (n === 0) return refuse({ form: M.nobody });
    if (String(n) !== input.confirmed.trim()) return refuse({ confirmed: M.changed }, 409);
    const [run] = await tx.insert(seasonStarts).values({ taxYear, filter, total: n, startedBy: admin.id }).returning({ id: seasonStarts.id });
    const runId = run!.id;
    await tx.execute(sql`
      insert into ${seasonStartClients} (run_id, client_id)
      select ${runId}::uuid, ${clientCases.userId} from ${clientCases} where ${chosen(taxYear, filter)}`);
    // The clients chosen now (a client may have joined last year's set since the count).
    const [{ total } = { total: n }] = await tx.select({ total: count() }).from(seasonStartClients).where(eq(seasonStartClients.runId, runId));
    if (total !== n) await tx.update(seasonStarts).set({ total }).where(eq(seasonStarts.id, runId));
    await recordAudit(
      { actor: admin, action: "season-started", taxYear, detail: `tax year ${taxYear}: ${SEASON_FILTER_LABELS[filter].toLowerCase()}, ${total} clients`, ip },
      tx,
    );
    return { ok: true, runId };
  });
  if (outcome.ok) runJobSoon(SEASON_JOB);
  return outcome;
}

export type SeasonRunView = {
  id: string;
  taxYear: number;
  filter: SeasonFilter;
  startedBy: string | null;
  startedAt: string;
  finishedAt: string | null;
  progress: SeasonProgress;
};

/** The newest runs, with what became of their clients so far. */
export async function seasonRuns(limit = 10): Promise<SeasonRunView[]> {
  const db = getDb();
  const runs = await db
    .select({
      id: seasonStarts.id,
      taxYear: seasonStarts.taxYear,
      filter: seasonStarts.filter,
      total: seasonStarts.total,
      startedBy: user.name,
      startedAt: seasonStarts.startedAt,
      finishedAt: seasonStarts.finishedAt,
    })
    .from(seasonStarts)
    .leftJoin(user, eq(user.id, seasonStarts.startedBy))
    .orderBy(desc(seasonStarts.startedAt))
    .limit(limit);
  if (runs.length === 0) return [];
  const tallies = await db
    .select({ runId: seasonStartClients.runId, outcome: seasonStartClients.outcome, n: count() })
    .from(seasonStartClients)
    .where(and(inArray(seasonStartClients.runId, runs.map((r) => r.id)), sql`${seasonStartClients.outcome} is not null`))
    .groupBy(seasonStartClients.runId, seasonStartClients.outcome);
  return runs.map((run) => {
    const of = (outcome: SeasonOutcome) => tallies.find((t) => t.runId === run.id && t.outcome === outcome)?.n ?? 0;
    return {
      id: run.id,
      taxYear: run.taxYear,
      filter: run.filter,
      startedBy: run.startedBy,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      progress: { total: run.total, opened: of("opened"), hadYear: of("had-year"), gone: of("gone"), failed: of("failed") },
    };
  });
}

type Run = { id: string; taxYear: number; admin: { id: string; email: string } | null };

/** One client of the run, in `tx`: the year opened with its letter and e-mail, or left alone. */
async function openForClient(tx: Transaction, run: Run, clientId: string): Promise<{ outcome: SeasonOutcome; mailId: string | null }> {
  const [client] = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, clientId), eq(user.role, "user"), isNull(user.deactivatedAt)));
  if (!client) return { outcome: "gone", mailId: null };
  const opened = await insertCaseInTx(tx, clientId, run.taxYear);
  if (opened === "no-such-client") return { outcome: "gone", mailId: null };
  if (opened === "exists") return { outcome: "had-year", mailId: null };
  await recordAudit({ actor: run.admin, action: "case-opened", clientId, taxYear: run.taxYear, detail: `tax year ${run.taxYear}, by the season's start` }, tx);
  const [theCase] = await tx
    .select({ status: clientCases.residencyStatus })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, run.taxYear)));
  const letter = await makeLetterInTx(tx, null, { clientId, taxYear: run.taxYear }, defaultService(theCase?.status ?? null), null);
  return { outcome: "opened", mailId: letter?.mailId ?? null };
}

/** The next batch of the run's clients not done yet, each done in one transaction with the batch. Answers how many. */
async function workBatch(run: Run): Promise<number> {
  return getDb().transaction(async (tx) => {
    const pending = await tx
      .select({ clientId: seasonStartClients.clientId })
      .from(seasonStartClients)
      .where(and(eq(seasonStartClients.runId, run.id), isNull(seasonStartClients.outcome)))
      .orderBy(asc(seasonStartClients.clientId))
      .limit(SEASON_BATCH)
      .for("update", { skipLocked: true });
    const byOutcome = new Map<SeasonOutcome, string[]>();
    for (const { clientId } of pending) {
      let outcome: SeasonOutcome;
      try {
        // A savepoint per client: one client's failure leaves nothing of theirs and stops no one else.
        outcome = (await tx.transaction((client) => openForClient(client, run, clientId))).outcome;
      } catch (error) {
        logError("season", "a client of the season's start could not be opened", error);
        outcome = "failed";
      }
      byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), clientId]);
    }
    for (const [outcome, ids] of byOutcome)
      await tx
        .update(seasonStartClients)
        .set({ outcome, doneAt: sql`now()` })
        .where(and(eq(seasonStartClients.runId, run.id), inArray(seasonStartClients.clientId, ids)));
    return pending.length;
  });
}

export type SeasonWork = { runs: number; clients: number; stopped: boolean };

/**
 * The pause after a batch that took `batchMs`. The embedded database answers in the server's own
 * thread, one transaction at a time, without any I/O: back to back, the run's queries would
 * follow each other as one chain of promises and hold up every request, timer and e-mail of the
 * process until the last client. There the run pauses as long as its batch took, leaving the
 * database half of the time; on PostgreSQL (a pool of connections) a turn of the event loop.
 */
function breather(batchMs: number): Promise<void> {
  if (databaseKind() === "pglite") return new Promise((resolve) => setTimeout(resolve, Math.min(Math.round(batchMs), 2_000)));
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Works through the unfinished runs, oldest first, batch by batch, until none is left, `signal`
 * aborts or `batches` batches are done (the run goes on at the next call). The outbox's job is
 * asked to send after each batch. Call under the job's lock (seasonStartJob) or where nothing
 * else runs it (tests).
 */
export async function workSeasonStarts(options: { signal?: AbortSignal; batches?: number } = {}): Promise<SeasonWork> {
  const work: SeasonWork = { runs: 0, clients: 0, stopped: false };
  let batches = 0;
  const stop = () => options.signal?.aborted === true || (options.batches !== undefined && batches >= options.batches);
  for (;;) {
    if (stop()) return { ...work, stopped: true };
    const [row] = await getDb()
      .select({ id: seasonStarts.id, taxYear: seasonStarts.taxYear, adminId: user.id, adminEmail: user.email })
      .from(seasonStarts)
      .leftJoin(user, eq(user.id, seasonStarts.startedBy))
      .where(isNull(seasonStarts.finishedAt))
      .orderBy(asc(seasonStarts.startedAt))
      .limit(1);
    if (!row) return work;
    const run: Run = { id: row.id, taxYear: row.taxYear, admin: row.adminId && row.adminEmail ? { id: row.adminId, email: row.adminEmail } : null };
    for (;;) {
      if (stop()) return { ...work, stopped: true };
      const began = performance.now();
      const done = await workBatch(run);
      batches += 1;
      work.clients += done;
      if (done === 0) break;
      runJobSoon(MAIL_OUTBOX_JOB);
      await breather(performance.now() - began);
    }
    await getDb().update(seasonStarts).set({ finishedAt: sql`now()` }).where(and(eq(seasonStarts.id, run.id), isNull(seasonStarts.finishedAt)));
    work.runs += 1;
  }
}

/**
 * The season's start as the scheduler runs it: every 15 seconds it looks for a run not finished (a
 * start asks for it at once, runJobSoon; a restart finds the one it stopped), and works it until
 * done or the process stops.
 */
export function seasonStartJob(): ScheduledJob {
  return {
    name: SEASON_JOB,
    intervalMs: 15_000,
    firstRunMs: 5_000,
    // Short, so that after a crash another process takes the run up soon; extended while it runs.
    leaseMs: 30_000,
    async run(signal) {
      const work = await workSeasonStarts({ signal });
      if (work.clients > 0) console.info(`[season] ${work.clients} clients done${work.stopped ? ", stopped to go on later" : ""}`);
    },
  };
}
