import { ChevronDown, LogOut, MessagesSquare, UserRound } from "lucide-react";
import { useId } from "react";
import { isStaffRole } from "~/domain/policy";
import { Link } from "react-router";
import type { Role } from "~/domain/auth";
import { localPart } from "~/domain/auth";
import { HEADER, part } from "~/enhance/contract";

export type HeaderUser = {
  email: string;
  role: Role;
  /** A client's unread messages from the firm, and the one tax year they are in (else null); null for staff. */
  unreadMessages?: { total: number; year: number | null } | null;
};

/** Where the menu's unread messages lead: the year's conversation when they are all in one, else My Tax Filing. */
export function unreadMessagesHref(unread: { year: number | null }): string {
  return unread.year === null ? "/my-tax-filing" : `/my-tax-filing/${unread.year}/messages`;
}

/** "1 unread message", "3 unread messages". */
export function unreadMessagesText(total: number): string {
  return `${total} unread ${total === 1 ? "message" : "messages"}`;
}

/**
 * The signed-in user's menu: local part, role, full e-mail and Sign Out
 * (docs/product/public-site.md#header-and-footer).
 * Rendered closed; app/enhance/header.ts opens and closes it. Sign Out is a plain form POST,
 * so it works on every page, with or without JavaScript.
 */
export function UserMenu({ user }: { user: HeaderUser }) {
  const panelId = useId();
  const isAdmin = isStaffRole(user.role);
  const unread = user.unreadMessages && user.unreadMessages.total > 0 ? user.unreadMessages : null;

  return (
    <div className="relative" {...part(HEADER.userMenu)}>
      <button
        type="button"
        aria-expanded={false}
        aria-controls={panelId}
        {...part(HEADER.menuButton)}
        className="inline-flex items-center gap-2 rounded-lg border border-line px-3 py-1.5 text-left hover:bg-primary-50"
      >
        <UserRound className="size-5 text-primary-700" aria-hidden="true" />
        {/* A long address is cut short with an ellipsis: the header never widens a phone's page. */}
        <span className="flex min-w-0 flex-col leading-tight">
          <span className="max-w-36 truncate text-sm font-semibold text-ink">{localPart(user.email)}</span>
          <span className="text-xs text-ink-muted">{user.role === "preparer" ? "Preparer" : isAdmin ? "Admin" : "User"}</span>
        </span>
        {unread ? (
          <span className="rounded-full bg-primary-600 px-1.5 py-0.5 text-xs font-bold text-white tabular-nums">
            {unread.total}
            <span className="sr-only">{` unread ${unread.total === 1 ? "message" : "messages"}`}</span>
          </span>
        ) : null}
        <ChevronDown className="size-4 text-ink-muted" aria-hidden="true" />
      </button>
      <div id={panelId} hidden {...part(HEADER.menuPanel)} className="absolute right-0 z-40 mt-2 w-72 rounded-xl border border-line bg-white p-2 shadow-card">
        <div className="border-b border-line px-3 py-2">
          <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{user.role === "preparer" ? "Preparer Account" : isAdmin ? "Administrator Account" : "User Account"}</p>
          <p className="truncate text-sm font-medium text-ink">{user.email}</p>
        </div>
        {unread ? (
          <Link
            to={unreadMessagesHref(unread)}
            className="mt-1 flex min-h-11 items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-primary-700 hover:bg-primary-50"
          >
            <MessagesSquare className="size-4" aria-hidden="true" />
            {unreadMessagesText(unread.total)}
          </Link>
        ) : null}
        {user.role === "user" ? (
          <Link to="/my-consents" className="mt-1 block rounded-lg px-3 py-2 text-sm hover:bg-primary-50">
            My consents
          </Link>
        ) : null}
        {isAdmin ? (
          <Link to="/admin/dashboard" className="mt-1 block rounded-lg px-3 py-2 text-sm hover:bg-primary-50">
            Admin panel
          </Link>
        ) : null}
        <form method="post" action="/logout" className="mt-1">
          <button type="submit" className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium text-red-700 hover:bg-red-50">
            <LogOut className="size-4" aria-hidden="true" />
            Sign Out
          </button>
        </form>
      </div>
    </div>
  );
}
