import { randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { authorizationFormFor, namesMatch } from "~/domain/e-signature";
import {
  isTimeZone,
  RETURN_MESSAGES,
  SIGNING_CODE_MINUTES,
  SIGNING_CODE_TRIES,
  SPOUSE_LINK_DAYS,
} from "~/domain/returns";
import type { SignatureMethod, SignerRole } from "~/domain/returns";
import { EMAIL_SHAPE } from "~/domain/validation";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import {
  returnReviews,
  returnVersions,
  signatureRequestEvents,
  signatureRequests,
  signatureSigners,
  signatures,
  signingCodes,
  taxpayerRecords,
  user,
} from "~/server/db/schema";
import { discardReceived } from "~/server/documents/upload.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { hitRateLimit } from "~/server/limits/rate-limit.server";
import type { RateLimitRule } from "~/server/limits/rate-limit.server";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import type { Transaction } from "~/server/mail/outbox.server";
import { filingUrl } from "~/server/notices/notices.server";
import { getEnv } from "~/server/platform/env.server";
import { latestIdCheck } from "./id-checks.server";
import { makeSignedCopyAfterSigning } from "./signed-copy.server";
import type { Refused } from "./records.server";
import {
  acceptStored,
  assertStaffKeepingNothing,
  currentVersionOf,
  everySignerSigned,
  insertReturnDocument,
  liveRequestsOf,
  lockCase,
  refused,
  requestStandings,
  retainUntilOf,
  sha256Hex,
  sha256OfStored,
} from "./records.server";

// Signature requests and signatures of the authorisation form (8879, 8878 for an extension).
// Staff attach the form to the approved current version and request it; each signer (the
// taxpayer, and the spouse on a joint return) signs either electronically (a one-time code e-mailed
// to them, after an identity check staff recorded) or by hand (handwritten.server.ts). The
// request is authorised once every signer has signed.

/** A signer reaching their form: the client signed in (the taxpayer), or the spouse's link. */
export type SignerAccess = { client: SessionUser; requestId: string } | { token: string };

/** How often a signer may ask for a code: enough for a few mistyped addresses, not a flood. */
export const signingCodeLimit: RateLimitRule = { name: "signing-code", limit: 5, windowSeconds: 60 * 60 };

type SignerRow = typeof signatureSigners.$inferSelect;
type RequestRow = typeof signatureRequests.$inferSelect;

/** The spouse's signing page, reached with their link. */
export function spouseSigningUrl(token: string): string {
  return `${getEnv().appUrl}/sign/${encodeURIComponent(token)}`;
}

/**
 * Staff request the signatures of the authorisation form for a version the client approved and
 * that is still current: `formFile` (received and stored by receiveUpload) is the form's PDF, hashed
 * as stored. Signers: the taxpayer, and with `jointReturn` the spouse (`spouse`: name and e-mail
 * address), who is e-mailed a link of their own (only its SHA-256 is kept; it works
 * SPOUSE_LINK_DAYS days). The taxpayer is e-mailed a link to their filing. Audited.
 */
export async function requestSignature(
  staff: SessionUser,
  versionId: string,
  input: { formFile: ReceivedFile; jointReturn: boolean; spouse?: { name: string; email: string } },
  ip: string,
): Promise<{ ok: true; requestId: string } | Refused> {
  await assertStaffKeepingNothing(staff, "request a signature", [input.formFile]);
  const spouse = input.jointReturn ? { name: (input.spouse?.name ?? "").trim().replace(/\s+/g, " "), email: (input.spouse?.email ?? "").trim().toLowerCase() } : null;
  const early =
    !isDocumentId(versionId)
      ? RETURN_MESSAGES.noSuchVersion
      : spouse && (spouse.name === "" || spouse.name.length > 200)
        ? RETURN_MESSAGES.spouseRequired
        : spouse && !EMAIL_SHAPE.test(spouse.email)
          ? RETURN_MESSAGES.spouseEmail
          : null;
  if (early) {
    await discardReceived([input.formFile]);
    return refused(early);
  }
  const stored = await acceptStored(input.formFile, ["application/pdf"], RETURN_MESSAGES.formNotPdf);
  if (!stored.ok) return stored;
  const formSha256 = await sha256OfStored(stored.storageKey);
  const token = spouse ? randomBytes(32).toString("base64url") : null;
  const outcome = await getDb().transaction(async (tx) => {
    const [version] = await tx.select().from(returnVersions).where(eq(returnVersions.id, versionId));
    if (!version || !(await lockCase(tx, version))) return refused(RETURN_MESSAGES.noSuchVersion);
    if ((await currentVersionOf(version, tx))?.id !== version.id) return refused(RETURN_MESSAGES.notCurrent);
    const [approval] = await tx
      .select({ id: returnReviews.id })
      .from(returnReviews)
      .where(and(eq(returnReviews.versionId, version.id), eq(returnReviews.decision, "approved")));
    if (!approval) return refused(RETURN_MESSAGES.notApproved);
    if ((await liveRequestsOf(version, tx)).length > 0) return refused(RETURN_MESSAGES.openRequest);
    const [client] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, version.clientId));
    if (!client) return refused(RETURN_MESSAGES.noSuchCase);
    const doc = await insertReturnDocument(tx, version, stored, { kind: "authorization-form", uploadedBy: staff.id, fromClient: false });
    if ("ok" in doc) return doc;
    const form = authorizationFormFor(version.form);
    const [request] = await tx
      .insert(signatureRequests)
      .values({
        clientId: version.clientId,
        taxYear: version.taxYear,
        versionId: version.id,
        authorizationForm: form,
        formDocumentId: doc.id,
        formSha256,
        returnSha256: version.sha256,
        jointReturn: spouse !== null,
        requestedBy: staff.id,
      })
      .returning({ id: signatureRequests.id });
    if (!request) throw new Error("no request row returned");
    const name = (await taxpayerName(tx, version)) ?? client.name;
    await tx.insert(signatureSigners).values({ requestId: request.id, role: "taxpayer", name, email: client.email });
    const mailIds = [
      await enqueueMail(
        { kind: "signature-requested", to: client.email, payload: { name: client.name, taxYear: version.taxYear, url: filingUrl(version.taxYear), days: null } },
        tx,
      ),
    ];
    if (spouse && token) {
      await tx.insert(signatureSigners).values({
        requestId: request.id,
        role: "spouse",
        name: spouse.name,
        email: spouse.email,
        tokenHash: sha256Hex(token),
        tokenExpiresAt: new Date(Date.now() + SPOUSE_LINK_DAYS * 86_400_000),
      });
      mailIds.push(
        await enqueueMail(
          { kind: "signature-requested", to: spouse.email, payload: { name: spouse.name, taxYear: version.taxYear, url: spouseSigningUrl(token), days: SPOUSE_LINK_DAYS } },
          tx,
        ),
      );
    }
    await recordAudit(
      {
        actor: staff,
        action: "signature-requested",
        clientId: version.clientId,
        taxYear: version.taxYear,
        detail: `Form ${form} for version ${version.number}${spouse ? ", taxpayer and spouse" : ", taxpayer"}`,
        ip,
      },
      tx,
    );
    return { ok: true as const, requestId: request.id, mailIds };
  });
  if (!outcome.ok) {
    await discardReceived([input.formFile]);
    return outcome;
  }
  deliverMail(outcome.mailIds);
  return { ok: true, requestId: outcome.requestId };
}

/** The taxpayer's name as on their taxpayer information (first, middle, last), or null before they sent it. */
async function taxpayerName(db: Pick<Transaction, "select">, ref: { clientId: string; taxYear: number }): Promise<string | null> {
  const [row] = await db
    .select({ first: taxpayerRecords.name_as_per_ssn, middle: taxpayerRecords.middle_name, last: taxpayerRecords.last_name })
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, ref.clientId), eq(taxpayerRecords.taxYear, ref.taxYear)));
  return row ? [row.first, row.middle, row.last].map((s) => s.trim()).filter(Boolean).join(" ") : null;
}

/**
 * The signer behind `access` and their request, when the request is not void and they have not
 * signed yet (read in `tx`); or why not. The taxpayer is the client of the request's case; the
 * spouse's link must match a stored hash that has not expired.
 */
export async function openSigner(tx: Transaction, access: SignerAccess): Promise<{ ok: true; signer: SignerRow; request: RequestRow } | Refused> {
  let found: { signer: SignerRow; request: RequestRow } | undefined;
  if ("token" in access) {
    if (access.token === "" || access.token.length > 200) return refused(RETURN_MESSAGES.badLink);
    [found] = await tx
      .select({ signer: signatureSigners, request: signatureRequests })
      .from(signatureSigners)
      .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
      .where(and(eq(signatureSigners.tokenHash, sha256Hex(access.token)), gt(signatureSigners.tokenExpiresAt, new Date())));
    if (!found) return refused(RETURN_MESSAGES.badLink);
  } else {
    if (access.client.role !== "user" || !isDocumentId(access.requestId)) return refused(RETURN_MESSAGES.noSuchRequest);
    [found] = await tx
      .select({ signer: signatureSigners, request: signatureRequests })
      .from(signatureSigners)
      .innerJoin(signatureRequests, eq(signatureRequests.id, signatureSigners.requestId))
      .where(and(eq(signatureRequests.id, access.requestId), eq(signatureRequests.clientId, access.client.id), eq(signatureSigners.role, "taxpayer")));
    if (!found) return refused(RETURN_MESSAGES.noSuchRequest);
  }
  await lockCase(tx, found.request);
  if ((await requestStandings([found.request.id], tx)).get(found.request.id)?.void) return refused(RETURN_MESSAGES.requestVoid);
  const [signed] = await tx.select({ id: signatures.id }).from(signatures).where(eq(signatures.signerId, found.signer.id));
  if (signed) return refused(RETURN_MESSAGES.alreadySigned);
  return { ok: true, ...found };
}

/** The audit entry's actor: the client, or nobody signed in (the spouse, named in the detail). */
export const signerActor = (access: SignerAccess) => ("client" in access ? access.client : null);

/** The signer's name and role, for the audit detail. */
export const signerLabel = (signer: SignerRow) => (signer.role === "spouse" ? `the spouse, ${signer.name}` : "the taxpayer");

/**
 * Sends the signer a fresh 6-digit code (through the outbox, to the address the request has for
 * them: the client's verified account address, or the one staff entered for the spouse, which
 * their link was sent to). Only its SHA-256 is kept; it works once, for SIGNING_CODE_MINUTES
 * minutes, SIGNING_CODE_TRIES tries; a new code replaces the earlier ones. Refused without an
 * identity check (an e-signature needs one) and past signingCodeLimit. Audited.
 */
export async function startEmailCode(access: SignerAccess, ip: string): Promise<{ ok: true; sentTo: string } | Refused> {
  const outcome = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    if (!(await latestIdCheck(request, signer.role, tx))) return refused(RETURN_MESSAGES.noIdCheck);
    if (!(await hitRateLimit(signingCodeLimit, signer.id, tx)).allowed) return refused(RETURN_MESSAGES.tooManyCodes);
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await tx.delete(signingCodes).where(eq(signingCodes.signerId, signer.id));
    const [row] = await tx
      .insert(signingCodes)
      .values({ signerId: signer.id, codeHash: "", expiresAt: new Date(Date.now() + SIGNING_CODE_MINUTES * 60_000) })
      .returning({ id: signingCodes.id });
    if (!row) throw new Error("no code row returned");
    // The row's id salts the hash: a hash copied to another row does not match.
    await tx.update(signingCodes).set({ codeHash: codeHash(row.id, code) }).where(eq(signingCodes.id, row.id));
    const mailId = await enqueueMail({ kind: "signing-code", to: signer.email, payload: { name: signer.name, code, minutes: SIGNING_CODE_MINUTES } }, tx);
    await recordAudit({ actor: signerActor(access), action: "signing-code-sent", clientId: request.clientId, taxYear: request.taxYear, detail: `to ${signerLabel(signer)}`, ip }, tx);
    return { ok: true as const, mailId, sentTo: signer.email };
  });
  if (!outcome.ok) return outcome;
  deliverMail(outcome.mailId);
  return { ok: true, sentTo: outcome.sentTo };
}

function codeHash(id: string, code: string): string {
  return sha256Hex(`${id}:${code}`);
}

export type EmailCodeSigning = {
  code: string;
  typedName: string;
  /** The version of the e-signature consent the signer agreed to (its text is the page's). */
  consentVersion: string;
  /** The signer's IANA time zone, to show the time as they saw it. */
  timeZone: string;
  ip: string;
  userAgent: string;
};

/**
 * Signs the form electronically: the typed name must match the name on record (the taxpayer's
 * taxpayer information, or the spouse's name as staff entered it), ignoring case and spacing;
 * an identity check must be recorded for the signer and tax year; the code must be the signer's
 * latest, unused, unexpired, within its tries (a wrong one spends a try). The signature keeps
 * what the IRS asks of an electronic one. When it is the last one missing, the request is
 * authorised (completeAuthorization). Audited.
 */
export async function signWithEmailCode(access: SignerAccess, input: EmailCodeSigning): Promise<{ ok: true; signatureId: string; authorised: boolean } | Refused> {
  if (input.consentVersion.trim() === "" || input.consentVersion.length > 64) return refused(RETURN_MESSAGES.consentRequired);
  if (!isTimeZone(input.timeZone)) return refused(RETURN_MESSAGES.badTimeZone);
  const code = input.code.trim();
  const outcome = await getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    const idCheck = await latestIdCheck(request, signer.role, tx);
    if (!idCheck) return refused(RETURN_MESSAGES.noIdCheck);
    const nameOnRecord = signer.role === "taxpayer" ? await taxpayerName(tx, request) : signer.name;
    if (nameOnRecord === null) return refused(RETURN_MESSAGES.noTaxpayerName);
    if (!namesMatch(input.typedName, nameOnRecord)) return refused(RETURN_MESSAGES.nameMismatch);
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
      consentVersion: input.consentVersion.trim(),
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

/** Stores one signature of `request` by `signer` (append-only; kept until retainUntil). */
export async function insertSignature(
  tx: Transaction,
  request: RequestRow,
  signer: SignerRow,
  s: {
    method: SignatureMethod;
    signerName: string;
    timeZone: string | null;
    ip: string | null;
    userAgent: string | null;
    consentVersion: string | null;
    idCheckId: string | null;
    handwrittenUploadId: string | null;
    retainUntil: Date;
  },
): Promise<string> {
  const [row] = await tx
    .insert(signatures)
    .values({
      requestId: request.id,
      signerId: signer.id,
      clientId: request.clientId,
      taxYear: request.taxYear,
      signerRole: signer.role,
      signerName: s.signerName,
      method: s.method,
      timeZone: s.timeZone,
      ipAddress: s.ip,
      userAgent: s.userAgent,
      consentVersion: s.consentVersion,
      formSha256: request.formSha256,
      returnSha256: request.returnSha256,
      idCheckId: s.idCheckId,
      handwrittenUploadId: s.handwrittenUploadId,
      retainUntil: s.retainUntil,
    })
    .returning({ id: signatures.id });
  if (!row) throw new Error("no signature row returned");
  return row.id;
}

/**
 * Once every signer of `request` has signed, records that the return is authorised (an event of
 * the request, audited), in the last signature's transaction. Answers whether it is.
 * Its signed copy is made once the transaction has committed (signed-copy.server.ts).
 */
export async function completeAuthorization(tx: Transaction, request: RequestRow, actor: SessionUser | null, ip: string): Promise<boolean> {
  if (!(await everySignerSigned(request.id, tx))) return false;
  await tx.insert(signatureRequestEvents).values({ requestId: request.id, kind: "authorised", actorId: actor?.id ?? null });
  await recordAudit(
    { actor, action: "return-authorised", clientId: request.clientId, taxYear: request.taxYear, detail: `Form ${request.authorizationForm}: every signer has signed`, ip },
    tx,
  );
  return true;
}


/** What a signer's page shows: the form to sign and the return it authorises, for whom, and whether an e-signature is open to them (an identity check is recorded). */
export async function signingPage(access: SignerAccess): Promise<
  | { ok: true; requestId: string; role: SignerRole; name: string; taxYear: number; authorizationForm: string; returnForm: string; formDocumentId: string; eSignature: boolean }
  | Refused
> {
  return getDb().transaction(async (tx) => {
    const open = await openSigner(tx, access);
    if (!open.ok) return open;
    const { signer, request } = open;
    // The return the form authorises (its texts name it).
    const [version] = await tx.select({ form: returnVersions.form }).from(returnVersions).where(eq(returnVersions.id, request.versionId));
    return {
      ok: true as const,
      returnForm: version?.form ?? "",
      requestId: request.id,
      role: signer.role,
      name: signer.name,
      taxYear: request.taxYear,
      authorizationForm: request.authorizationForm,
      formDocumentId: request.formDocumentId,
      eSignature: (await latestIdCheck(request, signer.role, tx)) !== null,
    };
  });
}

