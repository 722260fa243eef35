/**
 * The team page's work (admins only: the admin panel's layout refuses everyone else): listing
 * staff, inviting them, deactivating and reactivating them, and resetting a second factor. Each
 * change and its audit entry are stored in one transaction.
 */
import { and, eq, gt, inArray, isNull, like, ne, sql } from "drizzle-orm";
import { STAFF_ROLE_LABELS } from "~/domain/team";
import type { InviteStaffInput, TeamMember } from "~/domain/team";
import { STAFF_ROLES } from "~/domain/policy";
import type { StaffRole } from "~/domain/policy";
import { createAccount } from "~/server/auth/accounts.server";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { createPasswordLink } from "~/server/auth/better-auth.server";
import { getDb } from "~/server/db/client.server";
import { account, auditLog, clientCases, session, staffSecondFactor, user, verification } from "~/server/db/schema";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";

/** How long a staff invitation's link to choose a password works. */
const INVITATION_HOURS = 72;

/** The one-time links to choose a password made for this account (createPasswordLink). */
const passwordLinksOf = (userId: string) =>
  and(like(verification.identifier, "reset-password:%"), eq(verification.value, userId));

/** Every staff account, active and deactivated, admins first, then by name. */
export async function listTeam(): Promise<TeamMember[]> {
  const db = getDb();
  // Sign-ins recorded in the audit trail (sessions end at sign-out), read once for all staff.
  const signIns = db
    .select({
      actorId: auditLog.actorId,
      at: sql<Date>`max(${auditLog.at})`.mapWith(auditLog.at).as("last_at"),
    })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, "sign-in"),
        inArray(
          auditLog.actorId,
          db
            .select({ id: user.id })
            .from(user)
            .where(inArray(user.role, [...STAFF_ROLES])),
        ),
      ),
    )
    .groupBy(auditLog.actorId)
    .as("sign_ins");
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      deactivatedAt: user.deactivatedAt,
      worksOutsideUs: user.worksOutsideUs,
      lastSession:
        sql<Date | null>`(select max(s.created_at) from ${session} s where s.user_id = ${user.id})`.mapWith(
          session.createdAt,
        ),
      lastAudit: signIns.at,
      confirmedAt: staffSecondFactor.confirmedAt,
      signInWays:
        sql<number>`(select count(*) from ${account} a where a.user_id = ${user.id} and (a.provider_id <> 'credential' or a.password is not null))`.mapWith(
          Number,
        ),
    })
    .from(user)
    .leftJoin(staffSecondFactor, eq(staffSecondFactor.userId, user.id))
    .leftJoin(signIns, eq(signIns.actorId, user.id))
    .where(inArray(user.role, [...STAFF_ROLES]))
    .orderBy(user.role, user.name);
  return rows.map((r) => {
    const times = [r.lastSession, r.lastAudit].filter(
      (d): d is Date => d instanceof Date && !Number.isNaN(d.getTime()),
    );
    const last = times.sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      role: r.role as StaffRole,
      lastSignInAt: last?.toISOString() ?? null,
      secondFactor: r.confirmedAt ? "enrolled" : "not-enrolled",
      deactivatedAt: r.deactivatedAt?.toISOString() ?? null,
      invitationPending: r.signInWays === 0,
      worksOutsideUs: r.worksOutsideUs,
    };
  });
}

/**
 * "created": a new staff account, its invitation queued (sent once the answer has gone).
 * "invited-again": the address had a staff account whose invitation never arrived (or expired)
 * and nobody has signed in with it: a new one is queued. "exists": the address belongs to an
 * account in use or with a working invitation.
 */
export type InviteOutcome = "created" | "invited-again" | "exists";

/** Whether a staff account still waits for an invitation: no way to sign in, no working link. */
async function staffAwaitsInvitation(userId: string): Promise<boolean> {
  const db = getDb();
  const [[row], [signIn], [link]] = await Promise.all([
    db.select({ role: user.role, deactivatedAt: user.deactivatedAt }).from(user).where(eq(user.id, userId)),
    db.select({ id: account.id }).from(account).where(eq(account.userId, userId)).limit(1),
    db
      .select({ id: verification.id })
      .from(verification)
      .where(and(passwordLinksOf(userId), gt(verification.expiresAt, new Date())))
      .limit(1),
  ]);
  return Boolean(
    row && (STAFF_ROLES as readonly string[]).includes(row.role) && !row.deactivatedAt && !signIn && !link,
  );
}

export async function inviteStaff(
  actor: SessionUser,
  input: InviteStaffInput,
  ip: string,
): Promise<InviteOutcome> {
  const db = getDb();
  const email = input.email.trim().toLowerCase();
  const [existing] = await db
    .select({ id: user.id, role: user.role })
    .from(user)
    .where(eq(user.email, email));
  if (existing && !(await staffAwaitsInvitation(existing.id))) return "exists";
  const role: StaffRole = existing ? (existing.role as StaffRole) : input.role;
  const id =
    existing?.id ??
    (await db.transaction(async (tx) => {
      const created = await createAccount(
        { name: input.fullName, email, role: input.role, emailVerified: true },
        tx,
      );
      await recordAudit({ actor, action: "staff-invited", detail: `${email} as ${input.role}`, ip }, tx);
      return created;
    }));
  // The link, its e-mail (queued in the outbox, ADR 0023) and, for an invitation sent again, its
  // audit entry are stored together; then the e-mail is sent, once the answer has gone.
  const mailId = await db.transaction(async (tx) => {
    const link = await createPasswordLink(id, INVITATION_HOURS, tx);
    if (existing)
      await recordAudit({ actor, action: "staff-invited", detail: `${email} as ${role}, invited again`, ip }, tx);
    return enqueueMail(
      {
        kind: "staff-invitation",
        to: email,
        payload: { name: input.fullName, role: STAFF_ROLE_LABELS[role].toLowerCase(), link, hours: INVITATION_HOURS },
      },
      tx,
    );
  });
  deliverMail(mailId);
  return existing ? "invited-again" : "created";
}

export type TeamChangeOutcome = "done" | "yourself" | "last-admin" | "not-found" | "already" | "not-enrolled";

type Target = { id: string; email: string; role: StaffRole; deactivatedAt: Date | null };

async function findStaff(
  tx: Pick<ReturnType<typeof getDb>, "select">,
  userId: string,
): Promise<Target | null> {
  const [row] = await tx
    .select({ id: user.id, email: user.email, role: user.role, deactivatedAt: user.deactivatedAt })
    .from(user)
    .where(and(eq(user.id, userId), inArray(user.role, [...STAFF_ROLES])))
    .for("update");
  return row ? { ...row, role: row.role as StaffRole } : null;
}

/**
 * Deactivates a staff member (not oneself, not the last active admin): no sign-in any more,
 * every session ended at once, and every case assigned to them unassigned, with one audit entry
 * per case as an assignment change writes (cases/workflow.server.ts assignCases). Reactivation gives none
 * of them back.
 */
export async function deactivateStaff(
  actor: SessionUser,
  userId: string,
  ip: string,
): Promise<TeamChangeOutcome> {
  if (userId === actor.id) return "yourself";
  return getDb().transaction(async (tx) => {
    const target = await findStaff(tx, userId);
    if (!target) return "not-found";
    if (target.deactivatedAt) return "already";
    if (target.role === "admin") {
      // The other active admins, locked: two admins deactivating each other cannot both succeed.
      const others = await tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.role, "admin"), isNull(user.deactivatedAt), ne(user.id, userId)))
        .for("update");
      if (others.length === 0) return "last-admin";
    }
    await tx
      .update(user)
      .set({ deactivatedAt: new Date(), updatedAt: new Date() })
      .where(eq(user.id, userId));
    await tx.delete(session).where(eq(session.userId, userId));
    await recordAudit(
      { actor, action: "staff-deactivated", detail: `${target.email} (${target.role})`, ip },
      tx,
    );
    // The member is locked above (findStaff), so no assignment to them can commit meanwhile:
    // assignCases and saveWorkflow read the assignee under a share lock.
    const unassigned = await tx
      .update(clientCases)
      .set({ assigneeId: null, updatedBy: actor.id, updatedAt: new Date() })
      .where(eq(clientCases.assigneeId, userId))
      .returning({ clientId: clientCases.userId, taxYear: clientCases.taxYear });
    for (const c of unassigned)
      await recordAudit(
        {
          actor,
          action: "case-assigned",
          clientId: c.clientId,
          taxYear: c.taxYear,
          detail: `assignee: none (${target.email} deactivated)`,
          ip,
        },
        tx,
      );
    return "done";
  });
}

/** Lets a deactivated staff member sign in again. */
export async function reactivateStaff(
  actor: SessionUser,
  userId: string,
  ip: string,
): Promise<TeamChangeOutcome> {
  return getDb().transaction(async (tx) => {
    const target = await findStaff(tx, userId);
    if (!target) return "not-found";
    if (!target.deactivatedAt) return "already";
    await tx.update(user).set({ deactivatedAt: null, updatedAt: new Date() }).where(eq(user.id, userId));
    await recordAudit(
      { actor, action: "staff-reactivated", detail: `${target.email} (${target.role})`, ip },
      tx,
    );
    return "done";
  });
}

/**
 * Resets someone else's second factor: the enrolment is deleted and their sessions end, so
 * they enrol again at their next sign-in.
 */
export async function resetSecondFactor(
  actor: SessionUser,
  userId: string,
  ip: string,
): Promise<TeamChangeOutcome> {
  if (userId === actor.id) return "yourself";
  return getDb().transaction(async (tx) => {
    const target = await findStaff(tx, userId);
    if (!target) return "not-found";
    const removed = await tx
      .delete(staffSecondFactor)
      .where(eq(staffSecondFactor.userId, userId))
      .returning({ id: staffSecondFactor.userId });
    if (removed.length === 0) return "not-enrolled";
    await tx.delete(session).where(eq(session.userId, userId));
    await recordAudit(
      { actor, action: "second-factor-reset", detail: `${target.email} (${target.role})`, ip },
      tx,
    );
    return "done";
  });
}
