import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  cachedPage,
  clearPageCache,
  PAGE_CACHE_MAX_ENTRIES,
  PAGE_CACHE_TTL_MS,
  pageCacheKey,
  pageCompressionsSettled,
  storePage,
} from "~/server/http/page-cache.server";

const NONCE = "n0nceOfTheAnswerRendered+AA==";
const html = `<html><head><script type="module" src="/assets/enhance.js"></script></head><body>${"Café ✓ ".repeat(200)}</body></html>`;
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
  it("sends the kept page byte for byte, as is until its compressions are ready", () => {
    expect(keep("/")).toBe(true);
    const page = cachedPage("/", ["br", "gzip"], 1);
    expect(page?.encoding).toBeNull();
    expect(page?.body.toString("utf8")).toBe(html);
    expect(new Map(page?.headers).get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("then in the best encoding the browser takes, which decodes to the same page", async () => {
    keep("/");
    await pageCompressionsSettled();
    const br = cachedPage("/", ["br", "gzip"], 1);
    expect(br?.encoding).toBe("br");
    expect(brotliDecompressSync(br!.body).toString("utf8")).toBe(html);
    expect(br!.body.length).toBeLessThan(Buffer.byteLength(html) / 10);
    const gzip = cachedPage("/", ["gzip"], 1);
    expect(gzip?.encoding).toBe("gzip");
    expect(gunzipSync(gzip!.body).toString("utf8")).toBe(html);
    const plain = cachedPage("/", [], 1);
    expect(plain?.encoding).toBeNull();
    expect(plain?.body.toString("utf8")).toBe(html);
  });

  it("forgets a page after its time", () => {
    keep("/about", {}, 1_000);
    expect(cachedPage("/about", [], 1_000 + PAGE_CACHE_TTL_MS - 1)).not.toBeNull();
    expect(cachedPage("/about", [], 1_000 + PAGE_CACHE_TTL_MS)).toBeNull();
    expect(cachedPage("/about", [], 1_000)).toBeNull();
  });

  it("keeps no error page, no page that sets a cookie and no page that carries its answer's nonce", () => {
    expect(keep("/missing", { status: 404 })).toBe(false);
    const withCookie = headers();
    withCookie.append("Set-Cookie", "a=b");
    expect(keep("/contact", { headers: withCookie })).toBe(false);
    expect(keep("/", { html: `<script nonce="${NONCE}">go()</script>` })).toBe(false);
    expect(keep("/terms", { nonce: "" })).toBe(false);
    for (const key of ["/missing", "/contact", "/", "/terms"]) expect(cachedPage(key, [], 0)).toBeNull();
  });

  it("holds at most its bound, dropping the oldest page first", async () => {
    for (let i = 0; i <= PAGE_CACHE_MAX_ENTRIES; i++) keep(`/page-${i}`);
    expect(cachedPage("/page-0", [], 1)).toBeNull();
    expect(cachedPage("/page-1", [], 1)).not.toBeNull();
    expect(cachedPage(`/page-${PAGE_CACHE_MAX_ENTRIES}`, [], 1)).not.toBeNull();
    await pageCompressionsSettled();
  });
});
