// The production server as the benchmarks start it (scripts/bench.ts, the cost curve, the season's start).
import path from "node:path";
import { freshSecrets } from "./server-process";
import type { ServerConfig } from "./server-process";

/**
 * Rate limits are raised this much for a benchmark's server: every request comes from one address
 * (the password-reset requests, say, are 10 an hour per IP and 3 per e-mail address at scale 1).
 */
export const BENCH_RATE_LIMIT_SCALE = 1000;

/** A benchmark server's configuration: its port, folder and database, fresh secrets, its log in its folder, the raised rate limits, then `env`. */
export function benchServerConfig(
  where: { port: number; dataDir: string; databaseUrl: string },
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): ServerConfig {
  return {
    port: where.port,
    dataDir: where.dataDir,
    databaseUrl: where.databaseUrl,
    secrets: freshSecrets(),
    logFile: path.join(where.dataDir, "server.log"),
    env: { RATE_LIMIT_SCALE: String(BENCH_RATE_LIMIT_SCALE), ...env },
    nodeArgs,
  };
}
