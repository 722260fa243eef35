// Once per run of the integration project, in Vitest's own process, before any test file:
// - one temporary folder for the run, which holds each file's data folder (setup.ts) and is
//   removed when the run ends, with whatever a file left there (a file whose tests were all
//   skipped runs no hook of its own, and an e-mail sent as a file ends lands after it);
// - on the embedded database (DATABASE_URL empty), one PGlite data folder with every migration
//   applied, which setup.ts copies into each file's data folder: creating an embedded database
//   costs seconds of CPU (its initdb), copying a migrated one a tenth of that;
// - on PostgreSQL, empties the workers' databases (worker-database.ts) that an earlier run left,
//   so that each run migrates them afresh; they are left for the next run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";
import { openPglite } from "~/server/db/client.server";
import { emptyWorkerDatabases } from "./worker-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data folder to copy ("" on PostgreSQL). */
    pgliteTemplate: string;
    /** The run's temporary folder, for the test files' data folders. */
    runFolder: string;
  }
}

const baseUrl = process.env.DATABASE_URL?.trim();
let runFolder = "";

export async function setup(project: TestProject): Promise<void> {
  runFolder = mkdtempSync(path.join(tmpdir(), "taxbridge-it-"));
  project.provide("runFolder", runFolder);
  if (baseUrl) {
    await emptyWorkerDatabases(baseUrl);
    project.provide("pgliteTemplate", "");
    return;
  }
  const folder = path.join(runFolder, "template-pglite");
  const client = openPglite(folder);
  try {
    await migrate(drizzle(client), { migrationsFolder: path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations") });
  } finally {
    await client.close();
  }
  project.provide("pgliteTemplate", folder);
}

export async function teardown(): Promise<void> {
  if (runFolder) rmSync(runFolder, { recursive: true, force: true });
}
