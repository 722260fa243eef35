import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, matchTotp, newBackupCodes, otpauthUri, totpAt } from "~/server/totp.server";

// RFC 6238 appendix B test secret ("12345678901234567890"), SHA-1, truncated to 6 digits.
const rfcSecret = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP", () => {
  it("matches the RFC 6238 test vectors", () => {
    expect(totpAt(rfcSecret, Math.floor(59 / 30))).toBe("287082");
    expect(totpAt(rfcSecret, Math.floor(1111111109 / 30))).toBe("081804");
    expect(totpAt(rfcSecret, Math.floor(1234567890 / 30))).toBe("005924");
    expect(totpAt(rfcSecret, Math.floor(2000000000 / 30))).toBe("279037");
  });
  it("accepts one step of drift, refuses replays and nonsense", () => {
    const at = 1111111109 * 1000;
    const step = Math.floor(1111111109 / 30);
    expect(matchTotp(rfcSecret, "081804", 0, at)).toBe(step);
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step - 1), 0, at)).toBe(step - 1);
    expect(matchTotp(rfcSecret, totpAt(rfcSecret, step - 2), 0, at)).toBeNull();
    expect(matchTotp(rfcSecret, "081804", step, at)).toBeNull();
    expect(matchTotp(rfcSecret, "08180", 0, at)).toBeNull();
    expect(matchTotp(rfcSecret, "abcdef", 0, at)).toBeNull();
  });
  it("round-trips base32 and builds the otpauth URI", () => {
    expect(base32Decode(base32Encode(Buffer.from("hello world"))).toString()).toBe("hello world");
    expect(otpauthUri("ABC", "a@b.co", "TaxBridge")).toBe("otpauth://totp/TaxBridge%3Aa%40b.co?secret=ABC&issuer=TaxBridge&algorithm=SHA1&digits=6&period=30");
  });
  it("makes ten different backup codes", () => {
    const codes = newBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
  });
});
