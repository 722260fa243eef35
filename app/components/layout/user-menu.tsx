import { ChevronDown, LogOut, UserRound } from "lucide-react";
import { useId } from "react";
import { isStaffRole } from "~/domain/policy";
import { Link } from "react-router";
import type { Role } from "~/domain/auth";
import { localPart } from "~/domain/auth";
import { HEADER, part } from "~/enhance/contract";

export type HeaderUser = { email: string; role: Role };

/**
 * The signed-in user's menu: local part, role, full e-mail and Sign Out (spec section 2).
 * Rendered closed; app/enhance/header.ts opens and closes it. Sign Out is a plain form POST,
 * so it works on every page, with or without JavaScript.
 */
export function UserMenu({ user }: { user: HeaderUser }) {
  const panelId = useId();
  const isAdmin = isStaffRole(user.role);

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
        <span className="flex flex-col leading-tight">
          <span className="text-sm font-semibold text-ink">{localPart(user.email)}</span>
          <span className="text-xs text-ink-muted">{user.role === "preparer" ? "Preparer" : isAdmin ? "Admin" : "User"}</span>
        </span>
        <ChevronDown className="size-4 text-ink-muted" aria-hidden="true" />
      </button>
      <div id={panelId} hidden {...part(HEADER.menuPanel)} className="absolute right-0 z-40 mt-2 w-72 rounded-xl border border-line bg-white p-2 shadow-card">
        <div className="border-b border-line px-3 py-2">
          <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{user.role === "preparer" ? "Preparer Account" : isAdmin ? "Administrator Account" : "User Account"}</p>
          <p className="truncate text-sm font-medium text-ink">{user.email}</p>
        </div>
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
