import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, like } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { CASE_MESSAGES } from "~/domain/case-forms";
import type { CaseActionResult } from "~/domain/case-forms";
import { currentFilingYear } from "~/domain/tax-year";
import { createClient, invitationStanding } from "~/server/clients/invitations.server";
import { getAuth } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { caseActivity } from "~/server/cases/case-page.server";
import { getDb } from "~/server/db/client.server";
import { account, auditLog, mailOutbox, user, verification } from "~/server/db/schema";
import { outboxSettled, sweepOutbox } from "~/server/mail/outbox.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// "Send invitation again" on the staff's case page: shown while the client's account waits for
// its password, it e-mails a fresh one-time link (the older ones stop working), is audited, and
// is refused clearly once the client can sign in or for a deactivated account; when the e-mail
// cannot go yet, it says so, the e-mail waits in the outbox and the link sent before still works.

const caseRoute = routeModule("routes/admin/case.tsx");
const YEAR = currentFilingYear();
const INVITEE = "lee.invitee@example.com";

type Account = { id: string; cookie: string; actor: SessionUser };
let admin: Account;
let preparer: Account;
let inviteeId: string;

async function staffAccount(email: string, name: string, role: "admin" | "preparer"): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  await makeStaff(signedIn, role);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, actor };
}

beforeEach(async () => {
  admin = await staffAccount("sam.staff@example.com", "Sam Staff", "admin");
  preparer = await staffAccount("pat.preparer@example.com", "Pat Preparer", "preparer");
  const input = { name: "Lee Invitee", email: INVITEE, phone: null, visaStatus: "F-1" as const };
  expect(await createClient(admin.actor, input, "203.0.113.1")).toBe("created");
  await outboxSettled();
  const [row] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, INVITEE));
  inviteeId = row!.id;
});

const args = (request: Request, clientId: string) => ({
  ...routeArgs(request),
  params: { clientId, year: String(YEAR) },
});

async function pageOf(who: Account, clientId: string) {
  const { loader } = await caseRoute;
  const got = unwrap<{ invitationPending: boolean }>(
    await loader(args(withCookie(`/admin/clients/${clientId}/${YEAR}`, who.cookie), clientId)),
  );
  return got.body;
}

async function resend(who: { cookie: string }, clientId: string) {
  const { action } = await caseRoute;
  const request = withCookie(`/admin/clients/${clientId}/${YEAR}`, who.cookie, {
    method: "POST",
    body: new URLSearchParams({ intent: "resend-invitation" }),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  let result: unknown;
  try {
    result = await action(args(request, clientId));
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("location"), body: null };
  const answered = unwrap<CaseActionResult>(result);
  return { status: answered.status, location: null, body: answered.body };
}

const invitations = async () => (await sentMail()).filter((m) => m.to === INVITEE);
const tokenOf = (text: string) => /\/reset-password\?token=([^\s&]+)/.exec(text)?.[1] ?? null;
const linksStored = () =>
  getDb()
    .select({ identifier: verification.identifier })
    .from(verification)
    .where(and(like(verification.identifier, "reset-password:%"), eq(verification.value, inviteeId)));
const invitationEntries = () =>
  getDb()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "invitation-sent"), eq(auditLog.clientId, inviteeId)))
    .orderBy(asc(auditLog.id));

describe("sending a client's invitation again", () => {
  it("is offered while the account waits for its password, and sends a fresh link that replaces the old one", async () => {
    expect((await pageOf(admin, inviteeId)).invitationPending).toBe(true);
    const first = tokenOf((await invitations())[0]!.text);
    expect(first).not.toBeNull();

    const got = await resend(admin, inviteeId);
    expect(got).toEqual({
      status: 200,
      location: null,
      body: { intent: "resend-invitation", ok: true, message: CASE_MESSAGES.invitationSent(INVITEE) },
    });
    const mails = (await invitations());
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe("Your TaxBridge client account");
    expect(mails[1]!.text).toContain("Hello Lee Invitee,");
    const second = tokenOf(mails[1]!.text);
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    // Only the newest link works.
    expect((await linksStored()).map((l) => l.identifier)).toEqual([
      `reset-password:${decodeURIComponent(second!)}`,
    ]);

    const entries = await invitationEntries();
    expect(entries.map((e) => [e.actorId, e.detail])).toEqual([
      [admin.id, `invited ${INVITEE}`],
      [admin.id, `invited ${INVITEE} again`],
    ]);
    const activity = await caseActivity(inviteeId, YEAR);
    expect(activity.map((a) => a.text)).toContain("Sent the invitation e-mail again");

    // The client chooses a password with the new link: nothing more to send.
    await getAuth().api.resetPassword({
      body: { token: decodeURIComponent(second!), newPassword: "a brand new passphrase" },
    });
    expect(await invitationStanding(inviteeId)).toBe("has-password");
    expect((await pageOf(admin, inviteeId)).invitationPending).toBe(false);
    const refused = await resend(admin, inviteeId);
    expect(refused).toEqual({
      status: 409,
      location: null,
      body: { intent: "resend-invitation", ok: false, message: CASE_MESSAGES.invitationNotNeeded },
    });
    expect((await invitations())).toHaveLength(2);
    expect(await invitationEntries()).toHaveLength(2);
  });

  it("may be sent by a preparer", async () => {
    const got = await resend(preparer, inviteeId);
    expect(got.body).toEqual({
      intent: "resend-invitation",
      ok: true,
      message: CASE_MESSAGES.invitationSent(INVITEE),
    });
    expect((await invitations())).toHaveLength(2);
    expect((await invitationEntries()).at(-1)!.actorId).toBe(preparer.id);
  });

  it("is refused for a client who signed up with a password or signs in with Google", async () => {
    const client = await signedInClient("pia.password@example.com");
    expect((await pageOf(admin, client.id)).invitationPending).toBe(false);
    expect((await resend(admin, client.id)).body).toEqual({
      intent: "resend-invitation",
      ok: false,
      message: CASE_MESSAGES.invitationNotNeeded,
    });
    // Google only: no password, but a way to sign in.
    await getDb()
      .insert(account)
      .values({ id: "google-acc", accountId: "g-123", providerId: "google", userId: inviteeId });
    expect((await resend(admin, inviteeId)).status).toBe(409);
    expect((await sentMail()).filter((m) => m.to === "pia.password@example.com")).toEqual([]);
    expect((await invitations())).toHaveLength(1);
  });

  it("is refused for a deactivated account", async () => {
    await getDb().update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, inviteeId));
    expect((await pageOf(admin, inviteeId)).invitationPending).toBe(false);
    expect(await resend(admin, inviteeId)).toEqual({
      status: 409,
      location: null,
      body: { intent: "resend-invitation", ok: false, message: CASE_MESSAGES.invitationDeactivated },
    });
    expect((await invitations())).toHaveLength(1);
    expect(await invitationEntries()).toHaveLength(1);
  });

  it("keeps an e-mail that cannot go yet for another try, and the link sent before still works", async () => {
    const before = await linksStored();
    vi.spyOn(console, "error").mockImplementation(() => {});
    // The mail outbox folder cannot be written: the e-mail cannot go.
    const outbox = path.join(process.env.DATA_DIR!, "outbox");
    rmSync(outbox, { recursive: true, force: true });
    writeFileSync(outbox, "not a folder");
    expect(await resend(admin, inviteeId)).toEqual({
      status: 200,
      location: null,
      body: { intent: "resend-invitation", ok: true, message: CASE_MESSAGES.invitationSent(INVITEE) },
    });
    await outboxSettled();
    // The link sent before still works, beside the new one, whose e-mail waits in the outbox.
    const links = await linksStored();
    expect(links).toHaveLength(before.length + 1);
    expect(links).toEqual(expect.arrayContaining(before));
    const [queued] = await getDb()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, "client-invitation"), eq(mailOutbox.status, "pending")));
    expect(queued).toMatchObject({ recipient: INVITEE, attempts: 1, lastError: "EEXIST" });
    expect(await invitationEntries()).toHaveLength(2);
    // The outbox can be written again: the next try sends the invitation, once.
    rmSync(outbox, { force: true });
    await getDb().update(mailOutbox).set({ nextAttemptAt: new Date(0) }).where(eq(mailOutbox.id, queued!.id));
    expect(await sweepOutbox()).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect((await invitations())).toHaveLength(1);
    const newest = links.find((l) => !before.some((b) => b.identifier === l.identifier))!;
    expect((await invitations())[0]!.text).toContain(newest.identifier.slice("reset-password:".length));
    vi.restoreAllMocks();
  });

  it("is not for clients or visitors: they are sent away and nothing is sent", async () => {
    const client = await signedInClient("pia.password@example.com");
    for (const cookie of [client.cookie, ""]) {
      const got = await resend({ cookie }, inviteeId);
      expect(got.status).toBe(302);
      expect(got.location).toMatch(cookie ? /^\/dashboard$/ : /^\/login\?redirectTo=/);
    }
    expect((await invitations())).toHaveLength(1);
    expect(await invitationEntries()).toHaveLength(1);
  });
});
