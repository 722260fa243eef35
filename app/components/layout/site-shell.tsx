import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { ContactBar } from "./contact-bar";
import { Footer } from "./footer";
import { Header } from "./header";

/** Paths that show neither header nor footer (docs/product/public-site.md#header-and-footer). */
// A consent's page shows nothing but the consent and its buttons (docs/product/engagement.md#consents-under-section-7216).
const bare = new Set(["/login", "/signup", "/admin", "/my-consents/use", "/my-consents/disclose"]);

/** Whether the page at `pathname` shows the site header (and so its logo). */
export function showsSiteHeader(pathname: string): boolean {
  return !bare.has(pathname.replace(/(.)\/+$/, "$1"));
}

export function SiteShell({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  if (!showsSiteHeader(pathname)) return <>{children}</>;
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-primary-700 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <ContactBar />
      <Header />
      <div className="flex min-h-[60vh] flex-col">{children}</div>
      <Footer />
    </>
  );
}
