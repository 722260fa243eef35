// What the benchmark measures with, shared by its whole run and its cost curve
// (scripts/bench.ts, scripts/lib/cost-curve.ts): load with autocannon, the server's memory from
// /proc, the machine's CPU time, and the document uploads' memory.
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import type { RawRequest, Result } from "autocannon";
import { bigUpload } from "./big-upload";
import type { RunningServer } from "./server-process";

export const MB = 1024 * 1024;
/** A document upload just under the 20 MB cap, and what the server may keep of it (issue target). */
export const UPLOAD_BYTES = 20 * MB - 64 * 1024;
export const UPLOAD_RSS_GROWTH_MB = 5;

export type Scenario = {
  name: string;
  method: "GET" | "POST";
  path: string;
  connections: number;
  headers?: Record<string, string>;
  body?: string;
  /** Each request's body, for saves that vary. */
  nextBody?: () => string;
  /** Text a correct answer contains; any other answer counts as an error. */
  expect?: string;
  /** Held to the third-of-baseline target. */
  page?: boolean;
  /**
   * Held to a third of the req/s of the scenario of this name, measured in the same run (a page
   * with data against a server-rendered page with none: the share stays meaningful on a shared
   * machine, whose absolute rates vary from run to run).
   */
  versus?: string;
  baseline?: boolean;
};

export type Measured = {
  name: string;
  method: string;
  path: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  errorDetail: {
    non2xx: number;
    socket: number;
    timeouts: number;
    wrongBody: number;
    statusCodes: Record<string, number>;
  };
  ratio: number | null;
};

/** The machine's CPU time so far, from /proc/stat (Linux): all of it, and what the hypervisor took (steal). */
export function cpuTimes(): { total: number; steal: number; idle: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice; guests are counted in user.
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0, idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
  } catch {
    return null;
  }
}

/**
 * How busy the machine's CPUs are over `ms` while the benchmark itself waits, in percent of all
 * of them: other work on a shared machine (null off Linux).
 */
export async function othersBusy(ms = 3_000): Promise<number | null> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  if (!before || !after || after.total <= before.total) return null;
  return 100 * (1 - (after.idle - before.idle) / (after.total - before.total));
}

/** The resident memory (VmRSS) of process `pid` and its peak so far (VmHWM), in MB; null off Linux. */
/**
 * Has Linux start a process's peak RSS (VmHWM) again from its current RSS; false where that is
 * not allowed (the peak then counts since the process started).
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024;
    return { rssMb: mb("VmRSS"), peakMb: mb("VmHWM") };
  } catch {
    return null;
  }
}

export type UploadRound = {
  status: number;
  stored: boolean;
  seconds: number;
  rssBeforeMb: number | null;
  rssAfterMb: number | null;
  /** The most the server's RSS rose above its level before the upload, while receiving it. */
  peakGrowthMb: number | null;
  /** The server's peak RSS while receiving it, in MB. */
  peakMb: number | null;
};

export type UploadResult = {
  bytesEach: number;
  /** What was done first, not measured. */
  warmUp: typeof UPLOAD_WARM_UP;
  rounds: UploadRound[];
  /** The largest rise of any round (the issue's figure), and whether it is under the target. */
  worstPeakGrowthMb: number | null;
  targetMb: number;
  met: boolean;
  /** From the RSS before the first round to the highest peak of all: what the rounds kept between them. */
  overallGrowthMb: number | null;
};

/**
 * What is done before the measured uploads, and not measured: what a running server has paid
 * once and for all by then, whatever the size of its files (docs/decisions/0012).
 * - Small uploads: the upload code is loaded and compiled, and the database's code gets hot
 *   (V8 compiles PGlite's WebAssembly again in the background once it is: a few MB, soon freed).
 *   5 MB in all, so it cannot hide a server that keeps what it receives (12 to 23 MB a round).
 * - Seconds of requests for /robots.txt (small answers, no body): V8's young generation grows
 *   to its working size (32 MB here) as the server allocates, a step of 1 to 4 MB each time it
 *   grows, which a full run's load scenarios have long done before its uploads.
 * With only one 1 MB upload first, those steps fell into the measured rounds (up to +7 MB).
 */
export const UPLOAD_WARM_UP = { uploads: 5, bytesEach: MB, requestSeconds: 2 };

/**
 * Uploads of UPLOAD_BYTES to a client's documents, one after the other after the warm-up, with
 * the server's memory before each and its peak while each arrived.
 */
export async function measureUpload(
  server: RunningServer,
  cookie: string,
  clientId: string,
  rounds: number,
  /** Connections of the warm-up's requests. */
  connections: number,
): Promise<UploadResult> {
  const pid = server.child.pid!;
  const url = `${server.url}/admin/clients/${clientId}/documents/upload`;
  for (let i = 0; i < UPLOAD_WARM_UP.uploads; i++) {
    const answer = await bigUpload(url, cookie, "form-16", UPLOAD_WARM_UP.bytesEach);
    if (answer.status !== 200) throw new Error(`the warm-up upload answered ${answer.status}: ${answer.body}`);
  }
  const warmUpLoad: Scenario = { name: "warm-up", method: "GET", path: "/robots.txt", connections };
  await load(server, warmUpLoad, UPLOAD_WARM_UP.requestSeconds);
  const measured: UploadRound[] = [];
  for (let i = 0; i < rounds; i++) {
    // The peak read after the upload is then the most the server held while receiving it.
    const peakReset = resetPeak(pid);
    const before = memoryOf(pid);
    const started = performance.now();
    const answer = await bigUpload(url, cookie, "form-16", UPLOAD_BYTES);
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(pid);
    measured.push({
      status: answer.status,
      stored: answer.status === 200 && answer.body.includes("bench-upload.pdf"),
      seconds,
      rssBeforeMb: before?.rssMb ?? null,
      rssAfterMb: after?.rssMb ?? null,
      peakGrowthMb: before && after && peakReset ? after.peakMb - before.rssMb : null,
      peakMb: after && peakReset ? after.peakMb : null,
    });
  }
  const growths = measured.map((r) => r.peakGrowthMb);
  const worst = growths.every((g) => g !== null) ? Math.max(...(growths as number[])) : null;
  const peaks = measured.map((r) => r.peakMb);
  const firstRss = measured[0]?.rssBeforeMb ?? null;
  return {
    bytesEach: UPLOAD_BYTES,
    warmUp: UPLOAD_WARM_UP,
    rounds: measured,
    worstPeakGrowthMb: worst,
    targetMb: UPLOAD_RSS_GROWTH_MB,
    met: measured.every((r) => r.stored) && worst !== null && worst < UPLOAD_RSS_GROWTH_MB,
    overallGrowthMb:
      firstRss !== null && peaks.every((p) => p !== null) ? Math.max(...(peaks as number[])) - firstRss : null,
  };
}

export const mb1 = (n: number | null) => (n === null ? "?" : `${n >= 0 ? "+" : ""}${n.toFixed(1)} MB`);

/** The uploads' lines of the report: one per round, then the worst against the target. */
export function uploadReport(upload: UploadResult): string[] {
  const size = `${(upload.bytesEach / MB).toFixed(2)} MB`;
  return [
    `Uploads of ${size}, one after the other, after a warm-up (${warmUpText(upload.warmUp)}, not measured); the server's RSS before each and its peak rise while each arrived:`,
    ...upload.rounds.map(
      (r, i) =>
        `  #${i + 1}: ${r.status}${r.stored ? " stored" : " NOT STORED"} in ${r.seconds.toFixed(2)} s, RSS ${r.rssBeforeMb?.toFixed(1) ?? "?"} MB before, peak ${mb1(r.peakGrowthMb)}`,
    ),
    `  Worst of ${upload.rounds.length}: ${mb1(upload.worstPeakGrowthMb)} (target: under ${upload.targetMb} MB): ${upload.met ? "met" : "missed"}.`,
    `  From the RSS before #1 to the highest peak of all ${upload.rounds.length} (${((upload.rounds.length * upload.bytesEach) / MB).toFixed(0)} MB received): ${mb1(upload.overallGrowthMb)}.`,
  ];
}

/** The uploads' target, as the list of targets states it. */
export function uploadTarget(upload: UploadResult): { target: string; ok: boolean; measured: string } {
  const stored = upload.rounds.filter((r) => r.stored).length;
  return {
    target: `${upload.rounds.length} uploads of ${(upload.bytesEach / MB).toFixed(2)} MB are stored, and the server's memory (RSS) rises by less than ${upload.targetMb} MB while each arrives (the worst of them)`,
    ok: upload.met,
    measured: `${stored === upload.rounds.length ? "" : `${upload.rounds.length - stored} not stored; `}worst ${mb1(upload.worstPeakGrowthMb)} (${upload.rounds.map((r) => mb1(r.peakGrowthMb).replace(" MB", "")).join(", ")} MB)`,
  };
}

export function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

export function step(message: string): void {
  console.info(`\n> ${message}`);
}

/** One request made by hand before the load: the scenario must answer 200 with the expected text. */
export async function preflight(server: RunningServer, scenario: Scenario): Promise<void> {
  const response = await fetch(`${server.url}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.nextBody?.() ?? scenario.body,
    redirect: "manual",
  });
  const text = await response.text();
  if (response.status >= 300 && response.status < 400) {
    const where = response.headers.get("location") ?? "";
    throw new Error(
      `${scenario.name}: redirected to ${where}${where.startsWith("/login") ? " (the session cookie was not accepted)" : ""}`,
    );
  }
  if (response.status !== 200) throw new Error(`${scenario.name}: answered ${response.status}`);
  if (scenario.expect && !text.includes(scenario.expect))
    throw new Error(`${scenario.name}: the answer lacks "${scenario.expect}"`);
}

export function load(server: RunningServer, scenario: Scenario, seconds: number, gzip = false): Promise<Result> {
  const request: RawRequest & { setupRequest?: (r: RawRequest) => RawRequest } = {
    method: scenario.method,
    path: scenario.path,
    headers: scenario.headers,
    body: scenario.body,
  };
  const next = scenario.nextBody;
  if (next) request.setupRequest = (r) => ({ ...r, body: next() });
  // autocannon sees the body as sent: a compressed one cannot be searched (the preflight
  // request, which fetch decodes, has checked it).
  const expected = gzip ? undefined : scenario.expect;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: server.url,
        connections: scenario.connections,
        duration: seconds,
        timeout: 10,
        title: scenario.name,
        requests: [request],
        ...(expected ? { verifyBody: (body: string) => body.includes(expected) } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

export function measured(scenario: Scenario, result: Result): Omit<Measured, "ratio"> {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, s]) => [code, Number(s.count)]),
  );
  const socket = result.errors - result.timeouts;
  const requests = result.latency.totalCount;
  return {
    name: scenario.name,
    method: scenario.method,
    path: scenario.path,
    connections: scenario.connections,
    seconds: result.duration,
    requests,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.non2xx + result.errors + result.mismatches,
    errorDetail: {
      non2xx: result.non2xx,
      socket,
      timeouts: result.timeouts,
      wrongBody: result.mismatches,
      statusCodes,
    },
  };
}

export function warmUpText(warmUp: typeof UPLOAD_WARM_UP): string {
  return `${warmUp.uploads} uploads of ${warmUp.bytesEach / MB} MB, ${warmUp.requestSeconds} s of /robots.txt`;
}
