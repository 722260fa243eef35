// The browser tests' servers: one per Playwright worker, each on its own port with its own mock
// Google, its own local Stripe (scripts/lib/stripe-stand-in.js), data folder (an embedded
// database, an outbox) and log, so that two workers never share a database, a staff session, a
// payment or an e-mail. A worker talks only to the server of its
// parallel index (playwright.config.ts); E2E_WORKERS=1 runs every spec file on one server.

/** How many workers, and so servers (E2E_WORKERS; 2 by default, one per core of the CI machine). */
export const E2E_WORKERS = Math.max(1, Math.floor(Number(process.env.E2E_WORKERS ?? 2)) || 1);

const firstPort = Number(process.env.E2E_PORT ?? 3999);
const firstMockPort = Number(process.env.E2E_GOOGLE_MOCK_PORT ?? 3998);
/**
 * The Stripe stand-ins' ports count down by one from just below every server's and mock's port
 * (those count down by two from E2E_PORT and E2E_GOOGLE_MOCK_PORT), so that no two lanes' ports
 * meet whatever the two starting ports are: 3999/3998 with two workers use 3999-3996 and the
 * stand-ins 3995 and 3994. E2E_STRIPE_PORT sets the first stand-in's port instead (a machine
 * where the port below is taken).
 */
const firstStripePort = Number(process.env.E2E_STRIPE_PORT ?? Math.min(firstPort, firstMockPort) - 2 * E2E_WORKERS + 1);

/** The test-mode keys the browser tests' servers are configured with (never real ones). */
export const E2E_STRIPE_KEYS = { secretKey: "sk_test_taxbridge_e2e", webhookSecret: "whsec_taxbridge_e2e" } as const;

export type E2eServer = {
  port: number;
  url: string;
  /** The mock Google (an OpenID provider) that scripts/e2e-server.js starts beside the server. */
  mockUrl: string;
  mockPort: number;
  /** The local Stripe that scripts/e2e-server.js starts beside the server (STRIPE_API_URL). */
  stripeUrl: string;
  stripePort: number;
  dataDir: string;
  /** Everything the server printed (scripts/e2e-server.js), searched for secrets afterwards. */
  logFile: string;
};

/**
 * The server of worker `index` (0-based): ports count down by two from E2E_PORT and
 * E2E_GOOGLE_MOCK_PORT, the Stripe stand-ins' by one from firstStripePort.
 */
export function e2eServer(index: number): E2eServer {
  const port = firstPort - 2 * index;
  const mockPort = firstMockPort - 2 * index;
  const stripePort = firstStripePort - index;
  return {
    port,
    url: `http://localhost:${port}`,
    mockPort,
    mockUrl: `http://127.0.0.1:${mockPort}`,
    stripePort,
    stripeUrl: `http://127.0.0.1:${stripePort}`,
    dataDir: `.tmp/e2e-data-${index + 1}`,
    logFile: `.tmp/e2e-server-${index + 1}.log`,
  };
}

export const e2eServers: E2eServer[] = Array.from({ length: E2E_WORKERS }, (_, i) => e2eServer(i));

/**
 * The server of the worker this code runs in. Playwright sets TEST_PARALLEL_INDEX in each worker
 * before it loads the config and the specs; outside a worker (the runner itself) it is the first.
 */
export function thisWorkersServer(): E2eServer {
  return e2eServer(Number(process.env.TEST_PARALLEL_INDEX ?? 0) % E2E_WORKERS);
}
