/**
 * The weekly reminder of requested items: a client whose case has items requested
 * from them outstanding for REMINDER_AFTER_DAYS days or more is e-mailed, at most once every
 * REMINDER_AFTER_DAYS days per case, and no more once nothing is outstanding. The e-mail says how
 * many items are still needed and links to the filing's page; never what they are.
 *
 * Each case is claimed with one conditional UPDATE of `client_cases.requests_reminded_at`, in the
 * transaction that queues its e-mail in the outbox (ADR 0023), so two runs at once (two processes,
 * or a run on demand beside the schedule) e-mail a client once. An e-mail that fails on its first
 * try stays queued for the outbox's next tries, and the claim stays: the next reminder is a week
 * later, not at every run.
 */
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { OUTSTANDING_STATES } from "~/domain/requests";
import { getDb } from "~/server/db/client.server";
import { clientCases, documentRequests, user } from "~/server/db/schema";
import { EnvError } from "~/server/platform/env.server";
import { deliverNow, enqueueMail } from "~/server/mail/outbox.server";
import { filingUrl } from "~/server/notices/notices.server";
import { runExclusive } from "~/server/platform/scheduler.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";

/** How long an item is outstanding before the client is reminded, and the least time between two reminders. */
export const REMINDER_AFTER_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Cases read at a time: a run goes on until none is left. */
const BATCH = 200;

/** The job's name in `scheduled_jobs`. */
export const REMINDERS_JOB = "request-reminders";

export type ReminderRun = { reminded: number; failed: number };

/** The case has an item outstanding since `cutoff` or before. */
function hasItemDueSince(cutoff: Date) {
  return sql`exists (select 1 from ${documentRequests} r
    where r.client_id = ${clientCases.userId} and r.tax_year = ${clientCases.taxYear}
      and r.state in (${sql.join(
        OUTSTANDING_STATES.map((s) => sql`${s}`),
        sql`, `,
      )})
      and r.outstanding_since is not null and r.outstanding_since <= ${cutoff})`;
}

/** The case's client is an active client account. */
const activeClient = sql`exists (select 1 from "user" u where u.id = ${clientCases.userId} and u.role = 'user' and u.deactivated_at is null)`;

/**
 * Sends the reminders due at `now` (the current time unless a test says otherwise) and answers
 * how many clients were e-mailed and how many e-mails failed.
 */
export async function sendRequestReminders(options: { now?: Date } = {}): Promise<ReminderRun> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - REMINDER_AFTER_DAYS * DAY_MS);
  const notRemindedSince = or(
    isNull(clientCases.requestsRemindedAt),
    lte(clientCases.requestsRemindedAt, cutoff),
  );
  const db = getDb();
  const run: ReminderRun = { reminded: 0, failed: 0 };
  // Every case read is claimed here or by another run, so each batch leaves the next one fewer.
  for (;;) {
    const due = await db
      .select({
        clientId: clientCases.userId,
        taxYear: clientCases.taxYear,
        email: user.email,
        name: user.name,
      })
      .from(clientCases)
      .innerJoin(user, eq(user.id, clientCases.userId))
      .where(
        and(eq(user.role, "user"), isNull(user.deactivatedAt), notRemindedSince, hasItemDueSince(cutoff)),
      )
      .limit(BATCH);
    if (due.length === 0) break;
    let claimedHere = 0;
    for (const c of due) {
      // The claim: only one run sets it, and only while an item is still due; the e-mail is
      // queued with it.
      const mailId = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(clientCases)
          .set({ requestsRemindedAt: now })
          .where(
            and(
              eq(clientCases.userId, c.clientId),
              eq(clientCases.taxYear, c.taxYear),
              notRemindedSince,
              hasItemDueSince(cutoff),
              activeClient,
            ),
          )
          .returning({
            outstanding: sql<number>`(select count(*) from ${documentRequests} r
            where r.client_id = ${clientCases.userId} and r.tax_year = ${clientCases.taxYear}
              and r.state in (${sql.join(
                OUTSTANDING_STATES.map((s) => sql`${s}`),
                sql`, `,
              )}))`.mapWith(Number),
          });
        if (!claimed) return null;
        return enqueueMail(
          {
            kind: "requests-reminder",
            to: c.email,
            payload: {
              name: c.name,
              taxYear: c.taxYear,
              count: claimed.outstanding,
              url: filingUrl(c.taxYear),
            },
          },
          tx,
        );
      });
      if (!mailId) continue;
      claimedHere += 1;
      const { sent } = await deliverNow(mailId);
      if (sent === 1) run.reminded += 1;
      else run.failed += 1;
    }
    // Nothing of this batch was left to claim (another run took it): that run goes on with the rest.
    if (claimedHere === 0) break;
  }
  return run;
}

/** The lease of the reminder job's lock (extended while a run goes on). */
const LEASE_MS = 10 * 60_000;

/**
 * One run of the job on demand, under its lock: what it did, or null when another run (in this
 * process or another) holds the lock.
 */
export async function runRequestReminders(
  options: { now?: Date; holder?: string } = {},
): Promise<ReminderRun | null> {
  const outcome = await runExclusive(REMINDERS_JOB, () => sendRequestReminders({ now: options.now }), {
    leaseMs: LEASE_MS,
    holder: options.holder,
  });
  return outcome.ran ? outcome.result : null;
}

/** The reminder job's schedule, from the environment. */
export type ReminderSchedule = { intervalMs: number; firstRunMs: number };

/**
 * A setting of the environment that is a number of `unit` (0 or more), `fallback` when unset.
 * Anything else stops the start with a clear line (`hint` follows the unit in it).
 */
export function nonNegative(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  unit: string,
  hint: string,
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(value))
    throw new EnvError(`Invalid configuration: ${name}: must be a number of ${unit}${hint}.`);
  return value;
}

/**
 * REMINDER_INTERVAL_MINUTES (default 60; 0 turns the reminders off in this process) and
 * REMINDER_FIRST_RUN_SECONDS (default 60: the wait after start-up before the first run).
 * Null when turned off. A value that is not a number stops the start with a clear line.
 */
export function reminderSchedule(env: NodeJS.ProcessEnv = process.env): ReminderSchedule | null {
  const minutes = nonNegative(env, "REMINDER_INTERVAL_MINUTES", 60, "minutes", ", 0 to turn reminders off");
  const firstSeconds = nonNegative(env, "REMINDER_FIRST_RUN_SECONDS", 60, "seconds", "");
  if (minutes === 0) return null;
  return { intervalMs: minutes * 60_000, firstRunMs: firstSeconds * 1000 };
}

/** The reminder job as the scheduler runs it, or null when turned off. */
export function requestRemindersJob(env: NodeJS.ProcessEnv = process.env): ScheduledJob | null {
  const schedule = reminderSchedule(env);
  if (!schedule) return null;
  return {
    name: REMINDERS_JOB,
    ...schedule,
    leaseMs: LEASE_MS,
    async run() {
      const { reminded, failed } = await sendRequestReminders();
      if (reminded > 0 || failed > 0)
        console.info(
          `[reminders] ${reminded} reminder e-mail(s) sent${failed > 0 ? `, ${failed} failed` : ""}`,
        );
    },
  };
}
