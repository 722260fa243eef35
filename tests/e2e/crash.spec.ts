// A server killed (SIGKILL) while a hundred clients save their taxpayer records: every save
// answered with success is still there after a restart, no record is stored half from one
// save and half from another, and the restarted server answers normally. On the embedded
// database always, and on PostgreSQL when DATABASE_URL is set (in a database of its own).
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./support";
import pg from "pg";
import { TAXPAYER_FIELDS } from "~/domain/taxpayer";
import type { TaxpayerValues } from "~/domain/taxpayer";
import { taxpayerValuesFor } from "../../scripts/lib/fixtures";
import type { DumpFile, SeedFile } from "../../scripts/lib/fixtures";
import { freshSecrets, runFixtureDb, startServer } from "../../scripts/lib/server-process";
import type { RunningServer, ServerConfig } from "../../scripts/lib/server-process";

const CLIENTS = 100;
/**
 * The server is killed once this many saves have been answered with success: a fixed count, so
 * that a failure is met again at the same point when the test is run again.
 */
const KILL_AFTER = 150;

/** The crash servers' ports: this one and the next (E2E_CRASH_PORT lets two runs share a machine). */
const port = Number(process.env.E2E_CRASH_PORT ?? 4211);
type Target = { label: string; kind: "pglite" | "postgres"; port: number };
const targets: Target[] = [
  { label: "the embedded database", kind: "pglite", port },
  ...(process.env.DATABASE_URL ? [{ label: "PostgreSQL", kind: "postgres" as const, port: port + 1 }] : []),
];

/** A database of this run's own on the server of DATABASE_URL (never that database itself). */
async function withOwnDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const adminUrl = process.env.DATABASE_URL!;
  const name = `taxbridge_crash_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function saveRequest(
  server: RunningServer,
  cookie: string,
  client: number,
  version: number,
): Promise<Response> {
  // What the portal form sends once hydrated: the dashboard route's action, as single-fetch data.
  return fetch(`${server.url}/dashboard.data`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(taxpayerValuesFor(client, version)),
  });
}

/**
 * The action's answer: a save that worked is 200 with `ok: true` (a refusal is 400, a failed
 * save 500). Otherwise, what came back, for the failure message.
 */
async function saveAnswer(response: Response): Promise<{ ok: boolean; answer: string }> {
  const body = await response.text();
  return {
    ok: response.status === 200 && body.includes('"ok",true'),
    answer: `${response.status} ${body.slice(0, 300)}`,
  };
}

function sameRecord(a: TaxpayerValues | null, b: TaxpayerValues): boolean {
  return a !== null && TAXPAYER_FIELDS.every((field) => a[field] === b[field]);
}

for (const target of targets) {
  test(`killed mid-save on ${target.label}, the server keeps every answered save and restarts cleanly`, async () => {
    test.setTimeout(360_000);
    const dataDir = path.resolve(`.tmp/crash-${target.kind}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });

    const begun = Date.now();
    const phases: string[] = [];
    const lap = (name: string) => phases.push(`${name} ${((Date.now() - begun) / 1000).toFixed(1)} s`);
    const run = async (databaseUrl: string) => {
      const config: ServerConfig = {
        port: target.port,
        dataDir,
        databaseUrl,
        secrets: freshSecrets(),
        logFile: path.join(dataDir, "server.log"),
      };
      const seedFile = path.join(dataDir, "seed.json");
      const dumpFile = path.join(dataDir, "dump.json");
      // One more client than the hundred under load: it checks that a save works after the restart.
      await runFixtureDb(config, [
        "seed",
        "--out",
        seedFile,
        "--signed-in",
        String(CLIENTS + 1),
        "--records",
        "even",
      ]);
      lap("seeded");
      const seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
      const clients = seeded.clients.slice(0, CLIENTS);
      const probe = seeded.clients[CLIENTS]!;

      // Per client: the newest version answered with success (the seeded record is version 0),
      // and the version sent but never answered, if any.
      const acknowledged: number[] = clients.map((c) => (c.record ? 0 : -1));
      const unanswered: Array<number | null> = clients.map(() => null);
      const unexpected: string[] = [];
      let successes = 0;
      let killed = false;

      let server = await startServer(config);
      lap("started");
      try {
        // Each client saves a new version as soon as the previous one is answered, until the kill.
        await Promise.all(
          clients.map(async (client, i) => {
            for (let version = 1; !killed; version += 1) {
              unanswered[i] = version;
              let answer: { ok: boolean; answer: string };
              try {
                answer = await saveAnswer(await saveRequest(server, client.cookie, i, version));
              } catch (error) {
                // After the kill the connection dies with the server: this save was never answered.
                if (!killed)
                  unexpected.push(
                    `client ${i} version ${version} failed: ${error instanceof Error ? error.message : error}`,
                  );
                return;
              }
              if (!answer.ok) {
                if (!killed) unexpected.push(`client ${i} version ${version} was refused: ${answer.answer}`);
                return;
              }
              unanswered[i] = null;
              acknowledged[i] = version;
              successes += 1;
              if (successes >= KILL_AFTER && !killed) {
                killed = true;
                server.child.kill("SIGKILL");
              }
            }
          }),
        );
        if (!killed) server.child.kill("SIGKILL");
        const { signal } = await server.exited;
        lap("killed");
        expect(unexpected, "no save failed before the kill").toEqual([]);
        expect(signal, "the server was killed, not stopped").toBe("SIGKILL");
        expect(successes).toBeGreaterThanOrEqual(KILL_AFTER);
        const inFlight = unanswered.filter((v) => v !== null).length;
        expect(inFlight, "saves were in flight when the server was killed").toBeGreaterThan(0);
        const summary = `${target.label}: killed after ${successes} answered saves, ${inFlight} in flight`;
        test.info().annotations.push({ type: "crash", description: summary });
        console.info(summary);

        // The restart: same data, healthy within the bound, and answering normally.
        server = await startServer(config, 60_000);
        lap("restarted");
        const pages = await Promise.all(
          clients.map(async (c) => {
            const response = await fetch(`${server.url}/my-tax-filing`, {
              headers: { cookie: c.cookie },
              redirect: "manual",
            });
            return { status: response.status, html: await response.text() };
          }),
        );
        expect(
          pages.map((p) => p.status).filter((s) => s !== 200),
          "every client's page answers 200",
        ).toEqual([]);
        const after = await saveAnswer(await saveRequest(server, probe.cookie, CLIENTS, 1));
        expect(after.ok, `a save after the restart works (answered ${after.answer})`).toBe(true);
        expect(await server.stop(), "the restarted server stops cleanly").toBe(0);
        const restartOutput =
          readFileSync(config.logFile, "utf8").split("--- starting the server").at(-1) ?? "";
        expect(
          restartOutput.split("\n").filter((line) => /error|warn/i.test(line)),
          "the restart logged no error",
        ).toEqual([]);
        lap("checked and stopped");

        // What is stored, read as the app reads it, with the server stopped.
        await runFixtureDb(config, ["dump", "--seed", seedFile, "--out", dumpFile]);
        lap("read back");
        console.info(`${target.label}: ${phases.join(", ")}`);
        const dump = JSON.parse(readFileSync(dumpFile, "utf8")) as DumpFile;
        const problems: string[] = [];
        clients.forEach((client, i) => {
          const stored = dump.clients.find((d) => d.email === client.email);
          if (!stored) return problems.push(`client ${i}: missing from the dump`);
          if (stored.rows > 1) problems.push(`client ${i}: ${stored.rows} records`);
          // The answered save, or the one sent after it that the kill cut off (it may have committed).
          const allowed = [acknowledged[i], unanswered[i]].filter(
            (v): v is number => typeof v === "number" && v >= 0,
          );
          const whole = allowed.find((v) => sameRecord(stored.values, taxpayerValuesFor(i, v)));
          if (whole === undefined) {
            if (stored.values === null && acknowledged[i] === -1) return;
            return problems.push(
              `client ${i}: stored ${stored.values ? `a record (middle name ${stored.values.middle_name}, occupation ${stored.values.occupation})` : "nothing"}, expected version ${allowed.join(" or ")} whole`,
            );
          }
          // And the client's own page shows that record.
          const shown = taxpayerValuesFor(i, whole);
          const fullName = `${shown.name_as_per_ssn} ${shown.middle_name} ${shown.last_name}`;
          if (
            !pages[i]!.html.includes(fullName) ||
            !pages[i]!.html.includes(`***-**-${shown.ssn_tin.slice(-4)}`)
          ) {
            problems.push(`client ${i}: /my-tax-filing does not show version ${whole}`);
          }
        });
        expect(problems).toEqual([]);
        const probeStored = dump.clients.find((d) => d.email === probe.email);
        expect(probeStored?.values).toEqual(taxpayerValuesFor(CLIENTS, 1));
      } finally {
        await server.stop(5_000);
      }
    };

    if (target.kind === "postgres") await withOwnDatabase(run);
    else await run("");
  });
}
