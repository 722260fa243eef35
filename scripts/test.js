// `npm test`: unit and integration tests (PGlite, and PostgreSQL too when DATABASE_URL is
// set), then the browser tests against the built server. Ends with one total line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { ensureChromium } from "./chromium.js";

const e2eOnly = process.argv.includes("--e2e-only");
const reports = ".tmp/test-reports";
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = [];
/** Each step's time, and the CPU time its processes used (the machine may be busy with others). */
const timings = [];

/** CPU seconds used by this process's finished children (Linux; 0 elsewhere). */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    // cutime and cstime (fields 16 and 17 of proc(5)), in clock ticks of 1/100 s.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

function run(label, command, args, env = {}) {
  console.info(`\n=== ${label} ===`);
  const started = Date.now();
  const cpu = childrenCpuSeconds();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  timings.push({ label, seconds: (Date.now() - started) / 1000, cpu: childrenCpuSeconds() - cpu });
  if (result.status !== 0) failedSteps.push(label);
  return result.status === 0;
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
// Built first: the integration tests that start the built server (policy-http.test.ts on both
// databases, two-processes.test.ts on PostgreSQL) find this build fresh, so one `npm test` builds once.
const built = run("Build", "npm", ["run", "build", "--silent"]);

if (!e2eOnly) {
  run("Unit and integration tests (embedded database)", "npx", [
    "vitest", "run", "--project", "unit", "--project", "integration",
    "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/vitest-pglite.json`,
  ], { DATABASE_URL: "" });
  countVitest(`${reports}/vitest-pglite.json`);

  if (postgresUrl) {
    run("Integration tests (PostgreSQL)", "npx", [
      "vitest", "run", "--project", "integration", "--reporter=default", "--reporter=json",
      `--outputFile.json=${reports}/vitest-postgres.json`,
    ], { DATABASE_URL: postgresUrl });
    countVitest(`${reports}/vitest-postgres.json`);
  }
}

if (built) {
  run("Browser tests (Chromium)", "npx", ["playwright", "test", "--reporter=list,json"], {
    CHROME_PATH: chrome,
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/playwright.json`,
  });
  countPlaywright(`${reports}/playwright.json`);

  // What the browser tests' server printed (.tmp/e2e-server.log) holds no secret.
  if (existsSync(`${reports}/playwright.json`)) {
    run("Server log check (after the browser tests)", "npx", [
      "vitest", "run", "--project", "after-e2e", "--reporter=default", "--reporter=json",
      `--outputFile.json=${reports}/vitest-after-e2e.json`,
    ], { DATABASE_URL: "" });
    countVitest(`${reports}/vitest-after-e2e.json`);
  }

  // Lighthouse budgets on every public page (npm run audit:lighthouse); one test per page.
  run("Lighthouse budgets (public pages, mobile)", "npx", ["tsx", "scripts/lighthouse.ts"], {
    CHROME_PATH: chrome,
    LIGHTHOUSE_REPORT: `${reports}/lighthouse.json`,
  });
  if (existsSync(`${reports}/lighthouse.json`)) {
    const report = JSON.parse(readFileSync(`${reports}/lighthouse.json`, "utf8"));
    totals.passed += report.passed ?? 0;
    totals.failed += report.failed ?? 0;
  }
}

console.info("\nSteps (time, CPU time of their processes):");
for (const t of timings) console.info(`  ${t.label}: ${t.seconds.toFixed(0)} s (CPU ${t.cpu.toFixed(0)} s)`);
if (failedSteps.length > 0) console.info(`\nFailed: ${failedSteps.join("; ")}`);
console.info(`\nTotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length > 0 ? 1 : 0);
