import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3999);
export const e2eDataDir = ".tmp/e2e-data";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node scripts/e2e-server.js",
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: e2eDataDir,
      DATABASE_URL: "",
      APP_URL: `http://localhost:${port}`,
      STAFF_EMAIL: "staff@taxbridge.test",
      RATE_LIMIT_SCALE: "20",
      // The client's e-mail about a staff message waits this quiet period (README, Messages).
      MESSAGE_NOTICE_DELAY_SECONDS: "1",
      SMTP_URL: "",
      ADMIN_EMAIL: "admin@taxbridge.test",
      GOOGLE_CLIENT_ID: "e2e-google-client",
      GOOGLE_CLIENT_SECRET: "e2e-google-secret",
    },
  },
});
