// scrypt, which password hashes use, is made slow on purpose (about 60 ms of CPU per call). Tests
// and the fixture script sign accounts of one password hash in again and again: in their process
// (never the server's), importing this makes node:crypto's scrypt keep what it computed and answer
// the same input (password, salt, length, settings) with the same key at once. It is a pure
// function of its input, so every answer is the one it would compute; a new password or salt is
// computed as usual.
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";

type Callback = (error: Error | null, key: Buffer) => void;

const computed = new Map<string, Buffer>();
const scrypt = crypto.scrypt;

function keyOf(password: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, options: unknown): string {
  const bytes = (value: crypto.BinaryLike) =>
    typeof value === "string" ? `s${value}` : `b${Buffer.from(value as Uint8Array).toString("base64")}`;
  return JSON.stringify([bytes(password), bytes(salt), keylen, options ?? null]);
}

function memoScrypt(
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  optionsOrCallback: crypto.ScryptOptions | Callback,
  maybeCallback?: Callback,
): void {
  const options = typeof optionsOrCallback === "function" ? undefined : optionsOrCallback;
  const callback = (typeof optionsOrCallback === "function" ? optionsOrCallback : maybeCallback)!;
  const key = keyOf(password, salt, keylen, options);
  const known = computed.get(key);
  if (known) {
    process.nextTick(() => callback(null, Buffer.from(known)));
    return;
  }
  scrypt(password, salt, keylen, options ?? {}, (error, derived) => {
    if (!error) computed.set(key, Buffer.from(derived));
    callback(error, derived);
  });
}

crypto.scrypt = memoScrypt as typeof crypto.scrypt;
// `import { scrypt } from "node:crypto"` in modules loaded after this sees it too.
syncBuiltinESMExports();
