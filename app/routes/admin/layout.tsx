import { Outlet, useLocation } from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/admin/admin-shell";
import type { AdminSection } from "~/components/admin/admin-shell";
import { parseAdminQuery } from "~/domain/admin";
import { parseTaxYear } from "~/domain/tax-year";
import type { StageKey } from "~/domain/workflow";
import { countClients, countClientsOutsideUs } from "~/server/cases/counters.server";
import { worksOutsideUs } from "~/server/consents/outside-us.server";
import { conversationOfPath, staffUnreadTotal } from "~/server/messages/unread.server";
import { NO_STORE, requireStaff, staffContext } from "~/server/auth/session.server";
import { panelAreas } from "~/server/auth/header-user.server";
import { requireConsentOutsideUs } from "~/server/consents/outside-us-guard.server";

// The admin panel: only staff whose session has passed the second factor reach the pages,
// uploads, downloads and exports placed here; they read the staff member from the context. Staff
// who work outside the United States reach a client's routes only under the client's consent to
// disclose (server/consents/outside-us-guard.server.ts).
export const middleware: Route.MiddlewareFunction[] = [requireStaff, requireConsentOutsideUs];

/**
 * What the panel's frame shows on every page: the number of clients, the clients' unread
 * messages (Client messages in the sidebar), and the parts of the panel this staff member may use.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const areas = panelAreas(staff.role);
  // A conversation being opened by this very request is read: its messages are not counted.
  const reading = conversationOfPath(new URL(request.url).pathname);
  const [totalClients, unreadMessages, outsideUs] = await Promise.all([countClients(), staffUnreadTotal(reading), worksOutsideUs(staff.id)]);
  // Staff who work outside the United States count only the clients they may see.
  if (outsideUs) {
    const [theirs, theirUnread] = await Promise.all([countClientsOutsideUs(staff.id), staffUnreadTotal(reading, staff.id)]);
    return { totalClients: theirs, unreadMessages: theirUnread, areas };
  }
  return { totalClients, unreadMessages, areas };
}

/**
 * The frame's counts are read again on every move to another page, not only after a change:
 * opening a conversation reads its messages, and the sidebar's unread count must follow.
 */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;
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
 * pages (/admin/clients/…: the case and its sections, its documents) belong to the client list: HOME, with the
 * year of the case (in the path, or ?year=).
 */
export function shellPlace(pathname: string, search: string): ShellPlace {
  if (pathname === "/admin/messages") return { section: "home", active: "messages" };
  if (pathname === "/admin/audit") return { section: "home", active: "audit" };
  if (pathname === "/admin/team") return { section: "home", active: "team" };
  if (pathname === "/admin/notices") return { section: "home", active: "mail" };
  if (pathname === "/admin/payments") return { section: "home", active: "payments" };
  if (pathname === "/admin/engagement") return { section: "home", active: "engagement" };
  if (pathname === "/admin/season") return { section: "home", active: "season" };
  const params = new URLSearchParams(search);
  // The clients' conversations: the inbox, and a case's conversation (with the case's year).
  if (pathname === "/admin/inbox") {
    const year = parseTaxYear(params.get("year"));
    return { section: "home", active: "inbox", ...(year === null ? {} : { year }) };
  }
  const conversationYear = /^\/admin\/clients\/[^/]+\/(\d{4})\/messages$/.exec(pathname)?.[1];
  if (conversationYear !== undefined) {
    const year = parseTaxYear(conversationYear);
    return { section: "home", active: "inbox", ...(year === null ? {} : { year }) };
  }
  if (pathname.startsWith("/admin/clients/")) {
    const inPath = /^\/admin\/clients\/[^/]+\/(\d{4})(?:\/[^/]+)?$/.exec(pathname)?.[1];
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
    <AdminShell
      section={section}
      active={active}
      year={year}
      totalClients={loaderData.totalClients}
      unreadMessages={loaderData.unreadMessages}
      areas={loaderData.areas}
    >
      <Outlet />
    </AdminShell>
  );
}
