import { and, eq, isNull, lt, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { plural } from "~/components/admin/format";
import { business } from "~/content/business";
import { recordAudit } from "~/server/audit/audit.server";
import type { SecondFactorStanding, SessionUser } from "~/server/auth/session-lookup.server";
import { decryptSecret, encryptSecret } from "~/server/platform/crypto.server";
import { getDb } from "~/server/db/client.server";
import { session, staffSecondFactor } from "~/server/db/schema";
import { hitRateLimit, rateLimitStanding } from "~/server/limits/rate-limit.server";
import type { RateLimitRule } from "~/server/limits/rate-limit.server";
import { matchTotp, newBackupCodes, newTotpSecret, otpauthUri } from "./totp.server";

/** The session token from the request's cookie is what Better Auth stores; find that session's row. */
export async function sessionPassedSecondFactor(sessionId: string): Promise<boolean> {
  const [row] = await getDb().select({ at: session.secondFactorAt }).from(session).where(eq(session.id, sessionId));
  return Boolean(row?.at);
}

export async function secondFactorState(userId: string): Promise<"none" | "pending" | "enrolled"> {
  const [row] = await getDb().select({ confirmedAt: staffSecondFactor.confirmedAt }).from(staffSecondFactor).where(eq(staffSecondFactor.userId, userId));
  if (!row) return "none";
  return row.confirmedAt ? "enrolled" : "pending";
}

/** Both of the above for a staff member's own session, in one query (every staff page asks). */
export async function secondFactorStanding(
  userId: string,
  sessionId: string,
): Promise<SecondFactorStanding> {
  const [row] = await getDb()
    .select({ enrolment: staffSecondFactor.userId, confirmedAt: staffSecondFactor.confirmedAt, passedAt: session.secondFactorAt })
    .from(session)
    .leftJoin(staffSecondFactor, eq(staffSecondFactor.userId, session.userId))
    .where(and(eq(session.id, sessionId), eq(session.userId, userId)));
  const state = !row?.enrolment ? "none" : row.confirmedAt ? "enrolled" : "pending";
  return { state, passed: Boolean(row?.passedAt) };
}

export type Enrolment = { secret: string; uri: string; qrSvg: string; backupCodes: string[] };

/** Starts (or restarts, while unconfirmed) enrolment: a new secret and backup codes. */
export async function beginEnrolment(staff: SessionUser): Promise<Enrolment> {
  const secret = newTotpSecret();
  const backupCodes = newBackupCodes();
  const values = {
    secret: encryptSecret(secret, staff.id),
    backupCodes: encryptSecret(JSON.stringify(backupCodes), staff.id),
    confirmedAt: null,
    lastStep: 0,
  };
  await getDb()
    .insert(staffSecondFactor)
    .values({ userId: staff.id, ...values })
    .onConflictDoUpdate({ target: staffSecondFactor.userId, set: values, where: isNull(staffSecondFactor.confirmedAt) });
  const uri = otpauthUri(secret, staff.email, business.name);
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qrSvg, backupCodes };
}

/** The pending enrolment's secret and codes, to show again after a wrong code. */
export async function pendingEnrolment(staff: SessionUser): Promise<Enrolment | null> {
  const [row] = await getDb().select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
  if (!row || row.confirmedAt) return null;
  const secret = decryptSecret(row.secret, staff.id);
  const uri = otpauthUri(secret, staff.email, business.name);
  return {
    secret,
    uri,
    qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
    backupCodes: readBackupCodes(row.backupCodes, staff.id).unused,
  };
}

/** Five wrong codes per staff member in 15 minutes, counted in the database across every process. */
export const secondFactorLimit: RateLimitRule = { name: "second-factor", limit: 5, windowSeconds: 15 * 60 };

export type CodeCheck =
  | { outcome: "passed" }
  | { outcome: "wrong" }
  /** A right code that has already been used once (it counts as no guess). */
  | { outcome: "used" }
  | { outcome: "paused"; retryAfterSeconds: number };

/** What the code pages say while code entry is paused. */
export function pausedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many wrong codes. For your security, code entry is paused for this account; try again in ${plural(minutes, "minute", "minutes")}.`;
}

/**
 * Checks a code (an authenticator code, or one unused backup code) and, when it is right,
 * marks this session as having passed the second factor (and confirms a pending enrolment).
 *
 * Every check for one staff member holds a lock on their row, so attempts are counted one after
 * the other: after `secondFactorLimit` wrong codes no code is even looked at until the window
 * ends. A code is taken by one conditional update, so two sessions sending it at once cannot
 * both pass.
 */
export async function verifySecondFactor(staff: SessionUser, sessionId: string, code: string, ip: string): Promise<CodeCheck> {
  const db = getDb();
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id)).for("update");
    if (!row) return { outcome: "wrong" as const, hasFactor: false };
    const standing = await rateLimitStanding(secondFactorLimit, staff.id, tx);
    if (!standing.allowed) return { outcome: "paused" as const, retryAfterSeconds: standing.retryAfterSeconds };

    const secret = decryptSecret(row.secret, staff.id);
    const confirmedAt = sql`coalesce(${staffSecondFactor.confirmedAt}, now())`;
    let taken = false;
    let used = false;
    const step = matchTotp(secret, code, row.lastStep);
    if (step !== null) {
      const won = await tx
        .update(staffSecondFactor)
        .set({ lastStep: step, confirmedAt })
        .where(and(eq(staffSecondFactor.userId, staff.id), eq(staffSecondFactor.secret, row.secret), lt(staffSecondFactor.lastStep, step)))
        .returning({ userId: staffSecondFactor.userId });
      taken = won.length === 1;
    } else if (matchTotp(secret, code, 0) !== null) {
      used = true;
    } else if (row.confirmedAt) {
      const codes = readBackupCodes(row.backupCodes, staff.id);
      const typed = code.trim().toLowerCase();
      if (codes.unused.includes(typed)) {
        const next = { unused: codes.unused.filter((c) => c !== typed), used: [...codes.used, typed] };
        const won = await tx
          .update(staffSecondFactor)
          .set({ backupCodes: encryptSecret(JSON.stringify(next), staff.id) })
          .where(and(eq(staffSecondFactor.userId, staff.id), eq(staffSecondFactor.backupCodes, row.backupCodes)))
          .returning({ userId: staffSecondFactor.userId });
        taken = won.length === 1;
      } else if (codes.used.includes(typed)) {
        used = true;
      }
    }
    if (taken) {
      await tx.update(session).set({ secondFactorAt: new Date() }).where(and(eq(session.id, sessionId), eq(session.userId, staff.id)));
      return { outcome: "passed" as const, enrolment: !row.confirmedAt };
    }
    if (used) return { outcome: "used" as const };
    const hit = await hitRateLimit(secondFactorLimit, staff.id, tx);
    if (hit.remaining === 0) return { outcome: "paused" as const, retryAfterSeconds: hit.retryAfterSeconds, lockedNow: true };
    return { outcome: "wrong" as const, hasFactor: true };
  });

  // The audit trail is written once the row is released.
  switch (result.outcome) {
    case "passed":
      await recordAudit({ actor: staff, action: "sign-in", detail: result.enrolment ? "second factor enrolled" : "second factor passed", ip });
      return { outcome: "passed" };
    case "used":
      await recordAudit({ actor: staff, action: "sign-in-failed", detail: "second-factor code already used", ip });
      return { outcome: "used" };
    case "paused":
      if (result.lockedNow) {
        await recordAudit({ actor: staff, action: "sign-in-failed", detail: "wrong second-factor code", ip });
        const minutes = secondFactorLimit.windowSeconds / 60;
        await recordAudit({
          actor: staff,
          action: "second-factor-locked",
          detail: `too many wrong second-factor codes; code entry paused for up to ${plural(minutes, "minute", "minutes")}`,
          ip,
        });
      }
      return { outcome: "paused", retryAfterSeconds: result.retryAfterSeconds };
    case "wrong":
      if (result.hasFactor) await recordAudit({ actor: staff, action: "sign-in-failed", detail: "wrong second-factor code", ip });
      return { outcome: "wrong" };
  }
}

/** The backup codes as stored: the unused ones, and those already used (so a reuse is told apart from a guess). */
function readBackupCodes(blob: string, userId: string): { unused: string[]; used: string[] } {
  const stored = JSON.parse(decryptSecret(blob, userId)) as string[] | { unused: string[]; used: string[] };
  // Enrolments made before used codes were kept hold a plain list of the unused ones.
  return Array.isArray(stored) ? { unused: stored, used: [] } : stored;
}
