import { and, desc, eq } from "drizzle-orm";
import { isDocumentId } from "~/domain/documents";
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

/** The differences between the signed return and the new version, in integer cents (signs do not matter). */
export type ToleranceDifferences = { incomeCents: number; taxCents: number; withholdingCents: number; refundOrOwedCents: number };

/** $50 for income or AGI; $14 for total tax, withholding, and the refund or amount owed. */
const INCOME_LIMIT_CENTS = 5_000;
const OTHER_LIMIT_CENTS = 1_400;

/** Why the differences are beyond the tolerances, or null when they are within them. */
function beyondTolerance(d: ToleranceDifferences): string | null {
  const over: string[] = [];
  if (Math.abs(d.incomeCents) > INCOME_LIMIT_CENTS) over.push("income or AGI by more than $50");
  if (Math.abs(d.taxCents) > OTHER_LIMIT_CENTS) over.push("total tax by more than $14");
  if (Math.abs(d.withholdingCents) > OTHER_LIMIT_CENTS) over.push("withholding by more than $14");
  if (Math.abs(d.refundOrOwedCents) > OTHER_LIMIT_CENTS) over.push("the refund or amount owed by more than $14");
  return over.length === 0 ? null : `The change is beyond the IRS tolerances (${over.join("; ")}): the taxpayer must sign again.`;
}

/**
 * Staff declare that the current version `versionId` differs from the signed one within the IRS
 * tolerances: the signature request it voided holds again, for this version (an event with the
 * differences). Refused beyond the tolerances, for a version that voided nothing, or when the
 * voided request was never signed in full. Audited.
 */
export async function declareWithinTolerance(
  staff: SessionUser,
  versionId: string,
  differences: ToleranceDifferences,
  ip: string,
): Promise<{ ok: true; requestId: string } | Refused> {
  assertStaff(staff, "declare a change within the tolerances");
  const values = [differences.incomeCents, differences.taxCents, differences.withholdingCents, differences.refundOrOwedCents];
  if (!values.every((v) => Number.isSafeInteger(v))) return refused(RETURN_MESSAGES.badCents);
  const beyond = beyondTolerance(differences);
  if (beyond) return refused(beyond);
  if (!isDocumentId(versionId)) return refused(RETURN_MESSAGES.noSuchVersion);
  return getDb().transaction(async (tx) => {
    const [version] = await tx.select().from(returnVersions).where(eq(returnVersions.id, versionId));
    if (!version || !(await lockCase(tx, version))) return refused(RETURN_MESSAGES.noSuchVersion);
    if ((await currentVersionOf(version, tx))?.id !== version.id) return refused(RETURN_MESSAGES.notCurrent);
    const [voided] = await tx
      .select({ request: signatureRequests })
      .from(signatureRequestEvents)
      .innerJoin(signatureRequests, eq(signatureRequests.id, signatureRequestEvents.requestId))
      .where(and(eq(signatureRequestEvents.versionId, version.id), eq(signatureRequestEvents.kind, "voided")))
      .orderBy(desc(signatureRequestEvents.createdAt))
      .limit(1);
    if (!voided) return refused(RETURN_MESSAGES.notVoided);
    const standing = (await requestStandings([voided.request.id], tx)).get(voided.request.id)!;
    if (!standing.void || standing.voidedBy !== version.id) return refused(RETURN_MESSAGES.notVoided);
    if (!standing.authorised) return refused(RETURN_MESSAGES.notSigned);
    await tx.insert(signatureRequestEvents).values({ requestId: voided.request.id, kind: "within-tolerance", versionId: version.id, ...differences, actorId: staff.id });
    const cents = (n: number) => `$${(Math.abs(n) / 100).toFixed(2)}`;
    await recordAudit(
      {
        actor: staff,
        action: "tolerance-declared",
        clientId: version.clientId,
        taxYear: version.taxYear,
        detail: `version ${version.number}: income/AGI ${cents(differences.incomeCents)}, tax ${cents(differences.taxCents)}, withholding ${cents(differences.withholdingCents)}, refund or owed ${cents(differences.refundOrOwedCents)}`,
        ip,
      },
      tx,
    );
    return { ok: true as const, requestId: voided.request.id };
  });
}
