import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The value of the cookie `name` in a Cookie header when it is signed with `secret` as Better
 * Auth signs its cookies (`value.signature`, URL-encoded; the signature the 44-character base64
 * of HMAC-SHA256 of the value), else null: no cookie, a malformed one, or a wrong signature.
 */
export function signedToken(cookieHeader: string, name: string, secret: string): string | null {
  let raw: string | undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) raw = part.slice(eq + 1).trim();
  }
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(signature)) return null;
  const given = Buffer.from(signature, "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}
