import path from "node:path";
import express from "express";
import { RouterContextProvider } from "react-router";
import { logError, routeOf } from "~/log";
import { accountMailSent } from "~/server/auth/better-auth.server";
import { answerFirst } from "~/server/http/after-answer.server";
import { bodyLimitFor, declaredTooLarge } from "~/server/http/body-limit.server";
import { ensureDataDir, makeDataDirPrivate, startupFailure } from "~/server/platform/data-dir.server";
import { closeDatabase, migrateDatabase, pingDatabase } from "~/server/db/client.server";
import { getEnv } from "~/server/platform/env.server";
import type { TrustProxy } from "~/server/platform/env.server";
import { isAllowedOrigin } from "~/server/http/origin-check.server";
import { cachedPage, PAGE_ENCODINGS, pageCacheKey } from "~/server/http/page-cache.server";
import { mailOutboxJob, outboxSettled } from "~/server/mail/outbox.server";
import { messageNoticesJob } from "~/server/messages/message-notices.server";
import { requestRemindersJob } from "~/server/requests/reminders.server";
import { staffNoticesJob } from "~/server/notices/notices.server";
import { startScheduler } from "~/server/platform/scheduler.server";
import { stripeSweepJob } from "~/server/fees/stripe-sweep.server";
import { residencyRefreshJob } from "~/server/residency/refresh.server";
import { seasonStartJob } from "~/server/engagement/season.server";
import { consentLapseJob } from "~/server/consents/consents.server";
import { tallyCompactionJob } from "~/server/limits/tallies.server";
import type { Scheduler } from "~/server/platform/scheduler.server";
import { reactRouterHandler, refuseTooLarge } from "./request-handler";

// What the Express server knows of a request, handed to every middleware, loader and action
// (who is signed in is added by the routes' middleware, see app/server/auth/session.server.ts).
declare module "react-router" {
  interface RouterContextProvider {
    /** The client's address as seen by the server (after trusted proxies). */
    clientIp: string;
    /** Nonce of this response's Content-Security-Policy. */
    cspNonce: string;
  }
}

/** The jobs this process runs on a schedule (started by startup, stopped by shutdown). */
let scheduler: Scheduler | undefined;

/**
 * Validates configuration, checks that DATA_DIR is a writable folder and makes everything in it
 * private to this user, brings the database schema up to date and starts the scheduled jobs (the
 * counters' tallies merged every 5 minutes; the staff's gathered notices every minute; the
 * request reminders: REMINDER_INTERVAL_MINUTES, REMINDER_FIRST_RUN_SECONDS; the clients' e-mails
 * about staff messages: MESSAGE_NOTICE_DELAY_SECONDS; the outbox's e-mails due for another try:
 * MAIL_SWEEP_SECONDS; the season's start, when an admin has started one; the cases of staff outside the United States
 * whose client's consent to disclose expired, every hour). Returns the settings
 * the Express server applies itself.
 */
export async function startup(): Promise<{ trustProxy: TrustProxy }> {
  const env = getEnv();
  // Read before anything starts: a bad value stops the start with one clear line.
  const reminders = requestRemindersJob();
  const messageNotices = messageNoticesJob();
  const mailOutbox = mailOutboxJob();
  ensureDataDir(env.dataDir);
  await migrateDatabase();
  // After the database has opened: a new embedded database is unpacked with its files open to
  // everyone (0666), whatever the umask.
  const { failed } = makeDataDirPrivate(env.dataDir);
  if (failed > 0)
    console.warn(
      `${failed} entries under DATA_DIR (${env.dataDir}) could not be made private to this user (folders 0700, files 0600).`,
    );
  scheduler = startScheduler([
    tallyCompactionJob(),
    staffNoticesJob(),
    mailOutbox,
    messageNotices,
    stripeSweepJob(),
    residencyRefreshJob(),
    seasonStartJob(),
    consentLapseJob(),
    ...(reminders ? [reminders] : []),
  ]);
  return { trustProxy: env.trustProxy };
}

/** The one line to print when startup() failed, or null when only the whole error can tell. */
export function startupFailureMessage(error: unknown): string | null {
  return startupFailure(error, {
    dataDir: path.resolve(process.env.DATA_DIR?.trim() || "./data"),
    databaseUrl: process.env.DATABASE_URL?.trim() || undefined,
  });
}

export async function shutdown(): Promise<void> {
  // No new scheduled run; the one under way ends before the database closes.
  await scheduler?.stop();
  scheduler = undefined;
  // E-mails go out after their answer: let the ones under way finish.
  await accountMailSent();
  await outboxSettled();
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

// A body larger than its address allows (a form: 64 KB; an upload: its own cap, see
// app/server/http/body-limit.server.ts) is refused before any of it is read when its declared length
// says so; a body sent without a length is counted as it arrives (./request-handler.ts).
app.use((req, res, next) => {
  if (req.method !== "POST") return next();
  const limit = bodyLimitFor(req.path);
  if (!declaredTooLarge(req.get("content-length"), limit)) return next();
  refuseTooLarge(req, res, limit);
});

// A NUL in the address (%00) is never part of a real link, and the database refuses it in a query.
app.use((req, res, next) => {
  if (!req.originalUrl.includes("%00")) return next();
  res.status(400).type("text/plain").send("Bad request.");
});

app.use((req, res, next) => {
  const allowed = isAllowedOrigin({
    method: req.method,
    path: req.path,
    origin: req.get("origin"),
    secFetchSite: req.get("sec-fetch-site"),
    host: req.get("host"),
    appUrl: getEnv().appUrl,
  });
  if (allowed) return next();
  res.status(403).type("text/plain").send("Cross-origin request refused.");
});

// A public page a visitor without cookies has been sent in the last minute is sent again from
// memory, already compressed when the browser takes Brotli or gzip (app/server/http/page-cache.server.ts).
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

// In development the build is a function, so every request sees the latest modules; React Router
// then derives its route tables again on each request. In production that work is done once.
const build = import.meta.env.DEV
  ? () => import("virtual:react-router/server-build")
  : await import("virtual:react-router/server-build");

// What a request causes but must not wait for (its e-mails) starts once its answer is sent.
app.use((_req, res, next) => answerFirst(res, next));

app.use(
  reactRouterHandler({
    build,
    getLoadContext(req, res) {
      return Object.assign(new RouterContextProvider(), {
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        cspNonce: String(res.locals.cspNonce ?? ""),
      });
    },
  }),
);

// What escapes the handler (a page whose first bytes could not be rendered) is logged by kind and
// route only, like every other server error, and answered with a plain 500.
app.use((error: unknown, req: express.Request, res: express.Response, next: express.NextFunction) => {
  logError("server", `${req.method} ${routeOf(req.originalUrl)} failed`, error);
  if (res.headersSent) return next(error);
  res.status(500).set("Cache-Control", "no-store").type("text/plain").send("Something went wrong. Please try again.");
});
