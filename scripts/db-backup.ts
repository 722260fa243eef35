// npm run db:backup [-- --out FILE] [--data-dir DIR]
// Backs up the data folder (DATA_DIR, ./data by default) into one .tar.gz: the embedded
// database, the uploaded documents and the secret files. Stop the server first: the embedded
// database serves one process at a time. With DATABASE_URL set, the database itself is backed
// up with pg_dump (see README.md) and this archive holds the uploads and secret files.
import "./lib/private-files.js";
import path from "node:path";
import { parseArgs } from "node:util";
import { BackupError, createBackup, defaultBackupFile } from "../ops/backup";

function usage(): never {
  console.error("Usage: npm run db:backup [-- --out backups/file.tar.gz] [--data-dir ./data]");
  process.exit(2);
}

let values: { out?: string; "data-dir"?: string };
try {
  ({ values } = parseArgs({ options: { out: { type: "string" }, "data-dir": { type: "string" } } }));
} catch {
  usage();
}

const dataDir = path.resolve(values["data-dir"] ?? (process.env.DATA_DIR?.trim() || "./data"));
const postgres = Boolean(process.env.DATABASE_URL?.trim());
const out = values.out ? path.resolve(values.out) : defaultBackupFile();

if (postgres) {
  console.info(
    [
      "DATABASE_URL is set: the database is PostgreSQL and is NOT in this archive. Back it up with pg_dump, e.g.",
      `  pg_dump --format=custom --no-owner --file=${out.replace(/\.tar\.gz$/, "")}.dump "$DATABASE_URL"`,
      `This archive holds what lives in the data folder (${dataDir}): uploaded documents and secret files.`,
    ].join("\n"),
  );
}

try {
  const result = await createBackup({ dataDir, out, database: postgres ? "postgresql" : "pglite" });
  const { manifest } = result;
  console.info(`Backed up ${dataDir}`);
  if (manifest.database.kind === "pglite") {
    const tables = Object.entries(manifest.database.tables);
    const rows = tables.reduce((sum, [, n]) => sum + n, 0);
    console.info(`  database: ${tables.length} tables, ${rows} rows`);
    for (const [name, n] of tables) console.info(`    ${name}: ${n}`);
  }
  console.info(`  uploads: ${result.uploads.files} files, ${result.uploads.bytes} bytes`);
  console.info(`  secret files: ${result.secrets.length > 0 ? result.secrets.join(", ") : "none"}`);
  for (const warning of result.warnings) console.warn(`  warning: ${warning}`);
  if (!result.secrets.includes("ssn-key")) {
    console.warn(
      process.env.SSN_ENCRYPTION_KEY?.trim()
        ? "  warning: SSN_ENCRYPTION_KEY comes from the environment and is not in this archive: keep it (and any\n" +
            "  SSN_ENCRYPTION_PREVIOUS_KEYS) safely with your backups. Without it no stored SSN can be read."
        : "  warning: there is no ssn-key file in the data folder.",
    );
  }
  console.info(`Wrote ${result.file} (mode 0600).`);
  console.info(
    "This archive holds client data and the secret keys that decrypt it: keep it private, store it encrypted\n" +
      "or on storage only administrators can read, and never commit it or send it by e-mail.",
  );
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
