import { writeFileSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RequestState } from "~/domain/requests";
import { currentFilingYear } from "~/domain/tax-year";
import { createAccount } from "~/server/auth/accounts.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, documentRequests, mailOutbox, scheduledJobs, user } from "~/server/db/schema";
import {
  REMINDERS_JOB,
  reminderSchedule,
  requestRemindersJob,
  runRequestReminders,
  sendRequestReminders,
} from "~/server/requests/reminders.server";
import { releaseJob, runExclusive, startScheduler, tryLockJob } from "~/server/platform/scheduler.server";
import { sentMail } from "./helpers";

// The weekly reminder of requested items: who is e-mailed and when (7 days outstanding, at most
// once a week, never once nothing is outstanding, never a deactivated client), what the e-mail
// says (a count and a link, never the items), and the lock that makes several runs or processes
// send it once. Items are written straight to document_requests.

const YEAR = currentFilingYear();
const DAY = 24 * 60 * 60 * 1000;
/** The sweep's clock for each test: items are dated against it. */
const NOW = new Date("2031-03-10T12:00:00Z");
const at = (days: number) => new Date(NOW.getTime() + days * DAY);
const outbox = () => sentMail();

let alice: string;
let bob: string;

beforeEach(async () => {
  alice = await createAccount({
    name: "Alice Aardvark",
    email: "alice@example.com",
    role: "user",
    emailVerified: true,
  });
  bob = await createAccount({
    name: "Bob Bobolink",
    email: "bob@example.com",
    role: "user",
    emailVerified: true,
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

let position = 0;
/** An item of the client's case, outstanding (or not) since `daysAgo` days before NOW. */
async function item(
  clientId: string,
  daysAgo: number,
  state: RequestState = "requested",
  title = `Secret item ${++position}`,
  taxYear = YEAR,
): Promise<string> {
  const outstanding = state === "requested" || state === "returned";
  const [row] = await getDb()
    .insert(documentRequests)
    .values({
      clientId,
      taxYear,
      position: ++position,
      title,
      detail: `Detail of ${title}: W-2 from Acme, wages $81,000`,
      state,
      outstandingSince: outstanding ? at(-daysAgo) : null,
      createdAt: at(-daysAgo),
    })
    .returning({ id: documentRequests.id });
  return row!.id;
}

async function remindedAt(clientId: string, taxYear = YEAR): Promise<Date | null> {
  const [row] = await getDb()
    .select({ at: clientCases.requestsRemindedAt })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  return row!.at;
}

describe("request reminders", () => {
  it("waits until an item has been outstanding for 7 days, then e-mails the client a count and a link", async () => {
    await item(alice, 6);
    expect(await sendRequestReminders({ now: NOW })).toEqual({ reminded: 0, failed: 0 });
    expect((await outbox())).toEqual([]);
    expect(await remindedAt(alice)).toBeNull();

    // A day later the item is 7 days old; a newer item and a returned one count too, a received one does not.
    await item(alice, 1, "requested", "Passport copy");
    await item(alice, 3, "returned", "Bank statement");
    await item(alice, 20, "received", "Form 1042-S");
    await item(alice, 20, "not-applicable", "Rent receipts");
    expect(await sendRequestReminders({ now: at(1) })).toEqual({ reminded: 1, failed: 0 });
    const mails = (await outbox());
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("alice@example.com");
    expect(mails[0]!.subject).toBe(`Reminder: we still need 3 items for your ${YEAR} tax filing`);
    expect(mails[0]!.text).toContain(
      `Hello Alice Aardvark, TaxBridge is still waiting for 3 items we asked you for, for your ${YEAR} tax filing.`,
    );
    expect(mails[0]!.text).toContain(`See what we still need: http://localhost:3000/my-tax-filing/${YEAR}`);
    for (const secret of ["Secret item", "Passport", "Bank statement", "1042-S", "Rent", "Acme", "81,000"])
      expect(mails[0]!.raw).not.toContain(secret);
    expect(await remindedAt(alice)).toEqual(at(1));
    // Bob has nothing requested: nothing for him.
    expect(await remindedAt(bob)).toBeNull();
  });

  it("says 1 item for one item", async () => {
    await item(bob, 7);
    expect(await sendRequestReminders({ now: NOW })).toEqual({ reminded: 1, failed: 0 });
    expect((await outbox()).map((m) => [m.to, m.subject])).toEqual([
      ["bob@example.com", `Reminder: we still need 1 item for your ${YEAR} tax filing`],
    ]);
  });

  it("sends at most one a week while items stay outstanding, and stops once none is left", async () => {
    const first = await item(alice, 10);
    const second = await item(alice, 8, "returned");
    expect((await sendRequestReminders({ now: NOW })).reminded).toBe(1);
    // The same day, and up to 6 days later: nothing.
    for (const later of [0, 0.5, 6, 6.99])
      expect((await sendRequestReminders({ now: at(later) })).reminded).toBe(0);
    expect((await outbox())).toHaveLength(1);
    // 7 days later, still outstanding: the second reminder.
    expect((await sendRequestReminders({ now: at(7) })).reminded).toBe(1);
    expect((await outbox())).toHaveLength(2);
    expect((await outbox())[1]!.subject).toBe(`Reminder: we still need 2 items for your ${YEAR} tax filing`);

    // Everything received (or answered): no more reminders, however long it waits.
    await getDb()
      .update(documentRequests)
      .set({ state: "received", outstandingSince: null })
      .where(eq(documentRequests.id, first));
    await getDb()
      .update(documentRequests)
      .set({ state: "uploaded", outstandingSince: null })
      .where(eq(documentRequests.id, second));
    for (const later of [14, 21, 60])
      expect((await sendRequestReminders({ now: at(later) })).reminded).toBe(0);
    expect((await outbox())).toHaveLength(2);
    expect(await remindedAt(alice)).toEqual(at(7));
  });

  it("reminds each case of its own year, and each client only of their own", async () => {
    const earlier = YEAR - 1;
    await getDb().insert(clientCases).values({ userId: alice, taxYear: earlier });
    await item(alice, 9, "requested", "Old year item", earlier);
    await item(bob, 9);
    await item(bob, 9);
    expect(await sendRequestReminders({ now: NOW })).toEqual({ reminded: 2, failed: 0 });
    const mails = (await outbox()).map((m) => ({
      to: m.to,
      subject: m.subject,
      link: /my-tax-filing\/(\d{4})/.exec(m.text)?.[1],
    }));
    expect(mails.sort((a, b) => a.to.localeCompare(b.to))).toEqual([
      {
        to: "alice@example.com",
        subject: `Reminder: we still need 1 item for your ${earlier} tax filing`,
        link: String(earlier),
      },
      {
        to: "bob@example.com",
        subject: `Reminder: we still need 2 items for your ${YEAR} tax filing`,
        link: String(YEAR),
      },
    ]);
    expect(await remindedAt(alice, earlier)).toEqual(NOW);
    expect(await remindedAt(alice)).toBeNull();
  });

  it("sends nothing to a deactivated client", async () => {
    await item(alice, 10);
    await item(bob, 10);
    await getDb()
      .update(user)
      .set({ deactivatedAt: at(-1) })
      .where(eq(user.id, alice));
    expect(await sendRequestReminders({ now: NOW })).toEqual({ reminded: 1, failed: 0 });
    expect((await outbox()).map((m) => m.to)).toEqual(["bob@example.com"]);
    expect(await remindedAt(alice)).toBeNull();
  });

  it("keeps the claim when the e-mail fails: the e-mail waits in the outbox, logged without the address, and is not made again at the next run", async () => {
    await item(alice, 10);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // The outbox folder cannot be written: the e-mail cannot go, and waits for another try.
    writeFileSync(path.join(process.env.DATA_DIR!, "outbox"), "not a folder");
    expect(await sendRequestReminders({ now: NOW })).toEqual({ reminded: 0, failed: 1 });
    expect(await remindedAt(alice)).toEqual(NOW);
    const waiting = await getDb().select().from(mailOutbox);
    expect(waiting.map((m) => [m.kind, m.recipient, m.status, m.attempts])).toEqual([
      ["requests-reminder", "alice@example.com", "pending", 1],
    ]);
    const lines = logged.mock.calls.map((c) => c.join(" "));
    expect(lines.some((l) => l.startsWith("[mail] a requests-reminder e-mail was not sent ("))).toBe(true);
    expect(lines.join("\n")).not.toContain("alice@example.com");
    // The next hourly run does not try again (no storm); a week later it does.
    expect(await sendRequestReminders({ now: at(1 / 24) })).toEqual({ reminded: 0, failed: 0 });
    expect(await sendRequestReminders({ now: at(7) })).toEqual({ reminded: 0, failed: 1 });
    expect(await getDb().select().from(mailOutbox)).toHaveLength(2);
  });

  it("two runs at once e-mail each client once", async () => {
    await item(alice, 10);
    await item(bob, 10);
    const runs = await Promise.all([sendRequestReminders({ now: NOW }), sendRequestReminders({ now: NOW })]);
    expect(runs.reduce((n, r) => n + r.reminded, 0)).toBe(2);
    expect(
      (await outbox())
        .map((m) => m.to)
        .sort(),
    ).toEqual(["alice@example.com", "bob@example.com"]);
  });

  it("two runs of the job asked for at once: one takes the lock, the other does nothing", async () => {
    await item(alice, 10);
    // Two connections open beforehand (PostgreSQL's pool), so that both runs ask at once: one
    // that had to connect first could ask only after the other's whole run, and find it free.
    await Promise.all([getDb().execute(sql`select 1`), getDb().execute(sql`select 1`)]);
    const runs = await Promise.all([
      runRequestReminders({ now: NOW, holder: "process-a" }),
      runRequestReminders({ now: NOW, holder: "process-b" }),
    ]);
    expect(runs.filter((r) => r === null)).toHaveLength(1);
    expect(runs.find((r) => r !== null)).toEqual({ reminded: 1, failed: 0 });
    expect((await outbox())).toHaveLength(1);
    // Released after the run, with the time it finished.
    const [job] = await getDb().select().from(scheduledJobs).where(eq(scheduledJobs.name, REMINDERS_JOB));
    expect(job!.lockedBy).toBeNull();
    expect(job!.lastFinishedAt).not.toBeNull();
    // And free for the next run.
    expect(await runRequestReminders({ now: NOW })).toEqual({ reminded: 0, failed: 0 });
  });
});

describe("the job lock", () => {
  it("refuses a second holder until the first releases it or its lease expires", async () => {
    expect(await tryLockJob("lock-test", { holder: "a", leaseMs: 60_000 })).toBe(true);
    expect(await tryLockJob("lock-test", { holder: "b", leaseMs: 60_000 })).toBe(false);
    expect(await tryLockJob("lock-test", { holder: "a", leaseMs: 60_000 })).toBe(false);
    // Only the holder releases it.
    await releaseJob("lock-test", true, "b");
    expect(await tryLockJob("lock-test", { holder: "b", leaseMs: 60_000 })).toBe(false);
    await releaseJob("lock-test", true, "a");
    // From here the lock's clock is the test's: time moves on without waiting.
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    expect(await tryLockJob("lock-test", { holder: "b", leaseMs: 300, now: at(0) })).toBe(true);

    // b "crashes" holding it: refused until the lease runs out, then taken.
    expect(await tryLockJob("lock-test", { holder: "c", leaseMs: 60_000, now: at(0) })).toBe(false);
    expect(await tryLockJob("lock-test", { holder: "c", leaseMs: 60_000, now: at(299) })).toBe(false);
    expect(await tryLockJob("lock-test", { holder: "c", leaseMs: 60_000, now: at(450) })).toBe(true);
    const [row] = await getDb().select().from(scheduledJobs).where(eq(scheduledJobs.name, "lock-test"));
    expect(row!.lockedBy).toBe("c");
    expect(row!.lockedUntil.getTime()).toBe(t0 + 450 + 60_000);
    // b's late release does not free c's lock.
    await releaseJob("lock-test", true, "b");
    expect(await tryLockJob("lock-test", { holder: "d", leaseMs: 60_000, now: at(451) })).toBe(false);
    expect(await tryLockJob("lock-test", { holder: "d", leaseMs: 60_000 })).toBe(false);
  });

  it("of many holders asking at once, exactly one gets it", async () => {
    const got = await Promise.all(
      Array.from({ length: 8 }, (_, i) => tryLockJob("race-test", { holder: `p${i}`, leaseMs: 60_000 })),
    );
    expect(got.filter(Boolean)).toHaveLength(1);
  });

  it("skips a scheduled run when one finished within the interval, and releases the lock after a failed run", async () => {
    expect((await runExclusive("gap-test", async () => "done", { leaseMs: 60_000 })).ran).toBe(true);
    // Within the interval: refused; without the condition (a run on demand): taken.
    expect(await tryLockJob("gap-test", { holder: "x", leaseMs: 60_000, notWithinMs: 60_000 })).toBe(false);
    expect(await tryLockJob("gap-test", { holder: "x", leaseMs: 60_000 })).toBe(true);
    await releaseJob("gap-test", false, "x");

    const [before] = await getDb().select().from(scheduledJobs).where(eq(scheduledJobs.name, "gap-test"));
    await expect(
      runExclusive(
        "gap-test",
        async () => {
          throw new Error("boom");
        },
        { leaseMs: 60_000 },
      ),
    ).rejects.toThrow("boom");
    const [after] = await getDb().select().from(scheduledJobs).where(eq(scheduledJobs.name, "gap-test"));
    expect(after!.lockedBy).toBeNull();
    // A failed run is not the job's last run.
    expect(after!.lastFinishedAt).toEqual(before!.lastFinishedAt);
    expect((await runExclusive("gap-test", async () => 1, { leaseMs: 60_000 })).ran).toBe(true);
  });

  it("two schedulers (as two processes) with the same job run it once, and stop waits for the run", async () => {
    // The schedulers' timers are the test's: time moves on without waiting.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    let runs = 0;
    let finished = 0;
    let endRun = () => {};
    const running = new Promise<void>((resolve) => (endRun = resolve));
    const job = {
      name: "scheduler-test",
      intervalMs: 60 * 60_000,
      firstRunMs: 0,
      leaseMs: 60_000,
      run: async () => {
        runs += 1;
        await running;
        finished += 1;
      },
    };
    const one = startScheduler([job]);
    const two = startScheduler([job]);
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 5_000 });
    let stopped = false;
    const stopping = Promise.all([one.stop(), two.stop()]).then(() => (stopped = true));
    // The run under way holds the lock: stop waits for it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);
    endRun();
    await stopping;
    expect(finished).toBe(1);
    // The second scheduler's tick found it held, and did not run it again; once stopped, a whole
    // interval later, neither runs it.
    await vi.advanceTimersByTimeAsync(2 * job.intervalMs);
    expect(runs).toBe(1);
  });

  it("a failing job is logged, and the scheduler goes on", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const scheduler = startScheduler([
      {
        name: "failing-test",
        intervalMs: 50,
        firstRunMs: 0,
        leaseMs: 60_000,
        run: async () => {
          throw new Error("nope");
        },
      },
    ]);
    await vi.waitFor(() => expect(logged.mock.calls.length).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    await scheduler.stop();
    expect(String(logged.mock.calls[0]![0])).toMatch(/^\[scheduler\] failing-test failed/);
  });
});

describe("the reminder schedule", () => {
  it("runs every hour, first a minute after start, unless configured otherwise; 0 turns it off", () => {
    expect(reminderSchedule({})).toEqual({ intervalMs: 3_600_000, firstRunMs: 60_000 });
    expect(reminderSchedule({ REMINDER_INTERVAL_MINUTES: "15", REMINDER_FIRST_RUN_SECONDS: "0" })).toEqual({
      intervalMs: 900_000,
      firstRunMs: 0,
    });
    expect(reminderSchedule({ REMINDER_INTERVAL_MINUTES: "0.5" })).toEqual({
      intervalMs: 30_000,
      firstRunMs: 60_000,
    });
    expect(reminderSchedule({ REMINDER_INTERVAL_MINUTES: "0" })).toBeNull();
    expect(requestRemindersJob({ REMINDER_INTERVAL_MINUTES: "0" })).toBeNull();
    expect(requestRemindersJob({})).toMatchObject({ name: REMINDERS_JOB, intervalMs: 3_600_000 });
    expect(() => reminderSchedule({ REMINDER_INTERVAL_MINUTES: "hourly" })).toThrow(
      "Invalid configuration: REMINDER_INTERVAL_MINUTES: must be a number of minutes, 0 to turn reminders off.",
    );
    expect(() => reminderSchedule({ REMINDER_FIRST_RUN_SECONDS: "-5" })).toThrow(
      "Invalid configuration: REMINDER_FIRST_RUN_SECONDS: must be a number of seconds.",
    );
  });
});
