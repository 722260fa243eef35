import { and, desc, eq, lt } from "drizzle-orm";
import type { ExportedCase } from "~/domain/admin";
import { getDb } from "~/server/db/client.server";
import { clientCases, user } from "~/server/db/schema";
import { listStaff } from "~/server/team/active-staff.server";
import { clientConditions, exportColumns, toExportedCase } from "./list.server";
import type { ClientFilter } from "./list.server";

/** How many cases the export reads at a time. */
const EXPORT_BATCH = 1000;

/**
 * Export Data: the cases of the list on screen (its tax year, section, search, stage, return and residency filters),
 * newest client first, EXPORT_BATCH at a time: each batch continues below the last client number
 * read, through the index, so that neither the server nor the database ever holds the whole
 * list (a year of 100,000 cases is about 100 MB as rows). The next batch is read when the one
 * before has been used (the answer's reader asks for more). Admins only: the export route is theirs (STAFF_POLICY).
 */
export async function* exportCases(q: ClientFilter, batchSize = EXPORT_BATCH): AsyncGenerator<ExportedCase[]> {
  const staffById = new Map((await listStaff()).map((s) => [s.id, s]));
  const where = clientConditions(q);
  let below: number | null = null;
  for (;;) {
    const rows = await getDb()
      .select(exportColumns())
      .from(clientCases)
      .innerJoin(user, eq(user.id, clientCases.userId))
      .where(below === null ? where : and(where, lt(clientCases.number, below)))
      .orderBy(desc(clientCases.number))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((r) => toExportedCase(r, staffById));
    if (rows.length < batchSize) return;
    below = rows[rows.length - 1]!.number;
  }
}
