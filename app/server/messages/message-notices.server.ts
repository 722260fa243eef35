/**
 * The client's e-mail about a message from staff, held for a quiet period: staff may hide a
 * message they sent a moment ago, and the client must not be told of a message they cannot see.
 * sendMessage (posting.server.ts) marks each staff message `client_notice_pending`; this job,
 * run by the server's scheduler, takes the marked messages older than the quiet period and
 * e-mails the client about each one that is still visible and unread, unless an earlier message
 * from staff sent within the hour before it is still unread (that one's e-mail stands for both:
 * the rule sendMessage tells staff). The mark is in the database, so a restart loses nothing.
 *
 * Each message is claimed with one conditional UPDATE, in the transaction that queues its e-mail
 * in the outbox (ADR 0023), so two runs at once e-mail a client once; the e-mail is then sent (the
 * job is no request: it waits for the try, to count it), and one that fails stays queued for the
 * outbox's next tries.
 */
import { and, asc, eq, gt, isNull, lte, ne, sql } from "drizzle-orm";
import { unreadFrom } from "~/server/cases/case-counts.server";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { caseMessages, user } from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";
import { deliverNow, enqueueMail } from "~/server/mail/outbox.server";
import { NOTICE_QUIET_MS } from "~/server/notices/notices.server";
import { nonNegative } from "~/server/requests/reminders.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";

/** The job's name in `scheduled_jobs`. */
export const MESSAGE_NOTICES_JOB = "message-notices";

/** The quiet period unless MESSAGE_NOTICE_DELAY_SECONDS says otherwise: 2 minutes. */
export const MESSAGE_NOTICE_DELAY_SECONDS = 120;

/** Messages read at a time: a run goes on until none is left. */
const BATCH = 200;

/** The lease of the job's lock (extended while a run goes on). */
const LEASE_MS = 2 * 60_000;

/** `failed`: queued, but not sent on the first try (the outbox tries again). */
export type NoticeRun = { sent: number; skipped: number; failed: number };

/**
 * Decides the e-mail of every staff message marked pending and older than `delayMs` at `now`
 * (the current time unless a test says otherwise).
 */
export async function sendMessageNotices(options: { now?: Date; delayMs?: number } = {}): Promise<NoticeRun> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - (options.delayMs ?? MESSAGE_NOTICE_DELAY_SECONDS * 1000));
  const db = getDb();
  const run: NoticeRun = { sent: 0, skipped: 0, failed: 0 };
  for (;;) {
    const due = await db
      .select({ id: caseMessages.id })
      .from(caseMessages)
      .where(and(eq(caseMessages.clientNoticePending, true), lte(caseMessages.createdAt, cutoff)))
      .orderBy(asc(caseMessages.createdAt))
      .limit(BATCH);
    if (due.length === 0) break;
    let claimedHere = 0;
    for (const { id } of due) {
      // The claim and the e-mail's row, together: only one run clears the mark. Whether the
      // message is hidden or read is read in the same statement.
      const taken = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(caseMessages)
          .set({ clientNoticePending: false })
          .where(and(eq(caseMessages.id, id), eq(caseMessages.clientNoticePending, true)))
          .returning({
            clientId: caseMessages.clientId,
            taxYear: caseMessages.taxYear,
            createdAt: caseMessages.createdAt,
            visibleUnread: sql<boolean>`${caseMessages.hiddenAt} is null and ${caseMessages.readAt} is null`,
          });
        if (!claimed) return null;
        if (!claimed.visibleUnread || (await earlierUnread(id, claimed, tx))) return { mailId: null };
        const [client] = await tx
          .select({ email: user.email, name: user.name })
          .from(user)
          .where(and(eq(user.id, claimed.clientId), eq(user.role, "user"), isNull(user.deactivatedAt)));
        if (!client) return { mailId: null };
        const url = `${getEnv().appUrl}/my-tax-filing/${claimed.taxYear}/messages`;
        const mailId = await enqueueMail(
          { kind: "client-message", to: client.email, payload: { name: client.name, taxYear: claimed.taxYear, url } },
          tx,
        );
        return { mailId };
      });
      if (!taken) continue;
      claimedHere += 1;
      if (!taken.mailId) {
        run.skipped += 1;
        continue;
      }
      const { sent } = await deliverNow(taken.mailId);
      if (sent === 1) run.sent += 1;
      else run.failed += 1;
    }
    // Nothing of this batch was left to claim (another run took it): that run goes on with the rest.
    if (claimedHere === 0) break;
  }
  return run;
}

/** Whether the client has an unread, visible message from staff sent within the hour before this one. */
async function earlierUnread(
  id: string,
  message: { clientId: string; taxYear: number; createdAt: Date },
  db: Pick<Database, "select"> = getDb(),
): Promise<boolean> {
  const [earlier] = await db
    .select({ id: caseMessages.id })
    .from(caseMessages)
    .where(
      and(
        eq(caseMessages.clientId, message.clientId),
        eq(caseMessages.taxYear, message.taxYear),
        unreadFrom(false),
        ne(caseMessages.id, id),
        lte(caseMessages.createdAt, message.createdAt),
        gt(caseMessages.createdAt, new Date(message.createdAt.getTime() - NOTICE_QUIET_MS)),
      ),
    )
    .limit(1);
  return earlier !== undefined;
}

/**
 * The job as the scheduler runs it. MESSAGE_NOTICE_DELAY_SECONDS (default 120) is the quiet
 * period; the job looks every quarter of it (at least every second, at most every 30 seconds),
 * so an e-mail goes out at most a quarter of the period (or 30 s) after it ends. A value that is
 * not a number stops the start with a clear line.
 */
export function messageNoticesJob(env: NodeJS.ProcessEnv = process.env): ScheduledJob {
  const delayMs =
    nonNegative(env, "MESSAGE_NOTICE_DELAY_SECONDS", MESSAGE_NOTICE_DELAY_SECONDS, "seconds", "") * 1000;
  const intervalMs = Math.min(30_000, Math.max(1_000, Math.round(delayMs / 4)));
  return {
    name: MESSAGE_NOTICES_JOB,
    intervalMs,
    firstRunMs: intervalMs,
    leaseMs: LEASE_MS,
    async run() {
      const { sent, failed } = await sendMessageNotices({ delayMs });
      if (failed > 0) console.info(`[messages] ${sent} message notice(s) sent, ${failed} queued for another try`);
    },
  };
}
