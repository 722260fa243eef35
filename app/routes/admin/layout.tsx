import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/admin/admin-shell";
import type { AdminSection } from "~/components/admin/admin-shell";
import { parseAdminQuery } from "~/domain/admin";
import { parseTaxYear } from "~/domain/tax-year";
import type { StageKey } from "~/domain/workflow";
import { countClients } from "~/server/admin.server";
import { NO_STORE, requireStaff, staffContext } from "~/server/session.server";
import { STAFF_POLICY, staffMay } from "~/domain/policy";
import type { StaffArea } from "~/domain/policy";

// The admin panel: only staff whose session has passed the second factor reach the pages,
// uploads, downloads and exports placed here; they read the staff member from the context.
export const middleware: Route.MiddlewareFunction[] = [requireStaff];

/** What the panel's frame shows on every page: the number of clients, and the parts of the panel this staff member may use. */
export async function loader({ context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const areas = (Object.keys(STAFF_POLICY) as StaffArea[]).filter((area) => staffMay(staff.role, area));
  return { totalClients: await countClients(), areas };
}

export function headers() {
  return NO_STORE;
}

export type ShellPlace = {
  section: StageKey;
  active: AdminSection;
  /** The tax year on screen, which the sidebar's links keep; undefined on pages of no year. */
  year?: number;
};

/**
 * The workflow section, the sidebar link and the tax year of the page at `pathname`. A client's
 * pages (/admin/clients/…: the case, its documents) belong to the client list: HOME, with the
 * year of the case (in the path, or ?year=).
 */
export function shellPlace(pathname: string, search: string): ShellPlace {
  if (pathname === "/admin/messages") return { section: "home", active: "messages" };
  if (pathname === "/admin/audit") return { section: "home", active: "audit" };
  if (pathname === "/admin/team") return { section: "home", active: "team" };
  const params = new URLSearchParams(search);
  if (pathname.startsWith("/admin/clients/")) {
    const inPath = /^\/admin\/clients\/[^/]+\/(\d{4})$/.exec(pathname)?.[1];
    const year = parseTaxYear(inPath ?? params.get("year"));
    return { section: "home", active: "home", ...(year === null ? {} : { year }) };
  }
  if (pathname !== "/admin/dashboard") return { section: "home", active: "home" };
  const { section, year } = parseAdminQuery(params);
  return { section, active: section, year };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const { section, active, year } = shellPlace(pathname.replace(/\/+$/, ""), search);
  return (
    <AdminShell section={section} active={active} year={year} totalClients={loaderData.totalClients} areas={loaderData.areas}>
      <Outlet />
    </AdminShell>
  );
}
