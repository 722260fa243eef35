// `npm run bench -- --only season`: the season's start for many clients (10,000 unless --clients
// says otherwise), as an admin starts it, with a crash half way. Builds, seeds an admin signed in
// with the second factor passed (scripts/lib/fixture-db.ts) and last year's clients in SQL, each
// with a case for last year only and an e-mail address of their own (scripts/lib/season-db.ts);
// starts a mail server on loopback that accepts everything and keeps each message's recipients
// (scripts/lib/smtp-sink.ts) and the built server with SMTP_URL pointing at it and the outbox swept
// every 2 s; counts the clients on /admin/season and starts the run with that number confirmed.
// Once about half the clients are done (the page's progress; or --kill-after seconds after the
// start), the server is killed (SIGKILL: a crash, the worst case) and started again on the same
// database; the run must go on by itself and end with every e-mail sent. Then the same start
// again: every client already has the year, and nobody may get a second e-mail. With the server
// stopped, the database is read back: the year's cases, letters and queued e-mails. Prints the
// times and the targets, and writes them as JSON under bench/results/.
//
// PGlite under the benchmark's own folder, or the PostgreSQL database of DATABASE_URL, which must
// hold no tables (--reset-database drops everything in it first).
import http from "node:http";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { currentFilingYear } from "~/domain/tax-year";
import { cpuTimes, step } from "./bench-measure";
import type { SeedFile } from "./fixtures";
import type { SeasonSeedFile, SeasonVerifyFile } from "./season-db";
import { startEmpty } from "./empty-database";
import { benchServerConfig } from "./bench-server";
import { killServerOnSignal, runDbScript, runFixtureDb, startServer } from "./server-process";
import type { RunningServer, ServerConfig } from "./server-process";
import { startSmtpSink } from "./smtp-sink";
import type { SinkMessage, SmtpSink } from "./smtp-sink";

export type SeasonSettings = {
  clients: number;
  /** The server's port; the mail sink listens on the next one. */
  port: number;
  databaseUrl: string;
  resetDatabase: boolean;
  dataDir: string;
  build: () => void;
  /**
   * Kill the server this many seconds after the start instead of once the page shows half the
   * clients done (for a server that does not answer the page while the job works).
   */
  killAfterSeconds?: number;
};

/** How often the outbox's sweep runs in the benchmark's server (MAIL_SWEEP_SECONDS). */
const SWEEP_SECONDS = 2;
/**
 * Everything (both starts of the server, every e-mail) must be done within this after the start:
 * about three times what 10,000 clients took on a 2-CPU machine (docs/product/performance.md).
 */
const FINISH_TIMEOUT_MS = 15 * 60_000;
/** The second start (nobody to open) must finish within this. */
const SECOND_RUN_TIMEOUT_MS = 5 * 60_000;
/** After the last e-mail, how long the sink is watched for more (a late second copy). */
const QUIET_MS = 3 * SWEEP_SECONDS * 1000 + 5_000;

const count = (n: number) => n.toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type RunOnPage = { finished: boolean; done: number; total: number; opened: number; hadYear: number };

const num = (text: string) => Number(text.replaceAll(",", ""));

/** The runs /admin/season lists, newest first, as the page shows them. */
function runsOnPage(html: string): RunOnPage[] {
  return html
    .split('data-testid="season-run">')
    .slice(1)
    .map((part) => {
      const progress = part.match(/data-testid="season-run-progress">([\d,]+) of ([\d,]+) clients done: ([\d,]+) opened, [^;]*; ([\d,]+) left alone/);
      if (!progress) throw new Error("a run on /admin/season shows no progress line");
      const head = part.slice(0, progress.index);
      return {
        finished: head.includes("Finished "),
        done: num(progress[1]!),
        total: num(progress[2]!),
        opened: num(progress[3]!),
        hadYear: num(progress[4]!),
      };
    });
}

/** What /admin/season?year=Y&filter=all counts: the clients chosen, and how many of them already have the year. */
function countOnPage(html: string): { chosen: number; hadYear: number } {
  const part = html.split('data-testid="season-count"')[1] ?? "";
  const counted = part.match(/([\d,]+) clients? of \d{4} match(?:es)?\. ([\d,]+) already/);
  if (!counted) throw new Error("/admin/season shows no count of the clients");
  return { chosen: num(counted[1]!), hadYear: num(counted[2]!) };
}

type Answer = { status: number; location: string; body: string };

/**
 * One request on a connection of its own (no keep-alive: a server that answered nothing for a
 * while must not meet a reused connection it has since closed), waiting up to `timeoutMs`.
 */
function send(url: string, options: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent: false, timeout: options.timeoutMs ?? 60_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? ""), body }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${seconds(options.timeoutMs ?? 60_000)}`)));
    req.on("error", (error) => reject(new Error(`${options.method ?? "GET"} ${url} failed: ${error.message}`)));
    req.end(options.body);
  });
}

/** The page as the admin's browser asks for it (200 or an error). */
async function seasonPage(server: RunningServer, cookie: string, query = ""): Promise<string> {
  const answer = await send(`${server.url}/admin/season${query}`, { headers: { cookie, accept: "text/html" }, timeoutMs: FINISH_TIMEOUT_MS });
  if (answer.status !== 200) throw new Error(`GET /admin/season${query} answered ${answer.status}`);
  return answer.body;
}

/** The form's POST (intent=start): the action answers a redirect to ?started=1, or the page with the refusal. */
async function startRun(server: RunningServer, cookie: string, year: number, confirmed: number): Promise<void> {
  const answer = await send(`${server.url}/admin/season`, {
    method: "POST",
    headers: { cookie, origin: server.url, accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "start", year: String(year), filter: "all", confirmed: String(confirmed) }).toString(),
    timeoutMs: FINISH_TIMEOUT_MS,
  });
  if (answer.status >= 300 && answer.status < 400 && answer.location.includes("started=1")) return;
  const alert = answer.body.match(/role="alert"[^>]*>([^<]*)</)?.[1];
  throw new Error(`the season's start was refused: ${answer.status}${alert ? ` (${alert})` : ""}`);
}

/** The CPU time process `pid` has used so far, in seconds (Linux; null elsewhere or when gone). */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command's name in parentheses: state, ppid, ... utime (14th field) and stime (15th), in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

type Sample = { at: number; ms: number; ok: boolean; pid: number; serverCpu: number | null; machine: ReturnType<typeof cpuTimes> };

/**
 * Asks /healthz (a fresh connection each time, one at a time) every second while the run goes on,
 * and keeps how long each answer took (whether the server goes on answering while the season's
 * job works: it runs in the same process as the site), with the server's and the machine's CPU time.
 */
function probe(current: () => RunningServer | null) {
  const samples: Sample[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const server = current();
      const at = Date.now();
      if (server?.child.pid) {
        const pid = server.child.pid;
        const serverCpu = processCpuSeconds(pid);
        const machine = cpuTimes();
        let ok = false;
        try {
          ok = (await send(`${server.url}/healthz`, { timeoutMs: FINISH_TIMEOUT_MS })).status === 200;
        } catch {
          ok = false;
        }
        samples.push({ at, ms: Date.now() - at, ok, pid, serverCpu, machine });
      }
      await sleep(Math.max(0, 1_000 - (Date.now() - at)));
    }
  })();
  return {
    samples,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/**
 * The asks of /healthz awaited during [from, to] (asked before its end, ended after its start):
 * how many, how many were answered, the median and the longest wait. An ask that was never
 * answered (the server was killed while it waited) counts with the time it waited.
 */
function answering(samples: readonly Sample[], from: number, to: number) {
  const within = samples.filter((s) => s.at <= to && s.at + s.ms >= from);
  const waits = within.map((s) => s.ms).sort((a, b) => a - b);
  return {
    asked: within.length,
    answered: within.filter((s) => s.ok).length,
    p50Ms: waits.length ? waits[Math.floor((waits.length - 1) / 2)]! : null,
    maxMs: waits.length ? waits[waits.length - 1]! : null,
  };
}

/**
 * The CPU the server used within [from, to] (seconds, and as a share of one CPU), and how busy
 * the whole machine was (percent of all its CPUs), from the samples nearest those times.
 */
function cpuWithin(samples: readonly Sample[], from: number, to: number) {
  const within = samples.filter((s) => s.at >= from && s.at <= to && s.serverCpu !== null);
  const first = within[0];
  const last = within[within.length - 1];
  if (!first || !last || last.pid !== first.pid || last.at <= first.at) return null;
  const seconds = last.serverCpu! - first.serverCpu!;
  const wall = (last.at - first.at) / 1000;
  const machine =
    first.machine && last.machine && last.machine.total > first.machine.total
      ? 100 * (1 - (last.machine.idle - first.machine.idle) / (last.machine.total - first.machine.total))
      : null;
  return { serverCpuSeconds: seconds, wallSeconds: wall, serverCpuShare: seconds / wall, machineBusyPercent: machine };
}

/** The season's engagement-letter e-mails among the sink's messages. */
function letterMails(sink: SmtpSink, year: number): SinkMessage[] {
  const subject = `Your ${year} engagement letter from`;
  return sink.messages.filter((m) => m.subject.startsWith(subject));
}

/** How many times each recipient was sent an e-mail. */
function perRecipient(messages: readonly SinkMessage[]): Map<string, number> {
  const times = new Map<string, number>();
  for (const m of messages) for (const to of m.to) times.set(to, (times.get(to) ?? 0) + 1);
  return times;
}

type Phase = { server: RunningServer; release: () => void };

async function start(config: ServerConfig): Promise<Phase> {
  const server = await startServer(config, 10 * 60_000);
  return { server, release: killServerOnSignal(server) };
}

/** Throws when the server has exited by itself. */
function alive(server: RunningServer): void {
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    throw new Error(`the server exited by itself (code ${server.child.exitCode}, signal ${server.child.signalCode})`);
}

const perSecond = (n: number, ms: number) => (ms > 0 ? (n * 1000) / ms : null);

export async function runSeason(settings: SeasonSettings): Promise<number> {
  const started = new Date();
  const loadBefore = os.loadavg();
  const postgres = settings.databaseUrl !== "";
  const database = postgres ? "PostgreSQL (DATABASE_URL)" : "PGlite (embedded)";
  const n = settings.clients;
  const year = currentFilingYear();
  if (!(await startEmpty(settings, "The season's start benchmark"))) return 2;
  settings.build();

  const sink = await startSmtpSink(settings.port + 1);
  // The weekly reminders are not part of what is measured (they would e-mail the seeded clients).
  const config = benchServerConfig(settings, { REMINDER_INTERVAL_MINUTES: "0", SMTP_URL: sink.url, MAIL_SWEEP_SECONDS: String(SWEEP_SECONDS) });
  let phase: Phase | null = null;
  try {
    step(`Seeding ${database}: one admin signed in with the second factor passed, and ${count(n)} clients of ${year - 1} (no case for ${year})`);
    const seedFile = path.join(settings.dataDir, "seed.json");
    await runFixtureDb(config, ["seed", "--out", seedFile, "--admin"]);
    const admin = (JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile).admin!;
    const seasonSeedFile = path.join(settings.dataDir, "season-seed.json");
    const tag = Math.random().toString(36).slice(2, 10);
    await runDbScript("season-db.ts", config, ["seed", "--out", seasonSeedFile, "--clients", String(n), "--tag", tag, "--year", String(year)], 30 * 60_000);
    const seeded = JSON.parse(readFileSync(seasonSeedFile, "utf8")) as SeasonSeedFile;
    console.info(`  ${seeded.insertSeconds.toFixed(1)} s, then vacuum analyze ${seeded.vacuumSeconds.toFixed(1)} s`);

    step(`Starting the production server on ${database}, port ${settings.port}; the mail sink on ${sink.url}, the outbox swept every ${SWEEP_SECONDS} s`);
    phase = await start(config);
    const counted = countOnPage(await seasonPage(phase.server, admin.cookie, `?year=${year}&filter=all`));
    console.info(`  /admin/season counts ${count(counted.chosen)} clients of ${year - 1}, ${count(counted.hadYear)} already with ${year}`);
    if (counted.chosen !== n || counted.hadYear !== 0) throw new Error(`/admin/season counted ${counted.chosen} clients (${counted.hadYear} with ${year}), not ${n} (0)`);

    const killAfter = settings.killAfterSeconds;
    step(
      `Opening ${year} for ${count(n)} clients (POST /admin/season, confirmed=${n}); the server is killed (SIGKILL) ${killAfter === undefined ? "once the page shows half of them done" : `${killAfter} s after the start (--kill-after)`}`,
    );
    let up: RunningServer | null = phase.server;
    const prober = probe(() => up);
    const postedAt = Date.now();
    await startRun(phase.server, admin.cookie, year, n);
    let lastSeen: RunOnPage | null = null;
    let lastReport = postedAt;
    for (;;) {
      alive(phase.server);
      if (Date.now() - postedAt > FINISH_TIMEOUT_MS) throw new Error(`half the clients were not done within ${seconds(FINISH_TIMEOUT_MS)} (last seen: ${JSON.stringify(lastSeen)})`);
      if (killAfter !== undefined) {
        if (Date.now() - postedAt >= killAfter * 1000) break;
        await sleep(Math.min(500, killAfter * 1000 - (Date.now() - postedAt)));
        continue;
      }
      const asked = Date.now();
      lastSeen = runsOnPage(await seasonPage(phase.server, admin.cookie))[0] ?? null;
      if (Date.now() - asked > 5_000) console.info(`  /admin/season took ${seconds(Date.now() - asked)} to answer`);
      if (lastSeen && (lastSeen.done * 2 >= n || lastSeen.finished)) break;
      if (Date.now() - lastReport >= 10_000) {
        lastReport = Date.now();
        console.info(`  ${seconds(lastReport - postedAt)}: ${count(lastSeen?.done ?? 0)} clients done, ${count(letterMails(sink, year).length)} e-mails received`);
      }
      await sleep(500);
    }
    const killed = phase.server;
    phase.release();
    up = null;
    killed.child.kill("SIGKILL");
    await killed.exited;
    const killAt = Date.now();
    const seenAtKill = lastSeen;
    const mailsAtKill = letterMails(sink, year).length;
    console.info(
      `  killed ${seconds(killAt - postedAt)} after the start: ${seenAtKill ? `${count(seenAtKill.done)} clients done on the page's last look${seenAtKill.finished ? " (the run had finished before the page could show half of it)" : ""}` : "the page not looked at"}, ${count(mailsAtKill)} e-mails received`,
    );

    step("Starting the server again on the same database");
    phase = await start(config);
    up = phase.server;
    const restartedAt = Date.now();
    console.info(`  answering again ${seconds(restartedAt - killAt)} after the kill`);
    let doneAfterRestart: number | null = null;
    let seasonResumedAt: number | null = null;
    lastReport = Date.now();
    for (;;) {
      alive(phase.server);
      const run = runsOnPage(await seasonPage(phase.server, admin.cookie))[0];
      if (!run) throw new Error("the run is no longer on /admin/season");
      lastSeen = run;
      doneAfterRestart ??= run.done;
      if (seasonResumedAt === null && run.done > doneAfterRestart) seasonResumedAt = Date.now();
      const received = new Set(letterMails(sink, year).flatMap((m) => m.to)).size;
      if (run.finished && received >= n) break;
      if (Date.now() - postedAt > FINISH_TIMEOUT_MS)
        throw new Error(
          `the season's start did not finish within ${seconds(FINISH_TIMEOUT_MS)} of its start: ${count(run.done)} of ${count(run.total)} clients done (${run.finished ? "finished" : "under way"}), ${count(received)} of ${count(n)} recipients e-mailed; see ${config.logFile}`,
        );
      if (Date.now() - lastReport >= 15_000) {
        lastReport = Date.now();
        console.info(`  ${seconds(lastReport - postedAt)}: ${count(run.done)} clients done${run.finished ? " (finished)" : ""}, ${count(received)} recipients e-mailed`);
      }
      await sleep(1_000);
    }
    const allSentSeenAt = Date.now();
    console.info(`  every client done and every recipient e-mailed ${seconds(allSentSeenAt - postedAt)} after the start; watching the sink for ${seconds(QUIET_MS)} more`);
    await sleep(QUIET_MS);
    const firstRunLetters = letterMails(sink, year);
    const firstRun = runsOnPage(await seasonPage(phase.server, admin.cookie))[0]!;

    step(`The same start again: every client already has ${year}`);
    const again = countOnPage(await seasonPage(phase.server, admin.cookie, `?year=${year}&filter=all`));
    console.info(`  /admin/season counts ${count(again.chosen)} clients, ${count(again.hadYear)} already with ${year}`);
    const secondPostedAt = Date.now();
    await startRun(phase.server, admin.cookie, year, again.chosen);
    let second: RunOnPage | null = null;
    for (;;) {
      alive(phase.server);
      const runs = runsOnPage(await seasonPage(phase.server, admin.cookie));
      second = runs.length >= 2 ? runs[0]! : null;
      if (second?.finished) break;
      if (Date.now() - secondPostedAt > SECOND_RUN_TIMEOUT_MS) throw new Error(`the second start did not finish within ${seconds(SECOND_RUN_TIMEOUT_MS)}: ${JSON.stringify(second)}`);
      await sleep(1_000);
    }
    const secondFinishedSeenAt = Date.now();
    await sleep(QUIET_MS);
    const secondRunMails = sink.messages.filter((m) => m.at > secondPostedAt);
    console.info(`  finished ${seconds(secondFinishedSeenAt - secondPostedAt)} after its start: ${count(second.opened)} opened, ${count(second.hadYear)} left alone; ${secondRunMails.length} e-mails since`);

    step("Stopping the server (SIGTERM) and reading the database back");
    await prober.stop();
    phase.release();
    const stopAsked = Date.now();
    const stopCode = await phase.server.stop();
    const stopSeconds = (Date.now() - stopAsked) / 1000;
    phase = null;
    const verifyFile = path.join(settings.dataDir, "season-verify.json");
    await runDbScript("season-db.ts", config, ["verify", "--out", verifyFile, "--year", String(year), "--kill-at", new Date(killAt).toISOString()]);
    const db = JSON.parse(readFileSync(verifyFile, "utf8")) as SeasonVerifyFile;

    // ------------------------------------------------------------------ what was measured
    const letters = firstRunLetters;
    const times = perRecipient(letters);
    const clients = new Set(db.clientEmails);
    const duplicates = [...times.entries()].filter(([, k]) => k > 1).map(([to, k]) => ({ to, times: k, at: letters.filter((m) => m.to.includes(to)).map((m) => m.at - killAt) }));
    const extraCopies = duplicates.reduce((sum, d) => sum + d.times - 1, 0);
    const strangers = [...times.keys()].filter((to) => !clients.has(to)).length;
    const missing = [...clients].filter((to) => !times.has(to)).length;
    const otherSink = sink.messages.filter((m) => !letters.includes(m) && m.at <= secondPostedAt);
    const run1 = db.runs[0];
    const run2 = db.runs[1];
    const runStart = run1 ? Date.parse(run1.startedAt) : postedAt;
    const runEnd = run1?.finishedAt ? Date.parse(run1.finishedAt) : null;
    const firstMailAt = letters[0]?.at ?? null;
    const lastMailAt = letters.length > 0 ? letters[letters.length - 1]!.at : null;
    const beforeKill = letters.filter((m) => m.at <= killAt);
    const afterRestart = letters.filter((m) => m.at > killAt);
    const mailResumedAt = afterRestart[0]?.at ?? null;
    const doneByKill = run1?.doneByKill ?? seenAtKill?.done ?? 0;
    const runLastDone = run1?.lastDoneAt ? Date.parse(run1.lastDoneAt) : null;
    // The first client done after the kill, by the database (the page may not answer while the job works).
    if (run1?.firstDoneAfterKill) seasonResumedAt = Date.parse(run1.firstDoneAfterKill);
    const runFinishedBeforeKill = runEnd !== null && runEnd <= killAt;
    const measured = {
      clients: n,
      year,
      seed: { insertSeconds: seeded.insertSeconds, vacuumSeconds: seeded.vacuumSeconds, rows: seeded.rows },
      /** From the run's start (season_starts.started_at) to its finish (finished_at), the crash included. */
      allCasesOpenedSeconds: runEnd === null ? null : (runEnd - runStart) / 1000,
      /** From the run's start to the last e-mail the sink accepted. */
      lastMailSeconds: lastMailAt === null ? null : (lastMailAt - runStart) / 1000,
      firstMailSeconds: firstMailAt === null ? null : (firstMailAt - runStart) / 1000,
      kill: {
        afterStartSeconds: (killAt - runStart) / 1000,
        doneOnPage: seenAtKill?.done ?? null,
        doneInDatabase: doneByKill,
        mailsReceived: mailsAtKill,
        mailsMarkedSent: db.sentByKill,
        runHadFinished: runFinishedBeforeKill,
        killAfterSeconds: killAfter ?? null,
      },
      /** /healthz asked every second (fresh connection): from the start to the kill, and from the restart to the last e-mail. */
      answering: {
        beforeKill: answering(prober.samples, postedAt, killAt),
        afterRestart: answering(prober.samples, restartedAt, lastMailAt ?? allSentSeenAt),
        secondRun: answering(prober.samples, secondPostedAt, secondFinishedSeenAt),
      },
      /**
       * The server's CPU while the outbox sent after the restart (per e-mail), and while the job
       * worked before the kill; with how busy the machine was meanwhile (other work shares it).
       */
      cpu: {
        sendingAfterRestart: cpuWithin(prober.samples, mailResumedAt ?? restartedAt, lastMailAt ?? allSentSeenAt),
        perMailMs: (() => {
          const c = cpuWithin(prober.samples, mailResumedAt ?? restartedAt, lastMailAt ?? allSentSeenAt);
          const sent = letters.filter((m) => m.at >= (mailResumedAt ?? restartedAt)).length;
          return c && sent > 0 ? (1000 * c.serverCpuSeconds) / sent : null;
        })(),
        beforeKill: cpuWithin(prober.samples, postedAt, killAt),
      },
      /** The graceful stop at the end (SIGTERM; the benchmark kills after 15 s). */
      stopSeconds,
      restart: {
        /** From the kill to /healthz answering 200 again (the embedded database's recovery included). */
        answeringSeconds: (restartedAt - killAt) / 1000,
        /** From the kill to the first client done after it (the database's done_at). */
        seasonResumedSecondsAfterKill: seasonResumedAt === null ? null : (seasonResumedAt - killAt) / 1000,
        seasonResumedSecondsAfterRestart: seasonResumedAt === null ? null : (seasonResumedAt - restartedAt) / 1000,
        /** From the kill to the first e-mail after it. */
        mailResumedSecondsAfterKill: mailResumedAt === null ? null : (mailResumedAt - killAt) / 1000,
        mailResumedSecondsAfterRestart: mailResumedAt === null ? null : (mailResumedAt - restartedAt) / 1000,
      },
      cases: {
        /** Clients done per second before the kill, and after the job resumed. */
        perSecondBeforeKill: perSecond(doneByKill, killAt - runStart),
        perSecondAfterResume: seasonResumedAt !== null && runLastDone !== null ? perSecond(n - doneByKill, runLastDone - seasonResumedAt) : null,
      },
      outbox: {
        received: letters.length,
        distinctRecipients: times.size,
        /** E-mails a second per the sink, before the kill and after the outbox resumed (a backlog waiting). */
        perSecondBeforeKill: firstMailAt === null ? null : perSecond(beforeKill.length, killAt - firstMailAt),
        perSecondAfterResume: mailResumedAt !== null && lastMailAt !== null ? perSecond(afterRestart.length, lastMailAt - mailResumedAt) : null,
        perSecondOverall: firstMailAt !== null && lastMailAt !== null ? perSecond(letters.length, lastMailAt - firstMailAt) : null,
        connections: sink.connections,
      },
      duplicates: { recipients: duplicates.length, extraCopies, detail: duplicates.slice(0, 20), retriedRows: db.retried },
      strangers,
      missing,
      otherMails: { sink: otherSink.length, outbox: db.otherMails },
      secondRun: {
        counted: again,
        onPage: second,
        finishedSeconds: (secondFinishedSeenAt - secondPostedAt) / 1000,
        mailsSince: secondRunMails.length,
        database: run2 ?? null,
      },
      database: { ...db, clientEmails: undefined },
      /** The run as /admin/season showed it once every e-mail had arrived. */
      firstRunOnPage: firstRun,
      serverStopCode: stopCode,
    };

    const targets = [
      {
        target: `${count(n)} e-mails, each once`,
        ok:
          letters.length === n &&
          times.size === n &&
          duplicates.length === 0 &&
          strangers === 0 &&
          missing === 0 &&
          db.letterMails.total === n &&
          db.letterMails.sent === n &&
          db.letterMails.distinctRecipients === n,
        measured: `the sink accepted ${count(letters.length)} engagement-letter e-mails for ${count(times.size)} distinct recipients (${count(missing)} clients without one, ${count(strangers)} not a client), ${duplicates.length === 0 ? "no recipient twice" : `${count(duplicates.length)} recipients more than once (${count(extraCopies)} extra copies, at ${duplicates
          .slice(0, 5)
          .map((d) => d.at.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(" and "))
          .join("; ")} from the kill)`}; the outbox holds ${count(db.letterMails.total)} such rows, ${count(db.letterMails.sent)} sent, ${count(db.letterMails.pending)} pending, ${count(db.letterMails.failed)} failed`,
      },
      {
        target: "survives the restart (killed half way with SIGKILL, started again: the run goes on by itself and ends complete)",
        ok:
          !runFinishedBeforeKill &&
          doneByKill < n &&
          run1?.finishedAt !== null &&
          run1?.opened === n &&
          run1?.pending === 0 &&
          db.yearCases === n &&
          db.bothYears === n &&
          db.letters === n &&
          db.lettersDistinctClients === n,
        measured: `${runFinishedBeforeKill ? "not measured: the run had finished before the kill; " : ""}killed with ${count(doneByKill)} of ${count(n)} clients done and ${count(mailsAtKill)} e-mails received; after the restart the job resumed ${seasonResumedAt === null ? "never seen" : `${seconds(seasonResumedAt - killAt)} after the kill`}, the run ${run1?.finishedAt ? "finished" : "did not finish"} with ${count(run1?.opened ?? 0)} opened${run1?.failed ? ` and ${count(run1.failed)} failed` : ""}; the database holds ${count(db.yearCases)} cases of ${year} (${count(db.bothYears)} of last year's clients), ${count(db.letters)} letters for ${count(db.lettersDistinctClients)} clients`,
      },
      {
        target: "nothing sent again on a second run",
        ok:
          again.chosen === n &&
          again.hadYear === n &&
          second.finished &&
          second.opened === 0 &&
          second.hadYear === n &&
          secondRunMails.length === 0 &&
          db.letterMails.total === n &&
          db.letters === n,
        measured: `counted ${count(again.chosen)} clients, ${count(again.hadYear)} already with ${year}; the run finished with ${count(second.opened)} opened and ${count(second.hadYear)} left alone; ${secondRunMails.length} e-mails received since its start (${seconds(QUIET_MS)} watched after it finished)`,
      },
    ];

    const fmt = (v: number | null, digits = 1) => (v === null ? "-" : v.toFixed(digits));
    const ms = (v: number | null) => (v === null ? null : v / 1000);
    const cpu = os.cpus();
    console.info(`\nTaxBridge benchmark (the season's start), ${database}, ${count(n)} clients, tax year ${year}`);
    console.info(
      `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? "unknown"}), node ${process.version}, load average ${loadBefore.map((l) => l.toFixed(1)).join(" ")} before, ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} after\n`,
    );
    const lines: Array<[string, string]> = [
      ["start to every case opened (run finished)", `${fmt(measured.allCasesOpenedSeconds)} s`],
      ["start to the first e-mail", `${fmt(measured.firstMailSeconds)} s`],
      ["start to the last e-mail", `${fmt(measured.lastMailSeconds)} s`],
      ["clients done a second (before the kill / after the job resumed)", `${fmt(measured.cases.perSecondBeforeKill)} / ${fmt(measured.cases.perSecondAfterResume)}`],
      ["outbox e-mails a second (before the kill / after it resumed / overall)", `${fmt(measured.outbox.perSecondBeforeKill)} / ${fmt(measured.outbox.perSecondAfterResume)} / ${fmt(measured.outbox.perSecondOverall)}`],
      ["killed (SIGKILL) after the start", `${fmt(measured.kill.afterStartSeconds)} s`],
      ["done at the kill: clients / e-mails received", `${count(doneByKill)} / ${count(mailsAtKill)}`],
      ["restarted server answering, after the kill", `${fmt(measured.restart.answeringSeconds)} s`],
      ["season's job resumed, after the kill (after the restart)", `${fmt(measured.restart.seasonResumedSecondsAfterKill)} s (${fmt(measured.restart.seasonResumedSecondsAfterRestart)} s)`],
      ["e-mails resumed, after the kill (after the restart)", `${fmt(measured.restart.mailResumedSecondsAfterKill)} s (${fmt(measured.restart.mailResumedSecondsAfterRestart)} s)`],
      ["/healthz during the run before the kill: median / slowest", `${fmt(ms(measured.answering.beforeKill.p50Ms))} / ${fmt(ms(measured.answering.beforeKill.maxMs))} s`],
      ["/healthz after the restart until the last e-mail: median / slowest", `${fmt(ms(measured.answering.afterRestart.p50Ms))} / ${fmt(ms(measured.answering.afterRestart.maxMs))} s`],
      ["/healthz during the second run: median / slowest", `${fmt(ms(measured.answering.secondRun.p50Ms))} / ${fmt(ms(measured.answering.secondRun.maxMs))} s`],
      [
        "server CPU while the outbox sent after the restart (machine busy)",
        measured.cpu.sendingAfterRestart
          ? `${(100 * measured.cpu.sendingAfterRestart.serverCpuShare).toFixed(0)}% of a CPU, ${fmt(measured.cpu.perMailMs)} ms an e-mail (${fmt(measured.cpu.sendingAfterRestart.machineBusyPercent, 0)}% of the machine)`
          : "-",
      ],
      ["graceful stop at the end (SIGTERM)", `${stopSeconds.toFixed(1)} s (exit ${stopCode})`],
      ["duplicates (recipients e-mailed twice)", `${duplicates.length}`],
      ["second run: clients counted / already with the year / e-mails", `${count(again.chosen)} / ${count(again.hadYear)} / ${secondRunMails.length}`],
      ["other e-mails received (not the letter's)", `${otherSink.length}`],
    ];
    const width = Math.max(...lines.map(([k]) => k.length));
    for (const [k, v] of lines) console.info(`${k.padEnd(width)}  ${v}`);
    if (db.retried.length > 0)
      console.info(
        `\nE-mails tried more than once (at least once, not exactly once: a try cut by the kill): ${db.retried
          .slice(0, 10)
          .map((r) => `${r.attempts} tries, ${r.status}`)
          .join("; ")}`,
      );
    console.info("\nTargets:");
    for (const t of targets) console.info(`  ${t.ok ? "MET   " : "MISSED"}  ${t.target}: ${t.measured}`);
    if (os.loadavg()[0]! > cpu.length)
      console.info(`\nNote: the machine was busy (load average ${os.loadavg()[0]!.toFixed(1)}): other work shares these CPUs, and the times are longer than on an idle machine.`);

    const resultsDir = path.resolve("bench/results");
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${started.toISOString().replace(/[:.]/g, "-")}-season-${postgres ? "postgres" : "pglite"}.json`);
    const report = {
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      only: "season",
      database: postgres ? "postgres" : "pglite",
      mailSweepSeconds: SWEEP_SECONDS,
      machine: { cpus: cpu.length, model: cpu[0]?.model ?? "unknown", memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
      measured,
      targets,
    };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.info(`\nWritten to ${path.relative(process.cwd(), file)}`);
    return targets.every((t) => t.ok) ? 0 : 1;
  } finally {
    if (phase) {
      phase.release();
      const code = await phase.server.stop();
      if (code !== 0) console.error(`The server did not stop cleanly (exit ${code}); see ${config.logFile}`);
    }
    await sink.close();
  }
}
