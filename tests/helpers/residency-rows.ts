import { and, asc, eq } from "drizzle-orm";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, residencyFindings, residencyPeople, residencyPeriods, residencyStays } from "~/server/db/schema";

// What the residency tests read straight from the database (app/server/residency): the rows a
// refused change must leave as they were, and one case's row with its stored residency.

/** Every row of the history's tables, staff's findings, every case (with its stored residency) and the audit trail. */
export async function residencyRows() {
  const db = getDb();
  return {
    people: await db.select().from(residencyPeople).orderBy(asc(residencyPeople.id)),
    periods: await db.select().from(residencyPeriods).orderBy(asc(residencyPeriods.id)),
    stays: await db.select().from(residencyStays).orderBy(asc(residencyStays.id)),
    findings: await db.select().from(residencyFindings).orderBy(asc(residencyFindings.personId), asc(residencyFindings.taxYear)),
    cases: await db.select().from(clientCases).orderBy(asc(clientCases.userId), asc(clientCases.taxYear)),
    audit: await db.select().from(auditLog).orderBy(asc(auditLog.id)),
  };
}

/** The case of `clientId` for `taxYear` (it must exist). */
export async function caseRowOf(clientId: string, taxYear: number) {
  const [row] = await getDb()
    .select()
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  if (!row) throw new Error("no such case");
  return row;
}
