import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
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
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode || publicPage
        ? "onAllReady"
        : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <ErrorPageUserProvider value={errorPageUser}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </ErrorPageUserProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (publicPage && cacheKey !== null) {
            const chunks: Buffer[] = [];
            const body = new PassThrough();
            body.on("data", (chunk: Buffer) => chunks.push(chunk));
            body.on("end", () => {
              const html = Buffer.concat(chunks).toString("utf8");
              storePage(cacheKey, {
                status: responseStatusCode,
                headers: responseHeaders,
                html,
                nonce: loadContext.cspNonce,
              });
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
            });
            pipe(body);
            return;
          }
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors during streaming after the shell are logged here; before it, they reach
          // the route's error boundary.
          if (shellRendered) logError("server", "streaming a page failed", error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
