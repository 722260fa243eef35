import { createRequestHandler } from "@react-router/express";
import express from "express";
import "react-router";
import { closeDatabase, migrateDatabase, pingDatabase } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { isAllowedOrigin } from "~/server/origin-check.server";
import { cachedPage, PAGE_ENCODINGS, pageCacheKey } from "~/server/page-cache.server";
import { runInRequestScope } from "~/server/request-scope.server";

declare module "react-router" {
  interface AppLoadContext {
    /** The client's address as seen by the server (after trusted proxies). */
    clientIp: string;
    /** Nonce of this response's Content-Security-Policy. */
    cspNonce: string;
  }
}

/** Validates configuration and brings the database schema up to date. */
export async function startup(): Promise<void> {
  getEnv();
  await migrateDatabase();
}

export async function shutdown(): Promise<void> {
  await closeDatabase();
}

export const app = express.Router();

app.get("/healthz", async (_req, res) => {
  const ok = await pingDatabase();
  res.set("Cache-Control", "no-store");
  res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "database unavailable" });
});

// Pages and actions answer GET, HEAD and POST only; anything else is refused before routing.
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return next();
  res.status(405).set("Allow", "GET, HEAD, POST").type("text/plain").send("Method not allowed.");
});

// A NUL in the address (%00) is never part of a real link, and the database refuses it in a query.
app.use((req, res, next) => {
  if (!req.originalUrl.includes("%00")) return next();
  res.status(400).type("text/plain").send("Bad request.");
});

app.use((req, res, next) => {
  const allowed = isAllowedOrigin({
    method: req.method,
    origin: req.get("origin"),
    secFetchSite: req.get("sec-fetch-site"),
    host: req.get("host"),
    appUrl: getEnv().appUrl,
  });
  if (allowed) return next();
  res.status(403).type("text/plain").send("Cross-origin request refused.");
});

// A public page a visitor without cookies has been sent in the last minute is sent again from
// memory, already compressed when the browser takes Brotli or gzip (app/server/page-cache.server.ts).
if (!import.meta.env.DEV) {
  app.use((req, res, next) => {
    const key = pageCacheKey(req.method, req.originalUrl, req.get("cookie"));
    const accepted = PAGE_ENCODINGS.filter((encoding) => req.acceptsEncodings(encoding) === encoding);
    const page = key === null ? null : cachedPage(key, accepted);
    if (!page) return next();
    res.status(200).set(Object.fromEntries(page.headers)).set("Server-Timing", 'page-cache;desc="hit"');
    // The compression middleware leaves an answer that already has a Content-Encoding alone.
    res.vary("Accept-Encoding");
    if (page.encoding) res.set("Content-Encoding", page.encoding);
    res.set("Content-Length", String(page.body.length));
    res.end(page.body);
  });
}

// What a request's loaders look up once (who is signed in) is kept for that request only.
app.use((_req, _res, next) => runInRequestScope(next));

// In development the build is a function, so every request sees the latest modules; React Router
// then derives its route tables again on each request. In production that work is done once.
const build = import.meta.env.DEV
  ? () => import("virtual:react-router/server-build")
  : await import("virtual:react-router/server-build");

app.use(
  createRequestHandler({
    build,
    getLoadContext(req, res) {
      return {
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        cspNonce: String(res.locals.cspNonce ?? ""),
      };
    },
  }),
);
