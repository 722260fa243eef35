// npm run seed:demo: sample clients for an empty database (stop the server first on PGlite).
import "./lib/private-files.js";
import { closeDatabase, migrateDatabase } from "~/server/db/client.server";
import { seedDemo } from "../ops/demo-seed";

try {
  await migrateDatabase();
  const created = await seedDemo();
  console.info(created > 0 ? `Created ${created} sample clients.` : "The database already has clients: nothing to do.");
} catch (error) {
  console.error("Could not seed:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
