import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A start-up problem described in one line, for the operator; printed without a stack trace. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

/** Folders of the data folder are for this user only, and so are files. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

function code(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/** The one line that says what is wrong with DATA_DIR when a file operation in it failed with `errorCode`, or null. */
export function dataDirProblem(dataDir: string, errorCode: string | undefined): string | null {
  switch (errorCode) {
    case "ENOSPC":
    case "EDQUOT":
      return `The disk holding DATA_DIR (${dataDir}) is full.`;
    case "ENOTDIR":
    case "EEXIST":
      return `DATA_DIR (${dataDir}) is not a folder.`;
    case "EACCES":
    case "EPERM":
    case "EROFS":
    case "ENOENT":
      return `DATA_DIR (${dataDir}) is not writable.`;
    default:
      return null;
  }
}

function fail(dataDir: string, error: unknown): never {
  const problem = dataDirProblem(dataDir, code(error));
  if (problem) throw new StartupError(problem);
  throw error;
}

/**
 * Makes sure DATA_DIR is a folder this process can write, creating it (and missing parents,
 * mode 0700) when absent. Each level is created on its own: a recursive create under a path
 * that refuses new entries (such as /proc) never returns.
 */
export function ensureDataDir(dataDir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dataDir);
  for (;;) {
    let found;
    try {
      found = statSync(at);
    } catch (error) {
      if (code(error) !== "ENOENT") fail(dataDir, error);
      missing.unshift(at);
      const parent = path.dirname(at);
      if (parent === at) fail(dataDir, error);
      at = parent;
      continue;
    }
    if (!found.isDirectory()) throw new StartupError(dataDirProblem(dataDir, "ENOTDIR")!);
    break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if (code(error) !== "EEXIST") fail(dataDir, error);
    }
  }
  // Permissions alone do not tell (the superuser ignores them; a read-only or full disk does
  // not show in them): write a few bytes and take them away again.
  const probe = path.join(dataDir, `.write-check-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    writeFileSync(probe, randomBytes(64), { flag: "wx", mode: PRIVATE_FILE_MODE });
  } catch (error) {
    fail(dataDir, error);
  } finally {
    rmSync(probe, { force: true });
  }
}

/**
 * Brings every folder under DATA_DIR (itself included) to 0700 and every file to 0600, changing
 * only what differs; symbolic links are left alone. Returns how many entries were changed and
 * how many could not be.
 */
export function makeDataDirPrivate(dataDir: string): { changed: number; failed: number } {
  let changed = 0;
  let failed = 0;
  const fix = (entry: string, mode: number, current: number) => {
    if ((current & 0o777) === mode) return;
    try {
      chmodSync(entry, mode);
      changed += 1;
    } catch {
      failed += 1;
    }
  };
  const folders = [path.resolve(dataDir)];
  fix(folders[0]!, PRIVATE_DIR_MODE, lstatSync(folders[0]!).mode);
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      failed += 1;
      continue;
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const full = path.join(folder, entry.name);
      let mode: number;
      try {
        mode = lstatSync(full).mode;
      } catch {
        continue; // Removed meanwhile.
      }
      if (entry.isDirectory()) {
        fix(full, PRIVATE_DIR_MODE, mode);
        folders.push(full);
      } else if (entry.isFile()) {
        fix(full, PRIVATE_FILE_MODE, mode);
      }
    }
  }
  return { changed, failed };
}

/** Where the database is, for messages: host and port only, never the user or password. */
function databaseAddress(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || "5432"}`;
  } catch {
    return "DATABASE_URL";
  }
}

/** The error itself, the errors it gathers (a connection tried on several addresses) and its causes. */
function* related(error: unknown, depth = 0): Generator<unknown> {
  if (error === undefined || error === null || depth > 5) return;
  yield error;
  if (error instanceof AggregateError) for (const inner of error.errors) yield* related(inner, depth + 1);
  if (error instanceof Error) yield* related(error.cause, depth + 1);
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * The one line to print when the server cannot start, or null when the failure is not one the
 * operator can be told about in a line (then the whole error is printed).
 */
export function startupFailure(
  error: unknown,
  settings: { dataDir: string; databaseUrl?: string },
): string | null {
  for (const inner of related(error)) {
    if (inner instanceof Error && (inner.name === "EnvError" || inner instanceof StartupError))
      return inner.message;
  }
  const codes = [...related(error)].map(code).filter((c): c is string => typeof c === "string");
  if (settings.databaseUrl) {
    const where = databaseAddress(settings.databaseUrl);
    const network = codes.find((c) => NETWORK_CODES.has(c));
    if (network) return `Cannot reach the database at ${where} (${network}).`;
    // The pool gives up on a host that does not answer (connectionTimeoutMillis) with no code.
    if ([...related(error)].some((e) => e instanceof Error && /connection timeout|timeout expired/i.test(e.message)))
      return `Cannot reach the database at ${where} (no answer).`;
    // PostgreSQL's own refusals carry a five-character SQLSTATE code.
    const refusal = [...related(error)].find(
      (e): e is Error =>
        e instanceof Error && /^[0-9A-Z]{5}$/.test(code(e) ?? "") && code(e)!.startsWith("28"),
    );
    if (refusal)
      return `The database at ${where} refused the sign-in (${code(refusal)}): check DATABASE_URL's user and password.`;
    const missing = [...related(error)].find((e) => code(e) === "3D000");
    if (missing) return `The database named in DATABASE_URL does not exist at ${where} (3D000).`;
  }
  const full = codes.find((c) => c === "ENOSPC" || c === "EDQUOT");
  return full ? dataDirProblem(settings.dataDir, full) : null;
}
