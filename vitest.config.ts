import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };
// Test files run in parallel, two at a time by default (Vitest's default on a 2-core machine
// would be one): VITEST_MAX_WORKERS changes it. Each integration file has its own data folder
// (PGlite), and on PostgreSQL each worker its own database (tests/integration/worker-database.ts).
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? 2);

export default defineConfig({
  resolve: { alias },
  test: {
    // Worker threads rather than child processes: a file's fresh worker starts and loads the
    // app's modules for less CPU time (docs/decisions/0032-test-files-in-worker-threads.md).
    pool: "threads",
    maxWorkers,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/integration/setup.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Checks on what the browser tests left behind (their server's log): scripts/test.js
        // runs it after Playwright; `npm test` is the way to run it.
        resolve: { alias },
        test: {
          name: "after-e2e",
          include: ["tests/after-e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
