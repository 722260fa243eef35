import { eq, isNotNull, or } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { documents } from "~/server/db/schema";

/**
 * clientMaySee (domain/documents.ts) as a condition on `documents`: the client's own uploads,
 * and staff's once shared. Every query that gives a client documents (their list, a message's
 * files, a requested item's files, a download) adds it to the condition naming their case.
 */
export function visibleToClient(): SQL {
  return or(eq(documents.fromClient, true), isNotNull(documents.sharedAt))!;
}
