import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { ErrorPageUserProvider } from "~/components/layout/signed-in-user";
import { NonceProvider } from "~/components/nonce";
import { optsOutOfHydration } from "~/hydration";
import { logError, routeOf } from "~/log";
import { hasSessionCookie } from "~/server/auth/session-lookup.server";
import { errorPageUserOf } from "~/server/auth/header-user.server";
import { pageCacheKey, storePage } from "~/server/http/page-cache.server";

export const streamTimeout = 5_000;

/**
 * Errors of loaders, actions and rendering. An error's message may quote a failed query's values
 * and a URL its query string or a token: the log gets the method, the path's words and the
 * error's name and codes.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A 500 answer built by the router carries the thrown error inside.
  const thrown = isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error;
  logError("server", `${request.method} ${routeOf(request.url)} failed`, thrown);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // A page that does not hydrate loads one same-origin module and has no inline script: the
  // CSP's 'self' allows it, so its HTML carries no nonce and is the same for every answer.
  const hydrates = !routerContext.staticHandlerContext.matches.some((match) =>
    optsOutOfHydration(routerContext.routeModules[match.route.id]?.handle),
  );
  const nonce = hydrates ? loadContext.cspNonce : undefined;
  // HTML is revalidated on every visit; pages that hold personal data say no-store themselves.
  // A signed-in visitor's public pages carry their e-mail in the header menu: never stored either.
  if (!responseHeaders.has("Cache-Control"))
    responseHeaders.set("Cache-Control", hasSessionCookie(request) ? "private, no-store" : "no-cache");

  // A public page for a visitor without cookies is rendered whole and kept (app/server/http/page-cache.server.ts).
  const cacheKey = import.meta.env.DEV
    ? null
    : pageCacheKey(request.method, request.url, request.headers.get("cookie"));
  const publicPage = cacheKey !== null && responseStatusCode === 200 && !hydrates;

  // An error page no loader ran for (a guard refused the request) still shows who is signed in.
  const errorPageUser = await errorPageUserOf(request, routerContext.staticHandlerContext, loadContext);

  return new Promise<Response>((resolve, reject) => {
    let allRendered = false;
    // Every page is sent whole, once React has rendered all of it: no page defers data to
    // stream later, and one write of the whole answer costs the server a sixth of a page's CPU
    // less than sending React's 2 KB chunks one by one through a web stream
    // (docs/decisions/0035-pages-sent-whole.md).
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <ErrorPageUserProvider value={errorPageUser}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </ErrorPageUserProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          allRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              const html = Buffer.concat(chunks);
              // A public page for a visitor without cookies is kept (app/server/http/page-cache.server.ts).
              if (publicPage && cacheKey !== null)
                storePage(cacheKey, { status: responseStatusCode, headers: responseHeaders, html: html.toString("utf8"), nonce: loadContext.cspNonce });
              responseHeaders.set("Content-Length", String(html.byteLength));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error once the page was rendered is logged here; before it, it reaches the route's error boundary.
          if (allRendered) logError("server", "sending a page failed", error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
