// Starting and stopping the built server as a child process, and running the fixture
// script, for the load benchmark and the crash test.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import path from "node:path";

export type ServerConfig = {
  port: number;
  dataDir: string;
  /** PostgreSQL when set, the embedded database under dataDir otherwise. */
  databaseUrl: string;
  /** AUTH_SECRET and SSN_ENCRYPTION_KEY, shared by the seeding script and the server. */
  secrets: { AUTH_SECRET: string; SSN_ENCRYPTION_KEY: string };
  /** Where the server's output goes (appended). */
  logFile: string;
  /** Further settings for the server and the fixture script (e.g. RATE_LIMIT_SCALE). */
  env?: NodeJS.ProcessEnv;
  /** Options for node itself, before server.js (e.g. --cpu-prof). */
  nodeArgs?: string[];
};

/** Fresh secrets for one run (production with DATABASE_URL refuses to start without them). */
export function freshSecrets(): ServerConfig["secrets"] {
  return {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    SSN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
}

export function baseUrl(config: Pick<ServerConfig, "port">): string {
  return `http://127.0.0.1:${config.port}`;
}

/** The environment of the server and of the fixture script: production, loopback only, no SMTP. */
export function serverEnv(config: ServerConfig): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...config.secrets,
    NODE_ENV: "production",
    PORT: String(config.port),
    HOST: "127.0.0.1",
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.databaseUrl,
    APP_URL: baseUrl(config),
    SMTP_URL: "",
    GOOGLE_CLIENT_ID: "",
    GOOGLE_CLIENT_SECRET: "",
    ...config.env,
  };
}

export type RunningServer = {
  child: ChildProcess;
  url: string;
  /** Settles when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; the exit code, null if it had to be killed. */
  stop(graceMs?: number): Promise<number | null>;
};

/** Starts `node server.js` and waits until /healthz answers 200. */
export async function startServer(config: ServerConfig, timeoutMs = 60_000): Promise<RunningServer> {
  const log = createWriteStream(config.logFile, { flags: "a" });
  log.write(`\n--- starting the server at ${new Date().toISOString()}\n`);
  const child = spawn(process.execPath, [...(config.nodeArgs ?? []), "server.js"], {
    env: serverEnv(config),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      log.write(`--- the server exited (code ${code}, signal ${signal})\n`);
      resolve({ code, signal });
    });
  });
  const url = baseUrl(config);
  const server: RunningServer = {
    child,
    url,
    exited,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const { code } = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < deadline && !gone) {
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.stop(2_000);
  throw new Error(
    `the server did not answer /healthz with 200 within ${timeoutMs} ms (see ${config.logFile})`,
  );
}

/** Runs scripts/lib/fixture-db.ts with the server's configuration; throws with its output when it fails. */
export function runFixtureDb(config: ServerConfig, args: string[], timeoutMs = 600_000): Promise<void> {
  return runDbScript("fixture-db.ts", config, args, timeoutMs);
}

/** Runs the script `file` of scripts/lib with the server's configuration; throws with its output when it fails. */
export async function runDbScript(file: string, config: ServerConfig, args: string[], timeoutMs = 600_000): Promise<void> {
  const tsx = path.resolve("node_modules", ".bin", "tsx");
  const child = spawn(tsx, [path.resolve("scripts", "lib", file), ...args], {
    env: serverEnv(config),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${file.replace(/\.ts$/, "")} ${args[0]} failed (exit ${code}):\n${output}`);
}

/**
 * Until the returned function is called, Ctrl-C (or SIGTERM) kills the server at once and ends
 * this process, instead of leaving the server running.
 */
export function killServerOnSignal(server: RunningServer): () => void {
  const stop = () => {
    server.child.kill("SIGKILL");
    process.exit(130);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
}
