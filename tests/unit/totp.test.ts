import { URI } from "otpauth";
import { describe, expect, it } from "vitest";
import { matchTotp, newBackupCodes, newTotpSecret, otpauthUri, timeStep, totpAt } from "~/server/auth/totp.server";

// RFC 6238 appendix B test secret ("12345678901234567890") in base32, as secrets are stored,
// SHA-1, truncated to 6 digits.
const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("TOTP", () => {
  it("matches the RFC 6238 test vectors", () => {
    expect(totpAt(rfcSecret, Math.floor(59 / 30))).toBe("287082");
    expect(totpAt(rfcSecret, Math.floor(1111111109 / 30))).toBe("081804");
    expect(totpAt(rfcSecret, Math.floor(1234567890 / 30))).toBe("005924");
    expect(totpAt(rfcSecret, Math.floor(2000000000 / 30))).toBe("279037");
  });
  it("counts 30-second steps", () => {
    expect(timeStep(59_000)).toBe(1);
    expect(timeStep(60_000)).toBe(2);
    expect(timeStep(1111111109 * 1000)).toBe(37037036);
  });
  it("accepts one step of drift, refuses replays and nonsense", () => {
    const at = 1111111109 * 1000;
    const step = Math.floor(1111111109 / 30);
    expect(matchTotp(rfcSecret, "081804", 0, at)).toBe(step);
    expect(matchTotp(rfcSecret, " 081 804 ", 0, at)).toBe(step);
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step - 1), 0, at)).toBe(step - 1);
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step + 1), 0, at)).toBe(step + 1);
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step - 2), 0, at)).toBeNull();
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step + 2), 0, at)).toBeNull();
    expect(matchTotp(rfcSecret, "081804", step, at)).toBeNull();
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step - 1), step - 1, at)).toBeNull();
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step + 1), step, at)).toBe(step + 1);
    expect(matchTotp(rfcSecret, "08180", 0, at)).toBeNull();
    expect(matchTotp(rfcSecret, "abcdef", 0, at)).toBeNull();
  });
  it("makes 160-bit base32 secrets that authenticator apps read back from the URI", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = otpauthUri(secret, "a@b.co", "TaxBridge");
    expect(uri).toMatch(/^otpauth:\/\/totp\/TaxBridge:a%40b\.co\?/);
    const parsed = URI.parse(uri);
    expect(parsed).toMatchObject({ issuer: "TaxBridge", label: "a@b.co", algorithm: "SHA1", digits: 6 });
    expect(parsed.secret.base32).toBe(secret);
    expect("period" in parsed && parsed.period).toBe(30);
    expect(parsed.generate({ timestamp: 1111111109 * 1000 })).toBe(totpAt(secret, timeStep(1111111109 * 1000)));
  });
  it("makes ten different backup codes", () => {
    const codes = newBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
  });
});
