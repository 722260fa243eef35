import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one request has already looked up. A page view runs the root's, the layout's and the
 * page's loaders, and each asks who is signed in (and, for staff, whether their session passed
 * the second factor); React Router hands each loader its own copy of the request, so the
 * request itself cannot carry the answer.
 */
type Scope = { memo: Map<string, Promise<unknown>> };

const storage = new AsyncLocalStorage<Scope>();

/** Runs `fn` (the rest of the request's handling) with its own, empty scope. */
export function runInRequestScope<T>(fn: () => T): T {
  return storage.run({ memo: new Map() }, fn);
}

/**
 * The first answer to `key` in this request, computed once. Only for reads whose answer cannot
 * change while the request is handled: callers use it for GET and HEAD, never for an action
 * that may sign someone in or out. Outside a request scope it always computes afresh.
 */
export function oncePerRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const scope = storage.getStore();
  if (!scope) return compute();
  let found = scope.memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = compute();
    scope.memo.set(key, found);
  }
  return found;
}

/** Whether a request only reads (GET or HEAD), so its lookups may be shared by its loaders. */
export function isReadOnly(request: Request): boolean {
  return request.method === "GET" || request.method === "HEAD";
}
