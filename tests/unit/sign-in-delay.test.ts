import { describe, expect, it } from "vitest";
import { SIGN_IN_DELAY_MAX_MS, signInDelayMs } from "~/server/limits/auth-limits.server";

describe("signInDelayMs", () => {
  it("lets the first failures through without a wait", () => {
    expect([0, 1, 2, 3, 4].map((n) => signInDelayMs(n, 5))).toEqual([0, 0, 0, 0, 0]);
  });

  it("then waits 250 ms, doubling with each failure", () => {
    expect([5, 6, 7, 8].map((n) => signInDelayMs(n, 5))).toEqual([250, 500, 1000, 2000]);
  });

  it("never waits longer than four seconds, however many failures", () => {
    expect(SIGN_IN_DELAY_MAX_MS).toBe(4000);
    expect([9, 10, 50, 1_000, 1e9].map((n) => signInDelayMs(n, 5))).toEqual([4000, 4000, 4000, 4000, 4000]);
  });

  it("counts from the scaled number of free failures (RATE_LIMIT_SCALE=20 for the browser tests: 100)", () => {
    expect(signInDelayMs(99, 100)).toBe(0);
    expect(signInDelayMs(100, 100)).toBe(250);
  });
});
