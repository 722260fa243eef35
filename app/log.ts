import type { BetterAuthOptions } from "better-auth";

// Error lines for the server log that say where and why, never what a request carried. A driver's
// or Drizzle's error message quotes the failed query's parameters (session tokens, SSNs, message
// texts, e-mail addresses), so no error message is ever printed: only the error's name, its
// codes (PostgreSQL SQLSTATE such as 57P01 or 53100, Node's errno names such as ECONNREFUSED or
// ENOSPC) and, for a failed query, its verb and table. Shared by the server and the root error
// boundary, which also renders in the browser: no server-only imports here.

/** A PostgreSQL SQLSTATE (five digits or capitals) or a named code (ENOSPC, ERR_STREAM_DESTROYED, FAILED_TO_CREATE_SESSION). */
const CODE_SHAPE = /^(?:[0-9A-Z]{5}|[A-Z][A-Z0-9_]{1,63})$/;
/** An error class's name: an identifier, never free text. */
const NAME_SHAPE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** A table name as it appears in SQL, quoted or not, optionally with its schema. */
const TABLE = String.raw`("?[A-Za-z_][A-Za-z0-9_]*"?(?:\."?[A-Za-z_][A-Za-z0-9_]*"?)?)`;
const QUERY_SHAPES: Array<[RegExp, string]> = [
  [new RegExp(String.raw`^insert\s+into\s+${TABLE}`, "i"), "insert into"],
  [new RegExp(String.raw`^update\s+${TABLE}`, "i"), "update"],
  [new RegExp(String.raw`^delete\s+from\s+${TABLE}`, "i"), "delete from"],
  [new RegExp(String.raw`^select\b[\s\S]*?\bfrom\s+${TABLE}`, "i"), "select from"],
];
const SQL_VERBS = new Set([
  "select",
  "insert",
  "update",
  "delete",
  "with",
  "vacuum",
  "analyze",
  "truncate",
  "alter",
  "create",
  "drop",
  "begin",
  "commit",
  "rollback",
  "set",
  "lock",
]);

type ErrorLike = {
  name?: unknown;
  code?: unknown;
  query?: unknown;
  cause?: unknown;
  errors?: unknown;
  body?: { code?: unknown } | null;
};

/** The error and every error behind it (`cause`, and each of an AggregateError's `errors`). */
function chain(error: unknown): ErrorLike[] {
  const found: ErrorLike[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && found.length < 10) {
    const next = queue.shift();
    if (next === null || typeof next !== "object" || found.includes(next as ErrorLike)) continue;
    const e = next as ErrorLike;
    found.push(e);
    queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...e.errors);
  }
  return found;
}

/** The codes an error carries, outermost first, without repeats: SQLSTATE, errno name, API code. */
export function errorCodes(error: unknown): string[] {
  const codes = new Set<string>();
  for (const e of chain(error)) {
    for (const code of [e.code, e.body?.code])
      if (typeof code === "string" && CODE_SHAPE.test(code)) codes.add(code);
  }
  return [...codes];
}

/** A failed query's verb and table, e.g. `insert into "contact_messages"`; never its values. */
export function queryName(error: unknown): string | null {
  for (const e of chain(error)) {
    if (typeof e.query !== "string") continue;
    const query = e.query.trim();
    for (const [shape, verb] of QUERY_SHAPES) {
      const table = shape.exec(query)?.[1];
      if (table)
        return `${verb} ${table
          .split(".")
          .map((part) => `"${part.replaceAll('"', "")}"`)
          .join(".")}`;
    }
    const verb = /^[A-Za-z]+/.exec(query)?.[0]?.toLowerCase();
    return verb && SQL_VERBS.has(verb) ? verb : "query";
  }
  return null;
}

/** What a log line may say about an error: its name, codes and failed query, e.g. `DrizzleQueryError, code 42P01, query insert into "session"`. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  const name = error instanceof Error ? error.name : null;
  // node-postgres names its server errors "error": only a more telling class name is kept.
  if (name && name.toLowerCase() !== "error" && NAME_SHAPE.test(name)) parts.push(name);
  const codes = errorCodes(error);
  if (codes.length > 0) parts.push(`code ${codes.join("/")}`);
  const query = queryName(error);
  if (query) parts.push(`query ${query}`);
  return parts.length > 0 ? parts.join(", ") : "unknown error";
}

/**
 * A request's path as a log may show it: words stay ("admin", "clients.csv"), anything else
 * (ids, tokens in the auth API's paths) becomes ":value"; the query string is left out.
 */
export function routeOf(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url, "http://localhost").pathname;
  } catch {
    return "/:value";
  }
  const segments = pathname
    .split("/")
    .map((segment) =>
      segment === "" || /^[a-z][a-z-]{0,23}(?:\.[a-z]{2,4})?$/.test(segment) ? segment : ":value",
    );
  return segments.join("/") || "/";
}

/** Logs that `what` failed in `scope`, with only what describeError tells of the error. */
export function logError(scope: string, what: string, error: unknown): void {
  console.error(`[${scope}] ${what} (${describeError(error)})`);
}

/**
 * The leading plain words of a message (letters, spaces, hyphens and underscores only, so
 * "Invalid redirect URL: https://…" keeps "Invalid redirect URL"): what the message is about,
 * without any value it quotes.
 */
export function plainWords(message: string): string {
  const words = /^[A-Za-z][A-Za-z _-]*/.exec(message)?.[0] ?? "";
  const rest = message.slice(words.length);
  // A last word cut short by a digit or a symbol ("R18…", "ana@…", "ana.smith") may be the start of a value.
  const whole = /^(?:$|[\s:,;()]|\.(?:\s|$))/.test(rest) ? words : words.replace(/[A-Za-z_-]+$/, "");
  const line = whole.trim();
  if (line.length <= 80) return line;
  const cut = line.lastIndexOf(" ", 80);
  return cut > 0 ? line.slice(0, cut) : "";
}

type AuthLogLevel = Parameters<NonNullable<NonNullable<BetterAuthOptions["logger"]>["log"]>>[0];

/**
 * The auth library's logger. Its messages may quote values and its extra arguments are errors
 * whose message holds the failed query's parameters (a new session's token), so a line holds the
 * level, the message's plain words and what describeError tells of each error argument.
 */
export const authLogger = {
  level: "warn",
  log(level: AuthLogLevel, message: string, ...args: unknown[]) {
    const errors = args.filter(
      (arg) => arg instanceof Error || (arg !== null && typeof arg === "object" && "code" in arg),
    );
    const details = errors.map(describeError).join("; ");
    const line = `[auth] ${level}: ${plainWords(message) || "auth library message"}${details ? ` (${details})` : ""}`;
    if (level === "error") console.error(line);
    else if (level === "warn") console.warn(line);
    else console.info(line);
  },
} satisfies NonNullable<BetterAuthOptions["logger"]>;
