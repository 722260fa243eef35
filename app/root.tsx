import { useEffect } from "react";
import type { ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
// Bundled on its own (no React, no dependencies) with a content hash; see docs/decisions/0008.
import enhanceUrl from "~/enhance/index.ts?worker&url";
import { HYDRATED } from "~/enhance/contract";
import { AdminShell } from "~/components/admin/admin-shell";
import type { AdminSection } from "~/components/admin/admin-shell";
import { ErrorPageUserCopy, useErrorPageUser } from "~/components/layout/signed-in-user";
import { SiteShell } from "~/components/layout/site-shell";
import { useNonce } from "~/components/nonce";
import { optsOutOfHydration } from "~/hydration";
import { logError } from "~/log";
import { ButtonLink } from "~/components/ui/button";
import { business } from "~/content/business";
import { getEnv } from "~/server/platform/env.server";
import { headerUserOf } from "~/server/auth/header-user.server";
import { sessionMiddleware } from "~/server/auth/session.server";

// Who is signed in is looked up once per request, here, for the header and every guard below.
export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { origin: getEnv().appUrl, user: await headerUserOf(request, context) };
}

/**
 * Who is signed in (and their unread messages) is read again on every move to another page:
 * reading a conversation changes the count in the header's menu.
 */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

/** Whether this document loads React Router and hydrates (true for every render in the browser). */
function useHydrates(): boolean {
  const matches = useMatches();
  const error = useRouteError();
  // In the browser React only ever renders documents that hydrated: keep their scripts.
  if (typeof document !== "undefined") return true;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return !notFound && !matches.some((match) => optsOutOfHydration(match.handle));
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const hydrates = useHydrates();
  // Marks the page interactive, whether it shows a route or an error (the browser tests wait for it).
  useEffect(() => {
    document.documentElement.setAttribute(HYDRATED, "true");
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1b33" />
        <Meta />
        <Links />
        {hydrates ? null : <script type="module" nonce={nonce || undefined} src={enhanceUrl} />}
      </head>
      <body className="min-h-screen bg-white font-sans text-ink antialiased">
        {children}
        {hydrates ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return (
    <SiteShell>
      <Outlet />
    </SiteShell>
  );
}

/** The sidebar's place for a part of the panel refused to a staff member (its link is not shown to them). */
function refusedSection(pathname: string): AdminSection {
  const part = /^\/admin\/(audit|team|messages)(?:\/|$)/.exec(pathname)?.[1];
  return part === "audit" || part === "team" || part === "messages" ? part : "home";
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const location = useLocation();
  if (!notFound && !isRouteErrorResponse(error)) {
    // Logged for the operator by name and code only (the message may quote what the request
    // carried); the visitor sees a plain message, never a stack trace.
    logError("page", "the error page was shown", error);
  }
  // A part of the staff panel the staff member's role may not use (domain/policy.ts).
  const forbidden = isRouteErrorResponse(error) && error.status === 403 && typeof error.data === "string";
  const title = notFound ? "Page not found" : forbidden ? "Not available to you" : "Something went wrong";
  // A guard's refusal is rendered before any loader ran: who is signed in comes from the server's
  // render (and the page's copy of it), and a staff member refused a part of the panel keeps its frame.
  const errorPageUser = useErrorPageUser();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const panel = forbidden && !rootData ? (errorPageUser?.panel ?? null) : null;
  const message = (
    <>
      <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">
        {notFound ? "Error 404" : `Error ${isRouteErrorResponse(error) ? error.status : 500}`}
      </p>
      <h1 className="text-4xl font-bold tracking-tight text-ink">{title}</h1>
      <p className="max-w-prose text-lg text-ink-soft">
        {notFound
          ? `We could not find ${location.pathname}. The page may have moved, or the address may be mistyped.`
          : forbidden
            ? `${String(error.data)} Ask an administrator if you need it.`
            : "We could not complete your request. Please try again in a moment. If it keeps happening, contact us and we will help."}
      </p>
      <div className="flex flex-wrap gap-3">
        {forbidden ? (
          <ButtonLink to="/admin/dashboard">Back to clients</ButtonLink>
        ) : (
          <>
            <ButtonLink to="/">Go to the home page</ButtonLink>
            <ButtonLink to="/contact" variant="secondary">
              Contact us
            </ButtonLink>
          </>
        )}
      </div>
    </>
  );
  return (
    <SiteShell>
      <title>{`${title} | ${business.name}`}</title>
      {errorPageUser && !rootData ? <ErrorPageUserCopy value={errorPageUser} /> : null}
      {panel ? (
        <AdminShell section="home" active={refusedSection(location.pathname)} totalClients={panel.totalClients} unreadMessages={panel.unreadMessages} areas={panel.areas}>
          <div className="flex flex-col items-start gap-6 py-8">{message}</div>
        </AdminShell>
      ) : (
        <main id="main" className="mx-auto flex max-w-3xl flex-col items-start gap-6 px-4 py-24 sm:px-6">
          {message}
        </main>
      )}
    </SiteShell>
  );
}
