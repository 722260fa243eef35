import { redirect } from "react-router";
import type { MiddlewareFunction } from "react-router";
import { homeFor } from "~/domain/auth";
import { isStaffRole } from "~/domain/policy";
import { NO_STORE, userContext } from "./session.server";

/**
 * The guard of a client's own pages (their taxpayer form, their filings), placed after the portal
 * layout's: staff have no filings of their own, so they are sent to the staff panel instead.
 */
export const clientsOnly: MiddlewareFunction<Response> = ({ context }) => {
  const user = context.get(userContext);
  if (isStaffRole(user.role)) throw redirect(homeFor(user.role), { headers: NO_STORE });
};
