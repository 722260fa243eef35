// Finds the Chromium the browser tests drive: CHROME_PATH, then /usr/bin/chromium, then PATH.
// As root on Debian it installs Debian's `chromium` (with `chromium-headless-shell`) when none
// is found; elsewhere it says how.
//
// Playwright's specs run in Chromium's headless shell when the machine has it (Debian's
// `chromium-headless-shell`, the same Chromium release without the desktop browser around it,
// which Playwright itself uses for headless runs): on a 2-core machine it needs about 40% less
// CPU for the same spec than the full browser (docs/decisions/0031). Lighthouse keeps the full
// browser, as a visitor has it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, statfsSync } from "node:fs";

function onPath(name) {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export function findChromium() {
  if (process.env.CHROME_PATH && existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  return onPath("chromium") ?? onPath("chromium-browser") ?? onPath("google-chrome");
}

/**
 * The browser Playwright drives: E2E_CHROME_PATH when set, else Debian's headless shell when
 * installed, else `chromium` (the full browser, CHROME_PATH or /usr/bin/chromium).
 */
export function findPlaywrightChromium(chromium) {
  if (process.env.E2E_CHROME_PATH && existsSync(process.env.E2E_CHROME_PATH)) return process.env.E2E_CHROME_PATH;
  const shell = "/usr/lib/chromium/chromium-headless-shell";
  return existsSync(shell) ? shell : chromium;
}

/**
 * Chromium keeps its shared memory in /dev/shm unless told --disable-dev-shm-usage, which
 * Playwright passes by default for containers whose /dev/shm is 64 MB; files under /tmp cost
 * more. Like Debian's own launcher, the flag stays only when /dev/shm has less than 3.8 GB free.
 */
export function devShmIsRoomy() {
  try {
    const stats = statfsSync("/dev/shm");
    return stats.bavail * stats.bsize >= 3.8e9;
  } catch {
    return false;
  }
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/etc/debian_version")) {
    console.info("Chromium not found: installing Debian's chromium and chromium-headless-shell packages with apt-get...");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    const install = (...packages) =>
      spawnSync("apt-get", ["install", "-y", "-qq", ...packages], {
        stdio: "inherit",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      }).status === 0;
    // The headless shell came to Debian after chromium: without it the full browser does.
    if (!install("chromium", "chromium-headless-shell")) install("chromium");
    const installed = findChromium();
    if (installed) return installed;
  }
  console.error(
    [
      "The browser tests need Chromium and none was found.",
      "Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH to a Chromium or Chrome binary,",
      "then run `npm test` again.",
    ].join("\n"),
  );
  process.exit(1);
}
