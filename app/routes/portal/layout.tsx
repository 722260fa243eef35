import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { NO_STORE, requireUser } from "~/server/auth/session.server";

// The client's pages and document downloads: only a signed-in user reaches them (staff only after
// their second factor); they read that user from the context.
export const middleware: Route.MiddlewareFunction[] = [requireUser];

export function headers() {
  return NO_STORE;
}

export default function PortalLayout() {
  return <Outlet />;
}
