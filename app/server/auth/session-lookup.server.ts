import { eq } from "drizzle-orm";
import type { Role } from "~/domain/auth";
import { effectiveRole } from "~/domain/auth";
import { getDb } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";
import { COOKIE_PREFIX, getAuth } from "./better-auth.server";
import { signedToken } from "./signed-cookie.server";

// Who a request's session belongs to: read in one query while the session needs nothing else,
// through Better Auth when it is due to be extended or has ended (docs/decisions/0020).

/** Whether a request carries a session cookie (signed in or not yet checked). */
export function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.get("cookie") ?? "";
  return new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=`).test(cookie);
}

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  emailVerified: boolean;
  sessionId: string;
  /**
   * Staff: whether they have enrolled a second factor and this session has passed it, read with
   * the session (absent when the user was not made from a request's session).
   */
  secondFactor?: SecondFactorStanding;
};

export type SecondFactorStanding = { state: "none" | "pending" | "enrolled"; passed: boolean };

/** Who a request's session belongs to, and the cookies to send back with the answer (a refreshed session). */
export type SessionLookup = { user: SessionUser | null; setCookies: string[] };

const NO_SESSION: SessionLookup = { user: null, setCookies: [] };

type SessionCookie = { name: string; dontRememberName: string; secret: string; expiresInMs: number; updateAgeMs: number };

let sessionCookie: Promise<SessionCookie> | undefined;

/** The session cookie's name and signing secret, and the session's lifetimes, as Better Auth has them. */
function sessionCookieSettings(): Promise<SessionCookie> {
  sessionCookie ??= getAuth().$context.then((context) => ({
    name: context.authCookies.sessionToken.name,
    dontRememberName: context.authCookies.dontRememberToken.name,
    secret: context.secret,
    expiresInMs: context.sessionConfig.expiresIn * 1000,
    updateAgeMs: context.sessionConfig.updateAge * 1000,
  }));
  return sessionCookie;
}

function sessionUserOf(row: {
  userId: string;
  sessionId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  role?: string | null;
}): SessionUser {
  return {
    id: row.userId,
    sessionId: row.sessionId,
    email: row.email,
    name: row.name,
    emailVerified: row.emailVerified,
    role: effectiveRole({ role: row.role ?? null, email: row.email, emailVerified: row.emailVerified }, getEnv().adminEmail),
  };
}

/**
 * The signed-in user of this request, checked against the database, or null. Pages read it from
 * the context, where the root's middleware puts it once per request (session.server.ts).
 *
 * A live session that needs nothing else is read with one query (the session, its account and,
 * for staff, their second factor): nothing about it is kept between requests, so a sign-out, a
 * revoked session or a deactivated account counts from the next request. When the session is
 * due to be extended (once a day, Better Auth's updateAge; never without "remember me"), has
 * expired or is not found, Better Auth answers instead, as it does for its own routes: it
 * extends the session and sends the cookie again (returned here for the answer), or clears
 * what has ended.
 */
export async function lookUpSession(request: Request): Promise<SessionLookup> {
  if (!hasSessionCookie(request)) return NO_SESSION;
  const settings = await sessionCookieSettings();
  const cookies = request.headers.get("cookie") ?? "";
  const token = signedToken(cookies, settings.name, settings.secret);
  if (!token) return NO_SESSION;
  const [row] = await getDb()
    .select({
      sessionId: schema.session.id,
      expiresAt: schema.session.expiresAt,
      secondFactorAt: schema.session.secondFactorAt,
      userId: schema.user.id,
      email: schema.user.email,
      name: schema.user.name,
      emailVerified: schema.user.emailVerified,
      role: schema.user.role,
      deactivatedAt: schema.user.deactivatedAt,
      enrolledAt: schema.staffSecondFactor.createdAt,
      confirmedAt: schema.staffSecondFactor.confirmedAt,
    })
    .from(schema.session)
    .innerJoin(schema.user, eq(schema.user.id, schema.session.userId))
    .leftJoin(schema.staffSecondFactor, eq(schema.staffSecondFactor.userId, schema.session.userId))
    .where(eq(schema.session.token, token));
  const now = Date.now();
  const live = row && row.expiresAt.getTime() > now;
  // A session signed in without "remember me" (a day long, its cookie ends with the browser) is
  // never extended: Better Auth would only read it.
  const refreshDue =
    live &&
    row.expiresAt.getTime() - settings.expiresInMs + settings.updateAgeMs <= now &&
    signedToken(cookies, settings.dontRememberName, settings.secret) === null;
  if (!live || refreshDue) return lookUpWithBetterAuth(request);
  // A deactivated account has no session (they all end at deactivation); this holds meanwhile.
  if (row.deactivatedAt) return NO_SESSION;
  return {
    user: {
      ...sessionUserOf(row),
      secondFactor: {
        state: row.enrolledAt === null ? "none" : row.confirmedAt ? "enrolled" : "pending",
        passed: row.secondFactorAt !== null,
      },
    },
    setCookies: [],
  };
}

/** The signed-in user of a request (see lookUpSession), for scripts and tests. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  return (await lookUpSession(request)).user;
}

async function lookUpWithBetterAuth(request: Request): Promise<SessionLookup> {
  const { headers, response } = await getAuth().api.getSession({ headers: request.headers, returnHeaders: true });
  const setCookies = headers.getSetCookie();
  if (!response) return { user: null, setCookies };
  const u = response.user;
  if (u.deactivatedAt) return { user: null, setCookies };
  return {
    user: sessionUserOf({ ...u, userId: u.id, sessionId: response.session.id }),
    setCookies,
  };
}
