import { afterEach, describe, expect, it } from "vitest";
import {
  cachedPage,
  clearPageCache,
  PAGE_CACHE_MAX_ENTRIES,
  PAGE_CACHE_TTL_MS,
  pageCacheKey,
  storePage,
} from "~/server/page-cache.server";

const NONCE = "n0nceOfTheFirstRender+AA==";
const html = `<html><head><script type="module" nonce="${NONCE}" src="/assets/enhance.js"></script></head><body>Café ✓</body></html>`;
const headers = () =>
  new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" });
const keep = (key: string, extra: Partial<Parameters<typeof storePage>[1]> = {}, now = 0) =>
  storePage(key, { status: 200, headers: headers(), html, nonce: NONCE, ...extra }, now);

afterEach(() => clearPageCache());

describe("which requests the page cache serves", () => {
  it("takes GETs without cookies or query, from Express's path or React Router's URL alike", () => {
    expect(pageCacheKey("GET", "/services", undefined)).toBe("/services");
    expect(pageCacheKey("GET", "http://localhost:3000/services", null)).toBe("/services");
    expect(pageCacheKey("GET", "/", "")).toBe("/");
  });

  it("never a request with a cookie, a query, another method or a .data request", () => {
    expect(pageCacheKey("GET", "/services", "taxbridge.session_token=abc")).toBeNull();
    expect(pageCacheKey("GET", "/services", "anything=1")).toBeNull();
    expect(pageCacheKey("GET", "/contact?sent=1", undefined)).toBeNull();
    expect(pageCacheKey("GET", "http://localhost:3000/contact?x", undefined)).toBeNull();
    expect(pageCacheKey("POST", "/contact", undefined)).toBeNull();
    expect(pageCacheKey("HEAD", "/", undefined)).toBeNull();
    expect(pageCacheKey("GET", "/services.data", undefined)).toBeNull();
  });
});

describe("the page cache", () => {
  it("gives each answer its own nonce in place of the first render's, and keeps the rest byte for byte", () => {
    expect(keep("/")).toBe(true);
    const page = cachedPage("/", "theSecondAnswersNonce0000", 1);
    expect(page?.status).toBe(200);
    expect(page?.body.toString("utf8")).toBe(html.replace(NONCE, "theSecondAnswersNonce0000"));
    expect(page?.body.toString("utf8")).not.toContain(NONCE);
    expect(new Map(page?.headers).get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("forgets a page after its time", () => {
    keep("/about", {}, 1_000);
    expect(cachedPage("/about", "x".repeat(24), 1_000 + PAGE_CACHE_TTL_MS - 1)).not.toBeNull();
    expect(cachedPage("/about", "x".repeat(24), 1_000 + PAGE_CACHE_TTL_MS)).toBeNull();
    expect(cachedPage("/about", "x".repeat(24), 1_000)).toBeNull();
  });

  it("keeps no error page, no page that sets a cookie and no page rendered with a short nonce", () => {
    expect(keep("/missing", { status: 404 })).toBe(false);
    const withCookie = headers();
    withCookie.append("Set-Cookie", "a=b");
    expect(keep("/contact", { headers: withCookie })).toBe(false);
    expect(keep("/", { nonce: "abc", html: "<p>abc</p>" })).toBe(false);
    for (const key of ["/missing", "/contact", "/"]) expect(cachedPage(key, "y".repeat(24), 0)).toBeNull();
  });

  it("holds at most its bound, dropping the oldest page first", () => {
    for (let i = 0; i <= PAGE_CACHE_MAX_ENTRIES; i++) keep(`/page-${i}`);
    expect(cachedPage("/page-0", "z".repeat(24), 1)).toBeNull();
    expect(cachedPage("/page-1", "z".repeat(24), 1)).not.toBeNull();
    expect(cachedPage(`/page-${PAGE_CACHE_MAX_ENTRIES}`, "z".repeat(24), 1)).not.toBeNull();
  });
});
