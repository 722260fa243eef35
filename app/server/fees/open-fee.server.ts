import { and, desc, eq, inArray } from "drizzle-orm";
import { getDb } from "~/server/db/client.server";
import { invoices } from "~/server/db/schema";

/**
 * The tax year of the client's open fee: their newest invoice that is sent or partly paid (not a
 * draft, not paid, not void), or null when nothing is owed. The query takes the client's own id:
 * it reads no one else's invoices.
 */
export async function openFeeYear(clientId: string): Promise<number | null> {
  const [open] = await getDb()
    .select({ taxYear: invoices.taxYear })
    .from(invoices)
    .where(and(eq(invoices.clientId, clientId), inArray(invoices.status, ["sent", "partly-paid"])))
    .orderBy(desc(invoices.sentAt), desc(invoices.createdAt))
    .limit(1);
  return open?.taxYear ?? null;
}
