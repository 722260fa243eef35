// Forged values for tests that check a refusal: made from the real value so that they always
// differ from it. A fixed guess ("x" as the last character, the code "000000") is the real value
// now and then, and the test then fails, or passes without testing anything, by chance.
import { timeStep, totpAt } from "~/server/auth/totp.server";

/**
 * `text` with its character at `index` (negative counts from the end) replaced by another one
 * of the same kind (a letter by a letter, a digit by a digit), never by itself.
 */
export function withCharacterChanged(text: string, index: number): string {
  const at = index < 0 ? text.length + index : index;
  const old = text[at];
  if (old === undefined) throw new Error(`no character at ${index} in a text of ${text.length}`);
  const pool = /\d/.test(old) ? "0123456789" : /[A-Z]/.test(old) ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ" : "abcdefghijklmnopqrstuvwxyz";
  const replacement = pool[(pool.indexOf(old) + 1) % pool.length] ?? pool[0]!;
  return `${text.slice(0, at)}${replacement}${text.slice(at + 1)}`;
}

/**
 * `count` six-digit codes that the authenticator of `secret` does not show in the steps around
 * now: none is accepted for the next few minutes (the server takes one step either side of its
 * own, and the test goes on for a while).
 */
export function wrongTotpCodes(secret: string, count: number): string[] {
  const now = timeStep();
  const real = new Set<string>();
  for (let step = now - 2; step <= now + 10; step++) real.add(totpAt(secret, step));
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n++) {
    const code = String((n * 111_111 + 123_457 * Math.floor(n / 10)) % 1_000_000).padStart(6, "0");
    if (!real.has(code) && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

/** One six-digit code the authenticator of `secret` does not show in the steps around now. */
export function wrongTotpCode(secret: string): string {
  return wrongTotpCodes(secret, 1)[0]!;
}
