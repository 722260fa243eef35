import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { getEnv } from "./env.server";

/**
 * Application-level encryption for SSNs and ITINs: AES-256-GCM, a fresh IV per value, the
 * owner's user id as additional data (a value copied to another row does not decrypt), and
 * the key's id stored with each value so keys can be rotated:
 *   v1.<keyId>.<iv>.<ciphertext>.<tag>   (base64url parts)
 */
type Key = { id: string; key: Buffer };

export function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}

function keys(): { current: Key; byId: Map<string, Key> } {
  const env = getEnv();
  const current = { id: keyId(env.ssnKey), key: env.ssnKey };
  const byId = new Map<string, Key>([[current.id, current]]);
  for (const old of env.ssnPreviousKeys) byId.set(keyId(old), { id: keyId(old), key: old });
  return { current, byId };
}

export function encryptSecret(plain: string, owner: string): string {
  const { current } = keys();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", current.id, iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".");
}

export function decryptSecret(stored: string, owner: string): string {
  const [version, id, iv, ciphertext, tag] = stored.split(".");
  if (version !== "v1" || !id || !iv || !ciphertext || !tag) throw new Error("unreadable encrypted value");
  const key = keys().byId.get(id);
  if (!key) throw new Error(`no key ${id} to decrypt this value`);
  const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(owner, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** True when a stored value was encrypted with an older key (a rotation job re-encrypts it). */
export function needsReencryption(stored: string): boolean {
  return stored.split(".")[1] !== keys().current.id;
}
