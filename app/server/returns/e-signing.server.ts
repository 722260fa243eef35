import { timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { CONSENT_VERSION, DECLARATION_VERSION, namesMatch } from "~/domain/e-signature";
import { isTimeZone, RETURN_MESSAGES, SIGNING_CODE_TRIES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import { getDb } from "~/server/db/client.server";
import { signingCodes } from "~/server/db/schema";
import { latestIdCheck } from "./id-checks.server";
import type { Refused } from "./records.server";
import { refused, retainUntilOf } from "./records.server";
import { completeAuthorization, insertSignature } from "./signature-records.server";
import { makeSignedCopyAfterSigning } from "./signed-copy.server";
import { openSigner, signerActor, signerLabel } from "./signer-access.server";
import type { SignerAccess } from "./signer-access.server";
import { codeHash } from "./signing-codes.server";

// Signing the authorisation form electronically, with the code e-mailed to the signer
// (signing-codes.server.ts) after an identity check staff recorded.

export type EmailCodeSigning = {
  code: string;
  typedName: string;
  /** The version of the e-signature consent the signer agreed to (its text is the page's): the current one. */
  consentVersion: string;
  /** The version of the form's declaration the signer made (its text is the page's): the current one. */
  declarationVersion: string;
  /** The signer's IANA time zone, to show the time as they saw it. */
  timeZone: string;
  ip: string;
  userAgent: string;
};

/**
 * Signs the form electronically: the consent and the declaration agreed to must be the current
 * versions (a page opened before a new wording was published is refused, not recorded under words
 * it did not show); the typed name must match the signer's name fixed on the request when it was
 * made (the taxpayer's from their taxpayer information then, the spouse's as staff entered it),
 * ignoring case and spacing, so that a later edit of the taxpayer information does not change
 * whose signature it is; an identity check must be recorded for the signer and tax year; the code
 * must be the signer's latest, unused, unexpired, within its tries (a wrong one spends a try). The
 * signature keeps what the IRS asks of an electronic one, with both versions. When it is the last
 * one missing, the request is authorised (completeAuthorization). Audited.
 */
export async function signWithEmailCode(access: SignerAccess, input: EmailCodeSigning): Promise<{ ok: true; signatureId: string; authorised: boolean } | Refused> {
  const consentVersion = input.consentVersion.trim();
  const declarationVersion = input.declarationVersion.trim();
  if (consentVersion === "") return refused(RETURN_MESSAGES.consentRequired);
  if (consentVersion !== CONSENT_VERSION) return refused(RETURN_MESSAGES.consentOutdated);
  if (declarationVersion !== DECLARATION_VERSION) return refused(RETURN_MESSAGES.declarationOutdated);
  if (!isTimeZone(input.timeZone)) return refused(RETURN_MESSAGES.badTimeZone);
  const code = input.code.trim();
  const outcome = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    const idCheck = await latestIdCheck(request, signer.role, tx);
    if (!idCheck) return refused(RETURN_MESSAGES.noIdCheck);
    if (!namesMatch(input.typedName, signer.name)) return refused(RETURN_MESSAGES.nameMismatch);
    const [stored] = await tx
      .select()
      .from(signingCodes)
      .where(and(eq(signingCodes.signerId, signer.id), isNull(signingCodes.usedAt)))
      .orderBy(desc(signingCodes.createdAt))
      .limit(1)
      .for("update");
    if (!stored || stored.expiresAt.getTime() <= Date.now()) return refused(RETURN_MESSAGES.codeExpired);
    if (stored.attempts >= SIGNING_CODE_TRIES) return refused(RETURN_MESSAGES.codeTooManyTries);
    if (!/^\d{6}$/.test(code) || !sameHash(codeHash(stored.id, code), stored.codeHash)) {
      // The wrong try is counted and kept: the transaction commits with it.
      await tx.update(signingCodes).set({ attempts: stored.attempts + 1 }).where(eq(signingCodes.id, stored.id));
      return refused(stored.attempts + 1 >= SIGNING_CODE_TRIES ? RETURN_MESSAGES.codeTooManyTries : RETURN_MESSAGES.codeWrong);
    }
    await tx.update(signingCodes).set({ usedAt: new Date() }).where(eq(signingCodes.id, stored.id));
    const signatureId = await insertSignature(tx, request, signer, {
      method: "e-signature",
      signerName: input.typedName.trim().replace(/\s+/g, " "),
      timeZone: input.timeZone,
      ip: input.ip,
      userAgent: input.userAgent.slice(0, 512),
      consentVersion,
      declarationVersion,
      idCheckId: idCheck.id,
      handwrittenUploadId: null,
      retainUntil: await retainUntilOf(tx, request),
    });
    await recordAudit(
      { actor: signerActor(access), action: "return-signed", clientId: request.clientId, taxYear: request.taxYear, detail: `Form ${request.authorizationForm}, e-signature by ${signerLabel(signer)}`, ip: input.ip },
      tx,
    );
    const authorised = await completeAuthorization(tx, request, signerActor(access), input.ip);
    return { ok: true as const, signatureId, authorised, requestId: request.id };
  });
  if (!outcome.ok) return outcome;
  if (outcome.authorised) await makeSignedCopyAfterSigning(outcome.requestId);
  return { ok: true, signatureId: outcome.signatureId, authorised: outcome.authorised };
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
