import { ChevronDown, Menu, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { isStaffRole } from "~/domain/policy";
import { Link, NavLink, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { residencyTool } from "~/content/tools";
import { attr, HEADER, part, STATE, widget } from "~/enhance/contract";
import { bindHeader } from "~/enhance/header";
import { servicePages } from "~/content/service-pages";
import { Logo } from "./logo";
import { useSignedInUser } from "./signed-in-user";
import { UserMenu, unreadMessagesText } from "./user-menu";
import { When } from "~/components/ui/when";

const mainLinks = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

const portalLinks = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/my-tax-filing", label: "My Tax Filing" },
] as const;

/** Staff have no filings of their own: their dashboard is the staff panel. */
const staffLinks = [{ to: "/admin/dashboard", label: "Dashboard" }] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-primary-50 hover:text-primary-700 ${
    isActive ? "text-primary-700" : "text-ink"
  }`;

/**
 * The Services menu, rendered closed. Without JavaScript it opens on hover and focus through
 * CSS; app/enhance/header.ts binds its behaviour (aria-expanded, Escape, click).
 */
function ServicesMenu() {
  const panelId = useId();
  return (
    <div className="group relative" {...part(HEADER.servicesMenu)}>
      <button
        type="button"
        className="inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-ink hover:bg-primary-50 hover:text-primary-700"
        aria-expanded={false}
        aria-controls={panelId}
        {...part(HEADER.menuButton)}
      >
        Services
        <ChevronDown className="size-4 transition-transform" aria-hidden="true" {...attr(STATE.on, "rotate-180")} />
      </button>
      <div
        id={panelId}
        className="absolute top-full left-1/2 z-40 hidden w-[22rem] -translate-x-1/2 pt-2 group-focus-within:block group-hover:block"
        {...part(HEADER.menuPanel)}
      >
        <ul className="rounded-xl border border-line bg-white p-2 shadow-card">
          {servicePages.map((service) => (
            <li key={service.path}>
              <Link
                to={service.path}
                className="block rounded-lg px-3 py-2 hover:bg-primary-50 focus-visible:bg-primary-50"
              >
                <span className="block text-sm font-semibold text-ink">{service.name}</span>
                <span className="block text-xs text-ink-muted">{service.summary}</span>
              </Link>
            </li>
          ))}
          <li className="mt-1 border-t border-line pt-1">
            <Link
              to="/services"
              className="block rounded-lg px-3 py-2 text-sm font-semibold text-primary-700 hover:bg-primary-50"
            >
              All services and prices
            </Link>
          </li>
          <li className="mt-1 border-t border-line pt-1">
            <Link
              to={residencyTool.path}
              className="block rounded-lg px-3 py-2 hover:bg-primary-50 focus-visible:bg-primary-50"
            >
              <span className="block text-sm font-semibold text-ink">{residencyTool.name}</span>
              <span className="block text-xs text-ink-muted">{residencyTool.summary}</span>
            </Link>
          </li>
        </ul>
      </div>
    </div>
  );
}

const scrolledOn = "border-line shadow-card";
const scrolledOff = "border-transparent";

export function Header() {
  const user = useSignedInUser();
  // A client's unread messages also show on the phone's menu button, not only inside the menu.
  const unread = user?.unreadMessages && user.unreadMessages.total > 0 ? user.unreadMessages.total : 0;
  const isAdmin = isStaffRole(user?.role);
  const { pathname } = useLocation();
  const mobileId = useId();
  const ref = useRef<HTMLElement>(null);
  const userKey = user ? `${user.role}:${user.email}` : "";

  // Signed-in pages run React: bind the header's behaviour again after each navigation (which
  // also closes its menus) and when the signed-in user changes. Public pages loaded directly
  // run no React; the enhancement module binds the same markup there.
  useEffect(() => {
    const el = ref.current;
    return el ? bindHeader(el) : undefined;
  }, [pathname, userKey]);

  return (
    <header
      ref={ref}
      {...widget("header")}
      {...attr(HEADER.scrolled, "false")}
      {...attr(STATE.on, scrolledOn)}
      {...attr(STATE.off, scrolledOff)}
      className={`sticky top-0 z-30 border-b bg-white/95 backdrop-blur transition-shadow ${scrolledOff}`}
    >
      <div className="mx-auto flex h-16 max-w-[1200px] items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="rounded-md" aria-label="TaxBridge home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {isAdmin
            ? null
            : mainLinks.map((link) => (
                <NavLink key={link.to} to={link.to} end className={navLinkClass}>
                  {link.label}
                </NavLink>
              ))}
          {isAdmin ? null : <ServicesMenu />}
          {user
            ? (isAdmin ? staffLinks : portalLinks).map((link) => (
                <NavLink key={link.to} to={link.to} className={navLinkClass}>
                  {link.label}
                </NavLink>
              ))
            : null}
        </nav>
        <div className={`${isAdmin ? "flex" : "hidden lg:flex"} items-center gap-2`}>
          {user ? (
            <UserMenu user={user} />
          ) : (
            <>
              <Link to="/login" className={buttonClass("ghost")}>
                Sign In
              </Link>
              <Link to="/signup" className={buttonClass("primary")}>
                Get Started
              </Link>
            </>
          )}
        </div>
        {isAdmin ? null : (
          <button
            type="button"
            className="relative inline-flex size-11 items-center justify-center rounded-md text-ink hover:bg-primary-50 lg:hidden"
            aria-expanded={false}
            aria-controls={mobileId}
            {...part(HEADER.mobileToggle)}
          >
            <When state="closed" shown>
              <Menu className="size-6" aria-hidden="true" />
            </When>
            <When state="open" shown={false}>
              <X className="size-6" aria-hidden="true" />
            </When>
            <span
              className="sr-only"
              {...part(HEADER.label)}
              {...attr(HEADER.labelOpen, "Close menu")}
              {...attr(HEADER.labelClosed, "Open menu")}
            >
              Open menu
            </span>
            {unread > 0 ? (
              <span className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-primary-600 px-1.5 py-0.5 text-center text-xs leading-none font-bold text-white tabular-nums">
                <span aria-hidden="true">{unread}</span>
                <span className="sr-only">{`(${unreadMessagesText(unread)})`}</span>
              </span>
            ) : null}
          </button>
        )}
      </div>
      {isAdmin ? null : (
        <nav
          id={mobileId}
          aria-label="Mobile"
          className={`hidden max-h-[calc(100vh-4rem)] overflow-y-auto border-t border-line bg-white lg:hidden`}
        >
          <ul className="mx-auto flex max-w-[1200px] flex-col gap-1 px-4 py-4 sm:px-6">
            {mainLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={(s) => `block ${navLinkClass(s)}`}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li className="mt-2 px-3 text-xs font-semibold tracking-wide text-ink-muted uppercase">
              Services
            </li>
            {servicePages.map((service) => (
              <li key={service.path}>
                <NavLink to={service.path} className={(s) => `block ${navLinkClass(s)}`}>
                  {service.name}
                </NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/services" end className={(s) => `block ${navLinkClass(s)}`}>
                All services and prices
              </NavLink>
            </li>
            <li>
              <NavLink to={residencyTool.path} className={(s) => `block ${navLinkClass(s)}`}>
                {residencyTool.name}
              </NavLink>
            </li>
            {user ? (
              <>
                {portalLinks.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} className={(s) => `block ${navLinkClass(s)}`}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
                <li className="mt-3 border-t border-line pt-3">
                  <UserMenu user={user} />
                </li>
              </>
            ) : (
              <li className="mt-3 grid grid-cols-2 gap-2">
                <Link to="/login" className={buttonClass("secondary")}>
                  Sign In
                </Link>
                <Link to="/signup" className={buttonClass("primary")}>
                  Get Started
                </Link>
              </li>
            )}
          </ul>
        </nav>
      )}
    </header>
  );
}
