import { randomBytes, randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createEmailVerificationToken } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { business } from "~/content/business";
import { effectiveRole, PASSWORD_MAX, PASSWORD_MIN } from "~/domain/auth";
import type { Role } from "~/domain/auth";
import { authLogger, logError } from "~/log";
import { recordAudit } from "./audit.server";
import { getDb } from "./db/client.server";
import * as schema from "./db/schema";
import { getEnv } from "./env.server";
import { sendMail } from "./mail.server";
import type { Mail } from "./mail.server";
import { isReadOnly, oncePerRequest } from "./request-scope.server";

/** Prefix of the auth cookies: the session cookie is `taxbridge.session_token` (`__Secure-` on https). */
export const COOKIE_PREFIX = "taxbridge";

/** Whether a request carries a session cookie (signed in or not yet checked). */
export function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.get("cookie") ?? "";
  return new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=`).test(cookie);
}

/** Header set by the server (never by the client) with the client's IP, for Better Auth. */
export const CLIENT_IP_HEADER = "x-taxbridge-client-ip";

/** Long sessions for "remember me"; without it the cookie ends with the browser. */
const SESSION_DAYS = 30;

function mailLink(url: string, text: string, intro: string, outro: string): { text: string; html: string } {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  return {
    text: `${intro}\n\n${text}: ${url}\n\n${outro}\n\n${business.name}`,
    html: `<p>${escape(intro)}</p><p><a href="${escape(url)}">${escape(text)}</a></p><p>${escape(outro)}</p><p>${business.name}</p>`,
  };
}

/** E-mails being sent in the background (see sendInBackground). */
const inFlight = new Set<Promise<void>>();

/**
 * Sends an account e-mail without holding up the answer, so that how long an answer takes
 * does not tell whether the address has an account. A failure is logged by kind only: never
 * the address, the subject's link or the message.
 */
function sendInBackground(what: string, mail: Mail): void {
  const sending = sendMail(mail).catch((error: unknown) => logError("mail", `${what} e-mail failed`, error));
  inFlight.add(sending);
  void sending.finally(() => inFlight.delete(sending));
}

/** Resolves once every account e-mail started so far has been sent (or has failed). */
export async function accountMailSent(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/** Where a verification link leads once the address is verified. */
export const VERIFIED_CALLBACK = "/login?verified=1";

/** How long a verification link works. */
const VERIFICATION_SECONDS = 24 * 60 * 60;
/** How long the link to choose a password after a contested verification works. */
const CHOOSE_PASSWORD_HOURS = 1;

const contestedId = (userId: string) => `contested-signup:${userId}`;

/**
 * Records that an account not verified yet was signed up for again. The server cannot tell
 * which sign-up came from the owner of the address, so none of their passwords is kept.
 */
async function markContested(userId: string): Promise<void> {
  const db = getDb();
  const [known] = await db
    .select({ id: schema.verification.id })
    .from(schema.verification)
    .where(eq(schema.verification.identifier, contestedId(userId)));
  if (known) return;
  // The mark stays until the address is verified; any date far beyond a link's life will do.
  await db.insert(schema.verification).values({
    id: randomUUID(),
    identifier: contestedId(userId),
    value: userId,
    expiresAt: new Date(Date.now() + 10 * 365 * 24 * 60 * 60 * 1000),
  });
}

/**
 * Called before every sign-up: when the address already has an account that is not verified
 * yet, the account becomes contested. Its sign-up passwords then all stop counting at
 * verification (see mustChoosePassword).
 */
export async function noteSignUp(email: string): Promise<void> {
  const [existing] = await getDb()
    .select({ id: schema.user.id, emailVerified: schema.user.emailVerified })
    .from(schema.user)
    .where(eq(schema.user.email, email.toLowerCase()));
  if (existing && !existing.emailVerified) await markContested(existing.id);
}

/**
 * Whether verifying this account must discard the sign-up password and have whoever opened
 * the e-mailed link choose one: the account was signed up for more than once, or it is the
 * designated administrator's address (whose sign-up password may be anyone's).
 */
async function mustChoosePassword(user: { id: string; email: string }): Promise<boolean> {
  const adminEmail = getEnv().adminEmail;
  if (adminEmail && user.email.toLowerCase() === adminEmail.toLowerCase()) return true;
  const [mark] = await getDb()
    .select({ id: schema.verification.id })
    .from(schema.verification)
    .where(eq(schema.verification.identifier, contestedId(user.id)));
  return Boolean(mark);
}

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

function verificationMail(to: string, url: string, contested: boolean): Mail {
  return {
    to,
    subject: `Verify your e-mail for ${business.name}`,
    ...mailLink(
      url,
      "Verify my e-mail address",
      contested
        ? `Someone asked to create a ${business.name} account with this e-mail address, which is waiting to be verified. If it was you, confirm that this is your e-mail address: you will then choose your password (for your safety, no password typed at sign-up is kept).`
        : `Welcome to ${business.name}. Please confirm that this is your e-mail address.`,
      "The link works for 24 hours. If you did not create an account, ignore this e-mail.",
    ),
  };
}

async function promoteDesignatedAdmin(userId: string): Promise<void> {
  const adminEmail = getEnv().adminEmail;
  if (!adminEmail) return;
  const db = getDb();
  const [row] = await db.select().from(schema.user).where(eq(schema.user.id, userId));
  if (row && row.role !== "admin" && effectiveRole(row, adminEmail) === "admin") {
    await db
      .update(schema.user)
      .set({ role: "admin", updatedAt: new Date() })
      .where(eq(schema.user.id, userId));
    await recordAudit({
      actor: null,
      action: "role-changed",
      detail: `${row.email}: user -> admin (ADMIN_EMAIL, verified)`,
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
        role: { type: "string", required: false, defaultValue: "user", input: false },
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
      // The e-mails are sent in the background: the answer is the same, and as quick, whether
      // or not the address has an account.
      sendResetPassword({ user, token }) {
        const url = `${env.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
        sendInBackground("password reset", {
          to: user.email,
          subject: `Reset your ${business.name} password`,
          ...mailLink(
            url,
            "Choose a new password",
            `We received a request to reset the password of your ${business.name} account.`,
            "The link works once, for one hour. If you did not ask for this, ignore this e-mail: your password stays as it is.",
          ),
        });
        return Promise.resolve();
      },
      async onExistingUserSignUp({ user }) {
        if (!user.emailVerified) {
          // A second sign-up for an address nobody has verified yet (contested: see
          // noteSignUp): its password is not stored, and the address gets a new link.
          const context = await getAuth().$context;
          const token = await createEmailVerificationToken(
            context.secret,
            user.email,
            undefined,
            VERIFICATION_SECONDS,
            { userId: user.id },
          );
          const url = `${env.appUrl}/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(VERIFIED_CALLBACK)}`;
          sendInBackground("verification", verificationMail(user.email, url, true));
          return;
        }
        sendInBackground("existing account", {
          to: user.email,
          subject: `Someone tried to create a ${business.name} account with your e-mail`,
          ...mailLink(
            `${env.appUrl}/login`,
            "Sign in",
            `Someone tried to create a new ${business.name} account with this e-mail address, which already has an account.`,
            "If it was you, sign in instead, or use “Forgot password” on the sign-in page. If it was not you, you can ignore this e-mail.",
          ),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: VERIFICATION_SECONDS,
      sendVerificationEmail({ user, url }) {
        sendInBackground("verification", verificationMail(user.email, url, false));
        return Promise.resolve();
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
        await getDb()
          .delete(schema.verification)
          .where(eq(schema.verification.identifier, contestedId(user.id)));
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
            // The spec's profile row; a failure is logged and does not stop the sign-up.
            const body = (ctx?.body ?? {}) as Record<string, unknown>;
            try {
              await getDb()
                .insert(schema.profiles)
                .values({
                  id: user.id,
                  email: user.email,
                  fullName: user.name,
                  phone: text(body.phone),
                  visaStatus: text(body.visaStatus),
                })
                .onConflictDoNothing();
            } catch (error) {
              logError("auth", "profile insert failed", error);
            }
          },
        },
      },
      session: {
        create: {
          async before(session) {
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

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  emailVerified: boolean;
  sessionId: string;
};

/** The signed-in user of this request, checked against the database (once per GET), or null. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  if (!hasSessionCookie(request)) return Promise.resolve(null);
  if (!isReadOnly(request)) return lookUpSession(request);
  return oncePerRequest(`session ${request.headers.get("cookie")}`, () => lookUpSession(request));
}

async function lookUpSession(request: Request): Promise<SessionUser | null> {
  const result = await getAuth().api.getSession({ headers: request.headers });
  if (!result) return null;
  const u = result.user as typeof result.user & { role?: string | null };
  return {
    id: u.id,
    sessionId: result.session.id,
    email: u.email,
    name: u.name,
    emailVerified: u.emailVerified,
    role: effectiveRole(
      { role: u.role, email: u.email, emailVerified: u.emailVerified },
      getEnv().adminEmail,
    ),
  };
}

/**
 * A one-time link for a user to choose a password (admin set-up, invitations): the
 * reset-password token Better Auth itself checks, valid for `hours`.
 */
export async function createPasswordLink(userId: string, hours: number): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const context = await getAuth().$context;
  await context.internalAdapter.createVerificationValue({
    value: userId,
    identifier: `reset-password:${token}`,
    expiresAt: new Date(Date.now() + hours * 60 * 60 * 1000),
  });
  return `${getEnv().appUrl}/reset-password?token=${encodeURIComponent(token)}`;
}
