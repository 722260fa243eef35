import { describe, expect, it } from "vitest";
import { newTotpSecret, timeStep, totpAt } from "~/server/auth/totp.server";
import { withCharacterChanged, wrongTotpCodes } from "../helpers/forge";

// The tests' forged values (tests/helpers/forge.ts) differ from the real ones every time.

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("a forged value", () => {
  it("changes the character asked for, whatever it is, and nothing else", () => {
    for (const c of BASE64URL + ".=+/") {
      for (const [text, index] of [[`${c}bc`, 0], [`ab${c}`, -1], [`a${c}c`, 1]] as const) {
        const forged = withCharacterChanged(text, index);
        expect(forged, text).not.toBe(text);
        expect(forged).toHaveLength(text.length);
        const at = index < 0 ? text.length + index : index;
        expect(forged.slice(0, at) + forged.slice(at + 1)).toBe(text.slice(0, at) + text.slice(at + 1));
      }
    }
    // The last character "x", which the real token sometimes ends with.
    expect(withCharacterChanged("abcx", -1)).toBe("abcy");
    expect(() => withCharacterChanged("", 0)).toThrow();
  });

  it("is never a code the authenticator shows in the minutes around now", () => {
    for (let i = 0; i < 20; i++) {
      const secret = newTotpSecret();
      const codes = wrongTotpCodes(secret, 30);
      expect(new Set(codes).size).toBe(30);
      for (const code of codes) expect(code).toMatch(/^\d{6}$/);
      const now = timeStep();
      for (let step = now - 1; step <= now + 9; step++) expect(codes).not.toContain(totpAt(secret, step));
    }
  });
});
