import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signedToken } from "~/server/auth/signed-cookie.server";

const SECRET = "a secret of the server, long enough";
const NAME = "taxbridge.session_token";

// As better-call (Better Auth's cookies) signs a value; tests/integration/session-lookup.test.ts
// reads the cookies of real sign-ins.
const sign = (value: string, secret = SECRET) => `${value}.${createHmac("sha256", secret).update(value).digest("base64")}`;
const signCookieValue = (value: string, secret: string) => encodeURIComponent(sign(value, secret));

describe("the session cookie's signature", () => {
  it("reads a value signed as Better Auth signs its cookies", () => {
    const signed = signCookieValue("AbC123token", SECRET);
    expect(signedToken(`other=1; ${NAME}=${signed}; x=y`, NAME, SECRET)).toBe("AbC123token");
    expect(signedToken(`${NAME}=${encodeURIComponent(sign("tok.en.with.dots"))}`, NAME, SECRET)).toBe("tok.en.with.dots");
  });

  it("refuses a changed value, a changed signature, another secret, or another cookie's name", () => {
    const signed = decodeURIComponent(signCookieValue("AbC123token", SECRET));
    const [value, signature] = [signed.slice(0, signed.lastIndexOf(".")), signed.slice(signed.lastIndexOf(".") + 1)];
    expect(signedToken(`${NAME}=${encodeURIComponent(`${value}x.${signature}`)}`, NAME, SECRET)).toBeNull();
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    expect(signedToken(`${NAME}=${encodeURIComponent(`${value}.${flipped}`)}`, NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=${encodeURIComponent(sign(value, "another secret"))}`, NAME, SECRET)).toBeNull();
    expect(signedToken(`__Secure-${NAME}=${encodeURIComponent(signed)}`, NAME, SECRET)).toBeNull();
    expect(signedToken(`x${NAME}=${encodeURIComponent(signed)}`, NAME, SECRET)).toBeNull();
  });

  it("refuses what is not a signed value", () => {
    const good = encodeURIComponent(sign("token"));
    expect(signedToken("", NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=`, NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=token`, NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=%E0%A4%A`, NAME, SECRET)).toBeNull();
    // The signature must be exactly the base64 of 32 bytes: no padding left out, nothing added.
    expect(signedToken(`${NAME}=${good.replace(/%3D$/, "")}`, NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=${good}%3D`, NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=.${good.slice(good.indexOf(".") + 1)}`, NAME, SECRET)).toBeNull();
    expect(signedToken(`${NAME}=${good}`, NAME, SECRET)).toBe("token");
  });
});
