import { randomBytes, randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createEmailVerificationToken } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { business } from "~/content/business";
import { effectiveRole, isVisaStatus, PASSWORD_MAX, PASSWORD_MIN, ROLES } from "~/domain/auth";
import { authLogger, logError } from "~/log";
import { createAccountDetails } from "./accounts.server";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";
import { deliverMail, enqueueMail, outboxSettled } from "~/server/mail/outbox.server";
import type { OutboxMail } from "~/server/mail/outbox.server";
import { endContest, mustChoosePassword } from "./signup-contest.server";

// Better Auth's set-up (sign-up, sign-in, verification, password resets, Google), the account
// e-mails it sends, and the one-time links to choose a password. Who a request's session
// belongs to is read in session-lookup.server.ts; the sign-up contest is in
// signup-contest.server.ts.

/** Prefix of the auth cookies: the session cookie is `taxbridge.session_token` (`__Secure-` on https). */
export const COOKIE_PREFIX = "taxbridge";

/** Header set by the server (never by the client) with the client's IP, for Better Auth. */
export const CLIENT_IP_HEADER = "x-taxbridge-client-ip";

/** What the sign-in page says to a deactivated staff account with the right password. */
export const ACCOUNT_DEACTIVATED = "This account has been deactivated.";

/** Long sessions for "remember me"; without it the cookie ends with the browser. */
const SESSION_DAYS = 30;

/** Password-reset requests under way after their answer (see startPasswordReset). */
const inFlight = new Set<Promise<void>>();

/**
 * Queues an account e-mail in the outbox (ADR 0023), sent once the answer has gone (as every
 * e-mail), so that how long an answer takes does not tell whether the address has an account.
 * Better Auth's callbacks run outside any transaction of ours: the row is written by the callback
 * itself, before it returns, and one the mail server does not take stays queued for another try.
 */
async function sendInBackground(mail: OutboxMail): Promise<void> {
  deliverMail(await enqueueMail(mail));
}

/** Resolves once every account e-mail started so far has been sent (or has failed). */
export async function accountMailSent(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  await outboxSettled();
}

/**
 * Starts a password reset for `email` after the answer: looking the address up, storing the
 * link's token and sending the e-mail all happen once the answer is on its way, so the answer
 * takes as long for an address with an account as for one without. False, and nothing started,
 * when the address is not one the auth library takes (it is stricter than the shape check, e.g.
 * no accents), so the page can say so.
 */
export function startPasswordReset(email: string, headers: Headers): boolean {
  if (!z.email().safeParse(email).success) return false;
  // Begun once the answer has been written: the embedded database runs its queries on this
  // thread, and a lookup started at once would hold the answer up after all.
  const work = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => getAuth().api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" }, headers }))
    .then(
      () => undefined,
      (error: unknown) => logError("auth", "reset request failed", error),
    );
  inFlight.add(work);
  void work.finally(() => inFlight.delete(work));
  return true;
}

/** Where a verification link leads once the address is verified. */
export const VERIFIED_CALLBACK = "/login?verified=1";

/** How long a verification link works. */
const VERIFICATION_SECONDS = 24 * 60 * 60;
/** How long the link to choose a password after a contested verification works. */
const CHOOSE_PASSWORD_HOURS = 1;

/**
 * Leaves an account with no working password and no session: the password typed at sign-up
 * stops working and every device is signed out. A new password comes only through a one-time
 * link (createPasswordLink).
 */
export async function discardSignupPassword(userId: string): Promise<void> {
  await getDb()
    .update(schema.account)
    .set({ password: null, updatedAt: new Date() })
    .where(and(eq(schema.account.userId, userId), eq(schema.account.providerId, "credential")));
  const context = await getAuth().$context;
  await context.internalAdapter.deleteUserSessions(userId);
}

async function promoteDesignatedAdmin(userId: string): Promise<void> {
  const adminEmail = getEnv().adminEmail;
  if (!adminEmail) return;
  const db = getDb();
  const [row] = await db.select().from(schema.user).where(eq(schema.user.id, userId));
  if (row && row.role !== "admin" && effectiveRole(row, adminEmail) === "admin") {
    await db.transaction(async (tx) => {
      await tx.update(schema.user).set({ role: "admin", updatedAt: new Date() }).where(eq(schema.user.id, userId));
      await recordAudit({ actor: null, action: "role-changed", detail: `${row.email}: user -> admin (ADMIN_EMAIL, verified)` }, tx);
    });
  }
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function createAuth() {
  const env = getEnv();
  return betterAuth({
    appName: business.name,
    baseURL: env.appUrl,
    basePath: "/api/auth",
    secret: env.authSecret,
    trustedOrigins: [env.appUrl],
    // A failed Google sign-in lands on the sign-in page with its message, not on an auth page.
    onAPIError: { errorURL: "/login?error=google" },
    telemetry: { enabled: false },
    logger: authLogger,
    database: drizzleAdapter(getDb(), {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
      },
    }),
    user: {
      additionalFields: {
        // Never taken from input: only the server (and the designated-admin rule) sets it.
        role: { type: [...ROLES], required: false, defaultValue: "user", input: false },
        // Set by the team page only; read with the session so a deactivated account counts as signed out.
        deactivatedAt: { type: "date", required: false, input: false },
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      // Checked against the database on every request: sign-out and revocation take effect at once.
      cookieCache: { enabled: false },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      // The e-mails are queued here and sent in the background: the answer is the same, and as
      // quick, whether or not the address has an account.
      async sendResetPassword({ user, token }) {
        const url = `${env.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await sendInBackground({ kind: "password-reset", to: user.email, payload: { url } });
      },
      async onExistingUserSignUp({ user }) {
        if (!user.emailVerified) {
          // A second sign-up for an address nobody has verified yet (contested: see
          // signup-contest.server.ts): its password is not stored, and the address gets a new link.
          const context = await getAuth().$context;
          const token = await createEmailVerificationToken(
            context.secret,
            user.email,
            undefined,
            VERIFICATION_SECONDS,
            { userId: user.id },
          );
          const url = `${env.appUrl}/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(VERIFIED_CALLBACK)}`;
          await sendInBackground({ kind: "verification", to: user.email, payload: { url, contested: true } });
          return;
        }
        await sendInBackground({ kind: "existing-account", to: user.email, payload: { url: `${env.appUrl}/login` } });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: VERIFICATION_SECONDS,
      async sendVerificationEmail({ user, url }) {
        await sendInBackground({ kind: "verification", to: user.email, payload: { url, contested: false } });
      },
      // A contested account (or the designated administrator's) loses its sign-up password
      // before it counts as verified, so that password never opens a verified account...
      async beforeEmailVerification(user) {
        if (await mustChoosePassword(user)) await discardSignupPassword(user.id);
      },
      // ...and whoever opened the e-mailed link is sent on to choose the password. Nobody can
      // sign in until then; the designated administrator becomes an admin at that sign-in.
      async afterEmailVerification(user) {
        if (!(await mustChoosePassword(user))) return;
        await discardSignupPassword(user.id);
        await endContest(user.id);
        const link = await createPasswordLink(user.id, CHOOSE_PASSWORD_HOURS);
        throw new APIError("FOUND", undefined, { Location: `${link}&verified=1` });
      },
    },
    socialProviders: env.google
      ? {
          google: {
            clientId: env.google.clientId,
            clientSecret: env.google.clientSecret,
            prompt: "select_account",
          },
        }
      : {},
    account: {
      accountLinking: { enabled: true, trustedProviders: ["google"], requireLocalEmailVerified: true },
    },
    databaseHooks: {
      user: {
        create: {
          async after(user, ctx) {
            // What every new account gets (accounts.server.ts); the sign-up form's phone and
            // visa status come with its body. A failure is logged and does not stop the sign-up.
            const body = (ctx?.body ?? {}) as Record<string, unknown>;
            const visaStatus = text(body.visaStatus);
            try {
              await createAccountDetails([
                {
                  id: user.id,
                  email: user.email,
                  name: user.name,
                  phone: text(body.phone),
                  visaStatus: visaStatus && isVisaStatus(visaStatus) ? visaStatus : null,
                },
              ]);
            } catch (error) {
              logError("auth", "profile insert failed", error);
            }
          },
        },
      },
      session: {
        create: {
          async before(session) {
            // A deactivated staff account signs in no more (team page): no session is made.
            const [owner] = await getDb()
              .select({ deactivatedAt: schema.user.deactivatedAt })
              .from(schema.user)
              .where(eq(schema.user.id, session.userId));
            if (owner?.deactivatedAt)
              throw new APIError("FORBIDDEN", { message: ACCOUNT_DEACTIVATED, code: "ACCOUNT_DEACTIVATED" });
            await promoteDesignatedAdmin(session.userId);
            return { data: session };
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: Math.ceil(100 * env.rateLimitScale),
    },
    advanced: {
      useSecureCookies: env.secureCookies,
      cookiePrefix: COOKIE_PREFIX,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: env.secureCookies },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as unknown as { __taxbridgeAuth?: Auth };

export function getAuth(): Auth {
  holder.__taxbridgeAuth ??= createAuth();
  return holder.__taxbridgeAuth;
}


/**
 * A one-time link for a user to choose a password (admin set-up, invitations): the
 * reset-password token Better Auth itself checks, valid for `hours`. With `db` (a transaction:
 * an invitation stores its link with its queued e-mail), the link is stored there, as Better
 * Auth stores it.
 */
export async function createPasswordLink(userId: string, hours: number, db?: Pick<Database, "insert">): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const value = {
    value: userId,
    identifier: `reset-password:${token}`,
    expiresAt: new Date(Date.now() + hours * 60 * 60 * 1000),
  };
  if (db) await db.insert(schema.verification).values({ id: randomUUID(), ...value });
  else await (await getAuth().$context).internalAdapter.createVerificationValue(value);
  return `${getEnv().appUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Sets the password of the account a one-time link belongs to (a reset link, or a link to choose
 * the first password: an invitation, admin:create, a contested verification) and records it in
 * the audit trail: "password-set" when the account had no password, "password-reset" when it had
 * one. Every session of the account ends (revokeSessionsOnPasswordReset). Throws Better Auth's
 * INVALID_TOKEN error, and records nothing, when the link is unknown, used or expired.
 */
export async function setPasswordWithLink(token: string, newPassword: string, headers: Headers, ip: string): Promise<void> {
  const db = getDb();
  const [owner] = await db
    .select({ id: schema.user.id, email: schema.user.email, role: schema.user.role, hash: schema.account.password })
    .from(schema.verification)
    .innerJoin(schema.user, eq(schema.user.id, schema.verification.value))
    .leftJoin(schema.account, and(eq(schema.account.userId, schema.user.id), eq(schema.account.providerId, "credential")))
    .where(eq(schema.verification.identifier, `reset-password:${token}`));
  await getAuth().api.resetPassword({ body: { newPassword, token }, headers });
  // The link was valid, so it had an owner; read before the change, whether they had a password.
  if (!owner) return;
  await recordAudit({
    actor: { id: owner.id, email: owner.email },
    action: owner.hash ? "password-reset" : "password-set",
    clientId: owner.role === "user" ? owner.id : null,
    ip,
  });
}

