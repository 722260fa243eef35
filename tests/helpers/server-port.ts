// The built server started by a test beside the rest of the run, on a port the system chose.
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { startServer } from "../../scripts/lib/server-process";
import type { RunningServer, ServerConfig } from "../../scripts/lib/server-process";

const TRIES = 5;

/**
 * A port nothing listens on at this moment, as the system hands them out. Only for a moment:
 * between this answer and a server's start, another process (another test file's server, a
 * connection going out) may take it. startServerOnFreePort starts a server on one and checks.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** What the server wrote to `logFile` after byte `from`. */
function logSince(logFile: string, from: number): string {
  return existsSync(logFile) ? readFileSync(logFile).subarray(from).toString("utf8") : "";
}

/** Whether the log shows `pattern` after byte `from` within `ms` (what a process prints reaches the file a little later). */
async function logShows(logFile: string, from: number, pattern: RegExp, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (pattern.test(logSince(logFile, from))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Whether the server that answered /healthz is `server` itself: its log says it is listening
 * (server.js) before it exits. When someone else had the port, /healthz may have been answered
 * by that other server while this one stopped, "already in use".
 */
async function listensItself(server: RunningServer, logFile: string, from: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (/TaxBridge is listening on/.test(logSince(logFile, from))) return true;
    if (server.child.exitCode !== null || server.child.signalCode !== null) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * Starts the built server (scripts/lib/server-process.ts) on a free port, and on another one
 * when the port was taken before the server could listen on it, up to five times. Returns the
 * server and the configuration it runs with (its port). `ports` hands out the ports to try.
 */
export async function startServerOnFreePort(
  config: Omit<ServerConfig, "port">,
  { timeoutMs, ports = freePort }: { timeoutMs?: number; ports?: () => Promise<number> } = {},
): Promise<{ server: RunningServer; config: ServerConfig }> {
  for (let attempt = 1; ; attempt++) {
    const full: ServerConfig = { ...config, port: await ports() };
    const from = existsSync(full.logFile) ? statSync(full.logFile).size : 0;
    const last = attempt === TRIES;
    let server: RunningServer;
    try {
      server = await startServer(full, timeoutMs);
    } catch (error) {
      if (!last && (await logShows(full.logFile, from, /EADDRINUSE/, 2_000))) continue;
      throw error;
    }
    if (await listensItself(server, full.logFile, from)) return { server, config: full };
    await server.stop(2_000);
    if (last) throw new Error(`the server could not listen on a free port in ${TRIES} tries (see ${full.logFile})`);
  }
}
