// The Node server around the React Router request handler: security headers,
// compression, static assets, and an orderly shutdown.
import "./scripts/lib/private-files.js";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import compression from "compression";
import express from "express";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_PATH = "./build/server/index.js";

/** @param {string} nonce */
function contentSecurityPolicy(nonce) {
  const script = DEVELOPMENT ? "'self' 'unsafe-inline'" : `'self' 'nonce-${nonce}'`;
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${DEVELOPMENT ? " ws: wss:" : ""}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * Sends the Brotli or gzip copy of an asset that scripts/compress-assets.ts wrote at build time,
 * when the browser takes that encoding: no compressing on each request.
 * @param {string} dir
 * @param {import("serve-static").ServeStaticOptions} options
 * @returns {import("express").RequestHandler}
 */
function precompressed(dir, options) {
  const copies = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const encodings = /** @type {const} */ ([
    ["br", ".br"],
    ["gzip", ".gz"],
  ]);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    const found = encodings.find(
      ([encoding, suffix]) => copies.has(name + suffix) && req.acceptsEncodings(encoding) === encoding,
    );
    if (!found) return next();
    res.vary("Accept-Encoding");
    res.type(path.extname(name));
    res.set("Content-Encoding", found[0]);
    res.sendFile(name + found[1], { root: dir, ...options }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  };
}

const app = express();
app.disable("x-powered-by");

const https = (process.env.APP_URL ?? "").startsWith("https:");
app.use((_req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.set({
    "Content-Security-Policy": contentSecurityPolicy(nonce),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  });
  if (https) res.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  next();
});
app.use(compression());

/**
 * @type {{
 *   startup: () => Promise<{ trustProxy: boolean | number | string[] }>,
 *   startupFailureMessage: (error: unknown) => string | null,
 *   shutdown: () => Promise<void>,
 * }}
 */
let lifecycle;

if (DEVELOPMENT) {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(viteDevServer.middlewares);
  lifecycle = await viteDevServer.ssrLoadModule("./server/app.ts");
  app.use(async (req, res, next) => {
    try {
      const source = await viteDevServer.ssrLoadModule("./server/app.ts");
      return await source.app(req, res, next);
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  const assets = { immutable: true, maxAge: "1y", index: false };
  app.use(
    "/assets",
    precompressed("build/client/assets", assets),
    express.static("build/client/assets", assets),
  );
  // The few files at the top of build/client (favicons, images): a page's address is never
  // looked for on disk first (a failed lookup cost a file-system call and an error per page).
  const topLevel = new Set(existsSync("build/client") ? readdirSync("build/client") : []);
  const publicFiles = express.static("build/client", { maxAge: "1h", index: false });
  app.use((req, res, next) => (topLevel.has(req.path.split("/")[1] ?? "") ? publicFiles(req, res, next) : next()));
  const build = await import(BUILD_PATH);
  lifecycle = build;
  app.use(build.app);
}

try {
  const settings = await lifecycle.startup();
  // Which proxies may tell us the client's address (TRUST_PROXY; by default one on this machine).
  app.set("trust proxy", settings.trustProxy);
} catch (error) {
  // What is wrong, in one line, when it is a known problem (configuration, DATA_DIR, database).
  console.error(lifecycle.startupFailureMessage(error) ?? error);
  process.exit(1);
}

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;
// Express calls back with the error when listening fails (answered below).
const server = app.listen(port, host, (/** @type {Error | undefined} */ error) => {
  if (!error) console.info(`TaxBridge is listening on http://${host ?? "localhost"}:${port}`);
});
server.on("error", (/** @type {NodeJS.ErrnoException} */ error) => {
  const where = `${host ?? "port"}${host ? ":" : " "}${port}`;
  const reason = { EADDRINUSE: "is already in use", EACCES: "is not open to this user" }[error.code ?? ""];
  console.error(reason ? `Cannot listen on ${where}: it ${reason} (${error.code}).` : error);
  process.exit(1);
});

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.info(`${signal}: closing`);
  const force = setTimeout(() => server.closeAllConnections(), 5000);
  force.unref();
  server.close(async () => {
    try {
      await lifecycle.shutdown();
    } finally {
      process.exit(0);
    }
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
