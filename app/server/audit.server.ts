import { desc, eq, inArray, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { getDb } from "./db/client.server";
import type { Database } from "./db/client.server";
import { auditLog, clientCases, user } from "./db/schema";

export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "second-factor-locked",
  "case-viewed",
  "documents-viewed",
  "workflow-saved",
  "document-uploaded",
  "document-downloaded",
  "document-removed",
  "clients-exported",
  "client-created",
  "invitation-sent",
  "role-changed",
  "message-handled",
  "case-opened",
  "taxpayer-info-saved",
  "ssn-revealed",
  "document-shared",
  "document-unshared",
  "note-added",
  "stage-notices-changed",
  "staff-invited",
  "staff-deactivated",
  "staff-reactivated",
  "second-factor-reset",
  "case-assigned",
  "message-sent",
  "message-hidden",
  "messages-viewed",
  "request-added",
  "request-answered",
  "request-answer-withdrawn",
  "request-received",
  "request-returned",
  "request-removed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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

/**
 * The newest entries first, each with the label of its client (`TB-00042 Name`, null when the
 * entry names no client or the account is gone). `clientIds` narrows them to those clients (a
 * subquery such as `clientsMatching`).
 */
export async function listAudit(options: { clientIds?: SQL; limit?: number; offset?: number }) {
  const rows = await getDb()
    .select({
      entry: auditLog,
      clientName: user.name,
      // The client's number is the same in each of their years.
      clientNumber: sql<number | null>`(select min(${clientCases.number}) from ${clientCases} where ${clientCases.userId} = ${auditLog.clientId})`.mapWith(Number),
    })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.clientId))
    .where(options.clientIds ? inArray(auditLog.clientId, options.clientIds) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0);
  return rows.map((r) => ({
    ...r.entry,
    clientLabel:
      r.clientName !== null && r.clientNumber !== null ? `${clientCode(r.clientNumber)} ${r.clientName}` : null,
  }));
}
