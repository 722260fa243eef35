// The public page cache (app/server/http/page-cache.server.ts) as visitors and clients see it.
import { expect, test, createVerifiedUser, signIn, uniqueEmail } from "./support";
import type { APIResponse } from "@playwright/test";

// The pricing page at an address no other spec asks for: a page is kept a minute, and another
// spec's visit to /pricing on this server just under a minute earlier left an entry that could
// expire between two requests of a test here.
const PAGE = "/pricing/";

const nonceOfPolicy = (response: APIResponse) =>
  /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];

test("a visitor without cookies gets the kept page, compressed once, the same page as a fresh render, and each answer its own policy nonce", async ({
  playwright,
  baseURL,
}) => {
  const visitor = await playwright.request.newContext({ baseURL });
  const first = await visitor.get(PAGE);
  // The page is compressed off the main thread after the first answer.
  await expect
    .poll(async () => (await visitor.get(PAGE)).headers()["content-encoding"], { timeout: 5_000 })
    .toBe("br");
  const second = await visitor.get(PAGE, { headers: { "accept-encoding": "gzip" } });
  const third = await visitor.get(PAGE, { headers: { "accept-encoding": "identity" } });

  expect(second.headers()["server-timing"]).toBe('page-cache;desc="hit"');
  expect(second.headers()["content-encoding"]).toBe("gzip");
  expect(third.headers()["server-timing"]).toBe('page-cache;desc="hit"');
  expect(third.headers()["content-encoding"]).toBeUndefined();
  const answers = [first, second, third];
  expect(new Set(answers.map(nonceOfPolicy)).size).toBe(3);
  const bodies = await Promise.all(answers.map((a) => a.text()));
  // What is sent from memory is what React rendered, and a public page carries no nonce: its one
  // script is the site's own enhancement module.
  expect(bodies[1]).toBe(bodies[0]);
  expect(bodies[2]).toBe(bodies[0]);
  expect(bodies[0]).not.toContain("nonce=");
  expect(bodies[0]!.match(/<script\b[^>]*>/g)).toEqual([
    expect.stringMatching(/^<script type="module" src="\/assets\/enhance-[\w-]+\.js">$/),
  ]);
  for (const answer of answers) {
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.headers()["cache-control"]).toBe("no-cache");
    expect(answer.headers()["x-frame-options"]).toBe("DENY");
    expect(answer.headers()["vary"]).toContain("Accept-Encoding");
  }
  await visitor.dispose();
});

test("scripts and the stylesheet are sent as compressed at build time, in the encoding the browser takes", async ({
  playwright,
  baseURL,
}) => {
  const visitor = await playwright.request.newContext({ baseURL });
  const home = await (await visitor.get("/")).text();
  const assets = [...home.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  expect(assets.length).toBeGreaterThanOrEqual(2);
  for (const asset of assets) {
    const plain = await visitor.get(asset, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    const original = await plain.body();
    for (const encoding of ["br", "gzip"]) {
      const answer = await visitor.get(asset, { headers: { "accept-encoding": encoding } });
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-type"]).toBe(plain.headers()["content-type"]);
      expect(answer.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(answer.headers()["vary"]).toContain("Accept-Encoding");
      if (original.length < 1024) continue;
      expect(answer.headers()["content-encoding"]).toBe(encoding);
      expect(Number(answer.headers()["content-length"])).toBeLessThan(original.length);
      expect((await answer.body()).equals(original)).toBe(true);
    }
  }
  await visitor.dispose();
});

test("a signed-in client never gets the visitors' kept page: theirs shows their account and is no-store", async ({
  page,
  playwright,
  baseURL,
}) => {
  const visitor = await playwright.request.newContext({ baseURL });
  await visitor.get(PAGE);
  expect((await visitor.get(PAGE)).headers()["server-timing"]).toBe('page-cache;desc="hit"');
  await visitor.dispose();

  const email = uniqueEmail("cache");
  const helper = await playwright.request.newContext({ baseURL });
  await createVerifiedUser(helper, email);
  await helper.dispose();
  await signIn(page, email);
  await page.waitForURL("**/dashboard");
  const mine = await page.context().request.get(PAGE);
  expect(mine.headers()["server-timing"]).toBeUndefined();
  expect(mine.headers()["cache-control"]).toBe("private, no-store");
  expect(await mine.text()).toContain(email);
});

test("every page is sent whole, with its length: a visitor's, a signed-in client's and a missing one (docs/decisions/0035-pages-sent-whole.md)", async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = uniqueEmail("whole");
  const helper = await playwright.request.newContext({ baseURL });
  await createVerifiedUser(helper, email);
  await helper.dispose();
  await signIn(page, email);
  await page.waitForURL("**/dashboard");
  const client = page.context().request;
  const visitor = await playwright.request.newContext({ baseURL });
  const identity = { headers: { "accept-encoding": "identity" } };
  const answers = [
    await visitor.get("/login", identity),
    await client.get("/my-tax-filing", identity),
    await visitor.get("/no-such-page", identity),
  ];
  expect(answers.map((a) => a.status())).toEqual([200, 200, 404]);
  expect(await answers[1]!.text()).toContain(email);
  for (const answer of answers) {
    expect(answer.headers()["transfer-encoding"]).toBeUndefined();
    expect(Number(answer.headers()["content-length"])).toBe((await answer.body()).byteLength);
  }
  await visitor.dispose();
});

test("a page asked for with a query is rendered afresh, never kept", async ({ playwright, baseURL }) => {
  const visitor = await playwright.request.newContext({ baseURL });
  await visitor.get("/about?from=mail");
  const again = await visitor.get("/about?from=mail");
  expect(again.status()).toBe(200);
  expect(again.headers()["server-timing"]).toBeUndefined();
  await visitor.dispose();
});
