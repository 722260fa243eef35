import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { completeStageInTx } from "~/server/cases/workflow.server";
import { getDb } from "~/server/db/client.server";
import { documents, finalCopies, returnVersions } from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { deliverMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/db/client.server";
import { chunksOf, getStorage } from "~/server/storage/storage.server";
import type { CaseRef, Refused } from "./records.server";
import { acceptStored, assertStaffKeepingNothing, currentVersionOf, insertReturnDocument, lockCase, refused } from "./records.server";

// Final copies: the return as filed and the signed authorisation, released to the client as
// documents shared with them (they appear in the client's documents list, withheld while the fee
// locks them: withheldForFee in app/server/fees/final-copies-gate.server.ts). Releasing ticks
// FINAL COPIES in the same transaction. A case's final copies are released once: a second
// release (a form sent twice) answers with the first.

/**
 * A final copy: a version of the draft return (the filed return only, and only the current
 * version), another staff document of the case already stored, or a PDF received now.
 */
export type FinalCopySource = { versionId: string } | { documentId: string } | { file: ReceivedFile };

const filesOf = (sources: FinalCopySource[]) => sources.flatMap((s) => ("file" in s ? [s.file] : []));

/** A version's original bytes copied for its final copy: the copy's storage key and size, and the version. */
type VersionCopy = { versionId: string; form: string; storageKey: string; size: number };

/** The version of the case `source` names (by its id, or by its document's), or null when it names none. */
async function versionOf(ref: CaseRef, source: FinalCopySource): Promise<string | null> {
  if ("file" in source) return null;
  const id = "versionId" in source ? source.versionId : source.documentId;
  if (!isDocumentId(id)) return null;
  const [row] = await getDb()
    .select({ id: returnVersions.id })
    .from(returnVersions)
    .where(
      and(
        eq(returnVersions.clientId, ref.clientId),
        eq(returnVersions.taxYear, ref.taxYear),
        "versionId" in source ? eq(returnVersions.id, id.toLowerCase()) : eq(returnVersions.documentId, id.toLowerCase()),
      ),
    );
  return row?.id ?? null;
}

/**
 * A copy of the version's PDF as staff uploaded it (never the DRAFT-stamped copy the client
 * reviews), checked against the SHA-256 the approval and the signatures recorded.
 */
async function copyOfVersion(versionId: string): Promise<VersionCopy> {
  const [row] = await getDb()
    .select({ form: returnVersions.form, sha256: returnVersions.sha256, storageKey: documents.storageKey })
    .from(returnVersions)
    .innerJoin(documents, eq(documents.id, returnVersions.documentId))
    .where(eq(returnVersions.id, versionId));
  if (!row) throw new Error("a return version without its document");
  const storageKey = randomUUID();
  const hash = createHash("sha256");
  let size = 0;
  const original = await getStorage().open(row.storageKey);
  await getStorage().put(
    storageKey,
    (async function* () {
      for await (const chunk of chunksOf(original.body)) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    })(),
  );
  if (hash.digest("hex") !== row.sha256) {
    await getStorage().remove(storageKey);
    throw new Error(`the stored file of return version ${versionId} does not match its SHA-256`);
  }
  return { versionId, form: row.form, storageKey, size };
}

/** Why a release is refused; thrown inside its transaction so that nothing of it is kept. */
class RefusedRelease extends Error {
  constructor(readonly refusal: string) {
    super("final copies refused");
    this.name = "RefusedRelease";
  }
}

/** Shares a staff PDF document of the case (not a version of the draft) as a final copy, in `tx`. */
async function shareDocument(tx: Transaction, ref: CaseRef, documentId: string): Promise<string> {
  if (!isDocumentId(documentId)) throw new RefusedRelease(RETURN_MESSAGES.badFinalCopy);
  const [shared] = await tx
    .update(documents)
    .set({ sharedAt: sql`coalesce(${documents.sharedAt}, now())`, returnRecord: sql`coalesce(${documents.returnRecord}, 'final-copy')` })
    .where(
      and(
        eq(documents.id, documentId.toLowerCase()),
        eq(documents.clientId, ref.clientId),
        eq(documents.taxYear, ref.taxYear),
        eq(documents.fromClient, false),
        eq(documents.contentType, "application/pdf"),
        sql`${documents.returnRecord} is distinct from 'return-version'`,
      ),
    )
    .returning({ id: documents.id });
  if (!shared) throw new RefusedRelease(RETURN_MESSAGES.badFinalCopy);
  return shared.id;
}

/** Records a new PDF (a version's copy, or one received now) as a final copy shared with the client, in `tx`. */
async function insertFinalCopy(tx: Transaction, staff: SessionUser, ref: CaseRef, file: { name: string; storageKey: string; size: number }, ignoreRoom: boolean): Promise<string> {
  const doc = await insertReturnDocument(tx, ref, { ...file, contentType: "application/pdf" }, { kind: "final-copy", uploadedBy: staff.id, fromClient: false, category: "prior-us-returns", ignoreRoom });
  if ("ok" in doc) throw new RefusedRelease(doc.error);
  await tx.update(documents).set({ sharedAt: sql`now()` }).where(eq(documents.id, doc.id));
  return doc.id;
}

/**
 * Staff release the final copies of a case: the filed return (the current version of the draft
 * return, another staff PDF of the case, or a PDF received now) and the signed authorisation (a
 * staff PDF of the case, such as the signed copy, or a PDF received now). Both become documents
 * shared with the client; the filed return is a document of its own named "Form 1040-NR 2025
 * filed return.pdf" (a version's is a copy of its original bytes: the version itself stays a
 * record of the draft, never shared). A superseded version is refused as the filed return. The
 * release is recorded (append-only), audited, and ticks FINAL COPIES (with the stage e-mail) in
 * the same transaction. Released already (a form sent twice, even at the same moment): nothing
 * more is kept, and the answer is the first release's.
 */
export async function releaseFinalCopies(
  staff: SessionUser,
  ref: CaseRef,
  input: { filedReturn: FinalCopySource; signedAuthorization: FinalCopySource },
  ip: string,
): Promise<{ ok: true; filedReturnDocumentId: string; signedAuthorizationDocumentId: string; releasedBefore: boolean } | Refused> {
  const received = filesOf([input.filedReturn, input.signedAuthorization]);
  await assertStaffKeepingNothing(staff, "release final copies", received);
  let copy: VersionCopy | null = null;
  /** What this call stored and did not record is not kept: the received files, the version's copy. */
  const keepNothing = async () => {
    await discardReceived(received);
    if (copy) await getStorage().remove(copy.storageKey);
  };
  let outcome: Awaited<ReturnType<typeof recordRelease>> | Refused;
  try {
    const filedVersion = await versionOf(ref, input.filedReturn);
    // A version is the filed return only, never the signed authorisation.
    if (("versionId" in input.filedReturn && !filedVersion) || (await versionOf(ref, input.signedAuthorization))) outcome = refused(RETURN_MESSAGES.badFinalCopy);
    else {
      const filedFile = "file" in input.filedReturn ? await acceptStored(input.filedReturn.file, ["application/pdf"], RETURN_MESSAGES.badFinalCopy) : null;
      const signedFile = "file" in input.signedAuthorization ? await acceptStored(input.signedAuthorization.file, ["application/pdf"], RETURN_MESSAGES.badFinalCopy) : null;
      if (filedFile && !filedFile.ok) outcome = filedFile;
      else if (signedFile && !signedFile.ok) outcome = signedFile;
      else {
        if (filedVersion) copy = await copyOfVersion(filedVersion);
        const filed: Chosen = copy ?? (filedFile ? { file: filedFile } : { documentId: (input.filedReturn as { documentId: string }).documentId });
        const signed: Exclude<Chosen, VersionCopy> = signedFile ? { file: signedFile } : { documentId: (input.signedAuthorization as { documentId: string }).documentId };
        outcome = await recordRelease(staff, ref, filed, signed, ip);
      }
    }
  } catch (error) {
    await keepNothing();
    throw error;
  }
  // Refused, or released before (a form sent twice): nothing of this call is kept.
  if (!outcome.ok || outcome.releasedBefore) await keepNothing();
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  const { mailId: _sent, ...released } = outcome;
  return released;
}

/** A final copy as the transaction records it: a version's copy, a received PDF already checked, or a staff document's id. */
type Chosen = VersionCopy | { file: { name: string; storageKey: string; size: number } } | { documentId: string };

/** The release's transaction: refused (nothing kept), released before, or released now. */
async function recordRelease(staff: SessionUser, ref: CaseRef, filedReturn: Chosen, signedAuthorization: Exclude<Chosen, VersionCopy>, ip: string) {
  return getDb()
    .transaction(async (tx) => {
      if (!(await lockCase(tx, ref))) throw new RefusedRelease(RETURN_MESSAGES.noSuchCase);
      const [before] = await tx
        .select({ filed: finalCopies.filedReturnDocumentId, signed: finalCopies.signedAuthorizationDocumentId })
        .from(finalCopies)
        .where(and(eq(finalCopies.clientId, ref.clientId), eq(finalCopies.taxYear, ref.taxYear)))
        .limit(1);
      if (before) return { ok: true as const, filedReturnDocumentId: before.filed, signedAuthorizationDocumentId: before.signed, releasedBefore: true, mailId: null };
      const current = await currentVersionOf(ref, tx);
      let filed: string;
      if ("versionId" in filedReturn) {
        if (current?.id !== filedReturn.versionId) throw new RefusedRelease(RETURN_MESSAGES.supersededFinalCopy);
        // The law's record of the return is kept whatever room the case has left.
        filed = await insertFinalCopy(tx, staff, ref, { ...filedReturn, name: RETURN_FILE_NAMES.filed(filedReturn.form, ref.taxYear) }, true);
      } else if ("file" in filedReturn) {
        const name = current ? RETURN_FILE_NAMES.filed(current.form, ref.taxYear) : filedReturn.file.name;
        filed = await insertFinalCopy(tx, staff, ref, { ...filedReturn.file, name }, false);
      } else filed = await shareDocument(tx, ref, filedReturn.documentId);
      const signed = "file" in signedAuthorization ? await insertFinalCopy(tx, staff, ref, signedAuthorization.file, false) : await shareDocument(tx, ref, signedAuthorization.documentId);
      if (filed === signed) throw new RefusedRelease(RETURN_MESSAGES.badFinalCopy);
      await tx.insert(finalCopies).values({ ...ref, filedReturnDocumentId: filed, signedAuthorizationDocumentId: signed, releasedBy: staff.id });
      await recordAudit({ actor: staff, action: "final-copies-released", clientId: ref.clientId, taxYear: ref.taxYear, detail: "filed return and signed authorisation", ip }, tx);
      const mailId = await completeStageInTx(tx, staff, ref, "finalcopies", ip, "final copies released");
      return { ok: true as const, filedReturnDocumentId: filed, signedAuthorizationDocumentId: signed, releasedBefore: false, mailId };
    })
    .catch((error: unknown) => {
      if (error instanceof RefusedRelease) return refused(error.refusal);
      throw error;
    });
}
