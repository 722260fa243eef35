import { and, desc, eq } from "drizzle-orm";
import { isRealDay, newYorkDay } from "~/domain/business-days";
import { COUNTRY_CODE_SHAPE, ID_CHECK_METHODS, ID_DOCUMENT_TYPES, RETURN_MESSAGES } from "~/domain/returns";
import type { IdCheckMethod, IdDocumentType, SignerRole } from "~/domain/returns";
import { recordAudit } from "~/server/audit/audit.server";
import { assertStaff } from "~/server/auth/guards.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { idChecks } from "~/server/db/schema";
import type { CaseRef, Refused } from "./records.server";
import { lockCase, refused } from "./records.server";

// A signer's identity check: staff inspected a government photo ID, in person or by live video,
// and record what they saw (never the whole number: its last 4). One is needed per tax year and
// signer for an e-signature; without one the signer signs by hand. Append-only.

export type IdCheckInput = {
  documentType: string;
  /** ISO 3166-1 alpha-2 (IN, US…). */
  issuingCountry: string;
  /** YYYY-MM-DD, after New York's today. */
  expiresOn: string;
  numberLast4: string;
  how: string;
};

/** Staff record a signer's identity check for a case's tax year. Audited. */
export async function recordIdCheck(
  staff: SessionUser,
  ref: CaseRef,
  signer: SignerRole,
  input: IdCheckInput,
  ip: string,
  today: string = newYorkDay(),
): Promise<{ ok: true; idCheckId: string } | Refused> {
  assertStaff(staff, "record an identity check");
  const country = input.issuingCountry.trim().toUpperCase();
  const last4 = input.numberLast4.trim().toUpperCase();
  if (signer !== "taxpayer" && signer !== "spouse") return refused(RETURN_MESSAGES.noSuchCase);
  if (!(ID_DOCUMENT_TYPES as readonly string[]).includes(input.documentType)) return refused(RETURN_MESSAGES.badDocumentType);
  if (!COUNTRY_CODE_SHAPE.test(country)) return refused(RETURN_MESSAGES.badCountry);
  if (!isRealDay(input.expiresOn) || input.expiresOn <= today) return refused(RETURN_MESSAGES.badExpiry);
  if (!/^[A-Z0-9]{4}$/.test(last4)) return refused(RETURN_MESSAGES.badLast4);
  if (!(ID_CHECK_METHODS as readonly string[]).includes(input.how)) return refused(RETURN_MESSAGES.badMethod);
  return getDb().transaction(async (tx) => {
    if (!(await lockCase(tx, ref))) return refused(RETURN_MESSAGES.noSuchCase);
    const [row] = await tx
      .insert(idChecks)
      .values({
        clientId: ref.clientId,
        taxYear: ref.taxYear,
        signerRole: signer,
        documentType: input.documentType as IdDocumentType,
        issuingCountry: country,
        expiresOn: input.expiresOn,
        numberLast4: last4,
        method: input.how as IdCheckMethod,
        checkedBy: staff.id,
      })
      .returning({ id: idChecks.id });
    if (!row) throw new Error("no id check row returned");
    await recordAudit(
      { actor: staff, action: "id-check-recorded", clientId: ref.clientId, taxYear: ref.taxYear, detail: `the ${signer}: ${input.documentType} (${country}), ${input.how}`, ip },
      tx,
    );
    return { ok: true as const, idCheckId: row.id };
  });
}

/** The signer's latest identity check for the case's tax year, or null. */
export async function latestIdCheck(ref: CaseRef, signer: SignerRole, db: Pick<Database, "select"> = getDb()) {
  const [row] = await db
    .select()
    .from(idChecks)
    .where(and(eq(idChecks.clientId, ref.clientId), eq(idChecks.taxYear, ref.taxYear), eq(idChecks.signerRole, signer)))
    .orderBy(desc(idChecks.checkedAt))
    .limit(1);
  return row ?? null;
}
