// npm run admin:create -- --email ADDRESS [--role preparer]
// Creates (or promotes) a verified staff account (an admin by default) and prints a one-time
// link to set the password.
// On the embedded database, stop the server first: PGlite allows one process at a time.
import "./lib/private-files.js";
import { parseArgs } from "node:util";
import { isStaffRole } from "~/domain/policy";
import { EMAIL_SHAPE } from "~/domain/validation";
import { createOrPromoteAdmin } from "../ops/admin-accounts";
import { closeDatabase, migrateDatabase } from "~/server/db/client.server";

const { values } = parseArgs({ options: { email: { type: "string" }, role: { type: "string", default: "admin" } } });
const email = values.email?.trim() ?? "";
const role = values.role ?? "admin";
if (!EMAIL_SHAPE.test(email) || !isStaffRole(role)) {
  console.error("Usage: npm run admin:create -- --email admin@example.com [--role admin|preparer]");
  process.exit(2);
}

try {
  await migrateDatabase();
  const { created, link } = await createOrPromoteAdmin(email, role);
  console.info(`${created ? "Created" : "Promoted"} ${role} ${email.toLowerCase()}.`);
  console.info(`Set the password within 24 hours (the link works once):\n${link}`);
} catch (error) {
  console.error("Could not create the admin:", error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
