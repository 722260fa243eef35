import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/admin/admin-shell";
import type { AdminSection } from "~/components/admin/admin-shell";
import { parseAdminQuery } from "~/domain/admin";
import type { StageKey } from "~/domain/workflow";
import { countClients } from "~/server/admin.server";
import { NO_STORE, requireStaff } from "~/server/session.server";

// The admin panel: only staff whose session has passed the second factor reach the pages,
// uploads, downloads and exports placed here; they read the staff member from the context.
export const middleware: Route.MiddlewareFunction[] = [requireStaff];

/** What the panel's frame shows on every page: the number of clients. */
export async function loader() {
  return { totalClients: await countClients() };
}

export function headers() {
  return NO_STORE;
}

/** The workflow section and the sidebar link of the page at `pathname` (HOME outside the list). */
export function shellPlace(pathname: string, search: string): { section: StageKey; active: AdminSection } {
  if (pathname === "/admin/messages") return { section: "home", active: "messages" };
  if (pathname === "/admin/audit") return { section: "home", active: "audit" };
  if (pathname !== "/admin/dashboard") return { section: "home", active: "home" };
  const { section } = parseAdminQuery(new URLSearchParams(search));
  return { section, active: section };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const { section, active } = shellPlace(pathname.replace(/\/+$/, ""), search);
  return (
    <AdminShell section={section} active={active} totalClients={loaderData.totalClients}>
      <Outlet />
    </AdminShell>
  );
}
