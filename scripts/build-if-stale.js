// Builds when the build is missing or older than the sources. Test files that run in parallel
// may ask at the same moment: one builds (under a lock folder), the others wait and then find
// the build fresh.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const BUILD = "build/server/index.js";
const SOURCES = ["app", "server", "public", "server.js", "package.json", "vite.config.ts", "react-router.config.ts"];
const LOCK = ".tmp/build.lock";
/** A lock older than this was left by a build that died: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const child of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

function isStale() {
  const built = existsSync(BUILD) ? statSync(BUILD).mtimeMs : 0;
  return built === 0 || SOURCES.some((s) => newest(s) > built);
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(work) {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const since = existsSync(LOCK) ? Date.now() - statSync(LOCK).mtimeMs : 0;
      if (since > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else sleep(500);
    }
  }
  try {
    work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export function buildIfStale() {
  if (!isStale()) return;
  withLock(() => {
    if (!isStale()) return; // built by another process meanwhile
    console.info(existsSync(BUILD) ? "Sources changed since the last build: building..." : "No build found: building...");
    execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  });
}
