import { randomBytes } from "node:crypto";
import { HOTP, Secret, TOTP } from "otpauth";

/**
 * TOTP (RFC 6238) with the usual authenticator-app settings: SHA-1, 6 digits, 30-second steps.
 * Secrets are stored as base32 text. The codes come from `otpauth`; what is ours is the rule
 * that a code works once: a step at or before the last one used is refused.
 */
const SETTINGS = { algorithm: "SHA1", digits: 6, period: 30 } as const;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function timeStep(at: number = Date.now()): number {
  return TOTP.counter({ period: SETTINGS.period, timestamp: at });
}

export function totpAt(secret: string, step: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: SETTINGS.algorithm, digits: SETTINGS.digits, counter: step });
}

/**
 * The step a code belongs to, accepting one step of clock drift either way, or null.
 * Steps at or before `lastStep` are refused, so a code works once.
 */
export function matchTotp(secret: string, code: string, lastStep: number, at: number = Date.now()): number | null {
  const clean = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(clean)) return null;
  const key = Secret.fromBase32(secret);
  const now = timeStep(at);
  for (const step of [now - 1, now, now + 1]) {
    if (step <= lastStep) continue;
    const delta = HOTP.validate({ token: clean, secret: key, algorithm: SETTINGS.algorithm, digits: SETTINGS.digits, counter: step, window: 0 });
    if (delta === 0) return step;
  }
  return null;
}

/** The otpauth:// URI an authenticator app reads from the enrolment QR code. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secret), ...SETTINGS }).toString();
}

/** Ten one-time backup codes like "k3f9-2mxq". */
export function newBackupCodes(): string[] {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return Array.from({ length: 10 }, () => {
    const bytes = randomBytes(8);
    const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4)}`;
  });
}
