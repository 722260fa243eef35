import { and, eq, sql } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import type { Database, Transaction } from "~/server/db/client.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, profiles, staffNotices, user } from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";
import { STAFF_NOTICE_KINDS } from "~/server/mail/mail-templates.server";
import type { StaffNoticeCounts, StaffNoticeKind } from "~/server/mail/mail-templates.server";
import { deliverMail, deliverNow, enqueueMail } from "~/server/mail/outbox.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";

// The e-mail notices about a case: a link and counts, never tax details. Each is queued in the
// outbox in the change's own transaction and sent once the change is stored and its request
// answered (ADR 0023); a notice that cannot be sent stays queued for another try and never fails
// the change.

/** The client's page for a tax year's filing. */
export function filingUrl(taxYear: number): string {
  return `${getEnv().appUrl}/my-tax-filing/${taxYear}`;
}

/** The staff's page for a case. */
export function casePageUrl(clientId: string, taxYear: number): string {
  return `${getEnv().appUrl}/admin/clients/${encodeURIComponent(clientId)}/${taxYear}`;
}

/** A client's address, name and stage-notice preference (null: no such client). */
export async function clientContact(clientId: string, db: Pick<Database, "select"> = getDb()) {
  const [row] = await db
    .select({ email: user.email, name: user.name, stageNotices: profiles.stageNotices })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(and(eq(user.id, clientId), eq(user.role, "user")));
  return row ?? null;
}

/**
 * Queues, in the workflow save's transaction, the client's e-mail that their case moved to another
 * stage, unless they turned stage e-mails off. Answers whether they wanted it (their preference,
 * read here once; false, no e-mail) and the outbox row to deliver once the save is stored.
 */
export async function queueStageNotice(
  tx: Transaction,
  clientId: string,
  taxYear: number,
): Promise<{ wanted: boolean; mailId: string | null }> {
  const client = await clientContact(clientId, tx);
  if (!client || client.stageNotices === false) return { wanted: false, mailId: null };
  const mailId = await enqueueMail(
    { kind: "stage-changed", to: client.email, payload: { name: client.name, taxYear, url: filingUrl(taxYear) } },
    tx,
  );
  return { wanted: true, mailId };
}

/**
 * Queues, in the share's transaction, the client's e-mail that staff shared `count` documents of
 * their case with them. Answers the outbox row to deliver once the share is stored.
 */
export async function queueDocumentsSharedNotice(tx: Transaction, clientId: string, taxYear: number, count: number): Promise<string | null> {
  const client = await clientContact(clientId, tx);
  if (!client) return null;
  return enqueueMail(
    { kind: "documents-shared", to: client.email, payload: { name: client.name, taxYear, count, url: filingUrl(taxYear) } },
    tx,
  );
}

/**
 * How long after a notice about a case the next one waits: what the client does meanwhile is
 * told in one e-mail when it has passed (staff), or not at all while the last message is unread
 * (the client: messages/posting.server.ts).
 */
export const NOTICE_QUIET_MS = 60 * 60 * 1000;

/**
 * The staff member a case's notices go to: its assignee, or the firm's address (STAFF_EMAIL) when
 * nobody is assigned or the assignee's account is deactivated (a deactivation unassigns their
 * cases; this holds for any assignment stored before it did).
 */
export async function staffNoticeRecipient(
  clientId: string,
  taxYear: number,
  db: Pick<Database, "select">,
): Promise<{ to: string; clientLabel: string } | null> {
  const [row] = await db
    .select({
      name: user.name,
      number: clientCases.number,
      assigneeEmail: sql<string | null>`(select s.email from "user" s where s.id = ${clientCases.assigneeId} and s.role in ('admin', 'preparer') and s.deactivated_at is null)`,
    })
    .from(clientCases)
    .innerJoin(user, eq(user.id, clientCases.userId))
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  if (!row) return null;
  const to = row.assigneeEmail ?? getEnv().staffEmail;
  return { to, clientLabel: `${clientCode(row.number)} ${row.name}` };
}

const hasCounts = (counts: StaffNoticeCounts) => STAFF_NOTICE_KINDS.some((kind) => (counts[kind] ?? 0) > 0);

/**
 * Adds `add` to what the case's notices have not told yet and, when the quiet period after the
 * last notice has passed, takes it all, queues its e-mail and starts a new quiet period. One
 * transaction with the case's row locked, so of several processes at once only one takes it.
 * Null when nothing was taken; else the queued e-mail (null when the case has no recipient).
 */
async function takeDueNotice(
  clientId: string,
  taxYear: number,
  add: StaffNoticeCounts,
): Promise<{ mailId: string | null } | null> {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`
      insert into ${staffNotices} (client_id, tax_year)
      select user_id, tax_year from ${clientCases} where user_id = ${clientId} and tax_year = ${taxYear}
      on conflict do nothing`);
    const ofCase = and(eq(staffNotices.clientId, clientId), eq(staffNotices.taxYear, taxYear));
    const [row] = await tx
      .select({
        pending: staffNotices.pending,
        due: sql<boolean>`(${staffNotices.lastSentAt} is null or ${staffNotices.lastSentAt} <= now() - ${NOTICE_QUIET_MS}::double precision * interval '1 millisecond')`,
      })
      .from(staffNotices)
      .where(ofCase)
      .for("update");
    if (!row) return null;
    const counts: StaffNoticeCounts = { ...row.pending };
    for (const kind of STAFF_NOTICE_KINDS) if (add[kind]) counts[kind] = (counts[kind] ?? 0) + add[kind];
    if (!hasCounts(counts)) return null;
    if (!row.due) {
      await tx.update(staffNotices).set({ pending: counts }).where(ofCase);
      return null;
    }
    await tx.update(staffNotices).set({ pending: {}, lastSentAt: sql`now()` }).where(ofCase);
    const recipient = await staffNoticeRecipient(clientId, taxYear, tx);
    if (!recipient) return { mailId: null };
    // Messages are read on the case's conversation page, a payment on its Fee section; anything else on the case page.
    const only = (which: StaffNoticeKind) => STAFF_NOTICE_KINDS.every((kind) => kind === which || !counts[kind]);
    const url = only("message-received")
      ? `${casePageUrl(clientId, taxYear)}/messages`
      : only("payment-announced")
        ? `${casePageUrl(clientId, taxYear)}/fee`
        : casePageUrl(clientId, taxYear);
    const mailId = await enqueueMail(
      { kind: "staff-case-notice", to: recipient.to, payload: { clientLabel: recipient.clientLabel, taxYear, counts, url } },
      tx,
    );
    return { mailId };
  });
}

/**
 * Tells staff that a client sent something for a case (staffNoticeRecipient). A case's notices
 * are gathered: the first is e-mailed at once; what the client does in the NOTICE_QUIET_MS after
 * it is counted by kind and e-mailed in one notice once that time has passed
 * (sendGatheredStaffNotices). True when a notice was taken now (queued, and sent once the
 * answer has gone).
 */
export async function notifyStaff(clientId: string, taxYear: number, kind: StaffNoticeKind, count = 1): Promise<boolean> {
  const due = await takeDueNotice(clientId, taxYear, { [kind]: count });
  if (!due) return false;
  deliverMail(due.mailId);
  return true;
}

/** Cases read at a time by the sweep. */
const SWEEP_BATCH = 200;

/**
 * Sends the gathered notices whose quiet period has passed (one e-mail per case) and answers
 * how many were taken. Each case is taken as notifyStaff takes it, so two sweeps at once send it once.
 */
export async function sendGatheredStaffNotices(): Promise<number> {
  let sent = 0;
  for (;;) {
    const due = await getDb()
      .select({ clientId: staffNotices.clientId, taxYear: staffNotices.taxYear })
      .from(staffNotices)
      .where(
        sql`${staffNotices.pending} <> '{}'::jsonb and ${staffNotices.lastSentAt} <= now() - ${NOTICE_QUIET_MS}::double precision * interval '1 millisecond'`,
      )
      .limit(SWEEP_BATCH);
    for (const c of due) {
      const taken = await takeDueNotice(c.clientId, c.taxYear, {});
      if (taken) {
        await deliverNow(taken.mailId);
        sent += 1;
      }
    }
    if (due.length < SWEEP_BATCH) return sent;
  }
}

/** The sweep of gathered notices, every minute, in one process at a time. */
export function staffNoticesJob(): ScheduledJob {
  return {
    name: "staff-notices",
    intervalMs: 60_000,
    firstRunMs: 60_000,
    leaseMs: 5 * 60_000,
    async run() {
      await sendGatheredStaffNotices();
    },
  };
}
