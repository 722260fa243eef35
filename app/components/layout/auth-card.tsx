import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { Logo } from "./logo";
import { showsSiteHeader } from "./site-shell";

/** The frame of the sign-in and sign-up pages (shown without the site header and footer). */
export function AuthCard({ title, lead, children, footer }: { title: string; lead?: string; children: ReactNode; footer?: ReactNode }) {
  // Where the site header shows, its logo is the only one.
  const withLogo = !showsSiteHeader(useLocation().pathname);
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-gradient-to-br from-primary-50 via-white to-surface px-4 py-10 sm:items-center">
      <div className="w-full max-w-md">
        {withLogo ? (
          <Link to="/" className="mx-auto mb-6 flex w-fit rounded-md" aria-label="TaxBridge home">
            <Logo />
          </Link>
        ) : null}
        <div className="rounded-[var(--radius-card)] bg-white p-6 shadow-card sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
          {lead ? <p className="mt-1 text-sm text-ink-muted">{lead}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-ink-soft">{footer}</div> : null}
      </div>
    </main>
  );
}
