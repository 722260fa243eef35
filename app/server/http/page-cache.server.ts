// Rendered HTML of the public pages, kept for visitors who carry no cookie.
//
// A public page (handle.hydrate === false, docs/decisions/0008) seen by a visitor without a
// cookie depends only on its path, the code and the date: no session, no form state, no query.
// Rendering it with React costs 10 ms or more of CPU per view, and compressing it for the wire
// about as much again, so the first view's HTML is kept for a minute, compressed once with
// Brotli and gzip off the main thread, and later views are sent from memory. Such pages carry no
// nonce (their only script is the same-origin enhancement module, which the CSP's 'self'
// allows), so every answer is the same bytes. See docs/decisions/0010-public-page-cache.md.
import { promisify } from "node:util";
import { brotliCompress, gzip } from "node:zlib";
import { logError } from "~/log";
import { BEST_GZIP, bestBrotli } from "./compression.server";

/** How long a rendered page is sent again: only the footer's year and the residency calculator's default year change with time. */
export const PAGE_CACHE_TTL_MS = 60_000;
/** The public pages are a few dozen paths; the bound keeps odd paths from growing memory. */
export const PAGE_CACHE_MAX_ENTRIES = 200;

/** The encodings kept besides the page itself, best first. */
export const PAGE_ENCODINGS = ["br", "gzip"] as const;
export type PageEncoding = (typeof PAGE_ENCODINGS)[number];

const compressors: Record<PageEncoding, (page: Buffer) => Promise<Buffer>> = {
  br: (page) => promisify(brotliCompress)(page, bestBrotli(page.length)),
  gzip: (page) => promisify(gzip)(page, BEST_GZIP),
};

type Entry = {
  headers: Array<[string, string]>;
  body: Buffer;
  /** Filled in as each compression finishes. */
  encoded: Partial<Record<PageEncoding, Buffer>>;
  compressed: Promise<unknown>;
  expires: number;
};

/** A kept page as it is to be sent: `encoding` is the Content-Encoding of `body`, null for none. */
export type CachedPage = { headers: Array<[string, string]>; body: Buffer; encoding: PageEncoding | null };

const pages = new Map<string, Entry>();

/**
 * The cache key of a request that may be answered from the cache or stored in it, or null: a
 * GET without cookies and without a query, and not one of React Router's `.data` requests.
 * `url` is a path (as Express sees it) or a whole URL (as React Router sees it).
 */
export function pageCacheKey(method: string, url: string, cookie: string | null | undefined): string | null {
  if (method !== "GET" || (cookie ?? "") !== "") return null;
  const path = url.startsWith("/") ? url : url.slice(new URL(url).origin.length);
  if (path.includes("?") || path.endsWith(".data")) return null;
  return path;
}

/**
 * The page kept for `key`, or null when there is none or it has expired: compressed with the
 * first of `accepted` (the encodings the browser takes, best first) that is ready, else as is.
 */
export function cachedPage(
  key: string,
  accepted: readonly PageEncoding[],
  now = Date.now(),
): CachedPage | null {
  const entry = pages.get(key);
  if (!entry) return null;
  if (entry.expires <= now) {
    pages.delete(key);
    return null;
  }
  for (const encoding of accepted) {
    const body = entry.encoded[encoding];
    if (body) return { headers: entry.headers, body, encoding };
  }
  return { headers: entry.headers, body: entry.body, encoding: null };
}

/**
 * Keeps a rendered page for `key`, the oldest entry making room when the cache is full, and
 * starts compressing it. Only a 200 that sets no cookie, and whose HTML does not carry the
 * answer's CSP nonce (which the next answer could not share), is kept. Returns whether it was.
 */
export function storePage(
  key: string,
  page: { status: number; headers: Headers; html: string; nonce: string },
  now = Date.now(),
): boolean {
  if (
    page.status !== 200 ||
    page.headers.has("set-cookie") ||
    page.nonce === "" ||
    page.html.includes(page.nonce)
  )
    return false;
  pages.delete(key);
  if (pages.size >= PAGE_CACHE_MAX_ENTRIES) {
    const oldest = pages.keys().next().value;
    if (oldest !== undefined) pages.delete(oldest);
  }
  const body = Buffer.from(page.html);
  const encoded: Entry["encoded"] = {};
  const compressed = PAGE_ENCODINGS.map((encoding) =>
    compressors[encoding](body).then(
      (result) => void (encoded[encoding] = result),
      (error: unknown) => logError("page-cache", `${encoding} of ${key} failed`, error),
    ),
  );
  pages.set(key, {
    headers: [...page.headers.entries()],
    body,
    encoded,
    compressed: Promise.all(compressed),
    expires: now + PAGE_CACHE_TTL_MS,
  });
  return true;
}

/** Settles once every kept page's compressions have finished (for tests). */
export async function pageCompressionsSettled(): Promise<void> {
  await Promise.all([...pages.values()].map((entry) => entry.compressed));
}

/** Forgets every page (a deploy restarts the process, which does the same). */
export function clearPageCache(): void {
  pages.clear();
}
