// Starts the built server for the browser tests on a fresh embedded database, with a mock
// Google (an OpenID provider on loopback) and, when E2E_STRIPE_PORT is set, a local Stripe
// (scripts/lib/stripe-stand-in.js) that STRIPE_API_URL points at. Test-only: Google's token and
// key endpoints are answered by the mock through a fetch shim in this process.
// Everything the process prints also goes to E2E_SERVER_LOG (tests/e2e/servers.ts), which
// tests/after-e2e/logs.test.ts searches for secrets once the browser tests are done.
import "./lib/private-files.js";
import { mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { startStripeStandIn } from "./lib/stripe-stand-in.js";

const logFile = process.env.E2E_SERVER_LOG ?? ".tmp/e2e-server-1.log";
mkdirSync(path.dirname(logFile), { recursive: true });
const logFd = openSync(logFile, "w", 0o600);
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  // Synchronous, so that what a crashing process prints last is in the file too.
  stream.write = (chunk, encoding, callback) => {
    try {
      writeSync(logFd, typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk);
    } catch {
      // The copy is best effort; the terminal output must not depend on it.
    }
    return write(chunk, encoding, callback);
  };
}

rmSync(process.env.DATA_DIR ?? ".tmp/e2e-data-1", { recursive: true, force: true });

const mockPort = Number(process.env.E2E_GOOGLE_MOCK_PORT ?? 3998);
const mock = new OAuth2Server();
await mock.issuer.keys.generate("RS256");
await mock.start(mockPort, "127.0.0.1");
const mockBase = `http://127.0.0.1:${mockPort}`;

// The test says who signs in: /authorize?...&test_email=...&test_name=...
const people = new Map();
mock.service.on("beforeAuthorizeRedirect", (redirect, req) => {
  const code = redirect.url.searchParams.get("code");
  if (code) people.set(code, { email: String(req.query.test_email ?? ""), name: String(req.query.test_name ?? "") });
});
mock.service.on("beforeTokenSigning", (token, req) => {
  const who = people.get(req.body?.code) ?? { email: "", name: "" };
  Object.assign(token.payload, {
    iss: "https://accounts.google.com",
    aud: process.env.GOOGLE_CLIENT_ID,
    sub: `google-${who.email}`,
    email: who.email,
    email_verified: true,
    name: who.name,
  });
});

const googleToMock = new Map([
  ["https://oauth2.googleapis.com/token", `${mockBase}/token`],
  ["https://www.googleapis.com/oauth2/v3/certs", `${mockBase}/jwks`],
]);
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const target = googleToMock.get(url.split("?")[0]);
  if (!target) return realFetch(input, init);
  return input instanceof Request ? realFetch(new Request(target, input), init) : realFetch(target, init);
};

// The local Stripe: its hosted page's "Pay" posts the signed event to this server's webhook.
const stripePort = process.env.E2E_STRIPE_PORT;
const stripe = stripePort
  ? await startStripeStandIn({
      port: Number(stripePort),
      webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? "",
      webhookUrl: `http://127.0.0.1:${process.env.PORT ?? 3000}/api/stripe/webhook`,
    })
  : null;
if (stripe) process.env.STRIPE_API_URL = stripe.url;

process.on("SIGTERM", () => {
  void mock.stop();
  void stripe?.close();
});
await import("../server.js");
