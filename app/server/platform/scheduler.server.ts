/**
 * Work the server process runs on a schedule (the weekly request reminders), with a lock in the
 * database (table `scheduled_jobs`) so that when several processes serve the site, one of them
 * runs each job at a time:
 * - a process takes a job with one atomic statement that succeeds only when nobody holds it
 *   (`locked_until` in the past), for a lease that it extends while the job runs;
 * - it releases the job when done; a holder that crashed leaves a lease that simply expires.
 * Times of the lock are the database's clock, the one all processes share.
 *
 * Started from the server's start-up (server/app.ts) only: tests and scripts never start it.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { logError } from "~/log";
import { getDb } from "~/server/db/client.server";

/** Who this process is in `scheduled_jobs.locked_by` (the host, the process and a random part). */
export const PROCESS_HOLDER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export type LockOptions = {
  /** Who takes it (this process unless told). */
  holder?: string;
  /** How long the lock holds without being extended. */
  leaseMs: number;
  /**
   * Refuse the job when a run of it finished less than this long ago (so that several processes
   * on the same interval run it once per interval between them). Absent: run whenever free.
   */
  notWithinMs?: number;
  /**
   * The time the lock is taken at: the database's clock (`now()`, the one all processes share)
   * unless given. Tests give it to move time without waiting.
   */
  now?: Date;
};

/**
 * Takes the job `name` for `leaseMs` when nobody holds it: one statement, so of two processes
 * asking at once exactly one gets it. True when taken.
 */
export async function tryLockJob(name: string, options: LockOptions): Promise<boolean> {
  const holder = options.holder ?? PROCESS_HOLDER;
  const lease = Math.max(1, Math.round(options.leaseMs));
  const now = options.now ? sql`${options.now.toISOString()}::timestamptz` : sql`now()`;
  const recent =
    options.notWithinMs === undefined
      ? sql``
      : sql` and (scheduled_jobs.last_finished_at is null or scheduled_jobs.last_finished_at <= ${now} - ${Math.round(options.notWithinMs)}::double precision * interval '1 millisecond')`;
  const result = await getDb().execute(sql`
    insert into scheduled_jobs (name, locked_until, locked_by)
    values (${name}, ${now} + ${lease}::double precision * interval '1 millisecond', ${holder})
    on conflict (name) do update
      set locked_until = excluded.locked_until, locked_by = excluded.locked_by
      where scheduled_jobs.locked_until < ${now}${recent}
    returning name`);
  return rowsOf(result).length === 1;
}

/** Moves the holder's lease forward while its run goes on. False when the job is no longer theirs. */
export async function extendJobLock(
  name: string,
  leaseMs: number,
  holder = PROCESS_HOLDER,
): Promise<boolean> {
  const result = await getDb().execute(sql`
    update scheduled_jobs set locked_until = now() + ${Math.max(1, Math.round(leaseMs))}::double precision * interval '1 millisecond'
    where name = ${name} and locked_by = ${holder}
    returning name`);
  return rowsOf(result).length === 1;
}

/**
 * Lets the job go (only when this holder still has it). `finished`: the run completed, so its
 * time is kept as the job's last run.
 */
export async function releaseJob(name: string, finished: boolean, holder = PROCESS_HOLDER): Promise<void> {
  await getDb().execute(sql`
    update scheduled_jobs
    set locked_until = '-infinity', locked_by = null,
        last_finished_at = case when ${finished}::boolean then now() else last_finished_at end
    where name = ${name} and locked_by = ${holder}`);
}

function rowsOf(result: unknown): unknown[] {
  const rows = (result as { rows?: unknown[] }).rows;
  return Array.isArray(rows) ? rows : [];
}

/**
 * Runs `work` under the job's lock: nothing (ran: false) when another holder has it. The lease
 * is extended every third of it while the work runs, and the lock is released after, whatever
 * the outcome (a failed run is not counted as the job's last run, so the next tick tries again).
 */
export async function runExclusive<T>(
  name: string,
  work: () => Promise<T>,
  options: LockOptions,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const holder = options.holder ?? PROCESS_HOLDER;
  if (!(await tryLockJob(name, { ...options, holder }))) return { ran: false };
  const heartbeat = setInterval(
    () => {
      extendJobLock(name, options.leaseMs, holder).catch((error: unknown) =>
        logError("scheduler", `extending the lock of ${name} failed`, error),
      );
    },
    Math.max(1_000, Math.floor(options.leaseMs / 3)),
  );
  heartbeat.unref();
  let finished = false;
  try {
    const result = await work();
    finished = true;
    return { ran: true, result };
  } finally {
    clearInterval(heartbeat);
    try {
      await releaseJob(name, finished, holder);
    } catch (error) {
      // The lease expires by itself.
      logError("scheduler", `releasing ${name} failed`, error);
    }
  }
}

export type ScheduledJob = {
  name: string;
  /** Time between runs (from the end of one to the start of the next in this process). */
  intervalMs: number;
  /** Time from start-up to the first run. */
  firstRunMs: number;
  /** The lock's lease (extended while the job runs). */
  leaseMs: number;
  /** One run; `signal` aborts when the process stops (a long run ends at its next safe point). */
  run: (signal: AbortSignal) => Promise<void>;
};

export type Scheduler = {
  /** The jobs it runs, by name. */
  readonly jobs: readonly string[];
  /** Stops the timers, tells the runs under way to stop, and waits for them to end. */
  stop: () => Promise<void>;
};

/** The scheduler this process runs (the server's), for runJobSoon. */
let current: { soon: (name: string) => void } | null = null;

/**
 * Runs the job `name` now in this process, when the process runs a scheduler with that job and
 * the job is not running here: work a request has just queued starts without waiting for the
 * job's next tick (the job's lock still keeps one process at it). Without a scheduler (tests,
 * scripts) nothing happens.
 */
export function runJobSoon(name: string): void {
  current?.soon(name);
}

/**
 * Starts the jobs' timers in this process. Each tick takes the job's lock (skipping it when
 * another process holds it or ran it within the last 90% of the interval), runs it, releases
 * it. A run's failure is logged; the next tick comes as planned. The timers do not keep the
 * process alive.
 */
export function startScheduler(jobs: readonly ScheduledJob[]): Scheduler {
  let stopped = false;
  const stopping = new AbortController();
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const busy = new Set<string>();

  function schedule(job: ScheduledJob, delay: number, soon = false): void {
    if (stopped) return;
    clearTimeout(timers.get(job.name));
    const timer = setTimeout(() => {
      busy.add(job.name);
      const run = tick(job, soon).finally(() => {
        busy.delete(job.name);
        running.delete(run);
        schedule(job, job.intervalMs);
      });
      running.add(run);
    }, delay);
    timer.unref();
    timers.set(job.name, timer);
  }

  async function tick(job: ScheduledJob, soon: boolean): Promise<void> {
    try {
      // A run asked for now is not held back by the last run's time.
      await runExclusive(job.name, () => job.run(stopping.signal), { leaseMs: job.leaseMs, ...(soon ? {} : { notWithinMs: job.intervalMs * 0.9 }) });
    } catch (error) {
      logError("scheduler", `${job.name} failed`, error);
    }
  }

  for (const job of jobs) schedule(job, job.firstRunMs);
  const scheduler = {
    soon(name: string) {
      const job = jobs.find((j) => j.name === name);
      if (job && !busy.has(name)) schedule(job, 0, true);
    },
  };
  current = scheduler;
  return {
    jobs: jobs.map((j) => j.name),
    async stop() {
      stopped = true;
      if (current === scheduler) current = null;
      stopping.abort();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}
