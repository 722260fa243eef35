// The benchmark's cost curve (npm run bench -- --curve 10000,100000[,1000000]): the same staff
// pages measured at several numbers of clients, side by side. One database for the whole curve,
// grown from one size to the next by scripts/lib/bulk-seed.ts (in SQL); at each size the server
// is started on it, and measured one request at a time:
// - the staff list's first, middle and last page, and searches by last name (1% of the clients),
//   by e-mail address and by client id, and the residency filter (a third of the year's cases),
//   with a signed-in admin (p50/p99 over --duration seconds);
// - a client's case page (a case with taxpayer information, documents, requested items and messages);
// - the panel's counts, as the database answers them (timed by the seeding process);
// - Export Data of every client of the year, asked for as a browser does (compressed), twice:
//   the time to the last byte, and the most the server's memory (RSS) rose meanwhile
//   (/proc/<pid>/status sampled every 10 ms, and its peak); the first export is held to the target;
// - uploads of a 20 MB document: how much the server's memory rises while each arrives.
// The targets (docs/product/performance.md#cost-curve) are checked at the end; the table and the
// targets are written as JSON under bench/results/.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ADMIN_PAGE_SIZE, showingText } from "~/domain/admin";
import {
  cpuTimes,
  load,
  othersBusy,
  MB,
  measured,
  measureUpload,
  memoryOf,
  preflight,
  resetPeak,
  step,
  UPLOAD_RSS_GROWTH_MB,
  uploadReport,
} from "./bench-measure";
import type { Measured, Scenario, UploadResult } from "./bench-measure";
import { BULK_MAX_CLIENTS } from "./fixtures";
import type { BulkFile, SeedFile } from "./fixtures";
import { startEmpty } from "./empty-database";
import { benchServerConfig } from "./bench-server";
import { killServerOnSignal, runFixtureDb, startServer } from "./server-process";
import type { RunningServer } from "./server-process";

/** The embedded database is measured up to this many clients; more is for PostgreSQL. */
export const PGLITE_MAX_CLIENTS = 100_000;
/** The fewest clients the curve measures (the sample clients and searches need them). */
export const CURVE_MIN_CLIENTS = 1_000;
/** List and search p99, in ms: up to 100,000 clients (either database), and above (PostgreSQL). */
const LIST_P99_MS = { upTo100k: 50, above: 100 };
/** The export of every client: the server's memory may rise by less than this (stated for 100,000 clients). */
const CSV_RSS_GROWTH_MB = 50;
/** Seeding 1,000,000 clients in SQL, all steps together, in seconds. */
const SEED_1M_SECONDS = 120;

export type CurveSettings = {
  sizes: number[];
  /** Seconds each page is loaded for, after 1 s of warm-up. */
  duration: number;
  port: number;
  uploadRounds: number;
  /** Connections of the uploads' warm-up requests. */
  connections: number;
  /** PostgreSQL when set, PGlite under dataDir otherwise. */
  databaseUrl: string;
  /** Whether a PostgreSQL database that holds tables may be emptied first. */
  resetDatabase: boolean;
  dataDir: string;
  /** Builds the app (or not, with --no-build). */
  build: () => void;
};

/**
 * The sizes of `--curve` (whole numbers separated by commas), smallest first; or why they are
 * refused. The embedded database stops at PGLITE_MAX_CLIENTS.
 */
export function curveSizes(raw: string, postgres: boolean): number[] | string {
  const parts = raw.split(",").map((p) => p.trim().replaceAll("_", ""));
  const sizes = parts.map(Number);
  if (
    parts.some((p) => !/^\d+$/.test(p)) ||
    sizes.some((n) => !Number.isSafeInteger(n) || n < CURVE_MIN_CLIENTS || n > BULK_MAX_CLIENTS)
  )
    return `--curve takes numbers of clients separated by commas, each from ${CURVE_MIN_CLIENTS.toLocaleString("en-US")} to ${BULK_MAX_CLIENTS.toLocaleString("en-US")} (e.g. --curve 10000,100000)`;
  const sorted = [...new Set(sizes)].sort((a, b) => a - b);
  const tooMany = sorted.filter((n) => n > PGLITE_MAX_CLIENTS);
  if (!postgres && tooMany.length > 0)
    return `The embedded database (PGlite) is measured up to ${PGLITE_MAX_CLIENTS.toLocaleString("en-US")} clients; ${tooMany
      .map((n) => n.toLocaleString("en-US"))
      .join(" and ")} run on PostgreSQL only: set DATABASE_URL to a database for the benchmark (it is emptied first, with --reset-database).`;
  return sorted;
}

const count = (n: number) => n.toLocaleString("en-US");

type ScenarioKey = "list-first" | "list-middle" | "list-last" | "search-name" | "search-email" | "search-code" | "residency-filter" | "case-page";

/** The scenarios held to the list and search target. */
const LIST_KEYS: readonly ScenarioKey[] = ["list-first", "list-middle", "list-last", "search-name", "search-email", "search-code", "residency-filter"];

/** One export of every client of the year, and the server's memory meanwhile. */
type CsvExport = {
  status: number;
  /** What the server sent it as (Content-Encoding), "identity" when not compressed. */
  encoding: string;
  seconds: number;
  /** Its size once decoded. */
  bytes: number;
  /** Lines of clients received (the header aside). */
  rows: number;
  rssBeforeMb: number | null;
  /** The highest RSS sampled (every 10 ms) or the kernel's peak (VmHWM, reset before), less the RSS before. */
  peakGrowthMb: number | null;
  samples: number;
};

type CsvResult = {
  /** The export made first and not measured: the last-name search's (1% of the clients). */
  warmUp: { path: string; seconds: number; rows: number };
  /** The first export of every client: held to the target. */
  first: CsvExport;
  /** The same again, right after: what the export costs a server that has made one before. */
  again: CsvExport;
};

type SizeResult = {
  clients: number;
  seed: Pick<BulkFile, "from" | "to" | "rows" | "insertSeconds" | "vacuumSeconds">;
  serverStartSeconds: number;
  scenarios: Array<Omit<Measured, "ratio"> & { key: ScenarioKey; expect: string }>;
  counters: BulkFile["counters"];
  searches: BulkFile["searches"];
  caseClient: BulkFile["caseClient"];
  csv: CsvResult;
  upload: UploadResult;
  loadAverage: { before: number[]; after: number[] };
  /** How busy the CPUs were with other work over 3 s before the pages were measured, in %. */
  othersBusyPercent: number | null;
  stealPercent: number | null;
};

function seedCommand(out: string, from: number, to: number, tag: string): string[] {
  return ["bulk", "--out", out, "--from", String(from), "--to", String(to), "--tag", tag];
}

/** Counts the lines of an answer as it arrives, holding none of it. */
async function countLines(response: Response): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  const reader = response.body!.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.byteLength;
    for (const byte of next.value) if (byte === 0x0a) lines += 1;
  }
  return { bytes, lines };
}

/** What a browser asks for: the answer compressed (fetch decodes it). */
const BROWSER_ENCODINGS = "gzip, deflate, br";

/** Export Data of every client of the year, with the server's memory while it is sent. */
async function measureExport(server: RunningServer, cookie: string, expectedRows: number): Promise<CsvExport> {
  const pid = server.child.pid!;
  const peakReset = resetPeak(pid);
  const before = memoryOf(pid);
  let highest = before?.rssMb ?? 0;
  let samples = 0;
  const sampler = setInterval(() => {
    const now = memoryOf(pid);
    if (now) highest = Math.max(highest, now.rssMb);
    samples += 1;
  }, 10);
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}/admin/clients.csv`, {
      headers: { cookie, "accept-encoding": BROWSER_ENCODINGS },
    });
    const { bytes, lines } = response.status === 200 ? await countLines(response) : { bytes: 0, lines: 0 };
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(pid);
    const peak = Math.max(highest, after?.rssMb ?? 0, after && peakReset ? after.peakMb : 0);
    const rows = Math.max(0, lines - 1);
    if (response.status === 200 && rows !== expectedRows)
      throw new Error(`the export of every client held ${rows} clients, not ${expectedRows}`);
    return {
      status: response.status,
      encoding: response.headers.get("content-encoding") ?? "identity",
      seconds,
      bytes,
      rows,
      rssBeforeMb: before?.rssMb ?? null,
      peakGrowthMb: before ? peak - before.rssMb : null,
      samples,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The warm-up export (the last-name search's), then every client's twice. */
async function measureCsv(server: RunningServer, cookie: string, expectedRows: number, warmUpQuery: string): Promise<CsvResult> {
  const warmStarted = performance.now();
  const warm = await fetch(`${server.url}/admin/clients.csv${warmUpQuery}`, {
    headers: { cookie, "accept-encoding": BROWSER_ENCODINGS },
  });
  if (warm.status !== 200) throw new Error(`the export of ${warmUpQuery} answered ${warm.status}`);
  const warmLines = await countLines(warm);
  const warmUp = { path: `/admin/clients.csv${warmUpQuery}`, seconds: (performance.now() - warmStarted) / 1000, rows: warmLines.lines - 1 };
  const first = await measureExport(server, cookie, expectedRows);
  const again = await measureExport(server, cookie, expectedRows);
  return { warmUp, first, again };
}

async function measureSize(
  settings: CurveSettings,
  server: RunningServer,
  admin: NonNullable<SeedFile["admin"]>,
  bulk: BulkFile,
  startSeconds: number,
): Promise<SizeResult> {
  const loadBefore = os.loadavg();
  // The server is up and idle, the database settled: what the CPUs do now is others' work.
  const busy = await othersBusy();
  const cpuBefore = cpuTimes();
  const total = bulk.totalClients;
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const middle = Math.ceil(pages / 2);
  const headers = { accept: "text/html,*/*", cookie: admin.cookie };
  const list = (page: number) => (page === 1 ? "/admin/dashboard" : `/admin/dashboard?page=${page}`);
  const search = (term: string) => `/admin/dashboard?q=${encodeURIComponent(term)}`;
  const { name, email, code } = bulk.searches;
  const scenario = (key: ScenarioKey, label: string, pathname: string, expect: string): Scenario & { key: ScenarioKey; expect: string } => ({
    key,
    name: label,
    method: "GET",
    path: pathname,
    connections: 1,
    headers,
    expect,
  });
  const scenarios = [
    scenario("list-first", "staff list, page 1", list(1), showingText(1, ADMIN_PAGE_SIZE, total)),
    scenario("list-middle", `staff list, middle page (${middle.toLocaleString("en-US")})`, list(middle), showingText(middle, ADMIN_PAGE_SIZE, total)),
    scenario("list-last", `staff list, last page (${pages.toLocaleString("en-US")})`, list(pages), showingText(pages, ADMIN_PAGE_SIZE, total)),
    scenario("search-name", `search last name "${name.term}" (${name.matches.toLocaleString("en-US")} found)`, search(name.term), showingText(1, ADMIN_PAGE_SIZE, name.matches)),
    scenario("search-email", "search an e-mail address", search(email.term), showingText(1, ADMIN_PAGE_SIZE, email.matches)),
    scenario("search-code", "search a client id", search(code.term), showingText(1, ADMIN_PAGE_SIZE, code.matches)),
    scenario(
      "residency-filter",
      `residency filter "${bulk.residency.filter}" (${bulk.residency.matches.toLocaleString("en-US")} found)`,
      `/admin/dashboard?residency=${bulk.residency.filter}`,
      showingText(1, ADMIN_PAGE_SIZE, bulk.residency.matches),
    ),
    scenario(
      "case-page",
      "a client's case page",
      `/admin/clients/${bulk.caseClient.id}/${bulk.taxYear}`,
      bulk.caseClient.name,
    ),
  ];
  step("Checking every page answers 200 with the right content");
  for (const s of scenarios) await preflight(server, s);
  const rows: SizeResult["scenarios"] = [];
  for (const s of scenarios) {
    step(`${s.name}: 1 connection, ${settings.duration} s (after 1 s of warm-up)`);
    await load(server, s, 1);
    const row = measured(s, await load(server, s, settings.duration));
    rows.push({ ...row, key: s.key, expect: s.expect });
    console.info(`  p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, ${row.requests} requests, ${row.errors} errors`);
  }
  const cpuAfter = cpuTimes();
  step(`Export Data of every client (${count(total)}) twice, as a browser asks for it (${BROWSER_ENCODINGS}), after an unmeasured export of the last-name search`);
  const csv = await measureCsv(server, admin.cookie, total, `?q=${encodeURIComponent(name.term)}`);
  for (const [label, one] of [["first", csv.first], ["again", csv.again]] as const)
    console.info(
      `  ${label}: ${count(one.rows)} clients, ${(one.bytes / MB).toFixed(1)} MB (sent ${one.encoding}) in ${one.seconds.toFixed(1)} s; RSS ${one.rssBeforeMb?.toFixed(1) ?? "?"} MB before, peak ${growth(one.peakGrowthMb)} MB`,
    );
  step(`${settings.uploadRounds} uploads of 20 MB to a client's documents`);
  const upload = await measureUpload(server, admin.cookie, bulk.uploadClient.id, settings.uploadRounds, settings.connections);
  for (const line of uploadReport(upload)) console.info(`  ${line}`);
  return {
    clients: total,
    seed: { from: bulk.from, to: bulk.to, rows: bulk.rows, insertSeconds: bulk.insertSeconds, vacuumSeconds: bulk.vacuumSeconds },
    serverStartSeconds: startSeconds,
    scenarios: rows,
    counters: bulk.counters,
    searches: bulk.searches,
    caseClient: bulk.caseClient,
    csv,
    upload,
    loadAverage: { before: loadBefore, after: os.loadavg() },
    othersBusyPercent: busy,
    stealPercent:
      cpuBefore && cpuAfter && cpuAfter.total > cpuBefore.total
        ? (100 * (cpuAfter.steal - cpuBefore.steal)) / (cpuAfter.total - cpuBefore.total)
        : null,
  };
}

const ms = (n: number) => n.toFixed(1);
const growth = (mb: number | null) => (mb === null ? "?" : `${mb >= 0 ? "+" : ""}${mb.toFixed(1)}`);

/** The side-by-side table: one line per measure, one column per size. */
function curveTable(results: SizeResult[]): string {
  const lines: string[][] = [];
  const cells = (f: (r: SizeResult) => string) => results.map(f);
  lines.push(["clients", ...cells((r) => count(r.clients))]);
  let seeded = 0;
  lines.push([
    "seeding in SQL (this step), s",
    ...cells((r) => `${r.seed.insertSeconds.toFixed(1)} + ${r.seed.vacuumSeconds.toFixed(1)} vacuum`),
  ]);
  lines.push([
    "seeding up to this size, s",
    ...cells((r) => {
      seeded += r.seed.insertSeconds + r.seed.vacuumSeconds;
      return seeded.toFixed(1);
    }),
  ]);
  lines.push(["server start, s", ...cells((r) => r.serverStartSeconds.toFixed(1))]);
  lines.push(["p50 / p99 ms, 1 connection:", ...cells(() => "")]);
  for (const key of [...LIST_KEYS, "case-page"] as const) {
    const label = results[results.length - 1]!.scenarios.find((s) => s.key === key)!.name.replace(/ \(.*\)$/, "");
    lines.push([
      `  ${label}`,
      ...cells((r) => {
        const s = r.scenarios.find((x) => x.key === key)!;
        return `${ms(s.p50)} / ${ms(s.p99)}${s.errors > 0 ? ` (${s.errors} errors)` : ""}`;
      }),
    ]);
  }
  lines.push(["counts, database time p50 / max of 30, ms:", ...cells(() => "")]);
  const counterNames: Array<[keyof BulkFile["counters"], string]> = [
    ["clientCounters", "  counters (total, active, pending, completed)"],
    ["countClients", "  sidebar's total clients"],
    ["caseYears", "  years with cases"],
    ["staffUnreadTotal", "  unread client messages"],
  ];
  for (const [key, label] of counterNames)
    lines.push([label, ...cells((r) => `${ms(r.counters[key].p50)} / ${ms(r.counters[key].max)}`)]);
  lines.push(["export of every client (CSV), first / again:", ...cells(() => "")]);
  lines.push(["  time to the last byte, s", ...cells((r) => `${r.csv.first.seconds.toFixed(1)} / ${r.csv.again.seconds.toFixed(1)}`)]);
  lines.push(["  size (decoded), MB", ...cells((r) => (r.csv.first.bytes / MB).toFixed(1))]);
  lines.push([
    "  server's peak RSS growth, MB",
    ...cells((r) => `${growth(r.csv.first.peakGrowthMb)} / ${growth(r.csv.again.peakGrowthMb)}`),
  ]);
  lines.push([
    "upload of 20 MB, worst RSS growth, MB",
    ...cells((r) => (r.upload.worstPeakGrowthMb === null ? "?" : `${r.upload.worstPeakGrowthMb >= 0 ? "+" : ""}${r.upload.worstPeakGrowthMb.toFixed(1)}`)),
  ]);
  lines.push([
    "CPUs busy with other work before, %",
    ...cells((r) => (r.othersBusyPercent === null ? "?" : r.othersBusyPercent.toFixed(0))),
  ]);
  lines.push(["load average (1 min) before / after", ...cells((r) => `${r.loadAverage.before[0]!.toFixed(1)} / ${r.loadAverage.after[0]!.toFixed(1)}`)]);
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  const line = (l: string[]) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("   ");
  return [line(lines[0]!), widths.map((w) => "-".repeat(w)).join("   "), ...lines.slice(1).map(line)].join("\n");
}

type Target = { target: string; ok: boolean; measured: string };

function curveTargets(results: SizeResult[], postgres: boolean): Target[] {
  const targets: Target[] = [];
  let seeded = 0;
  for (const r of results) {
    seeded += r.seed.insertSeconds + r.seed.vacuumSeconds;
    const limit = r.clients <= 100_000 ? LIST_P99_MS.upTo100k : LIST_P99_MS.above;
    const stated =
      r.clients <= 100_000
        ? "stated for 100,000 clients on both databases"
        : `stated for 1,000,000 clients on PostgreSQL${postgres ? "" : " (this is PGlite)"}`;
    for (const s of r.scenarios.filter((x) => LIST_KEYS.includes(x.key)))
      targets.push({
        target: `${count(r.clients)}: ${s.name}: p99 under ${limit} ms (${stated})`,
        ok: s.p99 < limit && s.errors === 0,
        measured: `${ms(s.p99)} ms${s.errors > 0 ? `, ${s.errors} errors` : ""}`,
      });
    const caseRow = r.scenarios.find((x) => x.key === "case-page")!;
    targets.push({
      target: `${count(r.clients)}: a client's case page answers every request correctly`,
      ok: caseRow.errors === 0,
      measured: `${caseRow.errors} errors in ${caseRow.requests} requests`,
    });
    const { first } = r.csv;
    targets.push({
      target: `${count(r.clients)}: the first export of every client holds them all, and the server's memory rises by less than ${CSV_RSS_GROWTH_MB} MB while it is sent (stated for 100,000)`,
      ok: first.status === 200 && first.rows === r.clients && first.peakGrowthMb !== null && first.peakGrowthMb < CSV_RSS_GROWTH_MB,
      measured: `${count(first.rows)} clients, ${growth(first.peakGrowthMb)} MB`,
    });
    targets.push({
      target: `${count(r.clients)}: ${r.upload.rounds.length} uploads of 20 MB stored, the server's memory rising by less than ${UPLOAD_RSS_GROWTH_MB} MB while each arrives`,
      ok: r.upload.met,
      measured: `worst ${r.upload.worstPeakGrowthMb === null ? "?" : r.upload.worstPeakGrowthMb.toFixed(1)} MB`,
    });
    if (r.clients >= 1_000_000)
      targets.push({
        target: `${count(r.clients)}: seeded in SQL in under ${SEED_1M_SECONDS} s (every step, vacuum analyze included)`,
        ok: seeded < SEED_1M_SECONDS,
        measured: `${seeded.toFixed(1)} s`,
      });
  }
  return targets;
}

export async function runCurve(settings: CurveSettings): Promise<number> {
  const started = new Date();
  const postgres = settings.databaseUrl !== "";
  const database = postgres ? "PostgreSQL (DATABASE_URL)" : "PGlite (embedded)";
  if (!(await startEmpty(settings, "The cost curve"))) return 2;
  settings.build();
  // The weekly reminders are not part of what is measured (their first run would e-mail
  // thousands of seeded clients in the middle of it).
  const config = benchServerConfig(settings, { REMINDER_INTERVAL_MINUTES: "0" });
  step(`Seeding ${database}: one admin, signed in with the second factor passed`);
  const seedFile = path.join(settings.dataDir, "seed.json");
  await runFixtureDb(config, ["seed", "--out", seedFile, "--admin"]);
  const admin = (JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile).admin!;
  const tag = Math.random().toString(36).slice(2, 10);

  const results: SizeResult[] = [];
  let made = 0;
  for (const size of settings.sizes) {
    step(`Clients ${count(made + 1)} to ${count(size)}, made in SQL (scripts/lib/bulk-seed.ts)`);
    const bulkFile = path.join(settings.dataDir, `bulk-${size}.json`);
    await runFixtureDb(config, seedCommand(bulkFile, made, size, tag), 30 * 60_000);
    const bulk = JSON.parse(readFileSync(bulkFile, "utf8")) as BulkFile;
    console.info(
      `  ${bulk.insertSeconds.toFixed(1)} s, then vacuum analyze ${bulk.vacuumSeconds.toFixed(1)} s: ${Object.entries(bulk.rows)
        .map(([table, n]) => `${count(n)} ${table}`)
        .join(", ")}`,
    );
    made = size;
    step(`Starting the production server on ${database} with ${count(bulk.totalClients)} clients`);
    const startedAt = performance.now();
    const server = await startServer(config, 10 * 60_000);
    const startSeconds = (performance.now() - startedAt) / 1000;
    const releaseSignals = killServerOnSignal(server);
    try {
      results.push(await measureSize(settings, server, admin, bulk, startSeconds));
    } finally {
      releaseSignals();
      const code = await server.stop();
      if (code !== 0) console.error(`The server did not stop cleanly (exit ${code}); see ${config.logFile}`);
    }
  }

  const targets = curveTargets(results, postgres);
  const cpu = os.cpus();
  console.info(`\nTaxBridge cost curve, ${database}, ${settings.duration} s per page, one request at a time`);
  console.info(`Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? "unknown"}), ${Math.round(os.totalmem() / 2 ** 30)} GB, node ${process.version}\n`);
  console.info(curveTable(results));
  const last = results[results.length - 1]!;
  const rows: Record<string, number> = {};
  for (const r of results) for (const [table, n] of Object.entries(r.seed.rows)) rows[table] = (rows[table] ?? 0) + n;
  console.info(
    `\nRows at ${count(last.clients)} clients: ${Object.entries(rows)
      .map(([table, n]) => `${count(n)} ${table}`)
      .join(", ")}.`,
  );
  console.info(
    `At ${count(last.clients)}: searches "${last.searches.name.term}" (${count(last.searches.name.matches)} found), "${last.searches.email.term}" and "${last.searches.code.term}"; the case page of ${last.caseClient.name} (TB client ${last.caseClient.number}).`,
  );
  console.info("\nTargets:");
  for (const t of targets) console.info(`  ${t.ok ? "MET   " : "MISSED"}  ${t.target}: ${t.measured}`);
  const steal = results.map((r) => r.stealPercent).filter((s): s is number => s !== null);
  if (steal.some((s) => s > 5))
    console.info(`\nCPU time taken by the host for other work (steal): ${steal.map((s) => `${s.toFixed(1)}%`).join(", ")}: numbers vary from run to run.`);
  if (results.some((r) => (r.othersBusyPercent ?? 0) > 10))
    console.info(
      "\nNote: other work kept the CPUs busy before the measures (see the table): numbers are lower than on an idle machine.",
    );

  const resultsDir = path.resolve("bench/results");
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${started.toISOString().replace(/[:.]/g, "-")}-curve-${postgres ? "postgres" : "pglite"}.json`);
  const report = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    curve: settings.sizes,
    database: postgres ? "postgres" : "pglite",
    durationSeconds: settings.duration,
    machine: { cpus: cpu.length, model: cpu[0]?.model ?? "unknown", memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    sizes: results,
    targets,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.info(`\nWritten to ${path.relative(process.cwd(), file)}`);
  return targets.every((t) => t.ok) ? 0 : 1;
}
