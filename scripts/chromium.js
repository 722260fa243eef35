// Finds the Chromium the browser tests drive: CHROME_PATH, then /usr/bin/chromium, then PATH.
// As root on Debian it installs Debian's `chromium` when none is found; elsewhere it says how.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

function onPath(name) {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export function findChromium() {
  if (process.env.CHROME_PATH && existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  return onPath("chromium") ?? onPath("chromium-browser") ?? onPath("google-chrome");
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/etc/debian_version")) {
    console.info("Chromium not found: installing Debian's chromium package with apt-get...");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
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
