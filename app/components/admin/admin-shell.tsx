import { Banknote, CalendarPlus, FileSignature, Inbox, MailWarning, Menu, MessagesSquare, ScrollText, UsersRound, X } from "lucide-react";
import type { StaffArea } from "~/domain/policy";
import { useId, useState } from "react";
import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { useHydrated } from "~/components/hooks";
import { Logo } from "~/components/layout/logo";
import { adminQueryString } from "~/domain/admin";
import { inboxHref } from "~/domain/messages";
import { currentFilingYear } from "~/domain/tax-year";
import { STAGES, stageLabel } from "~/domain/workflow";
import type { StageKey } from "~/domain/workflow";
import { STAGE_ICONS } from "./stage-badge";

/** What the sidebar highlights: one of the eight workflow sections, or one of the extra pages. */
export type AdminSection = StageKey | "inbox" | "messages" | "audit" | "team" | "mail" | "payments" | "engagement" | "season";

export type AdminShellProps = {
  /** The workflow section in the URL (?section=); "home" on the pages outside the workflow. */
  section: StageKey;
  /** All clients, whatever the filters: shown in the sidebar footer. */
  totalClients: number;
  /** The clients' messages no staff member has opened, every year (beside Client messages). */
  unreadMessages?: number;
  active: AdminSection;
  /** The tax year on screen (the list's, or the case's): the sections keep it. The season's when absent. */
  year?: number;
  /** The parts of the panel the staff member's role may use (domain/policy.ts): the others get no link. */
  areas: readonly StaffArea[];
  children: ReactNode;
};

/**
 * HOME is the bare dashboard URL; every other section is ?section=<key>. A tax year other than
 * the filing season's stays in the URL (?year=).
 */
export function sectionHref(key: StageKey, year: number = currentFilingYear()): string {
  return `/admin/dashboard${adminQueryString({ year, section: key, q: "", stage: "all", returnFilter: "all", residencyFilter: "all", page: 1 })}`;
}

const extraLinks = [
  // Messages sent through the public contact form (not a client's conversation: Client messages).
  { key: "messages", area: "contact-messages", to: "/admin/messages", label: "Contact form", Icon: Inbox },
  { key: "audit", area: "audit", to: "/admin/audit", label: "Audit", Icon: ScrollText },
  { key: "team", area: "team", to: "/admin/team", label: "Team", Icon: UsersRound },
  { key: "mail", area: "mail", to: "/admin/notices", label: "Undelivered e-mails", Icon: MailWarning },
  { key: "payments", area: "payments", to: "/admin/payments", label: "Payments", Icon: Banknote },
  { key: "engagement", area: "engagement", to: "/admin/engagement", label: "Engagement letter", Icon: FileSignature },
  { key: "season", area: "engagement", to: "/admin/season", label: "Season's start", Icon: CalendarPlus },
] as const;

function linkClass(current: boolean): string {
  return `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-semibold transition-colors ${
    current ? "bg-white text-ink shadow-sm" : "text-white/90 hover:bg-white/10 hover:text-white"
  }`;
}

/** The name of what is on screen, for the sidebar footer and the small-screen bar. */
function currentName(section: StageKey, active: AdminSection): string {
  if (active === "inbox") return "Client messages";
  if (active === "messages") return "Contact form";
  if (active === "audit") return "Audit";
  if (active === "team") return "Team";
  if (active === "mail") return "Undelivered e-mails";
  if (active === "payments") return "Payments";
  if (active === "engagement") return "Engagement letter";
  if (active === "season") return "Season's start";
  return stageLabel(section);
}

/**
 * The admin panel's frame: a sidebar with the eight workflow sections plus Messages and Audit,
 * the total client count and the current section at its foot. Below the lg breakpoint the
 * sidebar becomes a bar across the top whose "Sections" button shows and hides the links.
 */
export function AdminShell({ section, totalClients, unreadMessages = 0, active, year, areas, children }: AdminShellProps) {
  const records = extraLinks.filter((link) => areas.includes(link.area));
  // The menu is open on the page where it was opened: any navigation closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const hydrated = useHydrated();
  const navId = useId();
  const { pathname, search } = useLocation();
  const here = `${pathname}${search}`;
  const open = openAt === here;

  // Before hydration the button cannot toggle anything: the links then show while focus is in the bar.
  const navVisibility = open ? "block" : hydrated ? "hidden" : "hidden group-focus-within/admin-nav:block";

  return (
    <div className="flex flex-1 flex-col bg-surface lg:flex-row">
      <aside aria-label="Admin panel" className="group/admin-nav bg-ink text-white lg:w-64 lg:shrink-0">
        <div className="flex flex-wrap items-center gap-x-3 px-4 py-3 lg:sticky lg:top-16 lg:max-h-[calc(100dvh-4rem)] lg:flex-col lg:flex-nowrap lg:items-stretch lg:gap-0 lg:overflow-y-auto lg:p-0">
          <div className="hidden border-b border-white/10 px-5 py-5 lg:order-1 lg:block">
            <Link to={sectionHref("home", year)} className="inline-block rounded-md">
              <Logo inverse />
              <span className="sr-only"> administration, all clients</span>
            </Link>
            <p className="mt-1 text-xs font-semibold tracking-wide text-primary-100 uppercase">Admin panel</p>
          </div>

          <button
            type="button"
            className="order-2 inline-flex min-h-11 items-center gap-2 rounded-lg border border-white/30 px-3 py-2 text-sm font-semibold text-white hover:bg-white/10 lg:hidden"
            aria-expanded={open}
            aria-controls={navId}
            onClick={() => setOpenAt(open ? null : here)}
          >
            {open ? (
              <X className="size-5" aria-hidden="true" />
            ) : (
              <Menu className="size-5" aria-hidden="true" />
            )}
            Sections
          </button>

          <nav
            id={navId}
            aria-label="Admin sections"
            className={`${navVisibility} order-3 basis-full pt-3 pb-1 lg:order-2 lg:block lg:flex-1 lg:px-3 lg:py-4`}
          >
            <p className="px-3 text-xs font-semibold tracking-wide text-primary-100 uppercase">Workflow</p>
            <ul className="mt-2 grid gap-1 sm:grid-cols-2 lg:grid-cols-1">
              {STAGES.map((stage) => {
                const Icon = STAGE_ICONS[stage.key];
                const current = active === stage.key;
                return (
                  <li key={stage.key}>
                    <Link
                      to={sectionHref(stage.key, year)}
                      className={linkClass(current)}
                      aria-current={current ? "page" : undefined}
                    >
                      <Icon className="size-4 shrink-0" aria-hidden="true" />
                      {stage.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
            {areas.includes("cases") ? (
              <>
                <p className="mt-5 px-3 text-xs font-semibold tracking-wide text-primary-100 uppercase">Clients</p>
                <ul className="mt-2 grid gap-1 sm:grid-cols-2 lg:grid-cols-1">
                  <li>
                    <Link
                      to={inboxHref({ year: year ?? currentFilingYear(), filter: "all", page: 1 })}
                      className={linkClass(active === "inbox")}
                      aria-current={active === "inbox" ? "page" : undefined}
                    >
                      <MessagesSquare className="size-4 shrink-0" aria-hidden="true" />
                      <span className="flex-1">Client messages</span>
                      {unreadMessages > 0 ? (
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-bold tabular-nums ${
                            active === "inbox" ? "bg-primary-600 text-white" : "bg-accent-500 text-ink"
                          }`}
                        >
                          {unreadMessages}
                          <span className="sr-only"> unread</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                </ul>
              </>
            ) : null}
            {records.length > 0 ? (
              <p className="mt-5 px-3 text-xs font-semibold tracking-wide text-primary-100 uppercase">
                Records
              </p>
            ) : null}
            <ul className="mt-2 grid gap-1 sm:grid-cols-2 lg:grid-cols-1">
              {records.map(({ key, to, label, Icon }) => {
                const current = active === key;
                return (
                  <li key={key}>
                    <Link to={to} className={linkClass(current)} aria-current={current ? "page" : undefined}>
                      <Icon className="size-4 shrink-0" aria-hidden="true" />
                      {label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>

          <div className="order-1 min-w-0 flex-1 text-sm lg:order-3 lg:flex-none lg:border-t lg:border-white/10 lg:px-5 lg:py-4">
            <p className="font-semibold text-white">{`Total clients: ${totalClients}`}</p>
            <p className="text-primary-100">{`Current section: ${currentName(section, active)}`}</p>
          </div>
        </div>
      </aside>

      <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        {children}
      </main>
    </div>
  );
}
