// Builds when the build is missing or older than the sources.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const BUILD = "build/server/index.js";
const SOURCES = ["app", "server", "public", "server.js", "package.json", "vite.config.ts", "react-router.config.ts"];

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const child of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

export function buildIfStale() {
  const built = existsSync(BUILD) ? statSync(BUILD).mtimeMs : 0;
  if (built !== 0 && !SOURCES.some((s) => newest(s) > built)) return;
  console.info(built === 0 ? "No build found: building..." : "Sources changed since the last build: building...");
  execFileSync("npm", ["run", "build"], { stdio: "inherit" });
}
