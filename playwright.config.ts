import { defineConfig, devices } from "@playwright/test";

import { devShmIsRoomy, findPlaywrightChromium } from "./scripts/chromium.js";
import { E2E_STRIPE_KEYS, E2E_WORKERS, e2eServers, thisWorkersServer } from "./tests/e2e/servers";

// The headless shell when installed, else the full Chromium (scripts/chromium.js, docs/decisions/0031).
const executablePath = findPlaywrightChromium(process.env.CHROME_PATH ?? "/usr/bin/chromium");

export default defineConfig({
  testDir: "tests/e2e",
  // Spec files run on E2E_WORKERS workers, each against its own server (tests/e2e/servers.ts);
  // the tests of one file run in order, on one worker.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: thisWorkersServer().url,
    trace: "off",
    launchOptions: {
      executablePath,
      // Shared memory in /dev/shm when it has room (scripts/chromium.js devShmIsRoomy).
      ignoreDefaultArgs: devShmIsRoomy() ? ["--disable-dev-shm-usage"] : [],
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: e2eServers.map((server) => ({
    command: "node scripts/e2e-server.js",
    url: `${server.url}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      NODE_ENV: "production",
      PORT: String(server.port),
      DATA_DIR: server.dataDir,
      E2E_SERVER_LOG: server.logFile,
      E2E_GOOGLE_MOCK_PORT: String(server.mockPort),
      // Card payments through the local Stripe that scripts/e2e-server.js starts on this port.
      E2E_STRIPE_PORT: String(server.stripePort),
      STRIPE_SECRET_KEY: E2E_STRIPE_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: E2E_STRIPE_KEYS.webhookSecret,
      STRIPE_API_URL: server.stripeUrl,
      DATABASE_URL: "",
      APP_URL: server.url,
      STAFF_EMAIL: "staff@taxbridge.test",
      RATE_LIMIT_SCALE: "20",
      // The client's e-mail about a staff message waits this quiet period (docs/product/requests-and-messages.md#notices).
      MESSAGE_NOTICE_DELAY_SECONDS: "1",
      SMTP_URL: "",
      ADMIN_EMAIL: "admin@taxbridge.test",
      GOOGLE_CLIENT_ID: "e2e-google-client",
      GOOGLE_CLIENT_SECRET: "e2e-google-secret",
    },
  })),
});
