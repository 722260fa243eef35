// A test's own built server on a port taken meanwhile (tests/helpers/server-port.ts): the port a
// test chose was free when chosen, but another process may listen on it before the server does.
// The server then stops ("already in use") while /healthz may be answered by that other process.
//
// It needs the production build: it builds when the build is missing or older than the sources.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildIfStale } from "../../scripts/build-if-stale.js";
import { freshSecrets } from "../../scripts/lib/server-process";
import type { RunningServer } from "../../scripts/lib/server-process";
import { freePort, startServerOnFreePort } from "../helpers/server-port";

const root = mkdtempSync(path.join(os.tmpdir(), "taxbridge-server-port-"));
const started: RunningServer[] = [];
let decoy: Server | undefined;

afterAll(async () => {
  for (const server of started) await server.stop();
  await new Promise<void>((resolve) => (decoy ? decoy.close(() => resolve()) : resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe("a test's server on a free port", () => {
  it("starts on another port when another process listens on the chosen one, and answers itself", { timeout: 300_000 }, async () => {
    buildIfStale();
    // Another process took the port: an HTTP server that answers /healthz too.
    decoy = createServer((_request, response) => response.end("someone else"));
    await new Promise<void>((resolve) => decoy!.listen(0, "127.0.0.1", resolve));
    const taken = (decoy.address() as AddressInfo).port;
    const handedOut: number[] = [];
    const ports = async () => {
      const port = handedOut.length === 0 ? taken : await freePort();
      handedOut.push(port);
      return port;
    };
    const { server, config } = await startServerOnFreePort(
      { dataDir: path.join(root, "data"), databaseUrl: "", secrets: freshSecrets(), logFile: path.join(root, "server.log"), env: { ADMIN_EMAIL: "", STAFF_EMAIL: "staff@taxbridge.test" } },
      { ports },
    );
    started.push(server);
    expect(handedOut[0]).toBe(taken);
    expect(config.port).not.toBe(taken);
    expect(server.url).toBe(`http://127.0.0.1:${config.port}`);
    expect(server.child.exitCode).toBeNull();
    const page = await fetch(`${server.url}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("TaxBridge");
  });
});
