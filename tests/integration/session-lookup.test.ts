import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getAuth } from "~/server/auth/better-auth.server";
import { lookUpSession } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { session, staffSecondFactor, user } from "~/server/db/schema";
import { sessionMiddleware, sessionUserContext } from "~/server/auth/session.server";
import { RouterContextProvider } from "react-router";
import { withCharacterChanged } from "../helpers/forge";
import { clientAndStaff, signedInClient, withCookie } from "./helpers";

// Each request's session is read with one query (session, account, second factor); Better Auth
// answers only when the session is due to be extended, has ended or is not found. Nothing is kept
// between requests: whatever ends a session counts from the next request.

const DAY = 24 * 60 * 60 * 1000;

let client: { id: string; cookie: string };
let staff: { id: string; cookie: string };

beforeEach(async () => {
  ({ client, staff } = await clientAndStaff());
});

afterEach(() => {
  vi.restoreAllMocks();
});

const lookUp = (cookie: string) => lookUpSession(withCookie("/my-tax-filing", cookie));

async function expiresAt(userId: string): Promise<Date> {
  const [row] = await getDb().select({ expiresAt: session.expiresAt }).from(session).where(eq(session.userId, userId));
  return row!.expiresAt;
}

describe("the session of a request", () => {
  it("is read in one query, the same as Better Auth reads it, with the staff member's second factor", async () => {
    const betterAuth = vi.spyOn(getAuth().api, "getSession");
    const mine = await lookUp(client.cookie);
    expect(mine.setCookies).toEqual([]);
    expect(mine.user).toMatchObject({ id: client.id, email: "client@example.com", role: "user", emailVerified: true });
    expect(mine.user?.secondFactor).toEqual({ state: "none", passed: false });
    const theirs = await lookUp(staff.cookie);
    expect(theirs.user).toMatchObject({ id: staff.id, role: "admin", secondFactor: { state: "enrolled", passed: true } });
    expect(betterAuth).not.toHaveBeenCalled();

    betterAuth.mockRestore();
    const official = await getAuth().api.getSession({ headers: withCookie("/", client.cookie).headers });
    expect(mine.user?.sessionId).toBe(official!.session.id);
    expect(mine.user?.name).toBe(official!.user.name);
  });

  it("tells a staff member's second factor: not enrolled, enrolment not confirmed, code not given on this session", async () => {
    await getDb().update(session).set({ secondFactorAt: null }).where(eq(session.userId, staff.id));
    expect((await lookUp(staff.cookie)).user?.secondFactor).toEqual({ state: "enrolled", passed: false });
    await getDb().update(staffSecondFactor).set({ confirmedAt: null }).where(eq(staffSecondFactor.userId, staff.id));
    expect((await lookUp(staff.cookie)).user?.secondFactor).toEqual({ state: "pending", passed: false });
    await getDb().delete(staffSecondFactor).where(eq(staffSecondFactor.userId, staff.id));
    expect((await lookUp(staff.cookie)).user?.secondFactor).toEqual({ state: "none", passed: false });
  });

  it("is nobody's when the cookie is changed, signed with another secret, or missing", async () => {
    const [name, value] = client.cookie.split("=") as [string, string];
    const decoded = decodeURIComponent(value);
    const token = decoded.slice(0, decoded.lastIndexOf("."));
    const signature = decoded.slice(decoded.lastIndexOf(".") + 1);
    const flipped = withCharacterChanged(signature, 0);
    expect((await lookUp(`${name}=${encodeURIComponent(`${token}.${flipped}`)}`)).user).toBeNull();
    expect((await lookUp(`${name}=${encodeURIComponent(`${withCharacterChanged(token, -1)}.${signature}`)}`)).user).toBeNull();
    expect((await lookUp(`${name}=${encodeURIComponent(token)}`)).user).toBeNull();
    expect((await lookUp("")).user).toBeNull();
    // Another client's valid session token under a forged signature is refused too.
    const other = await signedInClient("other@example.com");
    const otherToken = decodeURIComponent(other.cookie.split("=")[1]!).split(".")[0]!;
    expect((await lookUp(`${name}=${encodeURIComponent(`${otherToken}.${signature}`)}`)).user).toBeNull();
  });

  it("ends at once when signed out, revoked, or the account deactivated", async () => {
    expect((await lookUp(client.cookie)).user).not.toBeNull();
    await getAuth().api.signOut({ headers: withCookie("/", client.cookie).headers });
    expect((await lookUp(client.cookie)).user).toBeNull();

    expect((await lookUp(staff.cookie)).user).not.toBeNull();
    await getDb().update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, staff.id));
    expect((await lookUp(staff.cookie)).user).toBeNull();
    await getDb().update(user).set({ deactivatedAt: null }).where(eq(user.id, staff.id));
    expect((await lookUp(staff.cookie)).user).not.toBeNull();
    await getDb().delete(session).where(eq(session.userId, staff.id));
    expect((await lookUp(staff.cookie)).user).toBeNull();
  });

  it("follows a role changed meanwhile", async () => {
    await getDb().update(user).set({ role: "preparer" }).where(eq(user.id, staff.id));
    expect((await lookUp(staff.cookie)).user?.role).toBe("preparer");
  });

  it("signed in without \"remember me\" is read in one query for the day it lasts, never extended", async () => {
    const { headers } = await getAuth().api.signInEmail({
      body: { email: "client@example.com", password: "a good password 1", rememberMe: false },
      returnHeaders: true,
    });
    const cookie = headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/taxbridge\.dont_remember=/);
    const betterAuth = vi.spyOn(getAuth().api, "getSession");
    const answer = await lookUp(cookie);
    expect(answer).toMatchObject({ user: { id: client.id }, setCookies: [] });
    expect(betterAuth).not.toHaveBeenCalled();
    // Without its "don't remember" cookie, the same session would be due to be extended.
    const sessionOnly = cookie.split("; ").filter((c) => c.startsWith("taxbridge.session_token=")).join("; ");
    expect((await lookUp(sessionOnly)).user).toMatchObject({ id: client.id });
    expect(betterAuth).toHaveBeenCalledTimes(1);
  });

  it("that has expired is nobody's, and Better Auth removes it", async () => {
    await getDb().update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.userId, client.id));
    const answer = await lookUp(client.cookie);
    expect(answer.user).toBeNull();
    expect(answer.setCookies.some((c) => /^taxbridge\.session_token=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true);
    const left = await getDb().select({ n: sql<number>`count(*)::int` }).from(session).where(eq(session.userId, client.id));
    expect(left[0]!.n).toBe(0);
  });

  it("is extended once a day, and its cookie sent again with the page so it lasts as long in the browser", async () => {
    // Signed in a day and a minute ago: the session is due to be extended by another 30 days.
    await getDb().update(session).set({ expiresAt: new Date(Date.now() + 30 * DAY - DAY - 60_000) }).where(eq(session.userId, client.id));
    const answer = await lookUp(client.cookie);
    expect(answer.user).toMatchObject({ id: client.id });
    expect(answer.setCookies.some((c) => /^taxbridge\.session_token=/.test(c) && /Max-Age=2592000/.test(c))).toBe(true);
    expect((await expiresAt(client.id)).getTime()).toBeGreaterThan(Date.now() + 30 * DAY - 60_000);
    // Extended, the next request needs no more.
    expect((await lookUp(client.cookie)).setCookies).toEqual([]);

    // The root's middleware puts the cookie on whatever the page answers.
    await getDb().update(session).set({ expiresAt: new Date(Date.now() + 29 * DAY - 60_000) }).where(eq(session.userId, client.id));
    const context = new RouterContextProvider();
    const page = await sessionMiddleware(
      { request: withCookie("/my-tax-filing", client.cookie), context, params: {}, unstable_pattern: "/my-tax-filing" } as never,
      async () => new Response("the page"),
    );
    expect(context.get(sessionUserContext)).toMatchObject({ id: client.id });
    expect((page as Response).headers.getSetCookie().some((c) => /^taxbridge\.session_token=/.test(c))).toBe(true);
    // Without anything to send back, the middleware leaves the answer to the route.
    const untouched = await sessionMiddleware(
      { request: withCookie("/my-tax-filing", client.cookie), context: new RouterContextProvider(), params: {}, unstable_pattern: "/my-tax-filing" } as never,
      async () => new Response("the page"),
    );
    expect(untouched).toBeUndefined();
  });
});
