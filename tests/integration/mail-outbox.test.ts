// The outbox (app/server/mail/outbox.server.ts, ADR 0023) against a real SMTP server on loopback:
// queued e-mails go once their request is answered (never while it waits) when the server takes
// them; a refused try leaves the row pending with the reply's code and the next try 1 min, 5 min,
// 30 min, 2 h, 12 h later, then failed; a recipient refused for good fails at once; an e-mail
// whose code or link expired is given up; a row is tried by one sender at a time, however slow
// the server; "Send again" on the admin page (admins only) is audited and sends the e-mail once,
// and the admin dashboard counts what failed. Runs on PGlite and, with DATABASE_URL, on
// PostgreSQL.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAIL_OUTBOX_MESSAGES } from "~/domain/mail-outbox";
import { NOT_FOR_YOUR_ROLE } from "~/domain/policy";
import { getDb } from "~/server/db/client.server";
import { auditLog, mailOutbox } from "~/server/db/schema";
import {
  CLAIM_LEASE_MS,
  deliverMail,
  deliverNow,
  enqueueMail,
  failureReason,
  MAX_ATTEMPTS,
  outboxSettled,
  RETRY_DELAYS_MS,
  sweepOutbox,
} from "~/server/mail/outbox.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { readOutbox } from "../helpers/outbox";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { startSmtpServer } from "../helpers/smtp-server";
import type { TestSmtp } from "../helpers/smtp-server";
import { makeStaff, signedInClient, withCookie } from "./helpers";

const notices = await routeModule("routes/admin/notices.tsx");
const dashboard = await routeModule("routes/admin/dashboard.tsx");
let smtp: TestSmtp;

function useSmtp(url: string | undefined): void {
  if (url === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = url;
  resetEnvForTests();
}

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  useSmtp(undefined);
  await smtp.close();
});

beforeEach(() => {
  smtp.mode = "accept";
  smtp.received.length = 0;
  useSmtp(smtp.url);
});

async function rowOf(id: string) {
  const [row] = await getDb().select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row!;
}

/** Seconds from the row's last try to its next, by the database's clock. */
async function waitAfterLastTry(id: string): Promise<number> {
  const result = await getDb().execute(
    sql`select extract(epoch from next_attempt_at - last_attempt_at)::float8 as s from mail_outbox where id = ${id}`,
  );
  return Math.round((result as unknown as { rows: Array<{ s: number }> }).rows[0]!.s);
}

/** Lets the time until every pending row's next try pass. */
async function timePasses(): Promise<void> {
  await getDb().execute(sql`update mail_outbox set next_attempt_at = now() - interval '1 second' where status = 'pending'`);
}

const stageNotice = (to = "ana@example.com") =>
  ({
    kind: "stage-changed",
    to,
    payload: { name: "Ana Ruiz", taxYear: 2025, url: "http://localhost:3000/my-tax-filing/2025" },
  }) as const;

describe("the outbox", () => {
  it("sends a queued e-mail at once through SMTP, written from its row", async () => {
    const id = await enqueueMail(stageNotice());
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 0, kind: "stage-changed", recipient: "ana@example.com" });
    expect(await deliverNow(id)).toEqual({ sent: 1, notSent: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(["ana@example.com"]);
    expect(smtp.received[0]!.subject).toBe("An update on your 2025 tax filing");
    expect(smtp.received[0]!.raw).toContain("Hello Ana Ruiz, your 2025 tax filing");
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1, lastError: null, claimedBy: null });
    // Sent: neither another delivery nor a sweep sends it again.
    expect(await deliverNow(id)).toEqual({ sent: 0, notSent: 0 });
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("keeps a one-time link encrypted, and forgets it once sent", async () => {
    const url = "http://localhost:3000/reset-password?token=secret-token-123";
    const id = await enqueueMail({ kind: "password-reset", to: "ana@example.com", payload: { url } });
    const stored = await rowOf(id);
    expect(stored.payload).toBeNull();
    expect(stored.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain("secret-token-123");
    await deliverNow(id);
    expect(smtp.received[0]!.raw).toContain("secret-token-123");
    expect(await rowOf(id)).toMatchObject({ status: "sent", sealed: null, payload: null });
  });

  it("leaves a refused e-mail pending with the reply's code, tries it again after 1 min, 5 min, 30 min, 2 h and 12 h, then marks it failed", async () => {
    smtp.mode = "refuse";
    const id = await enqueueMail(stageNotice());
    expect(await deliverNow(id)).toEqual({ sent: 0, notSent: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1, lastError: "421", claimedBy: null });
    const waits = [await waitAfterLastTry(id)];
    // Not due yet: the sweep leaves it.
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect((await rowOf(id)).attempts).toBe(1);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      await timePasses();
      const run = await sweepOutbox();
      const row = await rowOf(id);
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toBe("421");
      if (attempt < MAX_ATTEMPTS) {
        expect(run).toEqual({ sent: 0, retry: 1, failed: 0 });
        expect(row.status).toBe("pending");
        waits.push(await waitAfterLastTry(id));
      } else {
        expect(run).toEqual({ sent: 0, retry: 0, failed: 1 });
        expect(row.status).toBe("failed");
      }
    }
    expect(waits).toEqual(RETRY_DELAYS_MS.map((ms) => ms / 1000));
    expect(waits).toEqual([60, 300, 1800, 7200, 43200]);
    expect(smtp.received).toEqual([]);
    // Failed: the sweep leaves it, however much time passes.
    await getDb().execute(sql`update mail_outbox set next_attempt_at = now() - interval '1 day'`);
    smtp.mode = "accept";
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(smtp.received).toEqual([]);
  });

  it("fails at once when the server refuses the recipient for good (550), and records the code only", async () => {
    smtp.mode = "reject-recipient";
    const id = await enqueueMail(stageNotice("nobody@example.com"));
    expect(await deliverNow(id)).toEqual({ sent: 0, notSent: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: 1, lastError: "550" });
  });

  it("records ECONNREFUSED when nothing listens, and sends the rest once the server answers", async () => {
    const closed = await startSmtpServer();
    const closedUrl = closed.url;
    await closed.close();
    useSmtp(closedUrl);
    const first = await enqueueMail(stageNotice("one@example.com"));
    const second = await enqueueMail(stageNotice("two@example.com"));
    expect(await deliverNow([first, second])).toEqual({ sent: 0, notSent: 2 });
    expect(await rowOf(first)).toMatchObject({ status: "pending", lastError: "ECONNREFUSED", attempts: 1 });
    // A sweep while the server is still unreachable stops at its first failure: the other row is
    // not tried (nor its try counted).
    await timePasses();
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 1, failed: 0 });
    const rows = [await rowOf(first), await rowOf(second)];
    expect(rows.map((r) => r.attempts).sort()).toEqual([1, 2]);
    expect(rows.map((r) => r.claimedBy)).toEqual([null, null]);
    useSmtp(smtp.url);
    await timePasses();
    expect(await sweepOutbox()).toEqual({ sent: 2, retry: 0, failed: 0 });
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(["one@example.com", "two@example.com"]);
  });

  it("tries a row in one sender at a time: deliveries and sweeps at once send it once; a claim that ran out is taken again", async () => {
    const ids = await Promise.all(["a", "b", "c"].map((n) => enqueueMail(stageNotice(`${n}@example.com`))));
    const results = await Promise.all([deliverNow(ids), deliverNow(ids), sweepOutbox(), sweepOutbox(), deliverNow(ids)]);
    const sent = results.reduce((n, r) => n + r.sent, 0);
    expect(sent).toBe(3);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(["a@example.com", "b@example.com", "c@example.com"]);

    // A row held by a claim whose lease has not ended is left alone; once it has, it is taken again.
    const held = await enqueueMail(stageNotice("held@example.com"));
    await getDb()
      .update(mailOutbox)
      .set({ claimedBy: "another sender", claimedUntil: sql`now() + interval '1 minute'`, attempts: 1 })
      .where(eq(mailOutbox.id, held));
    expect(await deliverNow(held)).toEqual({ sent: 0, notSent: 0 });
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    await getDb()
      .update(mailOutbox)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.id, held));
    expect(await sweepOutbox()).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(await rowOf(held)).toMatchObject({ status: "sent", attempts: 2 });
    // The sender whose claim ran out cannot mark it afterwards: its token is no longer the row's.
    expect(smtp.received.filter((m) => m.to[0] === "held@example.com")).toHaveLength(1);
    expect(CLAIM_LEASE_MS).toBeGreaterThan(60_000);
  });

  it("holds each row while a slow server takes it: two sweeps at once deliver each row once", async () => {
    // Each of the server's four replies comes 400 ms late: one e-mail takes 1.6 s, longer than the
    // claims' lease here (1 s), which the sender renews every 250 ms. The second sweep starts while
    // the first is still sending its first e-mail.
    smtp.mode = "slow";
    smtp.delayMs = 400;
    const recipients = ["a", "b", "c", "d"].map((n) => `${n}@example.com`);
    for (const to of recipients) await enqueueMail(stageNotice(to));
    const first = sweepOutbox({ leaseMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const second = sweepOutbox({ leaseMs: 1_000 });
    const runs = await Promise.all([first, second]);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(recipients);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(4);
    const rows = await getDb().select({ status: mailOutbox.status, attempts: mailOutbox.attempts, claimedBy: mailOutbox.claimedBy }).from(mailOutbox);
    expect(rows).toEqual(recipients.map(() => ({ status: "sent", attempts: 1, claimedBy: null })));
  });

  it("stops between two e-mails when the process stops: the one under way is sent, the rest wait, pending and untried", async () => {
    smtp.mode = "slow";
    smtp.delayMs = 100;
    for (const to of ["a", "b", "c", "d"].map((n) => `${n}@example.com`)) await enqueueMail(stageNotice(to));
    const stopping = new AbortController();
    const sweep = sweepOutbox({ signal: stopping.signal });
    // Stopped while the first e-mail is with the server.
    while ((await getDb().select({ id: mailOutbox.id }).from(mailOutbox).where(sql`${mailOutbox.claimedBy} is not null`)).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stopping.abort();
    expect(await sweep).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const rows = await getDb().select({ status: mailOutbox.status, attempts: mailOutbox.attempts }).from(mailOutbox);
    expect(rows.filter((r) => r.status === "pending" && r.attempts === 0)).toHaveLength(3);
    // The next sweep sends them.
    smtp.mode = "accept";
    expect(await sweepOutbox()).toEqual({ sent: 3, retry: 0, failed: 0 });
  });

  it("sends what deliverMail is handed after its caller has gone on, and only once the transaction that queued it has committed", async () => {
    smtp.mode = "slow";
    smtp.delayMs = 200;
    const id = await getDb().transaction(async (tx) => {
      const queued = await enqueueMail(stageNotice(), tx);
      deliverMail(queued);
      return queued;
    });
    // Nothing was waited for: the e-mail goes after.
    expect(smtp.received).toEqual([]);
    await outboxSettled();
    expect(smtp.received.map((m) => m.to)).toEqual([["ana@example.com"]]);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1 });
    // A change rolled back takes its e-mail with it: nothing is sent.
    await expect(
      getDb().transaction(async (tx) => {
        deliverMail(await enqueueMail(stageNotice("never@example.com"), tx));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await outboxSettled();
    expect(smtp.received).toHaveLength(1);
    expect(await getDb().select().from(mailOutbox)).toHaveLength(1);
  });

  it("gives up an e-mail whose code or link has expired: a signing code is never sent after its 10 minutes", async () => {
    smtp.mode = "refuse";
    const code = await enqueueMail({ kind: "signing-code", to: "ana@example.com", payload: { name: "Ana Ruiz", code: "123456", minutes: 10 } });
    const reset = await enqueueMail({ kind: "password-reset", to: "ana@example.com", payload: { url: "http://localhost:3000/reset-password?token=t" } });
    const notice = await enqueueMail(stageNotice());
    // Each carries how long it is of use: the code's 10 minutes, the reset link's hour; a notice, always.
    const limits = await getDb().execute(
      sql`select id, extract(epoch from send_by - created_at)::float8 as s from mail_outbox order by created_at, id`,
    );
    const byId = new Map((limits as unknown as { rows: Array<{ id: string; s: number | null }> }).rows.map((r) => [r.id, r.s === null ? null : Math.round(r.s)]));
    expect([byId.get(code), byId.get(reset), byId.get(notice)]).toEqual([600, 3600, null]);
    expect(await deliverNow([code, reset, notice])).toEqual({ sent: 0, notSent: 3 });

    // Eleven minutes later the server answers again: the code is given up, the others go.
    await getDb().execute(sql`update mail_outbox set send_by = send_by - interval '11 minutes', created_at = created_at - interval '11 minutes'`);
    await timePasses();
    smtp.mode = "accept";
    expect(await sweepOutbox()).toEqual({ sent: 2, retry: 0, failed: 0 });
    expect(smtp.received.map((m) => m.subject).sort()).toEqual(["An update on your 2025 tax filing", "Reset your TaxBridge password"]);
    expect(await rowOf(code)).toMatchObject({ status: "failed", lastError: "EXPIRED", attempts: 1, sealed: null, claimedBy: null });
    // Handed over again, it is not tried either.
    expect(await deliverNow(code)).toEqual({ sent: 0, notSent: 0 });
    expect(smtp.received).toHaveLength(2);
  });

  it("writes DATA_DIR/outbox as its transport without SMTP_URL", async () => {
    useSmtp(undefined);
    const id = await enqueueMail(stageNotice());
    expect(await deliverNow(id)).toEqual({ sent: 1, notSent: 0 });
    const [mail] = readOutbox(process.env.DATA_DIR!);
    expect(mail).toMatchObject({ to: "ana@example.com", subject: "An update on your 2025 tax filing" });
    expect(smtp.received).toEqual([]);
  });

  it("reads the reason of a failure as a code, never a message", () => {
    expect(failureReason(Object.assign(new Error("x"), { code: "ESOCKET", originalCode: "ECONNREFUSED" }))).toEqual({
      code: "ECONNREFUSED",
      permanent: false,
      serverDown: true,
    });
    expect(failureReason(Object.assign(new Error("x"), { code: "EENVELOPE", responseCode: 550, command: "RCPT TO" }))).toEqual({
      code: "550",
      permanent: true,
      serverDown: false,
    });
    // A 5xx to the sender or the sign-in is this server's settings: tried again.
    expect(failureReason(Object.assign(new Error("x"), { code: "EAUTH", responseCode: 535, command: "AUTH PLAIN" })).permanent).toBe(false);
    expect(failureReason(Object.assign(new Error("x"), { code: "ENOSPC" })).code).toBe("ENOSPC");
    expect(failureReason(new Error("boom <ana@example.com>")).code).toBe("ERROR");
  });
});

describe("the Undelivered e-mails page", () => {
  type Page = { failed: Array<Record<string, unknown>>; retrying: Array<Record<string, unknown>> };

  async function outcome(call: () => Promise<unknown>): Promise<{ status: number; body: unknown; location: string | null }> {
    let result: unknown;
    try {
      result = await call();
    } catch (thrown) {
      result = thrown;
    }
    if (result instanceof Response)
      return { status: result.status, body: result.body ? await result.text() : null, location: result.headers.get("location") };
    const { status, body } = unwrap(result);
    return { status, body, location: null };
  }

  const view = (cookie?: string) =>
    outcome(() =>
      notices.loader(
        routeArgs(cookie ? withCookie("/admin/notices", cookie) : new Request("http://localhost:3000/admin/notices")) as never,
      ),
    );
  const resend = (cookie: string, fields: Record<string, string>) =>
    outcome(() =>
      notices.action(
        routeArgs(
          withCookie("/admin/notices", cookie, {
            method: "POST",
            body: new URLSearchParams(fields),
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          }),
          { clientIp: "203.0.113.9" },
        ) as never,
      ),
    );

  async function failedNotice(to: string): Promise<string> {
    smtp.mode = "reject-recipient";
    const id = await enqueueMail(stageNotice(to));
    await deliverNow(id);
    smtp.mode = "accept";
    smtp.received.length = 0;
    return id;
  }

  it("is for admins: a visitor goes to sign in, a client home, a preparer gets 403 and cannot resend", async () => {
    const id = await failedNotice("ana@example.com");
    const client = await signedInClient("notices.client@example.com");
    const preparer = await signedInClient("notices.preparer@example.com");
    await makeStaff(preparer, "preparer");
    const admin = await signedInClient("notices.admin@example.com");
    await makeStaff(admin, "admin");

    const visitor = await view();
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe("/login?redirectTo=%2Fadmin%2Fnotices");
    const asClient = await view(client.cookie);
    expect(asClient.status).toBe(302);
    expect(asClient.location).toBe("/dashboard");
    const asPreparer = await view(preparer.cookie);
    expect(asPreparer.status).toBe(403);
    expect(asPreparer.body).toBe(NOT_FOR_YOUR_ROLE);
    const preparerResend = await resend(preparer.cookie, { intent: "resend", id });
    expect(preparerResend.status).toBe(403);
    expect(smtp.received).toEqual([]);
    expect((await rowOf(id)).status).toBe("failed");

    const asAdmin = await view(admin.cookie);
    expect(asAdmin.status).toBe(200);
    const page = asAdmin.body as Page;
    expect(page.retrying).toEqual([]);
    expect(page.failed).toEqual([
      expect.objectContaining({ id, kind: "stage-changed", recipient: "ana@example.com", reason: "550", attempts: 1 }),
    ]);
  });

  it("sends a failed e-mail again once, audited; a bad or unknown id changes nothing", async () => {
    const id = await failedNotice("ana@example.com");
    const admin = await signedInClient("notices.admin@example.com");
    await makeStaff(admin, "admin");

    for (const bad of ["not-an-id", "00000000-0000-4000-8000-000000000000", ""]) {
      const answer = await resend(admin.cookie, { intent: "resend", id: bad });
      expect(answer.status, bad).toBe(404);
      expect(answer.body).toEqual({ ok: false, message: MAIL_OUTBOX_MESSAGES.notFound });
    }
    expect(await resend(admin.cookie, { intent: "something-else", id })).toMatchObject({
      status: 400,
      body: { ok: false, message: MAIL_OUTBOX_MESSAGES.badRequest },
    });
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "mail-resent"))).toEqual([]);
    expect((await rowOf(id)).status).toBe("failed");

    const answer = await resend(admin.cookie, { intent: "resend", id });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, message: MAIL_OUTBOX_MESSAGES.resent } });
    await outboxSettled();
    expect(smtp.received.map((m) => m.to)).toEqual([["ana@example.com"]]);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.action, "mail-resent"));
    expect(entries.map((e) => [e.actorId, e.detail, e.ipAddress])).toEqual([
      [admin.id, "Filing moved to another stage to ana@example.com", "203.0.113.9"],
    ]);

    // Sent: pressing the button again (a second tab) changes nothing and sends nothing.
    const again = await resend(admin.cookie, { intent: "resend", id });
    expect(again).toMatchObject({ status: 404, body: { ok: false, message: MAIL_OUTBOX_MESSAGES.notFound } });
    expect(smtp.received).toHaveLength(1);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "mail-resent"))).toHaveLength(1);
    expect((await view(admin.cookie)).body).toEqual({ failed: [], retrying: [] });
  });

  it("keeps an e-mail sent again and refused again for another try, listed as waiting", async () => {
    const id = await failedNotice("ana@example.com");
    const admin = await signedInClient("notices.admin@example.com");
    await makeStaff(admin, "admin");
    smtp.mode = "refuse";
    const answer = await resend(admin.cookie, { intent: "resend", id });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, message: MAIL_OUTBOX_MESSAGES.resent } });
    await outboxSettled();
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1, lastError: "421" });
    const page = (await view(admin.cookie)).body as Page;
    expect(page.failed).toEqual([]);
    expect(page.retrying).toEqual([expect.objectContaining({ id, reason: "421", attempts: 1 })]);
  });

  it("does not send again an e-mail whose code expired: listed as failed, without the button's effect", async () => {
    const admin = await signedInClient("notices.admin@example.com");
    await makeStaff(admin, "admin");
    const id = await enqueueMail({ kind: "signing-code", to: "ana@example.com", payload: { name: "Ana Ruiz", code: "123456", minutes: 10 } });
    await getDb().execute(sql`update mail_outbox set send_by = now() - interval '1 second'`);
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    const page = (await view(admin.cookie)).body as Page;
    expect(page.failed).toEqual([expect.objectContaining({ id, kind: "signing-code", reason: "EXPIRED", attempts: 0 })]);
    const answer = await resend(admin.cookie, { intent: "resend", id });
    expect(answer).toMatchObject({ status: 409, body: { ok: false, message: MAIL_OUTBOX_MESSAGES.expired } });
    await outboxSettled();
    expect(smtp.received).toEqual([]);
    expect(await rowOf(id)).toMatchObject({ status: "failed", lastError: "EXPIRED" });
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "mail-resent"))).toEqual([]);
  });
});

describe("the admin dashboard's count of e-mails that failed for good", () => {
  const failedMailOn = async (cookie: string) =>
    unwrap<{ failedMail: number | null }>(await dashboard.loader(routeArgs(withCookie("/admin/dashboard", cookie)) as never)).body.failedMail;

  it("shows admins how many failed, and a preparer nothing (the list is the admins' page)", async () => {
    const admin = await signedInClient("count.admin@example.com");
    await makeStaff(admin, "admin");
    const preparer = await signedInClient("count.preparer@example.com");
    await makeStaff(preparer, "preparer");
    expect(await failedMailOn(admin.cookie)).toBe(0);

    // A rejection notice and a spouse's signing link refused for good; a notice waiting for another try.
    smtp.mode = "reject-recipient";
    const rejection = await enqueueMail({ kind: "return-rejected", to: "ana@example.com", payload: { name: "Ana Ruiz", taxYear: 2025, url: "http://localhost:3000/my-tax-filing/2025", jurisdiction: "federal" } });
    const link = await enqueueMail({ kind: "signature-requested", to: "spouse@example.com", payload: { name: "Sam Ruiz", taxYear: 2025, url: "http://localhost:3000/sign/abc", days: 14 } });
    expect(await deliverNow([rejection, link])).toEqual({ sent: 0, notSent: 2 });
    smtp.mode = "refuse";
    await deliverNow(await enqueueMail(stageNotice()));

    expect(await failedMailOn(admin.cookie)).toBe(2);
    expect(await failedMailOn(preparer.cookie)).toBeNull();
    expect(MAIL_OUTBOX_MESSAGES.failedCount(2)).toBe("2 e-mails could not be sent and will not be tried again.");
  });
});
