import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ClientDocumentView, StaffDocumentView } from "~/domain/documents";
import { DOCUMENT_CATEGORIES, isDocumentCategory, isDocumentId } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { assertStaff } from "~/server/auth/guards.server";
import { getDb } from "~/server/db/client.server";
import { caseViews, documentRequests, documents, user } from "~/server/db/schema";
import { withheldNowSql } from "~/server/fees/final-copies-gate.server";
import { visibleToClient } from "./visibility.server";

// A case's documents as the panel and the client's pages list them.
// Every query here names the client it is about, and every function is handed the actor:
// no document is ever read, changed or removed by its id alone.

/** One document as the panel lists it. */
export type ClientDocument = {
  id: string;
  category: DocumentCategoryKey;
  name: string;
  size: number;
  contentType: string;
  /** ISO timestamp. */
  uploadedAt: string;
};

export type DocumentGroup = { key: DocumentCategoryKey; label: string; documents: ClientDocument[] };

/** A case's documents in the categories' order, oldest first within each (the Document Management modal). */
export async function listDocumentsByCategory(actor: SessionUser, clientId: string, taxYear: number): Promise<DocumentGroup[]> {
  assertStaff(actor, "see a client's documents");
  const rows = await getDb()
    .select({
      id: documents.id,
      category: documents.category,
      name: documents.originalName,
      size: documents.size,
      contentType: documents.contentType,
      createdAt: documents.createdAt,
    })
    .from(documents)
    .where(and(eq(documents.clientId, clientId), eq(documents.taxYear, taxYear)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  const groups: DocumentGroup[] = DOCUMENT_CATEGORIES.map((c) => ({
    key: c.key,
    label: c.label,
    documents: [],
  }));
  for (const r of rows) {
    const key: DocumentCategoryKey = isDocumentCategory(r.category) ? r.category : "other-documents";
    groups
      .find((g) => g.key === key)
      ?.documents.push({
        id: r.id,
        category: key,
        name: r.name,
        size: r.size,
        contentType: r.contentType,
        uploadedAt: r.createdAt.toISOString(),
      });
  }
  return groups;
}

/**
 * A document sent against a requested item staff have accepted (received), whichever way it
 * came: it stays, and its client cannot remove it (staff still can, or return the item first).
 */
export const onAcceptedItem = sql<boolean>`exists (select 1 from ${documentRequests} where ${documentRequests.id} = ${documents.requestId} and ${documentRequests.state} = 'received')`;

/** The columns every listing of a case's documents reads. */
const listedColumns = {
  id: documents.id,
  category: documents.category,
  name: documents.originalName,
  size: documents.size,
  createdAt: documents.createdAt,
  fromClient: documents.fromClient,
};

function listed(r: { id: string; category: string; name: string; size: number; createdAt: Date }) {
  return {
    id: r.id,
    category: isDocumentCategory(r.category) ? r.category : ("other-documents" as const),
    name: r.name,
    size: r.size,
    uploadedAt: r.createdAt.toISOString(),
  };
}

/**
 * A case's documents for its page in the panel: who uploaded each, whether it is shared, and
 * whether it is new to the acting staff member (uploaded by the client since they last opened
 * the case). Oldest first.
 */
export async function listCaseDocuments(actor: SessionUser, clientId: string, taxYear: number): Promise<StaffDocumentView[]> {
  assertStaff(actor, "see a client's documents");
  const rows = await getDb()
    .select({
      ...listedColumns,
      sharedAt: documents.sharedAt,
      uploaderName: user.name,
      isNew: sql<boolean>`(${documents.fromClient} and ${documents.createdAt} > coalesce((select ${caseViews.viewedAt} from ${caseViews}
        where ${caseViews.staffId} = ${actor.id} and ${caseViews.clientId} = ${documents.clientId} and ${caseViews.taxYear} = ${documents.taxYear}), '-infinity'))`,
    })
    .from(documents)
    .leftJoin(user, eq(user.id, documents.uploadedBy))
    .where(and(eq(documents.clientId, clientId), eq(documents.taxYear, taxYear)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map((r) => ({
    ...listed(r),
    uploadedBy: r.uploaderName === null ? null : { name: r.uploaderName, client: r.fromClient },
    sharedAt: r.sharedAt?.toISOString() ?? null,
    isNew: r.isNew === true,
  }));
}

/**
 * The client's own documents of a tax year: the ones they uploaded and the ones staff shared
 * with them, oldest first. Staff documents not shared are never among them. Those the fee
 * withholds (withheldForFee, withheldNowSql) are listed as waiting for it.
 */
export async function listOwnDocuments(userId: string, taxYear: number): Promise<ClientDocumentView[]> {
  const rows = await getDb()
    .select({ ...listedColumns, accepted: onAcceptedItem, waitsForFee: withheldNowSql })
    .from(documents)
    .where(and(eq(documents.clientId, userId), eq(documents.taxYear, taxYear), visibleToClient()))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map((r) => ({ ...listed(r), mine: r.fromClient, accepted: r.accepted === true, waitsForFee: r.waitsForFee }));
}

/**
 * The titles of the accepted items (see onAcceptedItem) that the client's own documents among
 * `documentIds` were sent against: why a removal of them was refused.
 */
export async function acceptedItemsOf(clientId: string, taxYear: number, documentIds: string[]): Promise<string[]> {
  const ids = [...new Set(documentIds.filter(isDocumentId).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return [];
  const rows = await getDb()
    .selectDistinct({ title: documentRequests.title })
    .from(documents)
    .innerJoin(documentRequests, eq(documentRequests.id, documents.requestId))
    .where(
      and(
        eq(documents.clientId, clientId),
        eq(documents.taxYear, taxYear),
        inArray(documents.id, ids),
        eq(documents.fromClient, true),
        eq(documentRequests.state, "received"),
      ),
    )
    .orderBy(asc(documentRequests.title));
  return rows.map((r) => r.title);
}
