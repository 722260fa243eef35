import { createHash } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import { newYorkDayStart } from "~/domain/business-days";
import type { DocumentCategoryKey } from "~/domain/documents";
import { returnDueDate, signatureRetainUntil } from "~/domain/e-signature";
import { REFUSED_NO_ROOM } from "~/domain/documents";
import { isStaffRole } from "~/domain/policy";
import type { ReturnRecordKind } from "~/domain/returns";
import { refused } from "~/domain/validation";
import type { Refused } from "~/domain/validation";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Database, Transaction } from "~/server/db/client.server";
import { clientCases, documents, returnReviews, returnVersions, signatureRequests, signatureSigners, signatures } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { caseRoom } from "~/server/documents/upload.server";
import { chunksOf, getStorage } from "~/server/storage/storage.server";

// What the return's functions share: the answer's shape, a case and a request read in a
// transaction, a received file kept as a record of the return, and a stored file's SHA-256.

export { refused };
export type { Refused };

/** A case: a client and a tax year. */
export type CaseRef = { clientId: string; taxYear: number };

type Reader = Pick<Database, "select">;

/** The case's row locked for the transaction (null when there is no such case). */
export async function lockCase(tx: Transaction, ref: CaseRef): Promise<{ assigneeId: string | null } | null> {
  const [row] = await tx
    .select({ assigneeId: clientCases.assigneeId })
    .from(clientCases)
    .where(and(eq(clientCases.userId, ref.clientId), eq(clientCases.taxYear, ref.taxYear)))
    .for("update");
  return row ?? null;
}

/** The SHA-256 (hex) of what storage holds under `key`, read as a stream: the bytes as stored, not as sent. */
export async function sha256OfStored(key: string): Promise<string> {
  const hash = createHash("sha256");
  const object = await getStorage().open(key);
  for await (const chunk of chunksOf(object.body)) hash.update(chunk);
  return hash.digest("hex");
}

export { sha256Hex } from "./signed-pdf.server";

/**
 * Until when a signature of `request` made now is kept: 3 years after the later of the return's
 * due date and today, to the end of that day in New York (docs/product/return-and-signature.md).
 * A return filed later still keeps it 3 years after its filing: the database refuses to delete a
 * signature while its case has an e-file event younger than 3 years (migration 0018).
 */
export async function retainUntilOf(db: Reader, request: { versionId: string; taxYear: number }, now = new Date()): Promise<Date> {
  const [version] = await db.select({ form: returnVersions.form }).from(returnVersions).where(eq(returnVersions.id, request.versionId));
  if (!version) throw new Error("a signature request without its return version");
  return newYorkDayStart(signatureRetainUntil(returnDueDate(request.taxYear, version.form), now), 1);
}

/** assertStaff, with the received files removed from storage first when it throws. */
export async function assertStaffKeepingNothing(actor: SessionUser, what: string, files: ReceivedFile[]): Promise<void> {
  if (!isStaffRole(actor.role)) await discardReceived(files);
  assertStaff(actor, what);
}

/** A received file (already checked and stored by receiveUpload) of one of `types`, or why not. */
export async function acceptStored(
  file: ReceivedFile,
  types: readonly string[],
  wrongType: string,
): Promise<{ ok: true; name: string; storageKey: string; size: number; contentType: string } | Refused> {
  if ("refused" in file) return refused(`${file.name}: ${file.refused}`);
  if (!types.includes(file.stored.contentType)) {
    await discardReceived([file]);
    return refused(wrongType);
  }
  return { ok: true, name: file.name, ...file.stored };
}

/**
 * Records a stored file as a document of the case that is a record of its return (`kind`):
 * in `tx`, with the case locked by the caller, and only while it fits in the case's room.
 * Such a document is not in the client's list of documents unless it is shared (final copies):
 * staff's uploads are not shared, and the return's pages show the client what they may see.
 */
export async function insertReturnDocument(
  tx: Transaction,
  ref: CaseRef,
  file: { name: string; storageKey: string; size: number; contentType: string },
  options: { kind: ReturnRecordKind; uploadedBy: string | null; fromClient: boolean; category?: DocumentCategoryKey; ignoreRoom?: boolean },
): Promise<{ id: string } | Refused> {
  if (!options.ignoreRoom && (await caseRoom(ref.clientId, ref.taxYear, tx)) < file.size) return refused(REFUSED_NO_ROOM);
  const [row] = await tx
    .insert(documents)
    .values({
      clientId: ref.clientId,
      taxYear: ref.taxYear,
      category: options.category ?? "other-documents",
      originalName: file.name,
      size: file.size,
      contentType: file.contentType,
      storageKey: file.storageKey,
      uploadedBy: options.uploadedBy,
      fromClient: options.fromClient,
      returnRecord: options.kind,
    })
    .returning({ id: documents.id });
  if (!row) throw new Error("no document row returned");
  return row;
}

/** The case's current version (the newest), or null before the first upload. */
export async function currentVersionOf(ref: CaseRef, db: Reader = getDb()) {
  const [row] = await db
    .select()
    .from(returnVersions)
    .where(and(eq(returnVersions.clientId, ref.clientId), eq(returnVersions.taxYear, ref.taxYear)))
    .orderBy(desc(returnVersions.number))
    .limit(1);
  return row ?? null;
}

/**
 * Where a signature request stands, from its events: void (by a newer version, `voidedBy`, or
 * cancelled, with `cancelled` the reason), authorised (every signer signed). A request voided by
 * a version holds again once staff declare the change within the tolerances; a cancelled one
 * never does.
 */
export type RequestStanding = { void: boolean; authorised: boolean; voidedBy: string | null; cancelled: string | null };

/**
 * A request's standing as SQL, for the request whose id is `id` (written with its table or alias,
 * e.g. sql`q.id`):
 * the one place it is read from the events (signature_request_events), by the pages and by the
 * staff list's "waiting for a signature" filter. Cancelled by staff (with its reason) for good;
 * otherwise void when its last "voided" or "within-tolerance" event (a declaration that the
 * change needs no new signature) is a voiding; authorised once every signer signed.
 */
export function requestStandingSql(id: SQL) {
  const lastVoidingOrKeeping = (column: "kind" | "version_id") =>
    sql`(select e.${sql.raw(column)} from signature_request_events e where e.request_id = ${id}
      and e.kind in ('voided', 'within-tolerance') order by e.created_at desc, e.id desc limit 1)`;
  const cancelled = sql`(select coalesce(e.reason, '') from signature_request_events e where e.request_id = ${id}
      and e.kind = 'cancelled' order by e.created_at desc, e.id desc limit 1)`;
  const voidedByVersion = sql`(${cancelled} is null and coalesce(${lastVoidingOrKeeping("kind")} = 'voided', false))`;
  return {
    void: sql<boolean>`(${cancelled} is not null or ${voidedByVersion})`,
    authorised: sql<boolean>`exists (select 1 from signature_request_events e where e.request_id = ${id} and e.kind = 'authorised')`,
    voidedBy: sql<string | null>`case when ${voidedByVersion} then ${lastVoidingOrKeeping("version_id")} end`,
    cancelled: sql<string | null>`${cancelled}`,
  };
}

/** The standing of each request among `ids` (a request that does not exist stands nowhere: not void, not authorised). */
export async function requestStandings(ids: readonly string[], db: Reader = getDb()): Promise<Map<string, RequestStanding>> {
  const standings = new Map<string, RequestStanding>(ids.map((id) => [id, { void: false, authorised: false, voidedBy: null, cancelled: null }]));
  if (ids.length === 0) return standings;
  const rows = await db
    .select({ id: signatureRequests.id, ...requestStandingSql(sql`${signatureRequests}.id`) })
    .from(signatureRequests)
    .where(inArray(signatureRequests.id, [...ids]));
  for (const { id, ...standing } of rows) standings.set(id, standing);
  return standings;
}

/** The case's requests that are not void, newest first, each with its standing. */
export async function liveRequestsOf(ref: CaseRef, db: Reader = getDb()) {
  const rows = await db
    .select({ request: signatureRequests, standing: requestStandingSql(sql`${signatureRequests}.id`) })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.clientId, ref.clientId), eq(signatureRequests.taxYear, ref.taxYear)))
    .orderBy(desc(signatureRequests.createdAt));
  return rows.flatMap(({ request, standing }) => (standing.void ? [] : [{ ...request, standing }]));
}

/**
 * The client's latest review of a version ("approved" or "changes-requested"), or null before
 * any. A version is approved while its latest review is an approval: asking for changes after
 * approving withdraws the approval, and approving again restores it.
 */
export async function latestReviewOf(versionId: string, db: Reader = getDb()): Promise<{ decision: "approved" | "changes-requested"; at: Date } | null> {
  const [row] = await db
    .select({ decision: returnReviews.decision, at: returnReviews.createdAt })
    .from(returnReviews)
    .where(eq(returnReviews.versionId, versionId))
    .orderBy(desc(returnReviews.createdAt), desc(returnReviews.id))
    .limit(1);
  return row ?? null;
}

/** Whether every signer of the request has a signature. */
export async function everySignerSigned(requestId: string, db: Reader): Promise<boolean> {
  const rows = await db
    .select({ signed: signatures.id })
    .from(signatureSigners)
    .leftJoin(signatures, eq(signatures.signerId, signatureSigners.id))
    .where(eq(signatureSigners.requestId, requestId));
  return rows.length > 0 && rows.every((r) => r.signed !== null);
}
