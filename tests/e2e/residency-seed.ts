// Gives a seeded client (scripts/lib/fixture-db.ts seed) an immigration history, saved by the
// app's own function as the client would save it at My residency (saveHistory: checked, audited,
// the residency of every case computed). Run with the server stopped (PGlite admits one process at
// a time) and with the server's configuration (scripts/lib/server-process.ts runFixtureDb's env),
// by tests/e2e/residency-section.spec.ts:
//
//   tsx tests/e2e/residency-seed.ts SEED_FILE
import { readFileSync } from "node:fs";
import { currentFilingYear } from "~/domain/tax-year";
import { closeDatabase, migrateDatabase } from "~/server/db/client.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { saveHistory } from "~/server/residency/history.server";
import type { SeedFile } from "../../scripts/lib/fixtures";
import { residentHistory } from "../helpers/residency";

const Y = currentFilingYear();

async function main(seedFile: string): Promise<void> {
  const seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
  const client = seeded.clients[0];
  if (!client) throw new Error("the seed file has no client");
  await migrateDatabase();
  const actor: SessionUser = { id: client.id, email: client.email, name: "Client0 Fixture", role: "user", emailVerified: true, sessionId: "" };
  const saved = await saveHistory(actor, client.id, residentHistory(Y, "Priya Raman"), "127.0.0.1");
  if (!saved.ok) throw new Error(`the history was refused: ${JSON.stringify(saved.errors)}`);
}

try {
  await main(process.argv[2] ?? "");
} catch (error) {
  console.error("residency-seed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
