import { isRouteErrorResponse } from "react-router";
import type { RouterContextProvider, StaticHandlerContext } from "react-router";
import type { ErrorPageUser } from "~/components/layout/signed-in-user";
import type { HeaderUser } from "~/components/layout/user-menu";
import { isStaffRole, STAFF_POLICY, staffMay } from "~/domain/policy";
import type { StaffArea } from "~/domain/policy";
import { logError } from "~/log";
import { countClients } from "~/server/cases/counters.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { clientUnreadByYear, ownConversationYearOfPath, staffUnreadTotal } from "~/server/messages/unread.server";
import { sessionUserContext } from "./session.server";

/** The parts of the staff panel a staff member of `role` may use (domain/policy.ts). */
export function panelAreas(role: string): StaffArea[] {
  return (Object.keys(STAFF_POLICY) as StaffArea[]).filter((area) => staffMay(role, area));
}

/**
 * A signed-in client's unread messages from the firm for the header's menu (one indexed count),
 * and the one tax year they are in when there is one; null for staff. The year whose conversation
 * this very request opens is read (its page's loader runs beside this one): it is not counted. A
 * count that cannot be read leaves the menu without it.
 */
async function unreadMessagesOf(
  user: { id: string; role: string },
  reading: number | null,
  context: Readonly<RouterContextProvider>,
): Promise<{ total: number; year: number | null } | null> {
  if (user.role !== "user") return null;
  try {
    const byYear = new Map(await clientUnreadByYear(user.id, context));
    if (reading !== null) byYear.delete(reading);
    const years = [...byYear.keys()];
    return { total: [...byYear.values()].reduce((a, b) => a + b, 0), year: years.length === 1 ? years[0]! : null };
  } catch (error) {
    logError("page", "could not count unread messages", error);
    return null;
  }
}

/** What the site header shows of the signed-in user of `request` (null when nobody is). */
export async function headerUserOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<HeaderUser | null> {
  const user = context.get(sessionUserContext);
  if (!user) return null;
  const reading = ownConversationYearOfPath(new URL(request.url).pathname);
  return { email: user.email, role: user.role, unreadMessages: await unreadMessagesOf(user, reading, context) };
}

/** A staff member whose session has passed the second factor: the panel's frame may show. */
function inThePanel(user: SessionUser): boolean {
  return isStaffRole(user.role) && user.secondFactor?.state === "enrolled" && user.secondFactor.passed;
}

/**
 * Who is signed in, for an error page no loader ran for (a guard refused the request before them,
 * so the root loader's data is missing), with the panel's frame for a staff member the policy
 * refused a part of it (403). null when the page has the root's data or nobody is signed in.
 */
export async function errorPageUserOf(
  request: Request,
  handled: StaticHandlerContext,
  context: Readonly<RouterContextProvider>,
): Promise<ErrorPageUser | null> {
  if (!handled.errors || handled.loaderData.root !== undefined) return null;
  const sessionUser = context.get(sessionUserContext);
  if (!sessionUser) return null;
  try {
    const user = await headerUserOf(request, context);
    if (!user) return null;
    const refused = Object.values(handled.errors).some((e) => isRouteErrorResponse(e) && e.status === 403);
    if (!refused || !inThePanel(sessionUser)) return { user, panel: null };
    const [totalClients, unreadMessages] = await Promise.all([countClients(), staffUnreadTotal()]);
    return { user, panel: { totalClients, unreadMessages, areas: panelAreas(sessionUser.role) } };
  } catch (error) {
    logError("page", "could not read who is signed in for the error page", error);
    return null;
  }
}
