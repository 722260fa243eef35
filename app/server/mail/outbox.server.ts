/**
 * The outbox: every e-mail the product sends is first a row of `mail_outbox`, written in the
 * transaction of the change that causes it (enqueueMail), then sent (ADR 0023):
 * - right after the change commits, the caller sends its rows at once (deliverMail), as e-mails
 *   always went, so the person acting sees the result of a working mail server at once;
 * - a try that fails leaves the row pending, tried again 1 min, 5 min, 30 min, 2 h and 12 h later
 *   by the sweep (sweepOutbox, the scheduler's job mailOutboxJob); after the sixth failed try, or
 *   at once when the mail server refuses the recipient or the message for good (a 5xx reply to
 *   RCPT TO or DATA), the row is `failed`, and the admin page "Undelivered e-mails" lists it with
 *   a "Send again" button (resendMail);
 * - before a try, a sender claims the row with one conditional UPDATE (pending, due, and not held
 *   by an unexpired claim), for a lease, with a token of its own; the row is marked sent or failed
 *   only under that token. Two processes, or the immediate delivery and the sweep, never try one
 *   row at once. (A process that dies between the mail server's acceptance and the mark leaves
 *   the row to be tried again when its lease ends: at least once, not exactly once.)
 * Times are the database's clock. The failure's reason is kept as a code (421, ECONNREFUSED),
 * never the e-mail's text; the text is written from the row when it is sent, by the templates of
 * mail-templates.server.ts.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { mailKindLabel } from "~/domain/mail-outbox";
import type { MailKind } from "~/domain/mail-outbox";
import { isUuid } from "~/domain/validation";
import { logError } from "~/log";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { contactMessages, mailOutbox } from "~/server/db/schema";
import { decryptSecret, encryptSecret } from "~/server/platform/crypto.server";
import { EnvError } from "~/server/platform/env.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";
import { sendMail } from "./mail.server";
import type { Mail } from "./mail.server";
import {
  clientMessageMail,
  contactMessageMail,
  documentsSharedMail,
  existingAccountMail,
  feePaidMail,
  invitationMail,
  invoiceSentMail,
  passwordResetMail,
  requestReturnedMail,
  requestsAddedMail,
  requestsReminderMail,
  returnRejectedMail,
  signatureRequestedMail,
  signingCodeMail,
  staffCaseNoticeMail,
  staffInvitationMail,
  stageChangedMail,
  verificationMail,
} from "./mail-templates.server";
import type { StaffNoticeCounts } from "./mail-templates.server";

// ------------------------------------------------------------------------------------------
// What a row holds, by kind.

const text = z.string().max(2_000);
const year = z.number().int();
const count = z.number().int().nonnegative();
const caseNotice = z.object({ name: text, taxYear: year, url: text });
const caseNoticeWithCount = caseNotice.extend({ count });

const PAYLOADS = {
  verification: z.object({ url: text, contested: z.boolean() }),
  "password-reset": z.object({ url: text }),
  "existing-account": z.object({ url: text }),
  "client-invitation": z.object({ name: text, link: text, hours: z.number() }),
  "staff-invitation": z.object({ name: text, role: text, link: text, hours: z.number() }),
  "contact-message": z.object({ contactMessageId: z.uuid() }),
  "stage-changed": caseNotice,
  "documents-shared": caseNoticeWithCount,
  "staff-case-notice": z.object({
    clientLabel: text,
    taxYear: year,
    counts: z.record(z.string(), count),
    url: text,
  }),
  "requests-reminder": caseNoticeWithCount,
  "client-message": caseNotice,
  "requests-added": caseNoticeWithCount,
  "request-returned": caseNotice,
  "return-rejected": caseNotice.extend({ jurisdiction: text }),
  "signature-requested": caseNotice.extend({ days: z.number().int().nullable() }),
  "signing-code": z.object({ name: text, code: z.string().regex(/^\d{6}$/), minutes: z.number().int() }),
  "invoice-sent": caseNotice.extend({ number: text }),
  "fee-paid": caseNotice.extend({ number: text }),
} satisfies Record<MailKind, z.ZodType>;

/** What an e-mail of each kind is written from. */
export type MailPayload<K extends MailKind> = z.infer<(typeof PAYLOADS)[K]>;

/** The kinds whose payload holds a one-time link: stored encrypted, and cleared once sent. */
const SEALED_KINDS: ReadonlySet<MailKind> = new Set<MailKind>([
  "verification",
  "password-reset",
  "client-invitation",
  "staff-invitation",
  // The spouse's signing link is their access to the form; a code is a secret until used.
  "signature-requested",
  "signing-code",
]);

/** An e-mail to queue: its kind, its recipient, and what it is written from. */
export type OutboxMail = { [K in MailKind]: { kind: K; to: string; payload: MailPayload<K> } }[MailKind];

/**
 * Queues one e-mail: pass the change's transaction as `db`, so the change and its e-mail are
 * stored together or not at all. Returns the row's id, for deliverMail once the change commits.
 */
export async function enqueueMail(mail: OutboxMail, db: Pick<Database, "insert"> = getDb()): Promise<string> {
  const id = randomUUID();
  const sealed = SEALED_KINDS.has(mail.kind);
  await db.insert(mailOutbox).values({
    id,
    kind: mail.kind,
    recipient: mail.to,
    payload: sealed ? null : (mail.payload as Record<string, unknown>),
    // The row's id is the encryption's additional data: a value copied to another row does not decrypt.
    sealed: sealed ? encryptSecret(JSON.stringify(mail.payload), id) : null,
  });
  return id;
}

// ------------------------------------------------------------------------------------------
// Writing an e-mail from its row.

type StoredRow = { id: string; kind: string; recipient: string; payload: unknown; sealed: string | null };

/** Why a row cannot be written as an e-mail: it fails at once, with this code. */
class UnsendableError extends Error {
  constructor(readonly code: "UNREADABLE" | "GONE") {
    super(code === "GONE" ? "what the e-mail is about no longer exists" : "the e-mail's row cannot be read");
    this.name = "UnsendableError";
  }
}

function payloadOf<K extends MailKind>(kind: K, row: StoredRow): MailPayload<K> {
  let raw: unknown = row.payload;
  if (row.sealed !== null) {
    try {
      raw = JSON.parse(decryptSecret(row.sealed, row.id));
    } catch {
      throw new UnsendableError("UNREADABLE");
    }
  }
  const parsed = PAYLOADS[kind].safeParse(raw);
  if (!parsed.success) throw new UnsendableError("UNREADABLE");
  return parsed.data as MailPayload<K>;
}

/**
 * The templates return a Mail, and may one day return a Promise of one: either is awaited.
 */
const written = (mail: Mail | Promise<Mail>): Promise<Mail> => Promise.resolve(mail);

/** The e-mail a row stands for, written now by its kind's template. */
export async function renderOutboxMail(row: StoredRow): Promise<Mail> {
  const to = row.recipient;
  switch (row.kind as MailKind) {
    case "verification": {
      const p = payloadOf("verification", row);
      return written(verificationMail(to, p.url, p.contested));
    }
    case "password-reset":
      return written(passwordResetMail(to, payloadOf("password-reset", row).url));
    case "existing-account":
      return written(existingAccountMail(to, payloadOf("existing-account", row).url));
    case "client-invitation": {
      const p = payloadOf("client-invitation", row);
      return written(invitationMail(to, p.name, p.link, p.hours));
    }
    case "staff-invitation": {
      const p = payloadOf("staff-invitation", row);
      return written(staffInvitationMail(to, p.name, p.role, p.link, p.hours));
    }
    case "contact-message": {
      // The visitor's message is read from the stored contact message, never copied here.
      const { contactMessageId } = payloadOf("contact-message", row);
      const [message] = await getDb().select().from(contactMessages).where(eq(contactMessages.id, contactMessageId));
      if (!message) throw new UnsendableError("GONE");
      const { name, email, phone, subject, description } = message;
      return written(contactMessageMail(to, { name, email, phone, subject, description }, message.createdAt));
    }
    case "stage-changed": {
      const p = payloadOf("stage-changed", row);
      return written(stageChangedMail(to, p.name, p.taxYear, p.url));
    }
    case "documents-shared": {
      const p = payloadOf("documents-shared", row);
      return written(documentsSharedMail(to, p.name, p.taxYear, p.count, p.url));
    }
    case "staff-case-notice": {
      const p = payloadOf("staff-case-notice", row);
      return written(staffCaseNoticeMail(to, p.clientLabel, p.taxYear, p.counts as StaffNoticeCounts, p.url));
    }
    case "requests-reminder": {
      const p = payloadOf("requests-reminder", row);
      return written(requestsReminderMail(to, p.name, p.taxYear, p.count, p.url));
    }
    case "client-message": {
      const p = payloadOf("client-message", row);
      return written(clientMessageMail(to, p.name, p.taxYear, p.url));
    }
    case "requests-added": {
      const p = payloadOf("requests-added", row);
      return written(requestsAddedMail(to, p.name, p.taxYear, p.count, p.url));
    }
    case "request-returned": {
      const p = payloadOf("request-returned", row);
      return written(requestReturnedMail(to, p.name, p.taxYear, p.url));
    }
    case "return-rejected": {
      const p = payloadOf("return-rejected", row);
      return written(returnRejectedMail(to, p.name, p.taxYear, p.jurisdiction, p.url));
    }
    case "signature-requested": {
      const p = payloadOf("signature-requested", row);
      return written(signatureRequestedMail(to, p.name, p.taxYear, p.url, p.days));
    }
    case "signing-code": {
      const p = payloadOf("signing-code", row);
      return written(signingCodeMail(to, p.name, p.code, p.minutes));
    }
    case "invoice-sent": {
      const p = payloadOf("invoice-sent", row);
      return written(invoiceSentMail(to, p.name, p.taxYear, p.number, p.url));
    }
    case "fee-paid": {
      const p = payloadOf("fee-paid", row);
      return written(feePaidMail(to, p.name, p.taxYear, p.number, p.url));
    }
    default:
      throw new UnsendableError("UNREADABLE");
  }
}

// ------------------------------------------------------------------------------------------
// Sending: claim, try, mark.

/** The waits after the 1st, 2nd, ... failed try; the try after the last one is the last. */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000, 12 * 60 * 60_000];

/** Tries of one e-mail before it is marked failed. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * How long a claim holds a row: longer than one try can take (the SMTP transport gives up on a
 * silent server well before, see mail.server.ts). A sender that died leaves its rows to the
 * next sweep after this.
 */
export const CLAIM_LEASE_MS = 2 * 60_000;

/** Sent rows are forgotten after 30 days, failed ones after 90. */
const KEEP_SENT_DAYS = 30;
const KEEP_FAILED_DAYS = 90;

const ms = (value: number) => sql`${Math.round(value)}::double precision * interval '1 millisecond'`;

/** A row not sent yet, due, and held by nobody (or by a claim whose lease has ended). */
const claimable = sql`status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())`;
const claimableRow = sql`mail_outbox.status = 'pending' and mail_outbox.next_attempt_at <= now() and (mail_outbox.claimed_until is null or mail_outbox.claimed_until < now())`;

type ClaimedRow = StoredRow & { attempts: number; token: string };

function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown[] }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/**
 * Claims up to `limit` due rows (only among `ids` when given), oldest due first, each counted as
 * one more try. One statement: rows another sender holds are skipped, and a row is taken only
 * when, once locked, it is still claimable.
 */
async function claim(limit: number, ids?: readonly string[]): Promise<ClaimedRow[]> {
  if (ids && ids.length === 0) return [];
  const token = randomUUID();
  const among = ids ? sql` and id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``;
  // The picked ids are read once (a materialized CTE), never again per row of the update.
  const result = await getDb().execute(sql`
    with picked as materialized (
      select id from mail_outbox where ${claimable}${among}
      order by next_attempt_at limit ${limit} for update skip locked
    )
    update mail_outbox
    set claimed_until = now() + ${ms(CLAIM_LEASE_MS)}, claimed_by = ${token},
        attempts = attempts + 1, last_attempt_at = now()
    from picked
    where mail_outbox.id = picked.id and ${claimableRow}
    returning mail_outbox.id, kind, recipient, payload, sealed, attempts`);
  return rowsOf<StoredRow & { attempts: number }>(result).map((row) => ({ ...row, token }));
}

/** What a failed try tells: the reason's code, and whether trying again could help. */
export type FailureReason = { code: string; permanent: boolean; serverDown: boolean };

type MailError = {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  command?: unknown;
};

/**
 * The reason of a failed try: the SMTP reply's code (421, 550) when the server answered, else the
 * error's own code (ECONNREFUSED, ETIMEDOUT, ENOSPC for the outbox folder). Permanent: a 5xx reply
 * to the recipient (RCPT TO) or to the message (DATA): that address or that e-mail is refused for
 * good. A 5xx to anything else (the greeting, MAIL FROM, AUTH) is about this server's settings,
 * which an administrator fixes: it is retried like an outage. `serverDown`: no answer about this
 * e-mail at all (no connection, or 421), so the sweep leaves the other rows for its next run.
 */
export function failureReason(error: unknown): FailureReason {
  if (error instanceof UnsendableError) return { code: error.code, permanent: true, serverDown: false };
  const e = (typeof error === "object" && error !== null ? error : {}) as MailError;
  const reply = typeof e.responseCode === "number" && e.responseCode >= 200 && e.responseCode < 600 ? e.responseCode : null;
  const codeOf = (value: unknown) => (typeof value === "string" && /^[A-Z][A-Z0-9_]{1,30}$/.test(value) ? value : null);
  const code = reply !== null ? String(reply) : (codeOf(e.originalCode) ?? codeOf(e.code) ?? "ERROR");
  const command = typeof e.command === "string" ? e.command : "";
  const permanent = reply !== null && reply >= 500 && (command === "RCPT TO" || command === "DATA");
  return { code, permanent, serverDown: reply === null || reply === 421 };
}

export type TryOutcome = "sent" | "retry" | "failed" | "lost";

/** Writes and sends one claimed row, and marks it under its claim. */
async function attempt(row: ClaimedRow): Promise<{ outcome: TryOutcome; reason?: FailureReason }> {
  const db = getDb();
  const ours = and(eq(mailOutbox.id, row.id), eq(mailOutbox.claimedBy, row.token), eq(mailOutbox.status, "pending"));
  let reason: FailureReason;
  try {
    await sendMail(await renderOutboxMail(row));
    const marked = await db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: sql`now()`, sealed: null, claimedUntil: null, claimedBy: null, lastError: null })
      .where(ours)
      .returning({ id: mailOutbox.id });
    // Its lease ended during the try and another sender holds it now: that one marks it.
    return { outcome: marked.length === 1 ? "sent" : "lost" };
  } catch (error) {
    reason = failureReason(error);
  }
  const last = reason.permanent || row.attempts >= MAX_ATTEMPTS;
  const wait = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1] ?? 0;
  await db
    .update(mailOutbox)
    .set({
      status: last ? "failed" : "pending",
      lastError: reason.code,
      nextAttemptAt: last ? sql`now()` : sql`now() + ${ms(wait)}`,
      claimedUntil: null,
      claimedBy: null,
    })
    .where(ours);
  // The kind and the code only: never the address or the text.
  console.error(
    `[mail] a ${row.kind} e-mail was not sent (${reason.code}), try ${row.attempts}: ${
      last ? "it is marked failed" : `tried again in ${Math.round(wait / 60_000)} min`
    }`,
  );
  return { outcome: last ? "failed" : "retry", reason };
}

export type Delivery = { sent: number; notSent: number };

/**
 * Sends the rows `ids` now, as far as they are still pending and held by nobody; answers how
 * many went and how many did not. Never throws: a row that did not go stays queued (or failed).
 * Call it once the transaction that queued them has committed.
 */
export async function deliverMail(ids: string | readonly string[] | null | undefined): Promise<Delivery> {
  const list = (typeof ids === "string" ? [ids] : (ids ?? [])).filter(Boolean);
  const result: Delivery = { sent: 0, notSent: 0 };
  if (list.length === 0) return result;
  try {
    for (const row of await claim(list.length, list)) {
      const { outcome } = await attempt(row);
      if (outcome === "sent") result.sent += 1;
      else result.notSent += 1;
    }
  } catch (error) {
    logError("mail", "sending queued e-mails failed", error);
    result.notSent = list.length - result.sent;
  }
  return result;
}

export type SweepRun = { sent: number; retry: number; failed: number };

/**
 * Sends every due row, one claim at a time, until none is left; stops early when the mail
 * server cannot be reached (the other rows wait for the next run, untried).
 * Forgets sent rows after 30 days and failed ones after 90.
 */
export async function sweepOutbox(): Promise<SweepRun> {
  const run: SweepRun = { sent: 0, retry: 0, failed: 0 };
  for (;;) {
    const [row] = await claim(1);
    if (!row) break;
    const { outcome, reason } = await attempt(row);
    if (outcome === "sent") run.sent += 1;
    else if (outcome === "failed") run.failed += 1;
    else if (outcome === "retry") run.retry += 1;
    if (reason?.serverDown) break;
  }
  await getDb().execute(sql`
    delete from mail_outbox
    where (status = 'sent' and sent_at < now() - ${ms(KEEP_SENT_DAYS * 86_400_000)})
       or (status = 'failed' and last_attempt_at < now() - ${ms(KEEP_FAILED_DAYS * 86_400_000)})`);
  return run;
}

/** The sweep's job name in `scheduled_jobs`. */
export const MAIL_OUTBOX_JOB = "mail-outbox";

/** The sweep's interval unless MAIL_SWEEP_SECONDS says otherwise. */
export const MAIL_SWEEP_SECONDS = 30;

/**
 * The sweep as the scheduler runs it: every MAIL_SWEEP_SECONDS (default 30; the shortest wait
 * before a retry is a minute). A value that is not a positive number stops the start.
 */
export function mailOutboxJob(env: NodeJS.ProcessEnv = process.env): ScheduledJob {
  const raw = env.MAIL_SWEEP_SECONDS?.trim();
  const seconds = raw ? Number(raw) : MAIL_SWEEP_SECONDS;
  if (!/^\d+(\.\d+)?$/.test(raw ?? "30") || !Number.isFinite(seconds) || seconds <= 0)
    throw new EnvError("Invalid configuration: MAIL_SWEEP_SECONDS: must be a number of seconds greater than 0.");
  const intervalMs = Math.round(seconds * 1000);
  return {
    name: MAIL_OUTBOX_JOB,
    intervalMs,
    firstRunMs: intervalMs,
    leaseMs: 5 * 60_000,
    async run() {
      const { sent, retry, failed } = await sweepOutbox();
      if (sent + retry + failed > 0)
        console.info(`[mail] outbox sweep: ${sent} sent, ${retry} to try again, ${failed} failed`);
    },
  };
}

// ------------------------------------------------------------------------------------------
// The admin page: what did not go, and "Send again".

export type UndeliveredMail = {
  id: string;
  kind: string;
  recipient: string;
  status: "pending" | "failed";
  reason: string | null;
  attempts: number;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  createdAt: Date;
};

/** Rows shown at most in each of the page's lists. */
export const UNDELIVERED_LIMIT = 200;

/**
 * The e-mails that failed for good, and those waiting for another try after a failed one,
 * most recently tried first.
 */
export async function listUndelivered(): Promise<{ failed: UndeliveredMail[]; retrying: UndeliveredMail[] }> {
  const columns = {
    id: mailOutbox.id,
    kind: mailOutbox.kind,
    recipient: mailOutbox.recipient,
    status: mailOutbox.status,
    reason: mailOutbox.lastError,
    attempts: mailOutbox.attempts,
    lastAttemptAt: mailOutbox.lastAttemptAt,
    nextAttemptAt: mailOutbox.nextAttemptAt,
    createdAt: mailOutbox.createdAt,
  };
  const order = [desc(mailOutbox.lastAttemptAt), desc(mailOutbox.id)];
  const db = getDb();
  const [failed, retrying] = await Promise.all([
    db.select(columns).from(mailOutbox).where(eq(mailOutbox.status, "failed")).orderBy(...order).limit(UNDELIVERED_LIMIT),
    db
      .select(columns)
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "pending"), sql`${mailOutbox.lastError} is not null`))
      .orderBy(...order)
      .limit(UNDELIVERED_LIMIT),
  ]);
  return {
    failed: failed as UndeliveredMail[],
    retrying: retrying as UndeliveredMail[],
  };
}

export type ResendOutcome = "sent" | "not-yet" | "not-found";

/**
 * "Send again": a failed e-mail (or one waiting for its next try) becomes pending with its tries
 * counted from zero, the admin's act is recorded in the audit trail with it, and it is tried at
 * once. "not-found" (nothing changed) for an id that is no such e-mail: sent meanwhile, being
 * tried right now, or never one. The actor is the admin as the audit trail records them (the
 * route is admin-only by its place in the panel).
 */
export async function resendMail(actor: { id: string; email: string }, id: string, ip: string): Promise<ResendOutcome> {
  if (!isUuid(id)) return "not-found";
  const db = getDb();
  const reset = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(mailOutbox)
      .set({ status: "pending", attempts: 0, nextAttemptAt: sql`now()`, claimedUntil: null, claimedBy: null })
      .where(
        and(
          eq(mailOutbox.id, id),
          ne(mailOutbox.status, "sent"),
          sql`(${mailOutbox.status} = 'failed' or ${mailOutbox.lastError} is not null)`,
          sql`(${mailOutbox.claimedUntil} is null or ${mailOutbox.claimedUntil} < now())`,
        ),
      )
      .returning({ kind: mailOutbox.kind, recipient: mailOutbox.recipient });
    if (!row) return null;
    await recordAudit(
      { actor, action: "mail-resent", detail: `${mailKindLabel(row.kind)} to ${row.recipient}`, ip },
      tx,
    );
    return row;
  });
  if (!reset) return "not-found";
  const { sent } = await deliverMail(id);
  return sent === 1 ? "sent" : "not-yet";
}
