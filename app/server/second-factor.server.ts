import { and, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import { business } from "~/content/business";
import { recordAudit } from "./audit.server";
import type { SessionUser } from "./auth.server";
import { decryptSecret, encryptSecret } from "./crypto.server";
import { getDb } from "./db/client.server";
import { session, staffSecondFactor } from "./db/schema";
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
): Promise<{ state: "none" | "pending" | "enrolled"; passed: boolean }> {
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
    backupCodes: JSON.parse(decryptSecret(row.backupCodes, staff.id)) as string[],
  };
}

/**
 * Checks a code (an authenticator code, or one unused backup code) and, when it is right,
 * marks this session as having passed the second factor (and confirms a pending enrolment).
 */
export async function verifySecondFactor(staff: SessionUser, sessionId: string, code: string, ip: string): Promise<boolean> {
  const db = getDb();
  const [row] = await db.select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
  if (!row) return false;
  const secret = decryptSecret(row.secret, staff.id);
  const step = matchTotp(secret, code, row.lastStep);
  let update: Partial<typeof staffSecondFactor.$inferInsert> | null = null;
  if (step !== null) {
    update = { lastStep: step };
  } else if (row.confirmedAt) {
    const codes = JSON.parse(decryptSecret(row.backupCodes, staff.id)) as string[];
    const typed = code.trim().toLowerCase();
    if (codes.includes(typed)) update = { backupCodes: encryptSecret(JSON.stringify(codes.filter((c) => c !== typed)), staff.id) };
  }
  if (!update) {
    await recordAudit({ actor: staff, action: "sign-in-failed", detail: "wrong second-factor code", ip });
    return false;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(staffSecondFactor)
      .set({ ...update, confirmedAt: row.confirmedAt ?? new Date() })
      .where(eq(staffSecondFactor.userId, staff.id));
    await tx.update(session).set({ secondFactorAt: new Date() }).where(and(eq(session.id, sessionId), eq(session.userId, staff.id)));
  });
  await recordAudit({ actor: staff, action: "sign-in", detail: row.confirmedAt ? "second factor passed" : "second factor enrolled", ip });
  return true;
}
