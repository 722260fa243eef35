import { and, desc, eq, isNull } from "drizzle-orm";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema";

// The staff's side of the public contact form (contact.server.ts stores what visitors send).

/** The newest contact messages (at most 200), for the panel's Messages page. */
export async function listContactMessages() {
  return getDb().select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(200);
}

/** Marks a contact message handled, once (false when it already was or does not exist), with its audit entry. */
export async function markContactMessageHandled(actor: SessionUser, messageId: string, ip: string): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const updated = await tx
      .update(contactMessages)
      .set({ handledAt: new Date() })
      .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
      .returning({ id: contactMessages.id });
    if (updated.length === 0) return false;
    await recordAudit({ actor, action: "message-handled", detail: `contact message ${messageId}`, ip }, tx);
    return true;
  });
}
