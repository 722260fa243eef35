import { and, desc, eq } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
import { withinIrsTolerance } from "~/domain/irs-tolerance";
import type { ToleranceDifferences, ToleranceField } from "~/domain/irs-tolerance";
import { RETURN_MESSAGES } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { returnVersions, signatureRequestEvents, signatureRequests } from "~/server/db/schema";
import type { Refused } from "./records.server";
import { currentVersionOf, lockCase, refused, requestStandings } from "./records.server";

// A correction after signing needs no new signature when it stays within the IRS's tolerances:
// staff declare the differences, and the request a new version voided holds again.

/** How each difference past its limit is named when the declaration is refused. */
const BEYOND: Record<ToleranceField, string> = {
  incomeOrAgiCents: "income or AGI by more than $50",
  taxCents: "total tax by more than $14",
  withholdingCents: "withholding by more than $14",
  refundOrOwedCents: "the refund or amount owed by more than $14",
};

/**
 * Staff declare that the current version `versionId` differs from the version that was signed
 * (the case's last signature request's, however many versions came since) within the IRS
 * tolerances: that request, which a newer version voided, holds again, for this version (an event
 * with the differences). Refused beyond the tolerances, when the last request stands (nothing to
 * keep) or was cancelled, and when it was never signed in full. Audited.
 */
export async function declareWithinTolerance(
  staff: SessionUser,
  versionId: string,
  differences: ToleranceDifferences,
  ip: string,
): Promise<{ ok: true; requestId: string } | Refused> {
  assertStaff(staff, "declare a change within the tolerances");
  const values = [differences.incomeOrAgiCents, differences.taxCents, differences.withholdingCents, differences.refundOrOwedCents];
  if (!values.every((v) => Number.isSafeInteger(v))) return refused(RETURN_MESSAGES.badCents);
  const { within, exceeded } = withinIrsTolerance(differences);
  if (!within) return refused(`The change is beyond the IRS tolerances (${exceeded.map((f) => BEYOND[f]).join("; ")}): the taxpayer must sign again.`);
  if (!isDocumentId(versionId)) return refused(RETURN_MESSAGES.noSuchVersion);
  return getDb().transaction(async (tx) => {
    const [version] = await tx.select().from(returnVersions).where(eq(returnVersions.id, versionId));
    if (!version || !(await lockCase(tx, version))) return refused(RETURN_MESSAGES.noSuchVersion);
    if ((await currentVersionOf(version, tx))?.id !== version.id) return refused(RETURN_MESSAGES.notCurrent);
    // The case's last request: an earlier one was replaced by it.
    const [last] = await tx
      .select({ request: signatureRequests })
      .from(signatureRequests)
      .where(and(eq(signatureRequests.clientId, version.clientId), eq(signatureRequests.taxYear, version.taxYear)))
      .orderBy(desc(signatureRequests.createdAt))
      .limit(1);
    if (!last || last.request.versionId === version.id) return refused(RETURN_MESSAGES.notVoided);
    const standing = (await requestStandings([last.request.id], tx)).get(last.request.id)!;
    if (!standing.void || standing.voidedBy === null) return refused(RETURN_MESSAGES.notVoided);
    if (!standing.authorised) return refused(RETURN_MESSAGES.notSigned);
    const voided = last;
    const [signedVersion] = await tx.select({ number: returnVersions.number }).from(returnVersions).where(eq(returnVersions.id, voided.request.versionId));
    const { incomeOrAgiCents: incomeCents, taxCents, withholdingCents, refundOrOwedCents } = differences;
    await tx
      .insert(signatureRequestEvents)
      .values({ requestId: voided.request.id, kind: "within-tolerance", versionId: version.id, incomeCents, taxCents, withholdingCents, refundOrOwedCents, actorId: staff.id });
    const cents = (n: number) => `$${(Math.abs(n) / 100).toFixed(2)}`;
    await recordAudit(
      {
        actor: staff,
        action: "tolerance-declared",
        clientId: version.clientId,
        taxYear: version.taxYear,
        detail: `version ${version.number} against version ${signedVersion?.number ?? "?"}, the one signed: income/AGI ${cents(incomeCents)}, tax ${cents(taxCents)}, withholding ${cents(withholdingCents)}, refund or owed ${cents(refundOrOwedCents)}`,
        ip,
      },
      tx,
    );
    return { ok: true as const, requestId: voided.request.id };
  });
}
