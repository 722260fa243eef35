import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { caseMessages } from "~/server/db/schema";
import { EnvError } from "~/server/platform/env.server";
import { MESSAGE_NOTICE_DELAY_SECONDS, messageNoticesJob, sendMessageNotices } from "~/server/messages/message-notices.server";
import { hideMessage, sendMessage } from "~/server/messages/posting.server";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// The client's e-mail about a message from staff waits a quiet period, so that a message staff
// hide meanwhile is never announced; what decides it is stored with the message.

const YEAR = currentFilingYear();
const DELAY_MS = MESSAGE_NOTICE_DELAY_SECONDS * 1000;
const IP = "203.0.113.9";

let staff: SessionUser;
let alice: SessionUser;
let bob: SessionUser;

async function account(email: string, role?: "admin" | "preparer"): Promise<SessionUser> {
  const signedIn = await signedInClient(email);
  if (role) await makeStaff(signedIn, role);
  const found = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!found) throw new Error("no session");
  return found;
}

beforeEach(async () => {
  staff = await account("sam.staff@example.com", "admin");
  alice = await account("alice@example.com");
  bob = await account("bob@example.com");
});

const send = async (from: SessionUser, clientId: string, body: string) => {
  const sent = await sendMessage(from, { clientId, taxYear: YEAR, body, category: "other-documents", files: [] }, IP);
  if (!sent) throw new Error("not sent");
  return sent;
};
/** The notice job's run `ms` after now. */
const runAt = (ms: number) => sendMessageNotices({ now: new Date(Date.now() + ms) });
const mailsTo = async (email: string) => (await sentMail()).filter((m) => m.to === email);
const pending = async () =>
  (await getDb().select({ body: caseMessages.body }).from(caseMessages).where(eq(caseMessages.clientNoticePending, true))).map(
    (m) => m.body,
  );

describe("the client's e-mail about a message from staff", () => {
  it("goes only once the quiet period is over, and only once", async () => {
    const sent = await send(staff, alice.id, "Your draft is ready");
    expect(sent.notified).toBe(true);
    expect((await mailsTo("alice@example.com"))).toEqual([]);
    expect(await pending()).toEqual(["Your draft is ready"]);

    expect(await runAt(DELAY_MS - 5_000)).toEqual({ sent: 0, skipped: 0, failed: 0 });
    expect((await mailsTo("alice@example.com"))).toEqual([]);

    expect(await runAt(DELAY_MS + 1_000)).toEqual({ sent: 1, skipped: 0, failed: 0 });
    const [mail] = (await mailsTo("alice@example.com"));
    expect(mail!.subject).toBe(`You have a new message about your ${YEAR} tax filing`);
    expect(mail!.text).toContain(`/my-tax-filing/${YEAR}/messages`);
    expect(mail!.raw).not.toContain("draft");
    expect(await pending()).toEqual([]);
    expect(await runAt(DELAY_MS + 60_000)).toEqual({ sent: 0, skipped: 0, failed: 0 });
    expect((await mailsTo("alice@example.com"))).toHaveLength(1);
  });

  it("is never sent for a message hidden within the quiet period, while a visible one is", async () => {
    const hidden = await send(staff, alice.id, "Sent to the wrong client");
    await send(staff, bob.id, "A visible message for Bob");
    expect(await hideMessage(staff, { clientId: alice.id, taxYear: YEAR, messageId: hidden.id }, IP)).toMatchObject({
      outcome: "hidden",
    });

    expect(await runAt(DELAY_MS + 1_000)).toEqual({ sent: 1, skipped: 1, failed: 0 });
    expect((await mailsTo("alice@example.com"))).toEqual([]);
    expect((await mailsTo("bob@example.com"))).toHaveLength(1);
    expect(await pending()).toEqual([]);
  });

  it("announces the next visible message when the one before it was hidden", async () => {
    const first = await send(staff, alice.id, "First, hidden later");
    // The first is unread, so the page tells staff that no new e-mail will be sent for this one.
    expect((await send(staff, alice.id, "Second, stays")).notified).toBe(false);
    await hideMessage(staff, { clientId: alice.id, taxYear: YEAR, messageId: first.id }, IP);
    expect(await runAt(DELAY_MS + 1_000)).toEqual({ sent: 1, skipped: 1, failed: 0 });
    expect((await mailsTo("alice@example.com"))).toHaveLength(1);
  });

  it("sends one e-mail for several unread messages of the hour, and none for a message read meanwhile", async () => {
    await send(staff, alice.id, "One");
    await send(staff, alice.id, "Two");
    expect(await runAt(DELAY_MS + 1_000)).toEqual({ sent: 1, skipped: 1, failed: 0 });
    expect((await mailsTo("alice@example.com"))).toHaveLength(1);

    await send(staff, bob.id, "For Bob");
    await getDb().update(caseMessages).set({ readAt: new Date() }).where(eq(caseMessages.clientId, bob.id));
    expect(await runAt(DELAY_MS + 1_000)).toEqual({ sent: 0, skipped: 1, failed: 0 });
    expect((await mailsTo("bob@example.com"))).toEqual([]);
  });

  it("is not held for the client's own messages: staff are e-mailed at once", async () => {
    await send(alice, alice.id, "A question");
    expect((await sentMail()).map((m) => m.to)).toEqual(["staff@taxbridge.test"]);
    expect(await pending()).toEqual([]);
  });

  it("survives a restart: the mark is stored with the message, and a run of any process sends it", async () => {
    await send(staff, alice.id, "Before the restart");
    const [stored] = await getDb().select().from(caseMessages).where(eq(caseMessages.clientId, alice.id));
    expect(stored!.clientNoticePending).toBe(true);
    // The job as a process started afresh builds it (here with no quiet period) sends it.
    await messageNoticesJob({ MESSAGE_NOTICE_DELAY_SECONDS: "0" }).run(new AbortController().signal);
    expect((await mailsTo("alice@example.com"))).toHaveLength(1);
    expect(await pending()).toEqual([]);
  });

  it("takes its quiet period from MESSAGE_NOTICE_DELAY_SECONDS, and refuses anything but a number", () => {
    expect(messageNoticesJob({}).intervalMs).toBe(30_000);
    expect(messageNoticesJob({ MESSAGE_NOTICE_DELAY_SECONDS: "20" }).intervalMs).toBe(5_000);
    expect(messageNoticesJob({ MESSAGE_NOTICE_DELAY_SECONDS: "1" }).intervalMs).toBe(1_000);
    expect(() => messageNoticesJob({ MESSAGE_NOTICE_DELAY_SECONDS: "two minutes" })).toThrow(EnvError);
  });
});
