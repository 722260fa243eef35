import { and, asc, eq, inArray } from "drizzle-orm";
import { clientMaySee } from "~/domain/documents";
import type { MessageAttachment } from "~/domain/messages";
import { getDb } from "~/server/db/client.server";
import { documents } from "~/server/db/schema";
import { visibleToClient } from "~/server/documents/visibility.server";

/**
 * The files sent with a case's messages, keyed by message, each marked shared when its client may
 * see it (clientMaySee). `onlyVisibleToClient`: only those (the client's own conversation).
 */
export async function attachmentsOf(
  clientId: string,
  taxYear: number,
  messageIds: string[],
  onlyVisibleToClient: boolean,
): Promise<Map<string, Array<MessageAttachment & { shared: boolean }>>> {
  const byMessage = new Map<string, Array<MessageAttachment & { shared: boolean }>>();
  if (messageIds.length === 0) return byMessage;
  const rows = await getDb()
    .select({
      id: documents.id,
      name: documents.originalName,
      size: documents.size,
      messageId: documents.messageId,
      fromClient: documents.fromClient,
      sharedAt: documents.sharedAt,
    })
    .from(documents)
    .where(
      and(
        eq(documents.clientId, clientId),
        eq(documents.taxYear, taxYear),
        inArray(documents.messageId, messageIds),
        onlyVisibleToClient ? visibleToClient() : undefined,
      ),
    )
    .orderBy(asc(documents.createdAt), asc(documents.id));
  for (const row of rows) {
    if (row.messageId === null) continue;
    const list = byMessage.get(row.messageId) ?? [];
    list.push({ id: row.id, name: row.name, size: row.size, shared: clientMaySee(row) });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}
