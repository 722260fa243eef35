import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { clientCode } from "~/domain/admin";
import { SYSTEM_ACTOR } from "~/domain/audit";
import type { AuditAction } from "~/domain/audit";
import { STAFF_ROLES } from "~/domain/policy";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { auditLog, clientCases, user } from "~/server/db/schema";

export type { AuditAction } from "~/domain/audit";

export type AuditEntry = {
  actor: { id: string; email: string } | null;
  action: AuditAction;
  clientId?: string | null;
  /** The tax year of the case the entry is about, when it is about one. */
  taxYear?: number | null;
  /** Short, human text. Never an SSN, a password, a token or a document's contents. */
  detail?: string;
  ip?: string;
};

/**
 * Appends one entry to the audit trail. The application has no way to change or delete one.
 * A change and its entry belong together: pass the change's transaction as `db`, so that
 * either both are stored or neither is.
 */
export async function recordAudit(entry: AuditEntry, db: Pick<Database, "insert"> = getDb()): Promise<void> {
  await db
    .insert(auditLog)
    .values({
      actorId: entry.actor?.id ?? null,
      actorEmail: entry.actor?.email ?? null,
      action: entry.action,
      clientId: entry.clientId ?? null,
      taxYear: entry.taxYear ?? null,
      // PostgreSQL text cannot hold NUL; a detail quoting what someone typed may contain one.
      detail: entry.detail?.replaceAll("\u0000", "\uFFFD") ?? null,
      ipAddress: entry.ip ?? null,
    });
}

/** Which entries: those about some clients (a subquery such as `clientsMatching`), by one actor, of one kind. */
export type AuditFilter = {
  clientIds?: SQL;
  /** An account id, or SYSTEM_ACTOR for entries nobody signed in made. */
  actor?: string;
  action?: AuditAction;
};

function auditConditions(filter: AuditFilter): SQL | undefined {
  return and(
    filter.clientIds ? inArray(auditLog.clientId, filter.clientIds) : undefined,
    filter.actor === SYSTEM_ACTOR ? isNull(auditLog.actorId) : filter.actor ? eq(auditLog.actorId, filter.actor) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
  );
}

/**
 * How many entries the filter finds, counted up to `atMost` (the deepest page's last entry, and
 * one more to tell that there are more): a count that stays quick on a table of millions.
 */
export async function countAudit(filter: AuditFilter, atMost: number): Promise<number> {
  const found = getDb().select({ id: auditLog.id }).from(auditLog).where(auditConditions(filter)).limit(atMost).as("found");
  const [row] = await getDb().select({ n: count() }).from(found);
  return row?.n ?? 0;
}

const actorAccount = alias(user, "actor");

/**
 * The query of one page of entries, newest first, each with the current name of whoever acted
 * (null for nobody, or an account that is gone) and its client's name and number (exported so
 * its plan can be checked).
 */
export function auditPageQuery(options: { filter?: AuditFilter; limit?: number; offset?: number }) {
  const db = getDb();
  // The page's ids first, from an index alone; names and labels then for those rows only, not
  // for every row skipped to reach a page far down.
  const page = db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(auditConditions(options.filter ?? {}))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0)
    .as("page");
  return db
    .select({
      entry: auditLog,
      actorName: actorAccount.name,
      clientName: user.name,
      // The client's number is the same in each of their years.
      clientNumber: sql<number | null>`(select min(${clientCases.number}) from ${clientCases} where ${clientCases.userId} = ${auditLog.clientId})`.mapWith(Number),
    })
    .from(page)
    .innerJoin(auditLog, eq(auditLog.id, page.id))
    .leftJoin(user, eq(user.id, auditLog.clientId))
    .leftJoin(actorAccount, eq(actorAccount.id, auditLog.actorId))
    .orderBy(desc(auditLog.at), desc(auditLog.id));
}

/**
 * One page of entries (auditPageQuery), each with the label of its client (`TB-00042 Name`, null
 * when the entry names no client or the account is gone).
 */
export async function listAudit(options: { filter?: AuditFilter; limit?: number; offset?: number }) {
  const rows = await auditPageQuery(options);
  return rows.map((r) => ({
    ...r.entry,
    actorName: r.actorName,
    clientLabel:
      r.clientName !== null && r.clientNumber !== null ? `${clientCode(r.clientNumber)} ${r.clientName}` : null,
  }));
}

/** Every staff member, deactivated ones too (they stay in the trail), by name. */
export async function everyStaffMember(): Promise<Array<{ id: string; name: string; email: string }>> {
  return getDb()
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(inArray(user.role, [...STAFF_ROLES]))
    .orderBy(asc(user.name), asc(user.email));
}
