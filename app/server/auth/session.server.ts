import { createContext, data, redirect, replace } from "react-router";
import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { homeFor } from "~/domain/auth";
import { isStaffRole, NOT_FOR_YOUR_ROLE, staffAreaOfRoute, staffMay } from "~/domain/policy";
import { CLIENT_IP_HEADER } from "~/server/auth/better-auth.server";
import { lookUpSession } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { secondFactorStanding } from "./second-factor.server";

/** Pages with personal data are never stored by the browser or any cache. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** The request's headers plus the client's IP as the server saw it (for Better Auth). */
export function authHeaders(request: Request, context: Readonly<RouterContextProvider>): Headers {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, context.clientIp);
  return headers;
}

// ---------------------------------------------------------------------------------------------
// Who is asking, once per request. The root's middleware looks the session up; the portal and
// admin layouts' middleware decide who may go further and put that person in the context, so
// every route placed under a layout is protected by where it is placed, and its loader and
// action read the person from the context instead of checking again.

/** The signed-in user of this request, or null: set by the root's middleware for every route. */
export const sessionUserContext = createContext<SessionUser | null>(null);

/** The signed-in client or staff member (staff: second factor passed): set by the portal layout. */
export const userContext = createContext<SessionUser>();

/** A signed-in staff member, second factor given or not: set for every /admin URL. */
export const staffIdentityContext = createContext<SessionUser>();

/** A staff member whose session has passed the second factor: set by the admin panel's layout. */
export const staffContext = createContext<SessionUser>();

/**
 * Looks up who is signed in, once, for the root's middleware (see sessionUserContext). A session
 * extended meanwhile has its cookie sent again with the answer, so it lasts as long in the browser.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { user, setCookies } = await lookUpSession(request);
  context.set(sessionUserContext, user);
  if (setCookies.length === 0) return;
  const response = await next();
  for (const cookie of setCookies) response.headers.append("Set-Cookie", cookie);
  return response;
};

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const target = `${url.pathname}${url.search}`;
  throw redirect(`/login?redirectTo=${encodeURIComponent(target)}`, { headers: NO_STORE });
}

/**
 * Where a staff session that has not passed the second factor is sent instead of `request`'s page.
 * The code page takes the place of the sign-in page in the history (`replace`), so Back from the
 * staff panel leaves the sign-in pages.
 */
function secondFactorRedirect(request: Request, state: "none" | "pending" | "enrolled"): never {
  if (state !== "enrolled") throw replace("/admin/security/setup", { headers: NO_STORE });
  const url = new URL(request.url);
  const target = request.method === "GET" ? `${url.pathname}${url.search}` : "/admin/dashboard";
  throw replace(`/admin/security/verify?redirectTo=${encodeURIComponent(target)}`, { headers: NO_STORE });
}

/** The signed-in user, or a redirect to /login; staff are not yet checked for their second factor. */
function signedInUser(request: Request, context: Readonly<RouterContextProvider>): SessionUser {
  const user = context.get(sessionUserContext);
  if (!user) loginRedirect(request);
  return user;
}

/**
 * A staff session that has not given its code (or staff who have not enrolled) is sent to give
 * it, whatever the route, and so reaches no client's data anywhere. This holds for every way of
 * signing in (password or Google), because it is checked on the session.
 */
async function holdToSecondFactor(request: Request, user: SessionUser): Promise<void> {
  const standing = user.secondFactor ?? (await secondFactorStanding(user.id, user.sessionId));
  if (standing.state !== "enrolled" || !standing.passed) secondFactorRedirect(request, standing.state);
}

/**
 * The portal layout's guard: a signed-in user, or a redirect to /login that remembers where they
 * were going; staff must have passed their second factor.
 */
export const requireUser: MiddlewareFunction<Response> = async ({ request, context }) => {
  const user = signedInUser(request, context);
  if (isStaffRole(user.role)) await holdToSecondFactor(request, user);
  context.set(userContext, user);
};

/**
 * The guard of every /admin URL: a signed-in staff member, whether or not this session has passed
 * the second factor yet (only the pages where staff enrol and give their code, which show no
 * client's data, rely on this alone). Clients are sent to their own home.
 */
export const requireStaffIdentity: MiddlewareFunction<Response> = ({ request, context }) => {
  const user = signedInUser(request, context);
  if (!isStaffRole(user.role)) throw redirect(homeFor(user.role), { headers: NO_STORE });
  context.set(staffIdentityContext, user);
};

/**
 * The admin panel's guard: a staff member whose session has passed the second factor, in a part
 * of the panel their role may use (the policy tables, domain/policy.ts); any other part, and a
 * route the tables do not name, answers 403 before its loader or action runs. The part is the
 * matched route's (`pattern`, its path in app/routes.ts), whatever case or encoding the address had.
 */
export const requireStaff: MiddlewareFunction<Response> = async ({ request, context, pattern }) => {
  const staff = context.get(staffIdentityContext);
  await holdToSecondFactor(request, staff);
  if (!staffMay(staff.role, staffAreaOfRoute(pattern)))
    throw data(NOT_FOR_YOUR_ROLE, { status: 403, headers: NO_STORE });
  context.set(staffContext, staff);
};
