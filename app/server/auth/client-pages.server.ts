import { data, redirect } from "react-router";
import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { homeFor } from "~/domain/auth";
import { isStaffRole } from "~/domain/policy";
import { NO_STORE, userContext } from "./session.server";
import type { SessionUser } from "./session-lookup.server";

/**
 * The guard of a client's own pages (their taxpayer form, their filings), placed after the portal
 * layout's: staff have no filings of their own, so they are sent to the staff panel instead.
 */
export const clientsOnly: MiddlewareFunction<Response> = ({ context }) => {
  const user = context.get(userContext);
  if (isStaffRole(user.role)) throw redirect(homeFor(user.role), { headers: NO_STORE });
};

/**
 * The signed-in client of a page that is only ever their own (no client id from the browser);
 * anyone else (staff) finds no such page: a 404.
 */
export function ownClientOr404(context: Readonly<RouterContextProvider>): SessionUser {
  const user = context.get(userContext);
  if (user.role !== "user") throw data(null, { status: 404, headers: NO_STORE });
  return user;
}
