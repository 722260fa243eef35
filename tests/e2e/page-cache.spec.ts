// The public page cache (app/server/page-cache.server.ts) as visitors and clients see it.
import { expect, test } from "@playwright/test";
import type { APIResponse } from "@playwright/test";
import { createVerifiedUser, signIn, uniqueEmail } from "./support";

const nonceOfPolicy = (response: APIResponse) =>
  /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
const scriptNonces = (html: string) =>
  [...html.matchAll(/<script\b[^>]*\bnonce="([^"]*)"/g)].map((m) => m[1]);

test("a visitor without cookies gets a kept page with this answer's own nonce, the same page as a fresh render", async ({
  playwright,
  baseURL,
}) => {
  const visitor = await playwright.request.newContext({ baseURL });
  const first = await visitor.get("/pricing");
  const second = await visitor.get("/pricing");
  const third = await visitor.get("/pricing");

  expect(second.headers()["server-timing"]).toBe('page-cache;desc="hit"');
  expect(third.headers()["server-timing"]).toBe('page-cache;desc="hit"');
  const answers = [first, second, third];
  const nonces = answers.map(nonceOfPolicy);
  expect(new Set(nonces).size).toBe(3);
  const bodies = await Promise.all(answers.map((a) => a.text()));
  bodies.forEach((body, i) => {
    expect(scriptNonces(body).length).toBeGreaterThan(0);
    expect(new Set(scriptNonces(body))).toEqual(new Set([nonces[i]]));
  });
  // Apart from the nonce, what is sent from memory is what React rendered.
  expect(bodies[1]!.replaceAll(nonces[1]!, "NONCE")).toBe(bodies[0]!.replaceAll(nonces[0]!, "NONCE"));
  for (const answer of answers) {
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.headers()["cache-control"]).toBe("no-cache");
    expect(answer.headers()["x-frame-options"]).toBe("DENY");
  }
  await visitor.dispose();
});

test("a signed-in client never gets the visitors' kept page: theirs shows their account and is no-store", async ({
  page,
  playwright,
  baseURL,
}) => {
  const visitor = await playwright.request.newContext({ baseURL });
  await visitor.get("/pricing");
  expect((await visitor.get("/pricing")).headers()["server-timing"]).toBe('page-cache;desc="hit"');
  await visitor.dispose();

  const email = uniqueEmail("cache");
  const helper = await playwright.request.newContext({ baseURL });
  await createVerifiedUser(helper, email);
  await helper.dispose();
  await signIn(page, email);
  await page.waitForURL("**/dashboard");
  const mine = await page.context().request.get("/pricing");
  expect(mine.headers()["server-timing"]).toBeUndefined();
  expect(mine.headers()["cache-control"]).toBe("private, no-store");
  expect(await mine.text()).toContain(email);
});

test("a page asked for with a query is rendered afresh, never kept", async ({ playwright, baseURL }) => {
  const visitor = await playwright.request.newContext({ baseURL });
  await visitor.get("/about?from=mail");
  const again = await visitor.get("/about?from=mail");
  expect(again.status()).toBe(200);
  expect(again.headers()["server-timing"]).toBeUndefined();
  await visitor.dispose();
});
