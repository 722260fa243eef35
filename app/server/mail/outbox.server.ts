/**
 * The outbox: every e-mail the product sends is first a row of `mail_outbox`, written in the
 * transaction of the change that causes it (enqueueMail), then sent (ADR 0023):
 * - the caller hands its rows to deliverMail, which tries them once the request has been answered
 *   (app/server/http/after-answer.server.ts): no request ever waits for the mail server;
 * - a try that fails leaves the row pending, tried again 1 min, 5 min, 30 min, 2 h and 12 h later
 *   by the sweep (sweepOutbox, the scheduler's job mailOutboxJob); after the sixth failed try, or
 *   at once when the mail server refuses the recipient or the message for good (a 5xx reply to
 *   RCPT TO or DATA), the row is `failed`, and the admin page "Undelivered e-mails" lists it with
 *   a "Send again" button (resendMail); the admin dashboard shows how many failed;
 * - an e-mail whose code or link has expired is no use: a row still pending past its `send_by`
 *   (set from its kind, see usefulFor) is given up, `failed` with the reason EXPIRED;
 * - a sender claims one row at a time, right before its try, with one conditional UPDATE
 *   (pending, due, not expired, and not held by an unexpired claim), for a lease, with a token of
 *   its own, and renews the lease while the try goes on; the row is marked sent or failed only
 *   under that token. Two processes, or the delivery after a request and the sweep, never try
 *   one row at once, however slow the mail server. (A process that dies between the mail
 *   server's acceptance and the mark leaves the row to be tried again when its lease ends: at
 *   least once, not exactly once.)
 * Times are the database's clock. The failure's reason is kept as a code (421, ECONNREFUSED),
 * never the e-mail's text; the text is written from the row when it is sent, by the templates of
 * mail-templates.server.ts.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
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
import { afterAnswer } from "~/server/http/after-answer.server";
import { EnvError } from "~/server/platform/env.server";
import type { ScheduledJob } from "~/server/platform/scheduler.server";
import { sendMail } from "./mail.server";
import type { Mail } from "./mail.server";
import {
  clientMessageMail,
  contactMessageMail,
  documentsSharedMail,
  draftReadyMail,
  engagementLetterMail,
  existingAccountMail,
  feePaidMail,
  invitationMail,
  invoiceSentMail,
  passwordResetMail,
  requestReturnedMail,
  requestsAddedMail,
  requestsReminderMail,
  RETURN_STEPS,
  returnRejectedMail,
  returnStaffNoticeMail,
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
  "draft-ready": caseNotice,
  "return-staff-notice": z.object({ clientLabel: text, taxYear: year, step: z.enum(RETURN_STEPS), url: text }),
  "engagement-letter": caseNotice,
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

/** An interval of `value` milliseconds, in SQL. */
const ms = (value: number) => sql`${Math.round(value)}::double precision * interval '1 millisecond'`;

/** An e-mail to queue: its kind, its recipient, and what it is written from. */
export type OutboxMail = { [K in MailKind]: { kind: K; to: string; payload: MailPayload<K> } }[MailKind];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * How long after it is queued an e-mail is still of use: as long as the code or link it carries
 * works, as the e-mail itself says (the payload's minutes, hours or days; the verification link's
 * 24 hours and the password reset's hour stated by their templates). Null: always.
 */
export function usefulFor(mail: OutboxMail): number | null {
  switch (mail.kind) {
    case "signing-code":
      return mail.payload.minutes * MINUTE_MS;
    case "client-invitation":
    case "staff-invitation":
      return mail.payload.hours * HOUR_MS;
    case "signature-requested":
      return mail.payload.days === null ? null : mail.payload.days * 24 * HOUR_MS;
    case "password-reset":
      return HOUR_MS;
    case "verification":
      return 24 * HOUR_MS;
    default:
      return null;
  }
}

/**
 * Queues one e-mail: pass the change's transaction as `db`, so the change and its e-mail are
 * stored together or not at all. Returns the row's id, for deliverMail. An e-mail with a code or
 * a link that expires is given up once it has (usefulFor).
 */
export async function enqueueMail(mail: OutboxMail, db: Pick<Database, "insert"> = getDb()): Promise<string> {
  const id = randomUUID();
  const sealed = SEALED_KINDS.has(mail.kind);
  const useful = usefulFor(mail);
  await db.insert(mailOutbox).values({
    id,
    kind: mail.kind,
    recipient: mail.to,
    payload: sealed ? null : (mail.payload as Record<string, unknown>),
    // The row's id is the encryption's additional data: a value copied to another row does not decrypt.
    sealed: sealed ? encryptSecret(JSON.stringify(mail.payload), id) : null,
    sendBy: useful === null ? null : sql`now() + ${ms(useful)}`,
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
    case "draft-ready": {
      const p = payloadOf("draft-ready", row);
      return written(draftReadyMail(to, p.name, p.taxYear, p.url));
    }
    case "return-staff-notice": {
      const p = payloadOf("return-staff-notice", row);
      return written(returnStaffNoticeMail(to, p.clientLabel, p.taxYear, p.step, p.url));
    }
    case "engagement-letter": {
      const p = payloadOf("engagement-letter", row);
      return written(engagementLetterMail(to, p.name, p.taxYear, p.url));
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
 * How long a claim holds a row unless renewed. The sender renews it every quarter of it while its
 * try goes on, however long the mail server takes to answer each step; a sender that died
 * leaves its row to the next sweep after this.
 */
export const CLAIM_LEASE_MS = 2 * 60_000;

/** Sent rows are forgotten after 30 days, failed ones after 90. */
const KEEP_SENT_DAYS = 30;
const KEEP_FAILED_DAYS = 90;

/** The reason of a row given up because the code or link it carries has expired. */
export const EXPIRED = "EXPIRED";

/** A row not sent yet, due, still of use, and held by nobody (or by a claim whose lease has ended). */
const claimable = sql`status = 'pending' and next_attempt_at <= now() and (send_by is null or send_by > now())
  and (claimed_until is null or claimed_until < now())`;
const claimableRow = sql`mail_outbox.status = 'pending' and mail_outbox.next_attempt_at <= now()
  and (mail_outbox.send_by is null or mail_outbox.send_by > now())
  and (mail_outbox.claimed_until is null or mail_outbox.claimed_until < now())`;

type ClaimedRow = StoredRow & { attempts: number; token: string };

function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown[] }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

const among = (ids: readonly string[] | undefined) =>
  ids ? sql` and id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``;

/**
 * Gives up the pending rows (only among `ids` when given) whose code or link has expired and that
 * nobody is trying now: `failed`, with the reason EXPIRED.
 */
async function giveUpExpired(ids?: readonly string[]): Promise<void> {
  if (ids && ids.length === 0) return;
  await getDb().execute(sql`
    update mail_outbox
    set status = 'failed', last_error = ${EXPIRED}, next_attempt_at = now(), sealed = null,
        claimed_until = null, claimed_by = null
    where status = 'pending' and send_by <= now() and (claimed_until is null or claimed_until < now())${among(ids)}`);
}

/**
 * Claims the due row that has waited longest (only among `ids` when given), counted as one more
 * try, for `leaseMs`. One statement: rows another sender holds are skipped, and a row is taken
 * only when, once locked, it is still claimable. Null when there is none.
 */
async function claimOne(leaseMs: number, ids?: readonly string[]): Promise<ClaimedRow | null> {
  if (ids && ids.length === 0) return null;
  const token = randomUUID();
  // The picked id is read once (a materialized CTE), never again per row of the update.
  const result = await getDb().execute(sql`
    with picked as materialized (
      select id from mail_outbox where ${claimable}${among(ids)}
      order by next_attempt_at limit 1 for update skip locked
    )
    update mail_outbox
    set claimed_until = now() + ${ms(leaseMs)}, claimed_by = ${token},
        attempts = attempts + 1, last_attempt_at = now()
    from picked
    where mail_outbox.id = picked.id and ${claimableRow}
    returning mail_outbox.id, kind, recipient, payload, sealed, attempts`);
  const [row] = rowsOf<StoredRow & { attempts: number }>(result);
  return row ? { ...row, token } : null;
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

/**
 * Writes and sends one claimed row, and marks it under its claim. The claim is renewed every
 * quarter of its lease while the try goes on, so no other sender takes the row meanwhile.
 */
async function attempt(row: ClaimedRow, leaseMs: number): Promise<{ outcome: TryOutcome; reason?: FailureReason }> {
  const db = getDb();
  const ours = and(eq(mailOutbox.id, row.id), eq(mailOutbox.claimedBy, row.token), eq(mailOutbox.status, "pending"));
  const renewing = setInterval(() => {
    db.update(mailOutbox)
      .set({ claimedUntil: sql`now() + ${ms(leaseMs)}` })
      .where(ours)
      .then(
        () => undefined,
        (error: unknown) => logError("mail", "renewing a claim on a queued e-mail failed", error),
      );
  }, Math.max(1, Math.floor(leaseMs / 4)));
  let reason: FailureReason;
  try {
    await sendMail(await renderOutboxMail(row));
    const marked = await db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: sql`now()`, sealed: null, claimedUntil: null, claimedBy: null, lastError: null })
      .where(ours)
      .returning({ id: mailOutbox.id });
    // The claim was lost (its renewals failed for a whole lease) and another sender holds it now: that one marks it.
    return { outcome: marked.length === 1 ? "sent" : "lost" };
  } catch (error) {
    reason = failureReason(error);
  } finally {
    clearInterval(renewing);
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

/** Of the rows handed over: how many went, and how many were tried and did not. */
export type Delivery = { sent: number; notSent: number };

/** How long rows not stored yet (their transaction has not committed) are looked for again. */
const UNCOMMITTED_WAIT_MS = 2_000;

/**
 * Tries each of the rows `ids` once, one claim at a time, as far as they are pending, due and
 * held by nobody. A row not in the table yet (deliverMail was called before the transaction that
 * queues it committed) is looked for again for a moment; after that, or when its transaction
 * was rolled back, it is left alone (the sweep sends a row committed later).
 */
async function sendRows(ids: readonly string[], leaseMs: number): Promise<Delivery> {
  const unique = [...new Set(ids)];
  let sent = 0;
  let tried = 0;
  let left = unique;
  // Rows found stored after a claim that did not take them.
  const seenStored = new Set<string>();
  try {
    await giveUpExpired(left);
    for (let waited = 0, pause = 25; left.length > 0; ) {
      const row = await claimOne(leaseMs, left);
      if (row) {
        left = left.filter((id) => id !== row.id);
        tried += 1;
        if ((await attempt(row, leaseMs)).outcome === "sent") sent += 1;
        continue;
      }
      // None claimable. A row not stored yet waits for its transaction's commit. A row stored now
      // that was not before may have committed just after that claim: it is claimed again at once.
      // A row seen stored before and still not claimable is sent, failed, held or not due.
      const stored = new Set(
        (await getDb().select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.id, left))).map((r) => r.id),
      );
      const committedSince = left.filter((id) => stored.has(id) && !seenStored.has(id));
      left = left.filter((id) => !stored.has(id) || !seenStored.has(id));
      for (const id of committedSince) seenStored.add(id);
      if (left.length === 0) break;
      if (committedSince.length > 0) continue;
      if (waited >= UNCOMMITTED_WAIT_MS) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
      waited += pause;
      pause = Math.min(pause * 2, UNCOMMITTED_WAIT_MS - waited);
    }
  } catch (error) {
    logError("mail", "sending queued e-mails failed", error);
    return { sent, notSent: unique.length - sent };
  }
  return { sent, notSent: tried - sent };
}

/** The sends started by deliverMail and not ended yet. */
const inFlight = new Set<Promise<unknown>>();

/**
 * Sends the rows `ids` once the current request has been answered (at the next turn outside a
 * request): never awaited, so no answer waits for the mail server. A row that does not go stays
 * queued for the sweep (or is failed). May be called inside the transaction that queues the rows:
 * they are sent once it has committed, and never if it rolls back. `afterSent` runs once every row
 * went at this try (not when the sweep sends them later).
 */
export function deliverMail(ids: string | readonly string[] | null | undefined, afterSent?: () => Promise<void>): void {
  const list = (typeof ids === "string" ? [ids] : (ids ?? [])).filter((id): id is string => Boolean(id));
  if (list.length === 0) return;
  const sending = new Promise<void>((resolve) => afterAnswer(resolve))
    .then(() => sendRows(list, CLAIM_LEASE_MS))
    .then(async ({ sent }) => {
      if (afterSent && sent === new Set(list).size) await afterSent();
    })
    .catch((error: unknown) => logError("mail", "sending queued e-mails failed", error));
  inFlight.add(sending);
  void sending.finally(() => inFlight.delete(sending));
}

/** Resolves once every send deliverMail started so far has ended (the server's shutdown, tests). */
export async function outboxSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/**
 * Tries the rows `ids` now and answers how many went: for the scheduled jobs, which are no
 * request and count what they sent. Never throws.
 */
export async function deliverNow(ids: string | readonly string[] | null | undefined): Promise<Delivery> {
  const list = (typeof ids === "string" ? [ids] : (ids ?? [])).filter((id): id is string => Boolean(id));
  if (list.length === 0) return { sent: 0, notSent: 0 };
  return sendRows(list, CLAIM_LEASE_MS);
}

export type SweepRun = { sent: number; retry: number; failed: number };

/**
 * Gives up the rows whose code or link expired, then sends every due row, one claim at a time,
 * until none is left; stops early when the mail server cannot be reached (the other rows wait
 * for the next run, untried), or when `signal` aborts (the process is stopping). Forgets sent rows
 * after 30 days and failed ones after 90. `leaseMs`: the claims' lease (CLAIM_LEASE_MS unless a
 * test says otherwise).
 */
export async function sweepOutbox(options: { leaseMs?: number; signal?: AbortSignal } = {}): Promise<SweepRun> {
  const leaseMs = options.leaseMs ?? CLAIM_LEASE_MS;
  const run: SweepRun = { sent: 0, retry: 0, failed: 0 };
  await giveUpExpired();
  for (;;) {
    // The process is stopping: the rows left wait for the next sweep, of this process or another.
    if (options.signal?.aborted) break;
    const row = await claimOne(leaseMs);
    if (!row) break;
    const { outcome, reason } = await attempt(row, leaseMs);
    if (outcome === "sent") run.sent += 1;
    else if (outcome === "failed") run.failed += 1;
    else if (outcome === "retry") run.retry += 1;
    if (reason?.serverDown) break;
  }
  await getDb().execute(sql`
    delete from mail_outbox
    where (status = 'sent' and sent_at < now() - ${ms(KEEP_SENT_DAYS * 86_400_000)})
       or (status = 'failed' and coalesce(last_attempt_at, created_at) < now() - ${ms(KEEP_FAILED_DAYS * 86_400_000)})`);
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
    // Extended every third of it while the sweep runs: short, so that after a crash the next
    // process sweeps within a minute.
    leaseMs: 60_000,
    async run(signal) {
      const { sent, retry, failed } = await sweepOutbox({ signal });
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

/** How many e-mails failed for good (the admin dashboard's count, linking to "Undelivered e-mails"). */
export async function countFailedMail(): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, "failed"));
  return Number(row?.n ?? 0);
}

/** How far back mailServerFailing looks for the last try. */
const RECENT_TRY_MS = 10 * MINUTE_MS;

/**
 * Whether the mail server is failing now, as far as the outbox knows: the last finished try of
 * the last 10 minutes found no server to take it (no connection, no answer, or 421), and no
 * e-mail went after it. What a request that queued an e-mail can tell its sender, since it never
 * waits for its own try.
 */
export async function mailServerFailing(): Promise<boolean> {
  const result = await getDb().execute(sql`
    select last_error from mail_outbox
    where last_attempt_at > now() - ${ms(RECENT_TRY_MS)} and (claimed_until is null or claimed_until < now())
    order by last_attempt_at desc limit 1`);
  const code = rowsOf<{ last_error: string | null }>(result)[0]?.last_error ?? null;
  if (code === null) return false;
  // Stored codes are a reply's number or an error's name (failureReason): 421, or no reply at all.
  return code === "421" || (!/^\d+$/.test(code) && !["UNREADABLE", "GONE", EXPIRED].includes(code));
}

export type ResendOutcome = "queued" | "expired" | "not-found";

/**
 * "Send again": a failed e-mail (or one waiting for its next try) becomes pending with its tries
 * counted from zero, the admin's act is recorded in the audit trail with it, and it is tried once
 * the answer is sent ("queued"). "expired" (nothing changed) for an e-mail whose code or link has
 * expired: sending it would not help. "not-found" (nothing changed) for an id that is no such
 * e-mail: sent meanwhile, being tried right now, or never one. The actor is the admin as the
 * audit trail records them (the route is admin-only by its place in the panel).
 */
export async function resendMail(actor: { id: string; email: string }, id: string, ip: string): Promise<ResendOutcome> {
  if (!isUuid(id)) return "not-found";
  const db = getDb();
  const outcome = await db.transaction(async (tx): Promise<ResendOutcome> => {
    const undelivered = and(
      eq(mailOutbox.id, id),
      ne(mailOutbox.status, "sent"),
      sql`(${mailOutbox.status} = 'failed' or ${mailOutbox.lastError} is not null)`,
      sql`(${mailOutbox.claimedUntil} is null or ${mailOutbox.claimedUntil} < now())`,
    );
    const [row] = await tx
      .update(mailOutbox)
      .set({ status: "pending", attempts: 0, nextAttemptAt: sql`now()`, claimedUntil: null, claimedBy: null })
      .where(and(undelivered, sql`(${mailOutbox.sendBy} is null or ${mailOutbox.sendBy} > now())`))
      .returning({ kind: mailOutbox.kind, recipient: mailOutbox.recipient });
    if (!row) {
      const [expired] = await tx.select({ id: mailOutbox.id }).from(mailOutbox).where(undelivered);
      return expired ? "expired" : "not-found";
    }
    await recordAudit(
      { actor, action: "mail-resent", detail: `${mailKindLabel(row.kind)} to ${row.recipient}`, ip },
      tx,
    );
    return "queued";
  });
  if (outcome === "queued") deliverMail(id);
  return outcome;
}
