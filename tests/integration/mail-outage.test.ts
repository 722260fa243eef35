// A mail server outage (ADR 0023): a real SMTP server on loopback refuses every connection (421)
// for a while, then answers again. Whatever the product had to say meanwhile (a sign-up's
// verification, a stage change, a message from staff, an invitation, a contact-form message) is
// kept in the outbox with the refusal's code and arrives once the server answers, exactly once.
// Time passes under the test's control: the rows' next tries are moved back in the database.
//
// On PostgreSQL, two built server processes (as two-processes.test.ts starts them) sweep the same
// outbox every second while the server recovers: each e-mail still arrives once.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { buildIfStale } from "../../scripts/build-if-stale.js";
import { freshSecrets } from "../../scripts/lib/server-process";
import type { RunningServer } from "../../scripts/lib/server-process";
import { currentFilingYear } from "~/domain/tax-year";
import { STAGES } from "~/domain/workflow";
import type { WorkflowFlags } from "~/domain/workflow";
import { action as signupAction } from "~/routes/auth/signup";
import { action as contactAction } from "~/routes/marketing/contact";
import { accountMailSent } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { createClient } from "~/server/clients/invitations.server";
import { createContactMessage } from "~/server/contact/contact.server";
import { getDb } from "~/server/db/client.server";
import { mailOutbox } from "~/server/db/schema";
import { enqueueMail, outboxSettled, sweepOutbox } from "~/server/mail/outbox.server";
import { sendMessageNotices } from "~/server/messages/message-notices.server";
import { sendMessage } from "~/server/messages/posting.server";
import { saveCaseWorkflow } from "~/server/cases/workflow.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { RETURN_CLIENT_MESSAGES } from "~/domain/return-client";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { recordIdCheck } from "~/server/returns/id-checks.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { account as person, dayFromToday, pdf, received, UA } from "../helpers/returns";
import { letterAccepted } from "../helpers/engagement";
import { formRequest, routeArgs, routeModule, routeOutcome, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { signupFields } from "../helpers/signup";
import { startServerOnFreePort } from "../helpers/server-port";
import { startSmtpServer } from "../helpers/smtp-server";
import type { TestSmtp } from "../helpers/smtp-server";
import { makeStaff, signedInClient, withCookie } from "./helpers";

const POSTGRES = Boolean(process.env.DATABASE_URL?.trim());
const dashboard = await routeModule("routes/admin/dashboard.tsx");
const filing = await routeModule("routes/portal/filing.tsx");
const YEAR = currentFilingYear();
const IP = "203.0.113.9";

let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await smtp.close();
});

/** Lets the time until every pending row's next try pass, by the database's clock. */
async function timePasses(): Promise<void> {
  await getDb().execute(sql`update mail_outbox set next_attempt_at = now() - interval '1 second' where status = 'pending'`);
}

/** Waits (polling, at most `ms`) until the server has received `count` messages. */
async function arrived(count: number, ms = 30_000): Promise<void> {
  await vi.waitFor(() => expect(smtp.received.length).toBeGreaterThanOrEqual(count), { timeout: ms, interval: 100 });
}

async function account(email: string, role?: "admin" | "preparer"): Promise<SessionUser> {
  const signedIn = await signedInClient(email);
  if (role) await makeStaff(signedIn, role);
  const found = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!found) throw new Error("no session");
  return found;
}

describe("a mail server outage", () => {
  beforeEach(() => {
    process.env.SMTP_URL = smtp.url;
    resetEnvForTests();
    smtp.mode = "accept";
    smtp.received.length = 0;
  });

  it("loses nothing: every e-mail of the outage arrives once the server answers, exactly once", async () => {
    const admin = await account("olga.admin@taxbridge.test", "admin");
    const client = await account("carl.client@example.com");
    vi.spyOn(console, "error").mockImplementation(() => {});

    smtp.mode = "refuse";
    // A visitor signs up: the verification e-mail.
    const signup = unwrap(
      await signupAction(routeArgs(formRequest("/signup", signupFields("nina.new@example.com", "nina password 1", "Nina New"))) as never),
    );
    expect(signup).toMatchObject({ status: 200, body: { ok: true } });
    await accountMailSent();
    // Staff move a case to another stage: the client's stage notice.
    const saved = await saveCaseWorkflow(
      admin,
      { clientId: client.id, taxYear: YEAR, flags: Object.fromEntries(STAGES.map((s) => [s.key, s.key === "home"])) as WorkflowFlags, stage: "taxinfo", assigneeId: null },
      IP,
    );
    expect(saved).toMatchObject({ outcome: "saved" });
    // Staff write to the client; once the quiet period is over, the client's message notice.
    expect(
      await sendMessage(admin, { clientId: client.id, taxYear: YEAR, body: "Your draft is ready", category: "other-documents", files: [] }, IP),
    ).not.toBeNull();
    expect(await sendMessageNotices({ now: new Date(Date.now() + 60 * 60_000) })).toEqual({ sent: 0, skipped: 0, failed: 1 });
    // Add New Client: the invitation.
    expect(await createClient(admin, { name: "Ivy Invited", email: "ivy@example.com", phone: null, visaStatus: "F-1" }, IP)).toBe(
      "created",
    );
    // A visitor writes through the contact form: the e-mail to staff.
    await createContactMessage(
      { name: "Vera Visitor", email: "vera@example.com", phone: null, subject: "A question", description: "Do you file for H-1B holders?" },
      IP,
    );

    // Nothing arrived; each e-mail waits with the refusal's code.
    await outboxSettled();
    expect(smtp.received).toEqual([]);
    expect(smtp.connections).toBeGreaterThanOrEqual(5);
    const waiting = await getDb()
      .select({ kind: mailOutbox.kind, to: mailOutbox.recipient, status: mailOutbox.status, attempts: mailOutbox.attempts, code: mailOutbox.lastError })
      .from(mailOutbox)
      .orderBy(mailOutbox.createdAt);
    expect(waiting).toEqual([
      { kind: "verification", to: "nina.new@example.com", status: "pending", attempts: 1, code: "421" },
      { kind: "stage-changed", to: "carl.client@example.com", status: "pending", attempts: 1, code: "421" },
      { kind: "client-message", to: "carl.client@example.com", status: "pending", attempts: 1, code: "421" },
      { kind: "client-invitation", to: "ivy@example.com", status: "pending", attempts: 1, code: "421" },
      { kind: "contact-message", to: "staff@taxbridge.test", status: "pending", attempts: 1, code: "421" },
    ]);
    // Still down a minute later: tried again, still waiting.
    await timePasses();
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 1, failed: 0 });
    expect(smtp.received).toEqual([]);

    // The server answers again; the next tries come due.
    smtp.mode = "accept";
    await timePasses();
    expect(await sweepOutbox()).toEqual({ sent: 5, retry: 0, failed: 0 });
    await arrived(5);
    expect(smtp.received.map((m) => [m.to.join(","), m.subject]).sort()).toEqual(
      [
        ["carl.client@example.com", `An update on your ${YEAR} tax filing`],
        ["carl.client@example.com", `You have a new message about your ${YEAR} tax filing`],
        ["ivy@example.com", "Your TaxBridge client account"],
        ["nina.new@example.com", "Verify your e-mail for TaxBridge"],
        ["staff@taxbridge.test", "[TaxBridge contact] A question"],
      ].sort(),
    );
    // Written when sent, from what the rows hold: the links work, the contact message is the stored one.
    const byTo = (to: string) => smtp.received.find((m) => m.to.includes(to))!.raw.replace(/=\r?\n/g, "");
    expect(byTo("nina.new@example.com")).toMatch(/\/api\/auth\/verify-email\?token=/);
    expect(byTo("ivy@example.com")).toMatch(/\/reset-password\?token=/);
    expect(byTo("staff@taxbridge.test")).toContain("Do you file for H-1B holders?");
    expect(byTo("carl.client@example.com")).not.toContain("Your draft is ready");
    // Every row sent, its one-time links forgotten.
    const rows = await getDb().select().from(mailOutbox);
    expect(rows.map((r) => [r.status, r.sealed])).toEqual(rows.map(() => ["sent", null]));

    // Nothing more: neither another sweep, however late, nor the jobs that caused them.
    await timePasses();
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(await sendMessageNotices({ now: new Date(Date.now() + 2 * 60 * 60_000) })).toEqual({ sent: 0, skipped: 0, failed: 0 });
    expect(smtp.received).toHaveLength(5);
    vi.restoreAllMocks();
  });
});

describe("a mail server that takes connections and never answers", () => {
  beforeEach(() => {
    process.env.SMTP_URL = smtp.url;
    resetEnvForTests();
    smtp.mode = "accept";
    smtp.received.length = 0;
  });

  /** Runs `call` and answers how long it took, in milliseconds. */
  async function timed(call: () => Promise<unknown>): Promise<number> {
    const start = performance.now();
    await call();
    return performance.now() - start;
  }

  it("holds up no request: each answers at once, and its e-mail goes once the server answers", async () => {
    const staff = await signedInClient("olga.admin@taxbridge.test");
    await makeStaff(staff, "admin");
    const client = await account("carl.client@example.com");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const post = (fields: Record<string, string | string[]>) =>
      withCookie("/admin/dashboard", staff.cookie, {
        method: "POST",
        body: new URLSearchParams(Object.entries(fields).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => [k, one]))),
      });

    // The server greets nobody: a request that waited for it would wait 15 seconds (mail.server.ts).
    smtp.mode = "hang";
    const connectionsBefore = smtp.connections;
    const answers = {
      signup: await timed(async () => {
        const answer = unwrap(await signupAction(routeArgs(formRequest("/signup", signupFields("nina.new@example.com", "nina password 1", "Nina New"))) as never));
        expect(answer).toMatchObject({ status: 200, body: { ok: true } });
      }),
      contact: await timed(async () => {
        const answer = unwrap(
          await contactAction(
            routeArgs(
              formRequest("/contact", { name: "Vera Visitor", email: "vera@example.com", phone: "", subject: "A question", description: "Do you file for H-1B holders?" }),
            ) as never,
          ),
        );
        expect(answer).toMatchObject({ status: 200, body: { ok: true } });
      }),
      stageChange: await timed(async () => {
        const answer = unwrap(
          await dashboard.action(routeArgs(post({ intent: "save-workflow", clientId: client.id, taxYear: String(YEAR), completed: ["home", "taxinfo"], assigneeId: "" })) as never),
        );
        expect(answer).toMatchObject({ status: 200, body: { ok: true } });
      }),
      addClient: await timed(async () => {
        const answer = unwrap(
          await dashboard.action(routeArgs(post({ intent: "add-client", name: "Ivy Invited", email: "ivy@example.com", phone: "", visaStatus: "F-1" })) as never),
        );
        expect(answer).toMatchObject({ status: 200, body: { ok: true, email: "ivy@example.com" } });
      }),
    };
    // Well under the 15 s a wait would take, with room for a loaded machine.
    for (const [name, ms] of Object.entries(answers)) expect(ms, name).toBeLessThan(8_000);
    const queued = await getDb().select({ kind: mailOutbox.kind, status: mailOutbox.status }).from(mailOutbox).orderBy(mailOutbox.createdAt);
    expect(queued.map((r) => r.kind)).toEqual(["verification", "contact-message", "stage-changed", "client-invitation"]);
    expect(smtp.received).toEqual([]);

    // The server answers again (it ends the connections it held with a 421): the e-mails wait for
    // their next try, which sends each once.
    await vi.waitFor(() => expect(smtp.connections - connectionsBefore).toBeGreaterThanOrEqual(4), { timeout: 10_000, interval: 50 });
    smtp.mode = "accept";
    await outboxSettled();
    await timePasses();
    expect(await sweepOutbox()).toEqual({ sent: 4, retry: 0, failed: 0 });
    expect(smtp.received.map((m) => m.to.join(",")).sort()).toEqual(
      ["carl.client@example.com", "ivy@example.com", "nina.new@example.com", "staff@taxbridge.test"].sort(),
    );
    vi.restoreAllMocks();
  }, 60_000);
});

describe("a signing code while the mail server refuses", () => {
  beforeEach(() => {
    process.env.SMTP_URL = smtp.url;
    resetEnvForTests();
    smtp.mode = "accept";
    smtp.received.length = 0;
  });

  it("says the code could not be e-mailed yet once the outbox knows the server is failing, and never sends a code after it expired", async () => {
    const preparer = await person("pat.preparer@example.com", "Pat Preparer", "preparer");
    const alice = await person("alice@example.com", "Alice Aardvark");
    expect(await saveTaxpayerRecord(alice.id, sampleTaxpayer, YEAR)).toBe("created");
    await letterAccepted(preparer, alice, YEAR);
    const version = await uploadReturnVersion(preparer.actor, { clientId: alice.id, taxYear: YEAR }, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
    if (!version.ok) throw new Error(version.error);
    expect((await approveReturnVersion(alice.actor, version.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
    expect((await requestSignature(preparer.actor, version.versionId, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: false }, IP)).ok).toBe(true);
    const idCheck = { documentType: "passport", issuingCountry: "IN", expiresOn: dayFromToday(400), numberLast4: "1234", how: "in-person" };
    expect((await recordIdCheck(preparer.actor, { clientId: alice.id, taxYear: YEAR }, "taxpayer", idCheck, IP)).ok).toBe(true);
    await outboxSettled();
    smtp.received.length = 0;
    vi.spyOn(console, "error").mockImplementation(() => {});
    const sendCode = () =>
      routeOutcome(() =>
        filing.action({
          ...routeArgs(withCookie(`/my-tax-filing/${YEAR}`, alice.cookie, { method: "POST", body: new URLSearchParams({ intent: "send-code" }) })),
          params: { year: String(YEAR) },
        } as never),
      );

    smtp.mode = "refuse";
    // Nothing tells yet that the server is failing: the code is on its way, as far as anyone knows.
    expect(await sendCode()).toMatchObject({ status: 200, body: { ok: true, message: RETURN_CLIENT_MESSAGES.codeSent("alice@example.com") } });
    await outboxSettled();
    // Its try was refused: the next answer says what is true.
    expect(await sendCode()).toMatchObject({ status: 503, body: { ok: false, message: RETURN_CLIENT_MESSAGES.codeNotSent("alice@example.com") } });
    await outboxSettled();
    const codes = () => getDb().select({ status: mailOutbox.status, code: mailOutbox.lastError }).from(mailOutbox).where(eq(mailOutbox.kind, "signing-code"));
    expect(await codes()).toEqual([
      { status: "pending", code: "421" },
      { status: "pending", code: "421" },
    ]);

    // The server answers again eleven minutes later: the codes have expired, and are not sent.
    await getDb().execute(sql`update mail_outbox set send_by = send_by - interval '11 minutes' where kind = 'signing-code'`);
    await timePasses();
    smtp.mode = "accept";
    expect(await sweepOutbox()).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(smtp.received).toEqual([]);
    expect(await codes()).toEqual([
      { status: "failed", code: "EXPIRED" },
      { status: "failed", code: "EXPIRED" },
    ]);
    // With the server answering, a new code is on its way, and goes.
    expect(await sendCode()).toMatchObject({ status: 200, body: { ok: true, message: RETURN_CLIENT_MESSAGES.codeSent("alice@example.com") } });
    await outboxSettled();
    expect(smtp.received.map((m) => m.subject)).toEqual(["Your TaxBridge signing code"]);
    vi.restoreAllMocks();
  });
});

// ------------------------------------------------------------------------------------------

type Process = { name: string; server: RunningServer; dataDir: string };

describe.skipIf(!POSTGRES)("two server processes sweeping one outbox while the mail server recovers", () => {
  let root = "";
  const started: Process[] = [];
  const killLeftovers = () => {
    for (const p of started) if (p.server.child.exitCode === null) p.server.child.kill("SIGKILL");
  };

  beforeAll(async () => {
    process.once("exit", killLeftovers);
    buildIfStale();
    root = mkdtempSync(path.join(os.tmpdir(), "taxbridge-mail-outage-"));
    const secrets = freshSecrets();
    for (const name of ["A", "B"]) {
      const dataDir = path.join(root, `data-${name}`);
      const { server } = await startServerOnFreePort({
        dataDir,
        databaseUrl: process.env.DATABASE_URL!.trim(),
        secrets,
        logFile: path.join(root, `server-${name}.log`),
        env: {
          SMTP_URL: smtp.url,
          MAIL_SWEEP_SECONDS: "1",
          STAFF_EMAIL: "staff@taxbridge.test",
          ADMIN_EMAIL: "",
          REMINDER_INTERVAL_MINUTES: "0",
        },
      });
      started.push({ name, server, dataDir });
    }
  }, 600_000);

  afterAll(async () => {
    const codes = await Promise.all(started.map((p) => p.server.stop()));
    process.removeListener("exit", killLeftovers);
    if (root) rmSync(root, { recursive: true, force: true });
    expect(codes).toEqual(started.map(() => 0));
  }, 60_000);

  it("sends each e-mail once", async () => {
    smtp.mode = "refuse";
    smtp.received.length = 0;
    // What the product queued during the outage: 30 notices, each refused once already.
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(
        await enqueueMail({
          kind: "stage-changed",
          to: `client${i}@example.com`,
          payload: { name: `Client ${i}`, taxYear: YEAR, url: `http://localhost/my-tax-filing/${YEAR}` },
        }),
      );
    await getDb().execute(
      sql`update mail_outbox set attempts = 1, last_error = '421', last_attempt_at = now(), next_attempt_at = now() - interval '1 second'`,
    );
    // The processes' sweeps find them due and are refused (each sweep stops at its first refusal,
    // leaving the rest untried): tries counted, nothing sent.
    await vi.waitFor(
      async () => {
        const [row] = await getDb().select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(sql`attempts >= 2`);
        expect(row!.n).toBeGreaterThanOrEqual(3);
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(await getDb().select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(sql`last_error <> '421' or status <> 'pending'`)).toEqual([{ n: 0 }]);
    expect(smtp.received).toEqual([]);

    // The server answers again, and the next tries come due while both processes sweep.
    smtp.mode = "accept";
    // A sweep refused just before the server came back puts its row's next try minutes later,
    // perhaps after the time passed here: time passes again until every e-mail has arrived.
    await vi.waitFor(
      async () => {
        await timePasses();
        expect(smtp.received.length).toBeGreaterThanOrEqual(30);
      },
      { timeout: 60_000, interval: 500 },
    );
    // A few more sweeps of both: nothing more.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const recipients = smtp.received.map((m) => m.to.join(","));
    expect(recipients.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `client${i}@example.com`).sort());
    const rows = await getDb().select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.kind, "stage-changed"));
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => "sent"));
  }, 120_000);
});
