import { and, eq, inArray, sql } from "drizzle-orm";
import type { FinalCopiesGate } from "~/domain/fee-section";
import { FEE_MESSAGES } from "~/domain/fees";
import { isStaffRole } from "~/domain/policy";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { clientCases, documents, finalCopies, firmSettings, invoices } from "~/server/db/schema";
import type { FeeRefused } from "./fee-records.server";
import { feeRefused, isAdmin } from "./fee-records.server";

// Final copies wait for payment (docs/product/fees.md#final-copies-wait-for-payment): a firm
// setting, on unless an administrator turns it off, and a case's own exception staff set with a
// reason. The rule: a case's final copies are locked when the setting is on, the case has no
// exception, and one of its invoices has been sent and is not paid in full (sent or partly
// paid). A case with no invoice sent (a draft, a void one, none at all) is never locked.
// While locked, withheldForFee decides for every address that gives a case's file to a client or
// to a spouse which files are not given.

type Reader = Pick<Database, "select">;

/** The firm's setting; on when its row is missing (a database emptied by hand, the tests). */
export async function finalCopiesWaitForPayment(db: Reader = getDb()): Promise<boolean> {
  const [row] = await db.select({ on: firmSettings.finalCopiesWaitForPayment }).from(firmSettings).limit(1);
  return row?.on ?? true;
}

/**
 * The rule, as SQL on the client_cases row of a query: the firm's setting is on (or its row
 * missing), the case has no exception, and one of its invoices is sent and not paid in full. The
 * case's columns stand outside the invoices' subquery (see holdsReturnAsFiled): inside it, a bare
 * "tax_year" would be the invoice's own, and any year's invoice would lock every year.
 */
const gateColumns = {
  waitForPayment: sql<boolean>`coalesce((select ${firmSettings.finalCopiesWaitForPayment} from ${firmSettings} limit 1), true)`,
  releasedBeforePayment: sql<boolean>`${clientCases.finalCopiesBeforePayment}`,
  unpaid: sql<boolean>`(${clientCases.userId}, ${clientCases.taxYear}) in (select ${invoices.clientId}, ${invoices.taxYear} from ${invoices} where ${invoices.status} in ('sent', 'partly-paid'))`,
};
const lockedSql = sql<boolean>`(${gateColumns.waitForPayment} and not ${gateColumns.releasedBeforePayment} and ${gateColumns.unpaid})`;

/** The gate of a case: the setting, the case's exception, and whether its final copies are locked now. */
export async function finalCopiesGate(clientId: string, taxYear: number, db: Reader = getDb()): Promise<FinalCopiesGate> {
  const [row] = await db
    .select({ ...gateColumns, locked: lockedSql })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  // No such case: the setting alone, and nothing locked.
  if (!row) return { waitForPayment: await finalCopiesWaitForPayment(db), releasedBeforePayment: false, locked: false };
  return { waitForPayment: row.waitForPayment, releasedBeforePayment: row.releasedBeforePayment, locked: row.locked };
}

/** Whether the client may not download the case's final copies now (the rule above). */
export async function finalCopiesLocked(clientId: string, taxYear: number): Promise<boolean> {
  return (await finalCopiesGate(clientId, taxYear)).locked;
}

/**
 * Whether a document of a case holds the return as filed: a final copy uploaded as such, one of
 * the released final copies (the filed return and the signed authorisation, whatever record of
 * the case each was taken from), or a version of the draft return once the case's final copies
 * are released (the filed return is a version's bytes).
 * Every column of `documents` stands outside the subqueries: a select from one table writes its
 * columns without the table's name, and inside a subquery on final_copies a bare "id" would be
 * final_copies' own.
 */
const holdsReturnAsFiled = sql<boolean>`(${documents.returnRecord} = 'final-copy'
  or ${documents.id} in (select ${finalCopies.filedReturnDocumentId} from ${finalCopies} union all select ${finalCopies.signedAuthorizationDocumentId} from ${finalCopies})
  or (${documents.returnRecord} = 'return-version' and (${documents.clientId}, ${documents.taxYear}) in (select ${finalCopies.clientId}, ${finalCopies.taxYear} from ${finalCopies})))`;

/**
 * Whether the documents row of a query is withheld now from a client or a spouse: it holds the
 * return as filed and its case's final copies are locked (lockedSql). The document's own case is
 * named with its table: inside the subquery on client_cases a bare "tax_year" would be the case's.
 */
export const withheldNowSql = sql<boolean>`(${holdsReturnAsFiled} and exists (select 1 from ${clientCases}
  where ${clientCases.userId} = ${documents}.client_id and ${clientCases.taxYear} = ${documents}.tax_year and ${lockedSql}))`;

/** Who asks for a case's file: a signed-in user (by their role), or a spouse through their signing link. */
export type FileViewer = Pick<SessionUser, "role"> | "spouse-link";

/**
 * The one rule of every address that gives a case's file to a client or a spouse (the documents
 * list and download, the draft's review address, the form to sign): which of the case's
 * documents (among `documentIds`, or all of them) are withheld now. While the case's final copies
 * are locked, every document holding the return as filed is; staff are never held back. The
 * caller has already checked that the viewer may see the case's file at all.
 */
export async function withheldForFee(viewer: FileViewer, ref: { clientId: string; taxYear: number }, documentIds?: readonly string[]): Promise<ReadonlySet<string>> {
  if (viewer !== "spouse-link" && isStaffRole(viewer.role)) return new Set();
  if (documentIds?.length === 0) return new Set();
  const rows = await getDb()
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.clientId, ref.clientId),
        eq(documents.taxYear, ref.taxYear),
        documentIds ? inArray(documents.id, [...documentIds]) : undefined,
        withheldNowSql,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** An administrator turns the firm's setting on or off (the Payments page). Audited when it changes. */
export async function setFinalCopiesWaitForPayment(actor: SessionUser, on: boolean, ip: string): Promise<{ ok: true; changed: boolean } | FeeRefused> {
  assertStaff(actor, "change the firm's settings");
  if (!isAdmin(actor)) return feeRefused(FEE_MESSAGES.adminsOnly, 403);
  return getDb().transaction(async (tx) => {
    const before = await finalCopiesWaitForPayment(tx);
    await tx
      .insert(firmSettings)
      .values({ id: true, finalCopiesWaitForPayment: on, updatedBy: actor.id })
      .onConflictDoUpdate({ target: firmSettings.id, set: { finalCopiesWaitForPayment: on, updatedBy: actor.id, updatedAt: new Date() } });
    if (before === on) return { ok: true as const, changed: false };
    await recordAudit(
      { actor, action: "final-copies-gate-changed", detail: on ? "final copies wait for payment" : "final copies no longer wait for payment", ip },
      tx,
    );
    return { ok: true as const, changed: true };
  });
}

/**
 * Staff release a case's final copies before its fee is paid (`release`, with the reason), or
 * make them wait for payment again. Audited with the reason.
 */
export async function setFinalCopiesBeforePayment(
  staff: SessionUser,
  ref: { clientId: string; taxYear: number },
  release: boolean,
  reason: string,
  ip: string,
): Promise<{ ok: true; changed: boolean } | FeeRefused> {
  assertStaff(staff, "release final copies before payment");
  const why = reason.trim();
  if (release && (why === "" || why.length > 500)) return feeRefused(FEE_MESSAGES.overrideReason);
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select({ on: clientCases.finalCopiesBeforePayment })
      .from(clientCases)
      .where(and(eq(clientCases.userId, ref.clientId), eq(clientCases.taxYear, ref.taxYear)))
      .for("update");
    if (!row) return feeRefused(FEE_MESSAGES.noSuchCase, 404);
    if (row.on === release) return { ok: true as const, changed: false };
    await tx
      .update(clientCases)
      .set({ finalCopiesBeforePayment: release })
      .where(and(eq(clientCases.userId, ref.clientId), eq(clientCases.taxYear, ref.taxYear)));
    await recordAudit(
      {
        actor: staff,
        action: "final-copies-gate-changed",
        ...ref,
        detail: release ? `final copies released before payment: ${why}` : `final copies wait for payment again${why ? `: ${why.slice(0, 500)}` : ""}`,
        ip,
      },
      tx,
    );
    return { ok: true as const, changed: true };
  });
}

