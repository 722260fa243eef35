import type { RouteConfigEntry } from "@react-router/dev/routes";
import { RouterContextProvider } from "react-router";
import routeConfig from "~/routes";

/** What the Express server puts in every request's context (server/app.ts). */
type ServerContext = { clientIp: string; cspNonce: string };

/** Arguments for calling a route module's loader or action directly, as the server would. */
export function routeArgs(request: Request, context: Partial<ServerContext> = {}) {
  return {
    request,
    url: new URL(request.url),
    params: {} as Record<string, string | undefined>,
    context: Object.assign(new RouterContextProvider(), {
      clientIp: "203.0.113.10",
      cspNonce: "",
      ...context,
    }),
    pattern: "",
    unstable_pattern: "",
  };
}

export type RouteArgs = ReturnType<typeof routeArgs>;

type Handler = (args: RouteArgs) => unknown;
type Middleware = (args: RouteArgs, next: () => Promise<unknown>) => unknown;
type RouteModule = { loader?: Handler; action?: Handler; middleware?: Middleware[] };
type RouteCall = (args: RouteArgs) => Promise<unknown>;

const modules = import.meta.glob<RouteModule>("/app/**/*.{ts,tsx}");

/** The files of the routes from the root down to the route of `file` (root.tsx first). */
function chainTo(
  file: string,
  entries: readonly RouteConfigEntry[] = routeConfig,
  above: string[] = ["root.tsx"],
): string[] | null {
  for (const entry of entries) {
    const here = [...above, entry.file];
    if (entry.file === file) return here;
    const below = chainTo(file, entry.children ?? [], here);
    if (below) return below;
  }
  return null;
}

/** Runs the middleware from `index` on, each in turn, then `handler`: what a thrown redirect or error stops. */
async function runChain(
  middleware: Middleware[],
  index: number,
  handler: Handler,
  args: RouteArgs,
): Promise<unknown> {
  const current = middleware[index];
  if (!current) return handler(args);
  let result: unknown;
  let called = false;
  const next = async () => {
    called = true;
    result = await runChain(middleware, index + 1, handler, args);
    return result;
  };
  const returned = await current(args, next);
  if (called) return result;
  if (returned instanceof Response) return returned;
  return next();
}

/** The path of the route of `file` as app/routes.ts writes it: what the router reports as the matched route's `pattern`. */
export function patternOf(file: string, entries: readonly RouteConfigEntry[] = routeConfig, parent = ""): string | null {
  for (const entry of entries) {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    if (entry.file === file) return own || "/";
    const below = patternOf(file, entry.children ?? [], own);
    if (below !== null) return below;
  }
  return null;
}

/** `args` as the router passes them to the route of `file`: with that route's pattern. */
function matched(file: string, args: RouteArgs): RouteArgs {
  return { ...args, pattern: patternOf(file) ?? "" };
}

/** The modules of the routes from the root down to `file`'s (root.tsx first). */
async function modulesTo(file: string): Promise<RouteModule[]> {
  const chain = chainTo(file);
  if (!chain) throw new Error(`${file} is not in app/routes.ts`);
  return Promise.all(
    chain.map((f) => {
      const load = modules[`/app/${f}`];
      if (!load) throw new Error(`no module for ${f}`);
      return load();
    }),
  );
}

/**
 * `handler` run as if it were a route placed right under the layout `file` of app/routes.ts, at
 * `pattern`: behind the middleware of the root, of that layout and of every layout above it.
 */
export async function placedUnder(file: string, pattern: string, handler: Handler): Promise<RouteCall> {
  const middleware = (await modulesTo(file)).flatMap((m) => m.middleware ?? []);
  return (args) => runChain(middleware, 0, handler, { ...args, pattern });
}

/**
 * One page view of the route `file`, as the server answers a document request: the middleware of
 * the root and of every layout above it once, then every loader of those routes with the same
 * context. Their results, root first.
 */
export async function pageView(file: string, args: RouteArgs): Promise<unknown[]> {
  const loaded = await modulesTo(file);
  const middleware = loaded.flatMap((m) => m.middleware ?? []);
  const routeArgs = matched(file, args);
  return (await runChain(
    middleware,
    0,
    () => Promise.all(loaded.map((m) => m.loader?.(routeArgs))),
    routeArgs,
  )) as unknown[];
}

/**
 * The loader and action of the route module `file` (as named in app/routes.ts, e.g.
 * "routes/admin/dashboard.tsx"), each run behind the middleware of the root and of every layout
 * above it, as the server runs them: a route is protected by where app/routes.ts places it.
 */
export async function routeModule(file: string): Promise<{ loader: RouteCall; action: RouteCall }> {
  const loaded = await modulesTo(file);
  const middleware = loaded.flatMap((m) => m.middleware ?? []);
  const own = loaded.at(-1)!;
  const missing = (kind: string) => () => {
    throw new Error(`${file} has no ${kind}`);
  };
  return {
    loader: (args) => runChain(middleware, 0, own.loader ?? missing("loader"), matched(file, args)),
    action: (args) => runChain(middleware, 0, own.action ?? missing("action"), matched(file, args)),
  };
}

export function formRequest(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Request {
  return new Request(`http://localhost:3000${url}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}

/** The status and body of what an action returned (a plain value or `data(...)`). */
export function unwrap<T>(result: unknown): { status: number; body: T; headers: Headers } {
  if (
    result &&
    typeof result === "object" &&
    "type" in result &&
    (result as { type: unknown }).type === "DataWithResponseInit"
  ) {
    const r = result as unknown as { data: T; init?: { status?: number; headers?: HeadersInit } | null };
    return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
  }
  return { status: 200, body: result as T, headers: new Headers() };
}

export type RouteOutcome<T> = { status: number; body: T; location: string | null; headers: Headers };

/**
 * What a loader or action answered, returned or thrown (a redirect, a file, data with its init):
 * its status, body (JSON, text or bytes by its type), Location and headers. An Error is thrown on.
 */
export async function routeOutcome<T = unknown>(call: () => Promise<unknown>): Promise<RouteOutcome<T>> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const type = result.headers.get("content-type") ?? "";
    const body = (type.includes("json") ? await result.json() : type.startsWith("text/") ? await result.text() : new Uint8Array(await result.arrayBuffer())) as T;
    return { status: result.status, body, location: result.headers.get("location"), headers: result.headers };
  }
  const { status, body, headers } = unwrap<T>(result);
  return { status, body, location: null, headers };
}
