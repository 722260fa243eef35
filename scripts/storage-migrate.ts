// npm run storage:migrate
// Copies every document's file from the local folder (DATA_DIR/uploads) to the bucket named by
// the S3_* variables, reads each copy back and compares its SHA-256, and skips the ones already
// there with the same SHA-256 (run it again after a failure, or once more right before the
// switch). Nothing is removed from either side. Prints storage keys and counts only, never a
// document's name or contents; exits 1 when a file could not be copied or verified, or a
// document's file is nowhere. On the embedded database, stop the server first.
import "./lib/private-files.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { describeError } from "~/log";
import { closeDatabase, getDb } from "~/server/db/client.server";
import { EnvError, getEnv } from "~/server/platform/env.server";
import { LocalDiskStorage, S3Storage } from "~/server/storage/storage.server";
import { embeddedDatabaseInUse } from "../ops/backup";
import { documentStorageKeys, migrateStorage, migrationSucceeded, reportLines } from "../ops/storage-migrate";

/** Stops with a message for the person running the command. */
function stop(lines: string[]): never {
  console.error(lines.join("\n"));
  process.exit(1);
}

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  if (error instanceof EnvError) stop([error.message]);
  throw error;
}
if (!env.s3) {
  stop([
    "S3_BUCKET is not set: name the bucket to copy the documents to, with S3_REGION (and S3_ENDPOINT,",
    "S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as your store needs), as the server",
    "will have them (README, Object storage).",
  ]);
}
if (!env.databaseUrl) {
  const pglite = path.join(env.dataDir, "pglite");
  if (!existsSync(pglite)) stop([`There is no embedded database at ${pglite}: is DATA_DIR (${env.dataDir}) the server's data folder?`]);
  if (embeddedDatabaseInUse(env.dataDir)) {
    stop([
      `The embedded database at ${pglite} is in use: ${path.join(pglite, "postmaster.pid")} exists.`,
      "Stop the TaxBridge server (and any other command using this data folder), then run this again:",
      "the embedded database serves one process at a time.",
      "If no server is running, the last one was not shut down cleanly: start it once and stop it",
      "with Ctrl+C (or SIGTERM), which closes the database properly.",
    ]);
  }
}

const uploads = path.join(env.dataDir, "uploads");
const bucket = new S3Storage(env.s3);
let succeeded = false;
try {
  const keys = await documentStorageKeys(getDb());
  console.info(
    `Copying the files of ${keys.length} documents from ${uploads} to the bucket ${env.s3.bucket}` +
      `${env.s3.endpoint ? ` at ${env.s3.endpoint}` : ` (AWS S3, ${env.s3.region})`}.`,
  );
  const report = await migrateStorage({
    keys,
    source: new LocalDiskStorage(uploads),
    target: bucket,
    progress: (done, of) => {
      if (done % 100 === 0 && done < of) console.info(`  ${done} of ${of} documents done`);
    },
  });
  for (const line of reportLines(report)) console.info(line);
  succeeded = migrationSucceeded(report);
  console.info(
    succeeded
      ? "Every document's file is in the bucket. Set the same S3_* variables for the server and start it."
      : "Not every document's file is in the bucket: see the keys above, then run this again.",
  );
} catch (error) {
  // The database or the bucket failed as a whole (unreachable, refused): its name and codes only.
  console.error(`Could not copy the documents (${describeError(error)}).`);
} finally {
  await bucket.close();
  await closeDatabase();
}
process.exitCode = succeeded ? 0 : 1;
