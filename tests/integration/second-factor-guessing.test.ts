import { and, eq, isNotNull } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getAuth } from "~/server/auth/better-auth.server";
import { decryptSecret, encryptSecret } from "~/server/platform/crypto.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, rateLimits, session, staffSecondFactor } from "~/server/db/schema";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { wrongTotpCode, wrongTotpCodes } from "../helpers/forge";
import { makeStaff, signedInClient, withCookie } from "./helpers";

// Run behind the root's and the admin layouts' middleware, as the server runs them.
const { action: setupAction, loader: setupLoader } = await routeModule("routes/admin/security/setup.tsx");
const { action: verifyAction } = await routeModule("routes/admin/security/verify.tsx");

const EMAIL = "officer@example.com";
const WRONG = "That code is not right. Enter the code your app shows now, or one of your backup codes.";
const WRONG_SETUP = "That code is not right. Check the time on your phone and enter the code your app shows now.";
const USED = "That code has already been used. Enter the next code your app shows, or another backup code.";
const PAUSED = "Too many wrong codes. For your security, code entry is paused for this account; try again in 15 minutes.";
const BACKUP = ["aaaa-bbbb", "cccc-dddd", "eeee-ffff"];

let staff: { id: string; cookie: string };
let secret: string;

beforeEach(async () => {
  staff = await signedInClient(EMAIL);
  ({ secret } = await makeStaff(staff));
  // Backup codes as enrolments have always stored them: a list of the unused ones.
  await getDb()
    .update(staffSecondFactor)
    .set({ backupCodes: encryptSecret(JSON.stringify(BACKUP), staff.id) })
    .where(eq(staffSecondFactor.userId, staff.id));
});

/** A new session of the staff member, which has not given its code yet. */
async function newSession(email = EMAIL): Promise<string> {
  const { headers } = await getAuth().api.signInEmail({ body: { email, password: "a good password 1" }, returnHeaders: true });
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

type Answer = { status: number; error: string | null; location: string | null; retryAfter: string | null };

async function answerOf(fn: () => Promise<unknown>): Promise<Answer> {
  try {
    const r = unwrap<{ error: string }>(await fn());
    return { status: r.status, error: r.body.error, location: null, retryAfter: r.headers.get("Retry-After") };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, error: null, location: thrown.headers.get("location"), retryAfter: null };
    throw thrown;
  }
}

const verify = (cookie: string, code: string) =>
  answerOf(() => verifyAction(routeArgs(withCookie("/admin/security/verify", cookie, { method: "POST", body: new URLSearchParams({ code }) })) as never));
const confirmEnrolment = (cookie: string, code: string) =>
  answerOf(() => setupAction(routeArgs(withCookie("/admin/security/setup", cookie, { method: "POST", body: new URLSearchParams({ code }) })) as never));

const rightCode = () => totpAt(secret, timeStep());
const passed = { status: 302, error: null, location: "/admin/dashboard", retryAfter: null };
const wrong = { status: 400, error: WRONG, location: null, retryAfter: null };

async function passedSessions(): Promise<number> {
  return (await getDb().select().from(session).where(and(eq(session.userId, staff.id), isNotNull(session.secondFactorAt)))).length;
}

async function auditActions(): Promise<string[]> {
  return (await getDb().select().from(auditLog).where(eq(auditLog.actorId, staff.id)).orderBy(auditLog.id)).map((e) => `${e.action}: ${e.detail}`);
}

async function storedBackupCodes(): Promise<unknown> {
  const [row] = await getDb().select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
  return JSON.parse(decryptSecret(row!.backupCodes, staff.id));
}

describe("second-factor codes cannot be guessed", () => {
  it("after five wrong codes even the right one is refused for 15 minutes, and the pause is audited once", async () => {
    const cookie = await newSession();
    const [first, second, third, fourth, fifth] = wrongTotpCodes(secret, 5);
    for (const code of [first!, second!, "zzzz-zzzz", third!]) expect(await verify(cookie, code)).toEqual(wrong);
    const pausedAnswer = await verify(cookie, fourth!);
    expect(pausedAnswer).toMatchObject({ status: 429, error: PAUSED, location: null });
    expect(Number(pausedAnswer.retryAfter)).toBeGreaterThan(14 * 60);
    expect(Number(pausedAnswer.retryAfter)).toBeLessThanOrEqual(15 * 60);

    // The right code, a backup code, more guesses, from this session or another: all refused, nothing counted or written.
    const other = await newSession();
    for (const [c, code] of [
      [cookie, rightCode()],
      [other, rightCode()],
      [other, BACKUP[0]!],
      [cookie, fifth!],
    ] as const) {
      expect(await verify(c, code)).toMatchObject({ status: 429, error: PAUSED });
    }
    expect(await passedSessions()).toBe(1); // only the session makeStaff marked
    expect(await storedBackupCodes()).toEqual(BACKUP);
    const [stored] = await getDb().select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
    expect(stored!.lastStep).toBe(0);

    const audit = await auditActions();
    expect(audit.filter((a) => a.startsWith("second-factor-locked"))).toEqual([
      "second-factor-locked: too many wrong second-factor codes; code entry paused for up to 15 minutes",
    ]);
    expect(audit.filter((a) => a.startsWith("sign-in-failed"))).toHaveLength(5);
    expect(audit.filter((a) => a.startsWith("sign-in:"))).toEqual([]);

    // Another staff member is not paused.
    const colleague = await signedInClient("colleague@example.com");
    const { secret: colleagueSecret } = await makeStaff(colleague);
    const colleagueSession = await newSession("colleague@example.com");
    expect(await verify(colleagueSession, totpAt(colleagueSecret, timeStep()))).toEqual(passed);

    // Once the window is over, the right code works again.
    await getDb().update(rateLimits).set({ resetAt: new Date(Date.now() - 1000) }).where(eq(rateLimits.key, `second-factor:${staff.id}`));
    expect(await verify(other, rightCode())).toEqual(passed);
  });

  it("says how many minutes are left", async () => {
    const cookie = await newSession();
    for (let i = 0; i < 5; i++) await verify(cookie, wrongTotpCode(secret));
    await getDb().update(rateLimits).set({ resetAt: new Date(Date.now() + 60_000) }).where(eq(rateLimits.key, `second-factor:${staff.id}`));
    expect((await verify(cookie, rightCode())).error).toBe(
      "Too many wrong codes. For your security, code entry is paused for this account; try again in 1 minute.",
    );
  });

  it("a right code does not use up the allowance", async () => {
    const first = await newSession();
    for (let i = 0; i < 3; i++) expect(await verify(first, wrongTotpCode(secret))).toEqual(wrong);
    expect(await verify(first, rightCode())).toEqual(passed);
    const second = await newSession();
    expect(await verify(second, BACKUP[1]!)).toEqual(passed);
    // Three wrong so far: the fourth is still only "not right", the fifth pauses.
    const third = await newSession();
    expect(await verify(third, wrongTotpCode(secret))).toEqual(wrong);
    expect(await verify(third, wrongTotpCode(secret))).toMatchObject({ status: 429, error: PAUSED });
  });

  it("a burst of guesses at once is cut off after five", async () => {
    const cookie = await newSession();
    const answers = await Promise.all(wrongTotpCodes(secret, 30).map((code) => verify(cookie, code)));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(4);
    expect(answers.filter((a) => a.status === 429 && a.error === PAUSED)).toHaveLength(26);
    const audit = await auditActions();
    expect(audit.filter((a) => a.startsWith("sign-in-failed"))).toHaveLength(5);
    expect(audit.filter((a) => a.startsWith("second-factor-locked"))).toHaveLength(1);
    expect(await verify(cookie, rightCode())).toMatchObject({ status: 429, error: PAUSED });
  });

  it("the enrolment page pauses the same way", async () => {
    await getDb().delete(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
    const cookie = await newSession();
    const enrolment = unwrap<{ secret: string }>(await setupLoader(routeArgs(withCookie("/admin/security/setup", cookie)) as never)).body;
    const wrongForEnrolment = wrongTotpCode(enrolment.secret);
    for (let i = 0; i < 4; i++) {
      expect(await confirmEnrolment(cookie, wrongForEnrolment)).toEqual({ status: 400, error: WRONG_SETUP, location: null, retryAfter: null });
    }
    expect(await confirmEnrolment(cookie, wrongForEnrolment)).toMatchObject({ status: 429, error: PAUSED });
    expect(await confirmEnrolment(cookie, totpAt(enrolment.secret, timeStep()))).toMatchObject({ status: 429, error: PAUSED });
    const [stored] = await getDb().select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
    expect(stored!.confirmedAt).toBeNull();
    expect((await auditActions()).filter((a) => a.startsWith("second-factor-locked"))).toHaveLength(1);
  });
});

describe("a second-factor code is taken once", () => {
  it("six sessions sending the same right code at once: one passes, five are told it was used", async () => {
    const cookies = await Promise.all(Array.from({ length: 6 }, () => newSession()));
    const code = rightCode();
    const answers = await Promise.all(cookies.map((c) => verify(c, code)));
    expect(answers.filter((a) => a.status === 302)).toEqual([passed]);
    expect(answers.filter((a) => a.status === 400)).toEqual(Array(5).fill({ status: 400, error: USED, location: null, retryAfter: null }));
    expect(await passedSessions()).toBe(2); // the session makeStaff marked, and the winner
    expect((await auditActions()).filter((a) => a === "sign-in: second factor passed")).toHaveLength(1);
  });

  it("six sessions sending the same backup code at once: one passes, and the code is gone", async () => {
    const cookies = await Promise.all(Array.from({ length: 6 }, () => newSession()));
    const answers = await Promise.all(cookies.map((c) => verify(c, BACKUP[0]!)));
    expect(answers.filter((a) => a.status === 302)).toEqual([passed]);
    expect(answers.filter((a) => a.status === 400)).toEqual(Array(5).fill({ status: 400, error: USED, location: null, retryAfter: null }));
    expect(await passedSessions()).toBe(2);
    expect(await storedBackupCodes()).toEqual({ unused: BACKUP.slice(1), used: [BACKUP[0]] });
    // Two different backup codes at once both work.
    const [a, b] = [await newSession(), await newSession()];
    expect(await Promise.all([verify(a, BACKUP[1]!), verify(b, ` ${BACKUP[2]!.toUpperCase()} `)])).toEqual([passed, passed]);
    const after = (await storedBackupCodes()) as { unused: string[]; used: string[] };
    expect(after.unused).toEqual([]);
    expect([...after.used].sort()).toEqual(BACKUP);
  });
});
