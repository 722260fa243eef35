import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, openAsBlob } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { Pack, Parser } from "tar";
import type { ReadEntry } from "tar";

/**
 * Backups of a data folder (DATA_DIR): the embedded database, the uploaded documents and the
 * secret files the server generated there. One .tar.gz file per backup:
 *
 *   database/pglite.tar.gz   PGlite's own dump of the database folder (embedded database only)
 *   secrets/auth-secret      DATA_DIR/auth-secret, when the server generated it
 *   secrets/ssn-key          DATA_DIR/ssn-key: without it no SSN in the database can be read
 *   uploads/<key>            every file under DATA_DIR/uploads
 *   manifest.json            rows per table, and the size and SHA-256 of every entry above
 *
 * PGlite serves one process at a time, so both directions require the server to be stopped.
 * A new archive is read back and checked against its manifest before it takes its name.
 * A restore writes into a staging folder, checks every checksum and every table's row count,
 * and only then moves the result into place: a damaged archive changes nothing.
 */

export const SECRET_FILES = ["auth-secret", "ssn-key"] as const;
const DATABASE_ENTRY = "database/pglite.tar.gz";
const MANIFEST_ENTRY = "manifest.json";
const STORAGE_KEY = /^[0-9a-f-]{36}$/;
const ENTRY_NAME =
  /^(?:database\/pglite\.tar\.gz|secrets\/(?:auth-secret|ssn-key)|uploads\/[0-9a-f-]{36}|manifest\.json)$/;

export type BackupEntry = { name: string; size: number; sha256: string };

export type BackupManifest = {
  format: "taxbridge-backup";
  version: 1;
  createdAt: string;
  /** "pglite": the database is in the archive; "postgresql": it is backed up with pg_dump. */
  database: { kind: "pglite"; tables: Record<string, number> } | { kind: "postgresql" };
  entries: BackupEntry[];
};

export type BackupSummary = {
  file: string;
  manifest: BackupManifest;
  uploads: { files: number; bytes: number };
  secrets: string[];
  warnings: string[];
};

export type RestoreSummary = {
  dataDir: string;
  /** Rows per table of the restored embedded database; null when the archive has none. */
  tables: Record<string, number> | null;
  uploads: { files: number; bytes: number };
  secrets: string[];
  /** Where the folder's previous contents went (a restore with `force`). */
  movedAside: string | undefined;
  createdAt: string;
};

/** A refusal or a failure, with a message written for the person running the command. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

// ---------------------------------------------------------------------------------------------
// The embedded database

/** PGlite writes postmaster.pid when it opens a folder and removes it when it closes. */
function inUseMessage(pgliteDir: string): string {
  return [
    `The embedded database at ${pgliteDir} is in use: ${path.join(pgliteDir, "postmaster.pid")} exists.`,
    "Stop the TaxBridge server (and any other command using this data folder), then run this again:",
    "the embedded database serves one process at a time.",
    "If no server is running, the last one was not shut down cleanly: start it once and stop it",
    "with Ctrl+C (or SIGTERM), which closes the database properly.",
  ].join("\n");
}

export function embeddedDatabaseInUse(dataDir: string): boolean {
  return existsSync(path.join(dataDir, "pglite", "postmaster.pid"));
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Rows per table ("schema.table") of every user table, migrations bookkeeping included. */
export async function countRows(db: PGlite): Promise<Record<string, number>> {
  const tables = await db.query<{ schemaname: string; tablename: string }>(
    "select schemaname, tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2",
  );
  const counts: Record<string, number> = {};
  for (const t of tables.rows) {
    const result = await db.query<{ n: number }>(
      `select count(*)::int as n from ${quoteIdent(t.schemaname)}.${quoteIdent(t.tablename)}`,
    );
    counts[`${t.schemaname}.${t.tablename}`] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

async function dumpEmbeddedDatabase(
  pgliteDir: string,
): Promise<{ dump: Buffer; tables: Record<string, number> }> {
  const db = new PGlite(pgliteDir);
  try {
    // dumpDataDir never settles on an instance that is still starting up.
    await db.waitReady;
    const tables = await countRows(db);
    const blob = await db.dumpDataDir("gzip");
    return { dump: Buffer.from(await blob.arrayBuffer()), tables };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The archive itself: tar's Pack writes it and tar's Parser reads it. Every entry is a plain file
// whose name the archive's layout fixes (ENTRY_NAME); its size and SHA-256 are in the manifest.

async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { size, sha256: hash.digest("hex") };
}

/** Writes `files` (archive name, file on disk), in this order, into a new .tar.gz (mode 0600). */
async function writeArchive(out: string, files: [name: string, file: string][]): Promise<void> {
  const names = new Map(files.map(([name, file]) => [path.resolve(file), name]));
  const pack = new Pack({
    gzip: true,
    // No owner names or ids; absolute paths kept as given, then renamed to the archive's names.
    portable: true,
    preservePaths: true,
    maxReadSize: 1 << 20,
    onWriteEntry: (entry) => {
      entry.path = names.get(entry.absolute) ?? entry.path;
    },
  });
  const written = pipeline(pack, createWriteStream(out, { flags: "wx", mode: 0o600 }));
  for (const file of names.keys()) pack.add(file);
  pack.end();
  await written;
}

/**
 * Reads a .tar.gz entry by entry, handing each plain file to `onEntry` in archive order.
 * Anything else in the archive, a damaged or cut-short one included, is a BackupError.
 */
async function readArchive(archive: string, onEntry: (entry: ReadEntry) => Promise<void>): Promise<void> {
  // Our own archives: a highly compressible upload must not be mistaken for a zip bomb.
  const parser = new Parser({ strict: true, maxDecompressionRatio: Infinity });
  const input = createReadStream(archive);
  let failure: unknown;
  let complete = false;
  let work = Promise.resolve();
  const fail = (error: unknown) => {
    failure ??= error;
    parser.abort(error instanceof Error ? error : new Error(String(error)));
  };
  parser.on("entry", (entry: ReadEntry) => {
    work = work.then(async () => {
      if (failure !== undefined) return void entry.resume();
      if (entry.type !== "File" && entry.type !== "OldFile")
        throw new BackupError("The archive holds something other than plain files.");
      await onEntry(entry);
    });
    work = work.catch(fail);
  });
  parser.on("ignoredEntry", () => fail(new BackupError("The archive holds something other than plain files.")));
  parser.on("eof", () => {
    complete = true;
  });
  const done = new Promise<void>((resolve, reject) => {
    parser.on("end", resolve);
    parser.on("error", reject);
  });
  input.on("error", fail);
  input.pipe(parser);
  try {
    await done;
    await work;
  } catch (error) {
    failure ??= error;
  } finally {
    input.destroy();
  }
  if (failure instanceof BackupError) throw failure;
  if (failure !== undefined) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new BackupError(`The archive is damaged or incomplete (${reason}).`);
  }
  if (!complete) throw new BackupError("The archive is incomplete (it ends in the middle).");
}

/** Reads one entry to its end, passing its bytes to `sink`, and returns its size and SHA-256. */
async function consumeEntry(entry: ReadEntry, sink?: (chunk: Buffer) => Promise<void>): Promise<BackupEntry> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of entry) {
    hash.update(chunk);
    size += chunk.length;
    await sink?.(chunk);
  }
  return { name: entry.path, size, sha256: hash.digest("hex") };
}

// ---------------------------------------------------------------------------------------------
// Backup

function timestamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-");
}

export function defaultBackupFile(dir = "backups", date = new Date()): string {
  return path.resolve(dir, `taxbridge-${timestamp(date)}.tar.gz`);
}

/**
 * Writes a backup of `dataDir` to `out` (mode 0600; an existing file is never replaced).
 * With `database: "postgresql"` the database is left to pg_dump and the archive holds the
 * uploads and secret files only. Refuses while the embedded database is open elsewhere.
 */
export async function createBackup(options: {
  dataDir: string;
  out: string;
  database: "pglite" | "postgresql";
}): Promise<BackupSummary> {
  const dataDir = path.resolve(options.dataDir);
  const out = path.resolve(options.out);
  const warnings: string[] = [];
  const pgliteDir = path.join(dataDir, "pglite");

  if (options.database === "pglite") {
    if (!existsSync(path.join(pgliteDir, "PG_VERSION"))) {
      throw new BackupError(`There is no embedded database at ${pgliteDir} (is DATA_DIR right?).`);
    }
    if (embeddedDatabaseInUse(dataDir)) throw new BackupError(inUseMessage(pgliteDir));
  } else if (!existsSync(dataDir)) {
    throw new BackupError(`The data folder ${dataDir} does not exist (is DATA_DIR right?).`);
  }
  if (existsSync(out)) throw new BackupError(`${out} already exists: choose another file name.`);

  await mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
  // Work files (the database dump, the manifest, the archive being written) live next to `out`
  // until the archive has been read back and checked, then it takes its name.
  const work = await mkdtemp(path.join(path.dirname(out), ".taxbridge-backup-"));
  try {
    const files: [name: string, file: string][] = [];
    const entries: BackupEntry[] = [];
    const add = async (name: string, file: string) => {
      const entry = { name, ...(await hashFile(file)) };
      files.push([name, file]);
      entries.push(entry);
      return entry;
    };

    let database: BackupManifest["database"] = { kind: "postgresql" };
    if (options.database === "pglite") {
      const { dump, tables } = await dumpEmbeddedDatabase(pgliteDir);
      const dumpFile = path.join(work, "pglite.tar.gz");
      await writeFile(dumpFile, dump, { mode: 0o600 });
      await add(DATABASE_ENTRY, dumpFile);
      database = { kind: "pglite", tables };
    }

    const secrets: string[] = [];
    for (const name of SECRET_FILES) {
      const file = path.join(dataDir, name);
      if (!existsSync(file)) continue;
      await add(`secrets/${name}`, file);
      secrets.push(name);
    }

    const uploadsDir = path.join(dataDir, "uploads");
    const uploads = { files: 0, bytes: 0 };
    if (existsSync(uploadsDir)) {
      const names = (await readdir(uploadsDir, { withFileTypes: true })).sort((a, b) =>
        a.name.localeCompare(b.name),
      );
      let skipped = 0;
      for (const entry of names) {
        if (!entry.isFile() || !STORAGE_KEY.test(entry.name)) {
          skipped += 1;
          continue;
        }
        const added = await add(`uploads/${entry.name}`, path.join(uploadsDir, entry.name));
        uploads.files += 1;
        uploads.bytes += added.size;
      }
      if (skipped > 0)
        warnings.push(`${skipped} item(s) in ${uploadsDir} are not stored documents and were left out.`);
    }

    const manifest: BackupManifest = {
      format: "taxbridge-backup",
      version: 1,
      createdAt: new Date().toISOString(),
      database,
      entries,
    };
    const manifestFile = path.join(work, MANIFEST_ENTRY);
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    files.push([MANIFEST_ENTRY, manifestFile]);

    const written = path.join(work, "backup.tar.gz");
    await writeArchive(written, files);
    // A file that changed between being hashed and being archived would make a backup that
    // no restore accepts: read it back now, while the data is still there to try again.
    try {
      await readAndCheck(written);
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      throw new BackupError(
        `The new backup did not read back correctly (${error.message}) and was not kept. ` +
          "A file probably changed while it was being archived: run the backup again.",
      );
    }
    await rename(written, out);
    await chmod(out, 0o600);
    return { file: out, manifest, uploads, secrets, warnings };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Restore

function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError("The archive is damaged (its manifest is not readable).");
  }
  const m = value as Partial<BackupManifest> | null;
  const entriesOk =
    Array.isArray(m?.entries) &&
    m.entries.every(
      (e) => typeof e?.name === "string" && typeof e.size === "number" && typeof e.sha256 === "string",
    );
  const kind = m?.database?.kind;
  if (m?.format !== "taxbridge-backup" || !entriesOk || (kind !== "pglite" && kind !== "postgresql")) {
    throw new BackupError("This file is not a TaxBridge backup (unknown manifest).");
  }
  if (m.version !== 1)
    throw new BackupError(
      `This backup has format version ${String(m.version)}, which this version cannot read.`,
    );
  return m as BackupManifest;
}

/**
 * Reads the whole archive and checks every entry against its manifest: size, SHA-256, nothing
 * missing, nothing extra. With `into`, every entry but the manifest is also written there.
 */
async function readAndCheck(archive: string, into?: string): Promise<BackupManifest> {
  const seen = new Map<string, BackupEntry>();
  let manifestText: string | undefined;
  await readArchive(archive, async (entry) => {
    const name = entry.path;
    if (!ENTRY_NAME.test(name)) throw new BackupError(`The archive holds an unexpected entry (${name}).`);
    if (seen.has(name)) throw new BackupError(`The archive holds ${name} twice.`);
    if (name === MANIFEST_ENTRY) {
      const parts: Buffer[] = [];
      seen.set(name, await consumeEntry(entry, async (chunk) => void parts.push(chunk)));
      manifestText = Buffer.concat(parts).toString("utf8");
    } else if (into) {
      const target = path.join(into, name);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const out = createWriteStream(target, { flags: "wx", mode: 0o600 });
      // Failures surface through drain/close below; this keeps one from going unhandled.
      out.on("error", () => undefined);
      try {
        seen.set(
          name,
          await consumeEntry(entry, async (chunk) => {
            if (!out.write(chunk)) await once(out, "drain");
          }),
        );
      } finally {
        const closed = once(out, "close");
        out.end();
        await closed;
      }
      if (out.errored) throw out.errored;
    } else {
      seen.set(name, await consumeEntry(entry));
    }
  });

  if (manifestText === undefined)
    throw new BackupError("The archive has no manifest: it is not a TaxBridge backup, or it is incomplete.");
  const manifest = parseManifest(manifestText);
  const listed = new Set(manifest.entries.map((e) => e.name));
  for (const expected of manifest.entries) {
    const got = seen.get(expected.name);
    if (!got) throw new BackupError(`The archive is incomplete: ${expected.name} is missing.`);
    if (got.size !== expected.size || got.sha256 !== expected.sha256) {
      throw new BackupError(`The archive is damaged: ${expected.name} does not match its checksum.`);
    }
  }
  for (const name of seen.keys()) {
    if (name !== MANIFEST_ENTRY && !listed.has(name))
      throw new BackupError(`The archive holds ${name}, which its manifest does not list.`);
  }
  if ((manifest.database.kind === "pglite") !== listed.has(DATABASE_ENTRY)) {
    throw new BackupError("The archive's manifest and its database entry disagree.");
  }
  return manifest;
}

/** Loads PGlite's dump into `pgliteDir` and checks every table's row count against the manifest. */
async function loadEmbeddedDatabase(
  dump: string,
  pgliteDir: string,
  expected: Record<string, number>,
): Promise<Record<string, number>> {
  const db = new PGlite(pgliteDir, { loadDataDir: await openAsBlob(dump, { type: "application/x-gzip" }) });
  let tables: Record<string, number>;
  try {
    await db.waitReady;
    tables = await countRows(db);
  } finally {
    await db.close();
  }
  const names = new Set([...Object.keys(expected), ...Object.keys(tables)]);
  for (const name of names) {
    if (tables[name] !== expected[name]) {
      throw new BackupError(
        `The restored database does not match the backup: ${name} has ${tables[name] ?? "no"} rows, the backup recorded ${expected[name] ?? "none"}.`,
      );
    }
  }
  return tables;
}

/**
 * Restores a backup into `dataDir`: the embedded database (if the archive has one), the
 * uploads and the secret files. The folder must be empty or absent unless `force`, in which
 * case its current contents are moved into a `.replaced-<time>` folder inside it, never deleted.
 * Nothing in `dataDir` changes until every checksum and row count has been verified.
 */
export async function restoreBackup(options: {
  archive: string;
  dataDir: string;
  force?: boolean;
}): Promise<RestoreSummary> {
  const archive = path.resolve(options.archive);
  const dataDir = path.resolve(options.dataDir);
  if (!existsSync(archive)) throw new BackupError(`${archive} does not exist.`);

  let existing: string[] = [];
  if (existsSync(dataDir)) {
    if (!(await stat(dataDir)).isDirectory()) throw new BackupError(`${dataDir} is not a folder.`);
    if (embeddedDatabaseInUse(dataDir)) throw new BackupError(inUseMessage(path.join(dataDir, "pglite")));
    existing = await readdir(dataDir);
    if (existing.length > 0 && !options.force) {
      throw new BackupError(
        `The data folder ${dataDir} is not empty (${existing.slice(0, 5).join(", ")}${existing.length > 5 ? ", ..." : ""}).\n` +
          "Restore into an empty or new folder (--data-dir), or pass --force to move its current contents aside first.",
      );
    }
  }
  const createdDataDir = !existsSync(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = path.join(dataDir, `.restore-${randomBytes(6).toString("hex")}`);
  await mkdir(staging, { mode: 0o700 });

  try {
    const manifest = await readAndCheck(archive, path.join(staging, "archive"));
    let tables: Record<string, number> | null = null;
    if (manifest.database.kind === "pglite") {
      tables = await loadEmbeddedDatabase(
        path.join(staging, "archive", DATABASE_ENTRY),
        path.join(staging, "pglite"),
        manifest.database.tables,
      );
    }

    // Verified: now, and only now, the data folder changes.
    let movedAside: string | undefined;
    if (existing.length > 0) {
      movedAside = path.join(dataDir, `.replaced-${timestamp()}`);
      await mkdir(movedAside, { mode: 0o700 });
      for (const name of existing) await rename(path.join(dataDir, name), path.join(movedAside, name));
    }
    if (tables) await rename(path.join(staging, "pglite"), path.join(dataDir, "pglite"));
    const uploads = { files: 0, bytes: 0 };
    const stagedUploads = path.join(staging, "archive", "uploads");
    if (existsSync(stagedUploads)) {
      for (const e of manifest.entries.filter((e) => e.name.startsWith("uploads/"))) {
        uploads.files += 1;
        uploads.bytes += e.size;
      }
      await chmod(stagedUploads, 0o700);
      await rename(stagedUploads, path.join(dataDir, "uploads"));
    }
    const secrets: string[] = [];
    for (const name of SECRET_FILES) {
      const staged = path.join(staging, "archive", "secrets", name);
      if (!existsSync(staged)) continue;
      await rename(staged, path.join(dataDir, name));
      await chmod(path.join(dataDir, name), 0o600);
      secrets.push(name);
    }
    await rm(staging, { recursive: true, force: true });
    return { dataDir, tables, uploads, secrets, movedAside, createdAt: manifest.createdAt };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (createdDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
