// npm run db:restore -- FILE [--data-dir DIR] [--force]
// Restores a backup made by db:backup into the data folder (DATA_DIR, ./data by default):
// the embedded database, the uploaded documents and the secret files. Stop the server first.
// The folder must be empty or absent; --force moves its current contents into a
// .replaced-<time> folder inside it. Every checksum and row count is verified before
// anything in the folder changes.
import "./lib/private-files.js";
import path from "node:path";
import { parseArgs } from "node:util";
import { BackupError, restoreBackup } from "../ops/backup";

function usage(): never {
  console.error("Usage: npm run db:restore -- backups/file.tar.gz [--data-dir ./data] [--force]");
  process.exit(2);
}

let parsed: { values: { "data-dir"?: string; force?: boolean }; positionals: string[] };
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { "data-dir": { type: "string" }, force: { type: "boolean" } },
  });
} catch {
  usage();
}
const [archive, ...extra] = parsed.positionals;
if (!archive || extra.length > 0) usage();

const dataDir = path.resolve(parsed.values["data-dir"] ?? (process.env.DATA_DIR?.trim() || "./data"));
const postgres = Boolean(process.env.DATABASE_URL?.trim());

try {
  const result = await restoreBackup({ archive, dataDir, force: parsed.values.force === true });
  console.info(`Restored the backup of ${result.createdAt} into ${result.dataDir}`);
  if (result.tables) {
    const tables = Object.entries(result.tables);
    const rows = tables.reduce((sum, [, n]) => sum + n, 0);
    console.info(`  database: ${tables.length} tables, ${rows} rows (every count matches the backup)`);
    for (const [name, n] of tables) console.info(`    ${name}: ${n}`);
    if (postgres)
      console.warn("  note: DATABASE_URL is set, so the server uses PostgreSQL, not this embedded database.");
  } else {
    console.info("  database: not in this archive (PostgreSQL): restore it with pg_restore (see README.md)");
  }
  console.info(
    `  uploads: ${result.uploads.files} files, ${result.uploads.bytes} bytes (checksums verified)`,
  );
  console.info(`  secret files: ${result.secrets.length > 0 ? result.secrets.join(", ") : "none"}`);
  if (result.movedAside)
    console.info(
      `The folder's previous contents are in ${result.movedAside}: delete it once you have checked the restore.`,
    );
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  if (error instanceof BackupError) console.error("Nothing was changed.");
  process.exitCode = 1;
}
