import { ChevronDown, Menu, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { FocusEvent, KeyboardEvent } from "react";
import { Link, NavLink, useLocation, useRouteLoaderData } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { residencyTool } from "~/content/tools";
import { servicePages } from "~/content/service-pages";
import { Logo } from "./logo";
import { UserMenu } from "./user-menu";
import type { HeaderUser } from "./user-menu";

const mainLinks = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

const portalLinks = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/my-tax-filing", label: "My Tax Filing" },
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-primary-50 hover:text-primary-700 ${
    isActive ? "text-primary-700" : "text-ink"
  }`;

/** Scroll position past which the header takes its "scrolled" look (spec: 20 px). */
export const SCROLL_THRESHOLD = 20;

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

function ServicesMenu() {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);

  function onBlur(event: FocusEvent<HTMLDivElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
  }
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Escape" && open) {
      setOpen(false);
      buttonRef.current?.focus();
    }
  }

  return (
    <div
      className="group relative"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
    >
      <button
        ref={buttonRef}
        type="button"
        className="inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-ink hover:bg-primary-50 hover:text-primary-700"
        aria-expanded={open}
        aria-controls={panelId}
        // A pointer has already opened it on hover: a click keeps it open; Enter or Space toggles.
        onClick={(event) => setOpen((v) => (event.detail === 0 ? !v : true))}
        onFocus={() => setOpen(true)}
      >
        Services
        <ChevronDown
          className={`size-4 transition-transform ${open ? "rotate-180" : ""}`}
          aria-hidden="true"
        />
      </button>
      <div
        id={panelId}
        className={`absolute top-full left-1/2 z-40 w-[22rem] -translate-x-1/2 pt-2 ${
          open ? "block" : hydrated ? "hidden" : "hidden group-focus-within:block group-hover:block"
        }`}
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

export function Header() {
  const rootData = useRouteLoaderData("root") as { user: HeaderUser | null } | undefined;
  const user = rootData?.user ?? null;
  const isAdmin = user?.role === "admin";
  const [mobileOpen, setMobileOpen] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  const { pathname } = useLocation();
  const mobileId = useId();

  useEffect(() => setMobileOpen(false), [pathname]);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SCROLL_THRESHOLD);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  return (
    <header
      data-scrolled={scrolled}
      className={`sticky top-0 z-30 border-b bg-white/95 backdrop-blur transition-shadow ${
        scrolled ? "border-line shadow-card" : "border-transparent"
      }`}
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
            ? portalLinks.map((link) => (
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
            className="inline-flex size-11 items-center justify-center rounded-md text-ink hover:bg-primary-50 lg:hidden"
            aria-expanded={mobileOpen}
            aria-controls={mobileId}
            onClick={() => setMobileOpen((v) => !v)}
          >
            {mobileOpen ? (
              <X className="size-6" aria-hidden="true" />
            ) : (
              <Menu className="size-6" aria-hidden="true" />
            )}
            <span className="sr-only">{mobileOpen ? "Close menu" : "Open menu"}</span>
          </button>
        )}
      </div>
      {isAdmin ? null : (
        <nav
          id={mobileId}
          aria-label="Mobile"
          className={`${mobileOpen ? "block" : "hidden"} max-h-[calc(100vh-4rem)] overflow-y-auto border-t border-line bg-white lg:hidden`}
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
