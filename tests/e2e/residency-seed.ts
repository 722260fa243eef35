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

const Y = currentFilingYear();

/**
 * An F-1 student from September 1 two years before the tax year to June 30 of the year before,
 * then an H-1B worker: in the US from September 1 to December 31 two years before, from March 1 to
 * December 31 the year before, from March 1 to June 30 of the tax year, and a day in transit in
 * September. 122 + 184/3 + 0/6 = 183.33 days, met on June 30: a resident for all of the year.
 */
export function residencyHistory(name: string) {
  return {
    people: [
      {
        key: "client",
        role: "client",
        name,
        citizenship: "India",
        taxResidence: "India",
        ownStays: true,
        greenCardSteps: false,
        itin: null,
        ficaWithheld: false,
        school: "State University",
        sponsor: null,
        periods: [
          { status: "F-1", category: null, from: `${Y - 2}-09-01`, to: `${Y - 1}-06-30` },
          { status: "H-1B", category: null, from: `${Y - 1}-07-01`, to: null },
        ],
        stays: [
          { arrival: `${Y - 2}-09-01`, departure: `${Y - 2}-12-31`, transit: false, source: "typed" },
          { arrival: `${Y - 1}-03-01`, departure: `${Y - 1}-12-31`, transit: false, source: "i94" },
          { arrival: `${Y}-03-01`, departure: `${Y}-06-30`, transit: false, source: "typed" },
          { arrival: `${Y}-09-10`, departure: `${Y}-09-10`, transit: true, source: "typed" },
        ],
      },
    ],
  };
}

async function main(seedFile: string): Promise<void> {
  const seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
  const client = seeded.clients[0];
  if (!client) throw new Error("the seed file has no client");
  await migrateDatabase();
  const actor: SessionUser = { id: client.id, email: client.email, name: "Client0 Fixture", role: "user", emailVerified: true, sessionId: "" };
  const saved = await saveHistory(actor, client.id, residencyHistory("Priya Raman"), "127.0.0.1");
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
