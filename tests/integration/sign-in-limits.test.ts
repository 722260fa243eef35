import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { action as loginAction } from "~/routes/auth/login";
import { signInPause } from "~/server/limits/auth-limits.server";
import { getDb } from "~/server/db/client.server";
import { formRequest, routeArgs, unwrap } from "../helpers/route";
import { signedInClient } from "./helpers";

// Wrong passwords refuse the IP they come from, never the address's owner elsewhere
// (docs/decisions/0011-sign-in-limits.md).

const OWNER = { email: "owner@example.com", password: "the owner's password 1" };
const ATTACKER_IP = "198.51.100.66";
const OWNER_IP = "203.0.113.5";

async function login(email: string, password: string, clientIp: string) {
  try {
    const result = await loginAction(
      routeArgs(formRequest("/login", { email, password }), { clientIp }) as never,
    );
    if (result instanceof Response)
      return { status: result.status, error: undefined, location: result.headers.get("location") };
    const { status, body } = unwrap<{ error?: string }>(result);
    return { status, error: body.error, location: null };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { status: thrown.status, error: undefined, location: thrown.headers.get("location") };
    throw thrown;
  }
}

/** The waits sign-in asked for, in order; they pass at once so the test does not sit through them. */
let waits: number[] = [];

beforeEach(async () => {
  await signedInClient(OWNER.email, OWNER.password);
  waits = [];
  vi.spyOn(signInPause, "wait").mockImplementation(async (ms: number) => void waits.push(ms));
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sign-in limits", () => {
  it("eight wrong passwords refuse the attacking IP, even with the right password, while the owner signs in from elsewhere", async () => {
    for (let i = 0; i < 8; i++)
      expect((await login(OWNER.email, `guess ${i}`, ATTACKER_IP)).status).toBe(401);
    expect(await login(OWNER.email, "guess 8", ATTACKER_IP)).toMatchObject({
      status: 429,
      error: AUTH_MESSAGES.rateLimited,
    });
    expect(await login(OWNER.email, OWNER.password, ATTACKER_IP)).toMatchObject({
      status: 429,
      error: AUTH_MESSAGES.rateLimited,
    });

    const owner = await login(OWNER.email, OWNER.password, OWNER_IP);
    expect(owner).toMatchObject({ status: 302, location: "/dashboard" });
    // The address was slowed down, not locked: five failures pass, then 250 ms doubling per failure.
    expect(waits).toEqual([250, 500, 1000, 2000]);

    // A mistyped password from the owner's own IP is answered as such, not refused.
    expect(await login(OWNER.email, "typo", OWNER_IP)).toMatchObject({
      status: 401,
      error: AUTH_MESSAGES.invalidCredentials,
    });
  });

  it("the wait grows with the address's failures from any IP and stops growing at four seconds", async () => {
    for (let i = 0; i < 12; i++)
      expect((await login(OWNER.email, `guess ${i}`, `192.0.2.${i + 1}`)).status).toBe(401);
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(await login(OWNER.email, OWNER.password, OWNER_IP)).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    expect(waits.at(-1)).toBe(4000);
  });

  it("a refused IP may try again once its window has passed", async () => {
    for (let i = 0; i < 8; i++) await login(OWNER.email, `guess ${i}`, ATTACKER_IP);
    expect((await login(OWNER.email, OWNER.password, ATTACKER_IP)).status).toBe(429);
    await getDb().execute(sql`update rate_limits set reset_at = now() - interval '1 second'`);
    expect(await login(OWNER.email, OWNER.password, ATTACKER_IP)).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
  });

  it("one IP gets twenty attempts across every address; other IPs are not affected", async () => {
    for (let i = 0; i < 20; i++)
      expect((await login(`someone${i}@example.com`, "guess", ATTACKER_IP)).status).toBe(401);
    expect(await login("someone-else@example.com", "guess", ATTACKER_IP)).toMatchObject({
      status: 429,
      error: AUTH_MESSAGES.rateLimited,
    });
    expect(await login(OWNER.email, OWNER.password, ATTACKER_IP)).toMatchObject({ status: 429 });
    expect(await login(OWNER.email, OWNER.password, OWNER_IP)).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
    expect(waits).toEqual([]);
  });

  it("right passwords are not failures: the owner signs in again and again from one IP, without waiting", async () => {
    for (let i = 0; i < 12; i++)
      expect((await login(OWNER.email, OWNER.password, OWNER_IP)).status).toBe(302);
    expect(waits).toEqual([]);
  });

  it("an attempt on a slowed address really waits before it is answered", async () => {
    vi.mocked(signInPause.wait).mockRestore();
    for (let i = 0; i < 5; i++) await login(OWNER.email, `guess ${i}`, `192.0.2.${i + 1}`);
    const started = performance.now();
    expect((await login(OWNER.email, OWNER.password, OWNER_IP)).status).toBe(302);
    expect(performance.now() - started).toBeGreaterThanOrEqual(245);
  });
});
