// Once per run of the integration project, in Vitest's own process, before any test file:
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
  }
}

const baseUrl = process.env.DATABASE_URL?.trim();
let templateRoot = "";

export async function setup(project: TestProject): Promise<void> {
  if (baseUrl) {
    await emptyWorkerDatabases(baseUrl);
    project.provide("pgliteTemplate", "");
    return;
  }
  templateRoot = mkdtempSync(path.join(tmpdir(), "taxbridge-it-template-"));
  const folder = path.join(templateRoot, "pglite");
  const client = openPglite(folder);
  try {
    await migrate(drizzle(client), { migrationsFolder: path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations") });
  } finally {
    await client.close();
  }
  project.provide("pgliteTemplate", folder);
}

export async function teardown(): Promise<void> {
  if (templateRoot) rmSync(templateRoot, { recursive: true, force: true });
}
