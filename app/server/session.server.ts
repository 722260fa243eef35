import { redirect, replace } from "react-router";
import type { AppLoadContext } from "react-router";
import { homeFor } from "~/domain/auth";
import { CLIENT_IP_HEADER, getSessionUser } from "./auth.server";
import type { SessionUser } from "./auth.server";
import { secondFactorStanding } from "./second-factor.server";
import { isReadOnly, oncePerRequest } from "./request-scope.server";

/** Pages with personal data are never stored by the browser or any cache. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** The request's headers plus the client's IP as the server saw it (for Better Auth). */
export function authHeaders(request: Request, context: AppLoadContext): Headers {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, context.clientIp);
  return headers;
}

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
async function signedInUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) loginRedirect(request);
  return user;
}

/**
 * The signed-in user, or a redirect to /login that remembers where they were going. Every
 * signed-in route passes through here, so this is the one place that holds staff to their
 * second factor: a staff session that has not given its code (or staff who have not enrolled)
 * is sent to give it, whatever the route, and so reaches no client's data anywhere. This holds
 * for every way of signing in (password or Google), because it is checked on the session.
 */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await signedInUser(request);
  if (user.role !== "admin") return user;
  // A page view's loaders each pass through here; a GET asks the database once.
  const standing = isReadOnly(request)
    ? await oncePerRequest(`2fa ${user.sessionId}`, () => secondFactorStanding(user.id, user.sessionId))
    : await secondFactorStanding(user.id, user.sessionId);
  if (standing.state !== "enrolled" || !standing.passed) secondFactorRedirect(request, standing.state);
  return user;
}

/**
 * A signed-in admin, whether or not this session has passed the second factor yet: only for
 * the pages where staff enrol and give their code, which show no client's data.
 */
export async function requireAdminIdentity(request: Request): Promise<SessionUser> {
  const user = await signedInUser(request);
  if (user.role !== "admin") throw redirect(homeFor(user.role), { headers: NO_STORE });
  return user;
}

/** An admin whose session has passed the second factor (see requireUser). */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw redirect(homeFor(user.role), { headers: NO_STORE });
  return user;
}
