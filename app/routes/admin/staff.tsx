import { Outlet } from "react-router";
import type { Route } from "./+types/staff";
import { NO_STORE, requireStaffIdentity } from "~/server/auth/session.server";

// Every /admin URL is for staff only. The pages where staff enrol and give their code sit
// directly here; everything else sits in the admin panel's layout, which also holds the session
// to its second factor.
export const middleware: Route.MiddlewareFunction[] = [requireStaffIdentity];

export function headers() {
  return NO_STORE;
}

export default function StaffOnly() {
  return <Outlet />;
}
