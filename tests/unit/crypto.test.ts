import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "~/server/platform/env.server";
import { decryptSecret, encryptSecret, needsReencryption } from "~/server/platform/crypto.server";
import { tempDirs } from "../helpers/temp-dirs";

const dataDir = tempDirs("taxbridge-crypto-");

function useKeys(current: string, previous?: string) {
  process.env.DATA_DIR = dataDir();
  process.env.SSN_ENCRYPTION_KEY = current;
  if (previous) process.env.SSN_ENCRYPTION_PREVIOUS_KEYS = previous;
  else delete process.env.SSN_ENCRYPTION_PREVIOUS_KEYS;
  resetEnvForTests();
}
const newKey = () => randomBytes(32).toString("base64");

afterEach(() => {
  delete process.env.SSN_ENCRYPTION_KEY;
  delete process.env.SSN_ENCRYPTION_PREVIOUS_KEYS;
  resetEnvForTests();
});

describe("SSN encryption", () => {
  it("round-trips, with a fresh IV each time and no plain digits in the stored value", () => {
    useKeys(newKey());
    const a = encryptSecret("123-45-6789", "user-1");
    const b = encryptSecret("123-45-6789", "user-1");
    expect(a).not.toBe(b);
    expect(a).not.toContain("6789");
    expect(decryptSecret(a, "user-1")).toBe("123-45-6789");
  });
  it("refuses a value moved to another owner or tampered with", () => {
    useKeys(newKey());
    const stored = encryptSecret("123-45-6789", "user-1");
    expect(() => decryptSecret(stored, "user-2")).toThrow();
    const parts = stored.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => decryptSecret(parts.join("."), "user-1")).toThrow();
  });
  it("rotates keys: old values still decrypt with the previous key and are flagged for re-encryption", () => {
    const oldKey = newKey();
    useKeys(oldKey);
    const stored = encryptSecret("987-65-4321", "u");
    useKeys(newKey(), oldKey);
    expect(decryptSecret(stored, "u")).toBe("987-65-4321");
    expect(needsReencryption(stored)).toBe(true);
    expect(needsReencryption(encryptSecret("987-65-4321", "u"))).toBe(false);
    useKeys(newKey());
    expect(() => decryptSecret(stored, "u")).toThrow(/no key/);
  });
});
