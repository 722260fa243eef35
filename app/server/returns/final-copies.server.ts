import { and, eq, sql } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { RETURN_MESSAGES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { completeStageInTx } from "~/server/cases/workflow.server";
import { getDb } from "~/server/db/client.server";
import { documents, finalCopies } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";
import type { CaseRef, Refused } from "./records.server";
import { acceptStored, assertStaffKeepingNothing, insertReturnDocument, lockCase, refused } from "./records.server";

// Final copies: the return as filed and the signed authorisation, released to the client as
// documents shared with them (they appear in the client's documents list). Releasing ticks
// FINAL COPIES in the same transaction.

/** A final copy: a staff document of the case already stored, or a PDF received now. */
export type FinalCopySource = { documentId: string } | { file: ReceivedFile };

const filesOf = (sources: FinalCopySource[]) => sources.flatMap((s) => ("file" in s ? [s.file] : []));

/** Makes one source a shared final copy of the case, in `tx`: its document id, or null when it cannot be. */
async function shareAsFinalCopy(tx: Transaction, staff: SessionUser, ref: CaseRef, source: FinalCopySource): Promise<string | null> {
  let id: string;
  if ("file" in source) {
    const stored = await acceptStored(source.file, ["application/pdf"], RETURN_MESSAGES.badFinalCopy);
    if (!stored.ok) return null;
    const doc = await insertReturnDocument(tx, ref, stored, { kind: "final-copy", uploadedBy: staff.id, fromClient: false, category: "prior-us-returns" });
    if ("ok" in doc) return null;
    id = doc.id;
  } else {
    if (!isDocumentId(source.documentId)) return null;
    id = source.documentId.toLowerCase();
  }
  const [shared] = await tx
    .update(documents)
    .set({ sharedAt: sql`coalesce(${documents.sharedAt}, now())`, returnRecord: sql`coalesce(${documents.returnRecord}, 'final-copy')` })
    .where(and(eq(documents.id, id), eq(documents.clientId, ref.clientId), eq(documents.taxYear, ref.taxYear), eq(documents.fromClient, false), eq(documents.contentType, "application/pdf")))
    .returning({ id: documents.id });
  return shared?.id ?? null;
}

/**
 * Staff release the final copies of a case: the filed return and the signed authorisation, each
 * a PDF document of the case staff uploaded (chosen by id) or a PDF received now. Both become
 * documents shared with the client; the release is recorded (append-only), audited, and ticks
 * FINAL COPIES (with the stage e-mail) in the same transaction.
 */
export async function releaseFinalCopies(
  staff: SessionUser,
  ref: CaseRef,
  input: { filedReturn: FinalCopySource; signedAuthorization: FinalCopySource },
  ip: string,
): Promise<{ ok: true; filedReturnDocumentId: string; signedAuthorizationDocumentId: string } | Refused> {
  const received = filesOf([input.filedReturn, input.signedAuthorization]);
  await assertStaffKeepingNothing(staff, "release final copies", received);
  const outcome = await getDb()
    .transaction(async (tx) => {
      if (!(await lockCase(tx, ref))) return refused(RETURN_MESSAGES.noSuchCase);
      const filed = await shareAsFinalCopy(tx, staff, ref, input.filedReturn);
      const signed = filed ? await shareAsFinalCopy(tx, staff, ref, input.signedAuthorization) : null;
      // Nothing of a refused release is kept: the transaction is rolled back.
      if (!filed || !signed || filed === signed) throw new RefusedRelease();
      await tx.insert(finalCopies).values({ ...ref, filedReturnDocumentId: filed, signedAuthorizationDocumentId: signed, releasedBy: staff.id });
      await recordAudit({ actor: staff, action: "final-copies-released", clientId: ref.clientId, taxYear: ref.taxYear, detail: "filed return and signed authorisation", ip }, tx);
      const mailId = await completeStageInTx(tx, staff, ref, "finalcopies", ip, "final copies released");
      return { ok: true as const, filedReturnDocumentId: filed, signedAuthorizationDocumentId: signed, mailId };
    })
    .catch((error: unknown) => {
      if (error instanceof RefusedRelease) return refused(RETURN_MESSAGES.badFinalCopy);
      throw error;
    });
  if (!outcome.ok) {
    await discardReceived(received);
    return outcome;
  }
  deliverMail(outcome.mailId);
  const { mailId: _sent, ...released } = outcome;
  return released;
}

class RefusedRelease extends Error {
  constructor() {
    super("final copies refused");
    this.name = "RefusedRelease";
  }
}

