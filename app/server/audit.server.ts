import { and, desc, eq } from "drizzle-orm";
import { getDb } from "./db/client.server";
import { auditLog } from "./db/schema";

export type AuditAction =
  | "sign-in"
  | "sign-in-failed"
  | "case-viewed"
  | "documents-viewed"
  | "workflow-saved"
  | "document-uploaded"
  | "document-downloaded"
  | "document-removed"
  | "clients-exported"
  | "client-created"
  | "role-changed"
  | "message-handled";

export type AuditEntry = {
  actor: { id: string; email: string } | null;
  action: AuditAction;
  clientId?: string | null;
  /** Short, human text. Never an SSN, a password, a token or a document's contents. */
  detail?: string;
  ip?: string;
};

/** Appends one entry to the audit trail. The application has no way to change or delete one. */
export async function recordAudit(entry: AuditEntry): Promise<void> {
  await getDb()
    .insert(auditLog)
    .values({
      actorId: entry.actor?.id ?? null,
      actorEmail: entry.actor?.email ?? null,
      action: entry.action,
      clientId: entry.clientId ?? null,
      // PostgreSQL text cannot hold NUL; a detail quoting what someone typed may contain one.
      detail: entry.detail?.replaceAll("\u0000", "\uFFFD") ?? null,
      ipAddress: entry.ip ?? null,
    });
}

/** The newest entries first, optionally for one client. */
export async function listAudit(options: { clientId?: string; limit?: number; offset?: number }) {
  return getDb()
    .select()
    .from(auditLog)
    .where(options.clientId ? and(eq(auditLog.clientId, options.clientId)) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0);
}
