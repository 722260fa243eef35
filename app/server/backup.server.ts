import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, openAsBlob } from "node:fs";
import { chmod, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { Gzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";

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
// A minimal ustar writer and reader: regular files only, which is all a backup holds.

const BLOCK = 512;
const MAX_TAR_SIZE = 8 ** 11 - 1;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function tarHeader(name: string, size: number, mtimeSeconds: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new BackupError(`Entry name too long for the archive: ${name}`);
  if (size > MAX_TAR_SIZE) throw new BackupError(`${name} is too large for the archive (${size} bytes).`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, "utf8");
  header.write(octal(0o600, 8), 100, "ascii");
  header.write(octal(0, 8), 108, "ascii");
  header.write(octal(0, 8), 116, "ascii");
  header.write(octal(size, 12), 124, "ascii");
  header.write(octal(Math.floor(mtimeSeconds), 12), 136, "ascii");
  header.write("        ", 148, "ascii");
  header.write("0", 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return header;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

class TarGzWriter {
  readonly entries: BackupEntry[] = [];
  private readonly gzip: Gzip = createGzip();
  private readonly done: Promise<void>;

  constructor(file: string) {
    this.done = pipeline(this.gzip, createWriteStream(file, { flags: "wx", mode: 0o600 }));
    // Observed in finish(); this keeps an early failure from going unhandled meanwhile.
    this.done.catch(() => undefined);
  }

  private async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, "drain");
  }

  async addBuffer(name: string, data: Buffer): Promise<BackupEntry> {
    await this.write(tarHeader(name, data.length, Date.now() / 1000));
    await this.write(data);
    await this.write(padding(data.length));
    const entry = { name, size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
    this.entries.push(entry);
    return entry;
  }

  async addFile(name: string, file: string): Promise<BackupEntry> {
    const info = await stat(file);
    await this.write(tarHeader(name, info.size, info.mtimeMs / 1000));
    const hash = createHash("sha256");
    let written = 0;
    for await (const chunk of createReadStream(file)) {
      const bytes = chunk as Buffer;
      if (written + bytes.length > info.size)
        throw new BackupError(`${file} changed while it was being read.`);
      hash.update(bytes);
      written += bytes.length;
      await this.write(bytes);
    }
    if (written !== info.size) throw new BackupError(`${file} changed while it was being read.`);
    await this.write(padding(info.size));
    const entry = { name, size: info.size, sha256: hash.digest("hex") };
    this.entries.push(entry);
    return entry;
  }

  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }

  async abort(): Promise<void> {
    this.gzip.destroy();
    await this.done.catch(() => undefined);
  }
}

type TarEvent =
  { kind: "entry"; name: string; size: number } | { kind: "data"; chunk: Buffer } | { kind: "end-entry" };

function parseOctal(field: Buffer): number {
  const text = field
    .toString("ascii")
    .replace(/[\0 ]+$/g, "")
    .trim();
  if (!/^[0-7]+$/.test(text)) throw new BackupError("The archive is damaged (unreadable tar header).");
  return parseInt(text, 8);
}

function parseHeader(header: Buffer): { name: string; size: number } {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  if (parseOctal(header.subarray(148, 156)) !== sum)
    throw new BackupError("The archive is damaged (tar header checksum).");
  const type = String.fromCharCode(header[156]!);
  if (type !== "0" && type !== "\0")
    throw new BackupError("The archive holds something other than plain files.");
  const cString = (b: Buffer) =>
    b.subarray(0, b.indexOf(0) === -1 ? b.length : b.indexOf(0)).toString("utf8");
  const prefix = cString(header.subarray(345, 500));
  const name = cString(header.subarray(0, 100));
  return { name: prefix ? `${prefix}/${name}` : name, size: parseOctal(header.subarray(124, 136)) };
}

/** The entries of a tar stream as they arrive: a header, its data, its end, the next header... */
async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEvent> {
  let pending: Buffer = Buffer.alloc(0);
  let remaining = 0; // data bytes left in the current entry
  let skip = 0; // padding bytes left after it
  let inEntry = false;
  let ended = false;
  for await (const chunk of source) {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    while (!ended) {
      if (inEntry) {
        if (remaining > 0) {
          if (pending.length === 0) break;
          const take = Math.min(remaining, pending.length);
          yield { kind: "data", chunk: pending.subarray(0, take) };
          pending = pending.subarray(take);
          remaining -= take;
          continue;
        }
        if (skip > 0) {
          const take = Math.min(skip, pending.length);
          pending = pending.subarray(take);
          skip -= take;
          if (skip > 0) break;
        }
        inEntry = false;
        yield { kind: "end-entry" };
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((b) => b === 0)) {
        ended = true;
        break;
      }
      const { name, size } = parseHeader(header);
      inEntry = true;
      remaining = size;
      skip = (BLOCK - (size % BLOCK)) % BLOCK;
      yield { kind: "entry", name, size };
    }
  }
  if (!ended) throw new BackupError("The archive is incomplete (it ends in the middle).");
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
  const partial = `${out}.partial-${randomBytes(4).toString("hex")}`;
  const tar = new TarGzWriter(partial);
  try {
    let database: BackupManifest["database"] = { kind: "postgresql" };
    if (options.database === "pglite") {
      const { dump, tables } = await dumpEmbeddedDatabase(pgliteDir);
      await tar.addBuffer(DATABASE_ENTRY, dump);
      database = { kind: "pglite", tables };
    }

    const secrets: string[] = [];
    for (const name of SECRET_FILES) {
      const file = path.join(dataDir, name);
      if (!existsSync(file)) continue;
      await tar.addFile(`secrets/${name}`, file);
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
        const added = await tar.addFile(`uploads/${entry.name}`, path.join(uploadsDir, entry.name));
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
      entries: [...tar.entries],
    };
    await tar.addBuffer(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await tar.finish();
    await rename(partial, out);
    await chmod(out, 0o600);
    return { file: out, manifest, uploads, secrets, warnings };
  } catch (error) {
    await tar.abort();
    await rm(partial, { force: true });
    throw error;
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

type Extracting = {
  name: string;
  size: number;
  hash: ReturnType<typeof createHash>;
  parts: Buffer[];
  out: ReturnType<typeof createWriteStream> | undefined;
};

/** Reads the archive into `staging`, checking every entry against the manifest. */
async function extract(archive: string, staging: string): Promise<BackupManifest> {
  const seen = new Map<string, BackupEntry>();
  let manifestText: string | undefined;
  const input = createReadStream(archive);
  const source = createGunzip();
  input.on("error", (error) => source.destroy(error));
  input.pipe(source);
  let current: Extracting | undefined;
  try {
    for await (const event of readTar(source)) {
      if (event.kind === "entry") {
        if (!ENTRY_NAME.test(event.name))
          throw new BackupError(`The archive holds an unexpected entry (${event.name}).`);
        if (seen.has(event.name)) throw new BackupError(`The archive holds ${event.name} twice.`);
        let out: Extracting["out"];
        if (event.name !== MANIFEST_ENTRY) {
          const target = path.join(staging, event.name);
          await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
          out = createWriteStream(target, { flags: "wx", mode: 0o600 });
          // Failures surface through drain/close below; this keeps one from going unhandled.
          out.on("error", () => undefined);
        }
        current = { name: event.name, size: event.size, hash: createHash("sha256"), parts: [], out };
      } else if (event.kind === "data" && current) {
        current.hash.update(event.chunk);
        if (!current.out) current.parts.push(event.chunk);
        else if (!current.out.write(event.chunk)) await once(current.out, "drain");
      } else if (event.kind === "end-entry" && current) {
        if (current.out) {
          const closed = once(current.out, "close");
          current.out.end();
          await closed;
          if (current.out.errored) throw current.out.errored;
        } else manifestText = Buffer.concat(current.parts).toString("utf8");
        seen.set(current.name, {
          name: current.name,
          size: current.size,
          sha256: current.hash.digest("hex"),
        });
        current = undefined;
      }
    }
  } catch (error) {
    current?.out?.destroy();
    input.destroy();
    source.destroy();
    if (error instanceof BackupError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new BackupError(`The archive is damaged or incomplete (${reason}).`);
  }

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
    const manifest = await extract(archive, path.join(staging, "archive"));
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
