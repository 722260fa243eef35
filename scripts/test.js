// `npm test`: unit and integration tests (PGlite, and PostgreSQL too when DATABASE_URL is
// set), then the browser tests against the built server. Ends with one total line.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium } from "./chromium.js";
import { childrenCpuSeconds } from "./lib/cpu-time.js";

const e2eOnly = process.argv.includes("--e2e-only");
const reports = ".tmp/test-reports";
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = [];
/** Each step's time, and the CPU time its processes used (the machine may be busy with others). */
const timings = [];
/** CPU time of background steps that ended while a step was running (not that step's own). */
let backgroundCpu = 0;

function run(label, command, args, env = {}) {
  console.info(`\n=== ${label} ===`);
  const started = Date.now();
  const cpu = childrenCpuSeconds() - backgroundCpu;
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("close", (code) => {
      timings.push({ label, seconds: (Date.now() - started) / 1000, cpu: childrenCpuSeconds() - backgroundCpu - cpu });
      if (code !== 0) failedSteps.push(label);
      resolve(code === 0);
    });
  });
}

/**
 * Starts a step beside the ones that follow: its output is kept and printed, under its title,
 * when `finish` is called.
 */
function runInBackground(label, command, args, env = {}) {
  const stats = `${reports}/${label.replace(/\W+/g, "-")}.time.json`;
  const child = spawn(process.execPath, ["scripts/lib/timed.js", stats, command, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const ended = new Promise((resolve) =>
    child.on("close", (code) => {
      const measured = existsSync(stats) ? JSON.parse(readFileSync(stats, "utf8")) : { seconds: 0, cpu: 0 };
      backgroundCpu += measured.cpu;
      resolve({ code, measured });
    }),
  );
  return async function finish() {
    const { code, measured } = await ended;
    console.info(`\n=== ${label} (ran beside the steps above) ===`);
    process.stdout.write(output);
    timings.push({ label: `${label} (beside)`, seconds: measured.seconds, cpu: measured.cpu });
    if (code !== 0) failedSteps.push(label);
    return code === 0;
  };
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const stats = JSON.parse(readFileSync(file, "utf8")).stats ?? {};
  totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
}

const chrome = ensureChromium();
const postgresUrl = process.env.DATABASE_URL;
const started = Date.now();
// Built first: the integration tests that start the built server (policy-http.test.ts on both
// databases, two-processes.test.ts on PostgreSQL) find this build fresh, so one `npm test` builds once.
const built = await run("Build", "npm", ["run", "build", "--silent"]);

// Lighthouse budgets on every public page (npm run audit:lighthouse); one test per page. It runs
// last, alone: its performance score counts the main thread's blocking time, which the Vitest
// steps beside it inflated past the budget on a slow 2-core machine (docs/decisions/0026).
// LIGHTHOUSE_BESIDE=1 runs it beside the Vitest steps instead, on a server and port of its own.
const lighthouse = ["Lighthouse budgets (public pages, mobile)", "npx", ["tsx", "scripts/lighthouse.ts"], {
  CHROME_PATH: chrome,
  LIGHTHOUSE_REPORT: `${reports}/lighthouse.json`,
}];
const lighthouseBeside = built && !e2eOnly && process.env.LIGHTHOUSE_BESIDE === "1" ? runInBackground(...lighthouse) : undefined;

if (!e2eOnly) {
  // Test files run two at a time (vitest.config.ts): each integration file on a PGlite folder of
  // its own here, on a database of its worker's own on PostgreSQL.
  await run("Unit and integration tests (embedded database)", "npx", [
    "vitest", "run", "--project", "unit", "--project", "integration",
    "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/vitest-pglite.json`,
  ], { DATABASE_URL: "" });
  countVitest(`${reports}/vitest-pglite.json`);

  if (postgresUrl) {
    await run("Integration tests (PostgreSQL)", "npx", [
      "vitest", "run", "--project", "integration", "--reporter=default", "--reporter=json",
      `--outputFile.json=${reports}/vitest-postgres.json`,
    ], { DATABASE_URL: postgresUrl });
    countVitest(`${reports}/vitest-postgres.json`);
  }
}

if (lighthouseBeside) await lighthouseBeside();

if (built) {
  await run("Browser tests (Chromium)", "npx", ["playwright", "test", "--reporter=list,json"], {
    CHROME_PATH: chrome,
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/playwright.json`,
  });
  countPlaywright(`${reports}/playwright.json`);

  // What the browser tests' servers printed (their logs, tests/e2e/servers.ts) holds no secret.
  if (existsSync(`${reports}/playwright.json`)) {
    await run("Server log check (after the browser tests)", "npx", [
      "vitest", "run", "--project", "after-e2e", "--reporter=default", "--reporter=json",
      `--outputFile.json=${reports}/vitest-after-e2e.json`,
    ], { DATABASE_URL: "" });
    countVitest(`${reports}/vitest-after-e2e.json`);
  }

  if (!lighthouseBeside) await run(...lighthouse);
  if (existsSync(`${reports}/lighthouse.json`)) {
    const report = JSON.parse(readFileSync(`${reports}/lighthouse.json`, "utf8"));
    totals.passed += report.passed ?? 0;
    totals.failed += report.failed ?? 0;
  }
}

const allSeconds = ((Date.now() - started) / 1000).toFixed(0);
console.info(`\nSteps (time, CPU time of their processes); ${allSeconds} s in all (CPU ${childrenCpuSeconds().toFixed(0)} s):`);
for (const t of timings) console.info(`  ${t.label}: ${t.seconds.toFixed(0)} s (CPU ${t.cpu.toFixed(0)} s)`);
if (failedSteps.length > 0) console.info(`\nFailed: ${failedSteps.join("; ")}`);
console.info(`\nTotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length > 0 ? 1 : 0);
