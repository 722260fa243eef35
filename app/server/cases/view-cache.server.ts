// What a page read about a client's case, kept in the server's memory under a stamp made of the
// numbers the database changes whenever that case changes (case_view_versions, migration 0026):
// the next request whose stamp is the same gets what was read, without reading it again
// (docs/decisions/0037-case-views-kept-by-version.md). A request reads the stamp before the view,
// so a view is never older than its stamp: a change that lands between the two is in the view,
// and the stamp the next request reads differs. Nothing read is ever written here for anyone but
// the client it was read for: the key starts with their id.

const caches = new Set<CaseViewCache<unknown>>();

export class CaseViewCache<T> {
  private readonly entries = new Map<string, { stamp: string; value: T }>();

  /** `capacity`: how many cases' views are kept; the least recently used goes first. */
  constructor(private readonly capacity: number) {
    caches.add(this as CaseViewCache<unknown>);
  }

  /** The view kept for `key` under `stamp`, or `read()`'s, which is then kept (an error is not). */
  async get(key: string, stamp: string, read: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && kept.stamp === stamp) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value;
    }
    const value = await read();
    this.entries.delete(key);
    this.entries.set(key, { stamp, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Forgets every kept view (the tests empty the database between tests, numbers and all). */
export function forgetCaseViews(): void {
  for (const cache of caches) cache.clear();
}
