import { createHash } from "node:crypto";
import { asc } from "drizzle-orm";
import { describeError } from "~/log";
import type { Database } from "~/server/db/client.server";
import { documents } from "~/server/db/schema";
import { StoredObjectNotFoundError, chunksOf } from "~/server/storage/storage.server";
import type { FileStorage, StoredObject } from "~/server/storage/storage.server";

/**
 * Copies the documents' files from one storage to another (the local folder to a bucket:
 * `npm run storage:migrate`), verifying each copy by reading it back. Nothing is ever removed
 * from either side. Only storage keys and counts are reported, never a document's name or
 * contents.
 */

export type MigrationReport = {
  /** Documents in the database (each has one file). */
  documents: number;
  /** Copied, then read back from the target with the same SHA-256. */
  copied: string[];
  /** Already in the target with the same SHA-256: left as they were. */
  alreadyThere: string[];
  /** No file in the source; `inTarget` tells whether the target has one (not verifiable then). */
  missingLocally: Array<{ key: string; inTarget: boolean }>;
  /** Could not be copied or verified, with why (an error's name and codes, never its message). */
  failed: Array<{ key: string; reason: string }>;
};

/** The storage keys of every document, oldest first. */
export async function documentStorageKeys(db: Database): Promise<string[]> {
  const rows = await db
    .select({ key: documents.storageKey })
    .from(documents)
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map((row) => row.key);
}

/** The SHA-256 of a stored object, read to its end. */
async function sha256Of(object: StoredObject): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of chunksOf(object.body)) hash.update(chunk);
  return hash.digest("hex");
}

/** The SHA-256 of what `storage` holds under `key`, or null when it holds nothing. */
async function storedHash(storage: FileStorage, key: string): Promise<string | null> {
  try {
    return await sha256Of(await storage.open(key));
  } catch (error) {
    if (error instanceof StoredObjectNotFoundError) return null;
    throw error;
  }
}

/**
 * Copies the file of each key from `source` to `target`, one at a time: a file the target
 * already holds with the same SHA-256 is left alone (so a run can be repeated, and picks up where
 * an interrupted one stopped); any other is streamed across, read back from the target and its
 * SHA-256 compared with the source's. `progress` is told each key's outcome.
 */
export async function migrateStorage(options: {
  keys: string[];
  source: FileStorage;
  target: FileStorage;
  progress?: (done: number, of: number) => void;
}): Promise<MigrationReport> {
  const { keys, source, target } = options;
  const report: MigrationReport = { documents: keys.length, copied: [], alreadyThere: [], missingLocally: [], failed: [] };
  let done = 0;
  for (const key of keys) {
    try {
      const local = await storedHash(source, key);
      if (local === null) {
        report.missingLocally.push({ key, inTarget: (await storedHash(target, key)) !== null });
      } else if ((await storedHash(target, key)) === local) {
        report.alreadyThere.push(key);
      } else {
        const file = await source.open(key);
        await target.put(key, chunksOf(file.body));
        const copy = await storedHash(target, key);
        if (copy === local) report.copied.push(key);
        else report.failed.push({ key, reason: "the copy read back differs (SHA-256)" });
      }
    } catch (error) {
      report.failed.push({ key, reason: describeError(error) });
    }
    done += 1;
    options.progress?.(done, keys.length);
  }
  return report;
}

/** True when every document's file is in the target, verified or verified earlier. */
export function migrationSucceeded(report: MigrationReport): boolean {
  return report.failed.length === 0 && report.missingLocally.every((missing) => missing.inTarget);
}

/** The report as lines for the person running the command: problems by key, then the counts. */
export function reportLines(report: MigrationReport): string[] {
  const lines: string[] = [];
  for (const { key, inTarget } of report.missingLocally)
    lines.push(`  missing locally: ${key}${inTarget ? " (the bucket has a copy, not verified)" : " (not in the bucket either)"}`);
  for (const { key, reason } of report.failed) lines.push(`  failed: ${key}: ${reason}`);
  const nowhere = report.missingLocally.filter((missing) => !missing.inTarget).length;
  lines.push(
    `Documents: ${report.documents}`,
    `  copied and verified: ${report.copied.length}`,
    `  already in the bucket (same SHA-256): ${report.alreadyThere.length}`,
    `  missing locally: ${report.missingLocally.length}${nowhere > 0 ? ` (${nowhere} not in the bucket either)` : ""}`,
    `  failed: ${report.failed.length}`,
  );
  return lines;
}
