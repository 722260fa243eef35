// Rendered HTML of the public pages, kept for visitors who carry no cookie.
//
// A public page (handle.hydrate === false, docs/decisions/0008) seen by a visitor without a
// cookie depends only on its path, the code and the date: no session, no form state, no query.
// Rendering it with React costs 10 ms or more of CPU per view, so the first view's HTML is kept
// for a minute and later views are sent from memory. Each answer still gets its own CSP nonce:
// the kept HTML is split where the first render's nonce stood, and joined again with the nonce
// of the answer being sent. See docs/decisions/0010-public-page-cache.md.

/** How long a rendered page is sent again: only the footer's year and the residency calculator's default year change with time. */
export const PAGE_CACHE_TTL_MS = 60_000;
/** The public pages are a few dozen paths; the bound keeps odd paths from growing memory. */
export const PAGE_CACHE_MAX_ENTRIES = 200;
/** A nonce this short could also match ordinary text in the page (ours are 24 characters). */
const MIN_NONCE_LENGTH = 16;

type Entry = {
  status: number;
  headers: Array<[string, string]>;
  /** The HTML as UTF-8, split at every occurrence of the nonce it was rendered with. */
  parts: Buffer[];
  expires: number;
};

export type CachedPage = { status: number; headers: Array<[string, string]>; body: Buffer };

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

/** The page kept for `key` with `nonce` in place, or null when there is none or it has expired. */
export function cachedPage(key: string, nonce: string, now = Date.now()): CachedPage | null {
  const entry = pages.get(key);
  if (!entry) return null;
  if (entry.expires <= now) {
    pages.delete(key);
    return null;
  }
  const slot = Buffer.from(nonce);
  const pieces: Buffer[] = [entry.parts[0]!];
  for (const part of entry.parts.slice(1)) pieces.push(slot, part);
  return { status: entry.status, headers: entry.headers, body: Buffer.concat(pieces) };
}

/**
 * Keeps a rendered page for `key`, the oldest entry making room when the cache is full. Only a
 * 200 that sets no cookie is kept. Returns whether it was.
 */
export function storePage(
  key: string,
  page: { status: number; headers: Headers; html: string; nonce: string },
  now = Date.now(),
): boolean {
  if (page.status !== 200 || page.headers.has("set-cookie") || page.nonce.length < MIN_NONCE_LENGTH)
    return false;
  pages.delete(key);
  if (pages.size >= PAGE_CACHE_MAX_ENTRIES) {
    const oldest = pages.keys().next().value;
    if (oldest !== undefined) pages.delete(oldest);
  }
  pages.set(key, {
    status: page.status,
    headers: [...page.headers.entries()],
    parts: page.html.split(page.nonce).map((part) => Buffer.from(part)),
    expires: now + PAGE_CACHE_TTL_MS,
  });
  return true;
}

/** Forgets every page (a deploy restarts the process, which does the same). */
export function clearPageCache(): void {
  pages.clear();
}
