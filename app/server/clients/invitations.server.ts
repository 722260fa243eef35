import { and, eq, gt, like, ne } from "drizzle-orm";
import type { VisaStatus } from "~/domain/auth";
import { recordAudit } from "~/server/audit/audit.server";
import { createAccount } from "~/server/auth/accounts.server";
import { createPasswordLink } from "~/server/auth/better-auth.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { account, user, verification } from "~/server/db/schema";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";

export type NewClient = { name: string; email: string; phone: string | null; visaStatus: VisaStatus };

/** How long an invitation's link to choose a password works. */
const INVITATION_HOURS = 72;

/**
 * "created": a new client account, its invitation queued. "invited-again": the address already
 * had a client account waiting for an invitation (see awaitsInvitation): a new one is queued.
 * "exists": the address belongs to an account in use, to staff, or to a client whose invitation
 * is pending (queued, or sent with a link that still works).
 */
export type AddClientOutcome = "created" | "invited-again" | "exists";

/** The one-time links to choose a password made for this account (createPasswordLink). */
const passwordLinksOf = (userId: string) =>
  and(like(verification.identifier, "reset-password:%"), eq(verification.value, userId));

/**
 * Whether an existing account is a client still waiting for an invitation: a client account
 * with no way to sign in yet (no password chosen, no Google sign-in) and no working link to
 * choose a password (its invitation could not be sent, or its link has expired).
 */
async function awaitsInvitation(userId: string): Promise<boolean> {
  const db = getDb();
  const [[row], [signIn], [link]] = await Promise.all([
    db.select({ role: user.role }).from(user).where(eq(user.id, userId)),
    db.select({ id: account.id }).from(account).where(eq(account.userId, userId)).limit(1),
    db
      .select({ id: verification.id })
      .from(verification)
      .where(and(passwordLinksOf(userId), gt(verification.expiresAt, new Date())))
      .limit(1),
  ]);
  return row?.role === "user" && !signIn && !link;
}

/**
 * E-mails the client a fresh one-time link to choose their password: the link, its e-mail (queued
 * in the outbox, ADR 0023) and the audit entry are stored together, then the e-mail is sent once
 * the answer has gone. When it goes at that first try, the account's older links stop working
 * (only the newest invitation opens the account); until then, or when it waits for another try,
 * the links sent before keep working.
 */
async function sendInvitation(
  actor: SessionUser,
  client: { id: string; email: string; name: string },
  again: boolean,
  ip: string,
): Promise<void> {
  const db = getDb();
  const { link, mailId } = await db.transaction(async (tx) => {
    const made = await createPasswordLink(client.id, INVITATION_HOURS, tx);
    await recordAudit(
      { actor, action: "invitation-sent", clientId: client.id, detail: `invited ${client.email}${again ? " again" : ""}`, ip },
      tx,
    );
    const queued = await enqueueMail(
      { kind: "client-invitation", to: client.email, payload: { name: client.name, link: made, hours: INVITATION_HOURS } },
      tx,
    );
    return { link: made, mailId: queued };
  });
  deliverMail(mailId, async () => {
    const sent = linkIdentifier(link);
    await db.delete(verification).where(and(passwordLinksOf(client.id), sent ? ne(verification.identifier, sent) : undefined));
  });
}

/** The stored identifier of a link made by createPasswordLink (its token), or null. */
function linkIdentifier(link: string): string | null {
  const token = new URL(link).searchParams.get("token");
  return token ? `reset-password:${token}` : null;
}

/**
 * Add New Client: creates a client account (verified: the invitation goes to that address and
 * only its holder can set the password) with its profile and case, and e-mails the invitation.
 * The account and its audit entry are stored together; the invitation after (sendInvitation),
 * queued in the outbox and sent once the answer has gone.
 */
export async function createClient(actor: SessionUser, input: NewClient, ip: string): Promise<AddClientOutcome> {
  const db = getDb();
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing && !(await awaitsInvitation(existing.id))) return "exists";
  const id =
    existing?.id ??
    (await db.transaction(async (tx) => {
      const created = await createAccount(
        { name: input.name, email, phone: input.phone, visaStatus: input.visaStatus, role: "user", emailVerified: true },
        tx,
      );
      await recordAudit({ actor, action: "client-created", clientId: created, detail: `account for ${email}`, ip }, tx);
      return created;
    }));
  await sendInvitation(actor, { id, email, name: input.name }, Boolean(existing), ip);
  return existing ? "invited-again" : "created";
}

/**
 * Where a client's account stands with its invitation: "pending" while it has no way to sign in
 * (no password chosen, no Google sign-in), "has-password" once it has one, "deactivated" when
 * the account is turned off, "no-such-client" when it is not a client account.
 */
export type InvitationStanding = "pending" | "has-password" | "deactivated" | "no-such-client";

export async function invitationStanding(clientId: string): Promise<InvitationStanding> {
  const db = getDb();
  const [[row], [signIn]] = await Promise.all([
    db.select({ role: user.role, deactivatedAt: user.deactivatedAt }).from(user).where(eq(user.id, clientId)),
    db.select({ id: account.id }).from(account).where(eq(account.userId, clientId)).limit(1),
  ]);
  if (!row || row.role !== "user") return "no-such-client";
  if (row.deactivatedAt) return "deactivated";
  return signIn ? "has-password" : "pending";
}

/**
 * "Send invitation again" on a case page: a fresh one-time link to choose a password, for a
 * client whose account still waits for it (invitationStanding "pending"). "queued" with the
 * address it goes to (sendInvitation); otherwise why not.
 */
export async function resendInvitation(
  actor: SessionUser,
  clientId: string,
  ip: string,
): Promise<{ outcome: "queued"; email: string } | { outcome: Exclude<InvitationStanding, "pending"> }> {
  const standing = await invitationStanding(clientId);
  if (standing !== "pending") return { outcome: standing };
  const [client] = await getDb().select({ id: user.id, email: user.email, name: user.name }).from(user).where(eq(user.id, clientId));
  if (!client) return { outcome: "no-such-client" };
  await sendInvitation(actor, client, true, ip);
  return { outcome: "queued", email: client.email };
}
