import {
  chmodSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ensureDataDir, makeDataDirPrivate, startupFailure, StartupError } from "~/server/platform/data-dir.server";
import { EnvError } from "~/server/platform/env.server";
import { tempDirs } from "../helpers/temp-dirs";

const dir = tempDirs("taxbridge-data-");
const mode = (file: string) => statSync(file).mode & 0o777;

/** Every folder and file under `root` (itself included) with its permission bits. */
function modes(root: string): Map<string, number> {
  const found = new Map<string, number>([[".", mode(root)]]);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.set(path.relative(root, full), mode(full));
  }
  return found;
}

describe("the data folder's permissions", () => {
  it("brings folders to 0700 and files to 0600, changing only what is wrong", () => {
    const root = dir();
    chmodSync(root, 0o755);
    mkdirSync(path.join(root, "pglite", "base", "1"), { recursive: true, mode: 0o755 });
    mkdirSync(path.join(root, "uploads"), { mode: 0o700 });
    writeFileSync(path.join(root, "pglite", "base", "1", "1259"), "rows", { mode: 0o666 });
    writeFileSync(path.join(root, "pglite", "PG_VERSION"), "17", { mode: 0o644 });
    writeFileSync(path.join(root, "uploads", "w2.pdf"), "%PDF", { mode: 0o600 });
    writeFileSync(path.join(root, "auth-secret"), "secret", { mode: 0o640 });
    chmodSync(path.join(root, "pglite", "base", "1", "1259"), 0o666);
    chmodSync(path.join(root, "pglite"), 0o777);

    expect(makeDataDirPrivate(root)).toEqual({ changed: 7, failed: 0 });
    for (const [entry, bits] of modes(root)) {
      const isFolder = statSync(path.join(root, entry)).isDirectory();
      expect([entry, bits.toString(8)]).toEqual([entry, isFolder ? "700" : "600"]);
    }
    // A second walk finds nothing to change.
    expect(makeDataDirPrivate(root)).toEqual({ changed: 0, failed: 0 });
  });

  it("leaves what a symbolic link points to alone", () => {
    const root = dir();
    const outside = path.join(dir(), "shared.txt");
    writeFileSync(outside, "not ours", { mode: 0o644 });
    chmodSync(outside, 0o644);
    symlinkSync(outside, path.join(root, "link"));
    makeDataDirPrivate(root);
    expect(mode(outside)).toBe(0o644);
  });

  it("makes 5,000 files private in one walk, and a second walk changes nothing", { timeout: 60_000 }, () => {
    const root = dir();
    for (let d = 0; d < 20; d++) {
      mkdirSync(path.join(root, String(d)), { mode: 0o755 });
      for (let f = 0; f < 250; f++)
        writeFileSync(path.join(root, String(d), String(f)), "x", { mode: 0o666 });
    }
    expect(makeDataDirPrivate(root).changed).toBeGreaterThanOrEqual(5_020);
    expect(mode(path.join(root, "19", "249"))).toBe(0o600);
    expect(makeDataDirPrivate(root).changed).toBe(0);
  });
});

describe("checking DATA_DIR at start", () => {
  it("creates a missing folder, and its missing parents, as 0700", () => {
    const root = dir();
    const dataDir = path.join(root, "a", "b", "data");
    ensureDataDir(dataDir);
    expect(mode(path.join(root, "a"))).toBe(0o700);
    expect(mode(dataDir)).toBe(0o700);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("says in one line when DATA_DIR is a file or lies under one", () => {
    const file = path.join(dir(), "data");
    writeFileSync(file, "");
    expect(() => ensureDataDir(file)).toThrow(new StartupError(`DATA_DIR (${file}) is not a folder.`));
    const under = path.join(file, "inside");
    expect(() => ensureDataDir(under)).toThrow(new StartupError(`DATA_DIR (${under}) is not a folder.`));
  });

  it("says in one line when DATA_DIR cannot be written, even by the superuser", () => {
    // /proc takes no new entries whoever asks; a recursive create there would never return.
    expect(() => ensureDataDir("/proc/taxbridge-data")).toThrow(
      new StartupError("DATA_DIR (/proc/taxbridge-data) is not writable."),
    );
    expect(() => ensureDataDir("/proc")).toThrow(new StartupError("DATA_DIR (/proc) is not writable."));
  });
});

describe("start-up failures in one line", () => {
  const settings = { dataDir: "/srv/taxbridge/data" };

  it("names the full disk holding DATA_DIR", () => {
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    expect(startupFailure(full, settings)).toBe("The disk holding DATA_DIR (/srv/taxbridge/data) is full.");
    expect(startupFailure(new Error("migration failed", { cause: full }), settings)).toBe(
      "The disk holding DATA_DIR (/srv/taxbridge/data) is full.",
    );
  });

  it("passes configuration errors through as they are", () => {
    expect(startupFailure(new EnvError("Invalid configuration: PORT: bad."), settings)).toBe(
      "Invalid configuration: PORT: bad.",
    );
  });

  it("says which database cannot be reached, without the password", async () => {
    const databaseUrl = "postgres://app:s3cret-pass@127.0.0.1:1/taxbridge";
    const pool = new pg.Pool({ connectionString: databaseUrl });
    const error = await pool.query("select 1").catch((e: unknown) => e);
    await pool.end();
    const line = startupFailure(error, { ...settings, databaseUrl });
    expect(line).toBe("Cannot reach the database at 127.0.0.1:1 (ECONNREFUSED).");
  });

  it("says which database does not answer, without the password", async () => {
    // A server that takes the connection and never says a word, as a host behind a dead link.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const databaseUrl = `postgres://app:s3cret-pass@127.0.0.1:${port}/taxbridge`;
    const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: 200 });
    const error = await pool.query("select 1").catch((e: unknown) => e);
    await pool.end();
    silent.close();
    expect(startupFailure(error, { ...settings, databaseUrl })).toBe(`Cannot reach the database at 127.0.0.1:${port} (no answer).`);
  });

  it("says the database refused the sign-in, without the password", () => {
    const refused = Object.assign(new Error('password authentication failed for user "app"'), {
      code: "28P01",
    });
    const line = startupFailure(refused, {
      ...settings,
      databaseUrl: "postgres://app:s3cret@db.internal/tax",
    });
    expect(line).toBe(
      "The database at db.internal:5432 refused the sign-in (28P01): check DATABASE_URL's user and password.",
    );
  });

  it("leaves an unknown failure to be printed whole", () => {
    expect(startupFailure(new TypeError("x is not a function"), settings)).toBeNull();
  });
});
