import { and, desc, eq, lt, sql } from "drizzle-orm";
import { currentFilingYear } from "~/domain/tax-year";
import { filingStatusOf, TAXPAYER_FIELDS } from "~/domain/taxpayer";
import type { TaxpayerInput, TaxpayerValues } from "~/domain/taxpayer";
import type { FilingView } from "~/domain/portal";
import { decryptSecret, encryptSecret } from "~/server/platform/crypto.server";
import { getDb } from "~/server/db/client.server";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { clientCases, taxpayerRecords } from "~/server/db/schema";

type Row = typeof taxpayerRecords.$inferSelect;

function valuesOf(row: Row, userId: string): TaxpayerValues {
  const values = {} as TaxpayerValues;
  for (const field of TAXPAYER_FIELDS) values[field] = field === "ssn_tin" ? decryptSecret(row.ssn_tin, userId) : row[field];
  return values;
}

/**
 * The owner's own record of a tax year for their form, SSN decrypted: with the staff's Reveal,
 * the only places a full SSN leaves the database. Every query here is scoped by the acting
 * user's id.
 */
export async function getOwnTaxpayerValues(userId: string, taxYear: number = currentFilingYear()): Promise<TaxpayerValues | null> {
  const [row] = await getDb()
    .select()
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, userId), eq(taxpayerRecords.taxYear, taxYear)))
    .limit(1);
  return row ? valuesOf(row, userId) : null;
}

/**
 * What a tax year's form starts from: its own record, or else a copy of the client's latest
 * earlier year (`prefilledFrom` says which), or else nothing.
 */
export async function taxpayerFormValues(
  userId: string,
  taxYear: number,
): Promise<{ values: TaxpayerValues | null; hasRecord: boolean; prefilledFrom: number | null }> {
  const own = await getOwnTaxpayerValues(userId, taxYear);
  if (own) return { values: own, hasRecord: true, prefilledFrom: null };
  const [earlier] = await getDb()
    .select()
    .from(taxpayerRecords)
    .where(and(eq(taxpayerRecords.userId, userId), lt(taxpayerRecords.taxYear, taxYear)))
    .orderBy(desc(taxpayerRecords.taxYear))
    .limit(1);
  return earlier
    ? { values: valuesOf(earlier, userId), hasRecord: false, prefilledFrom: earlier.taxYear }
    : { values: null, hasRecord: false, prefilledFrom: null };
}

/**
 * Creates the year's record or updates it: one upsert, so concurrent saves leave one row. Only
 * a year the client has a case for takes a record ("no-case" otherwise). With `audit`, the
 * "taxpayer-info-saved" entry (submitted or changed, never a value) is stored with the record.
 */
export async function saveTaxpayerRecord(
  userId: string,
  input: TaxpayerInput,
  taxYear: number = currentFilingYear(),
  audit?: { actor: SessionUser; ip: string },
): Promise<"created" | "updated" | "no-case"> {
  const values = {
    ...input,
    ssn_tin: encryptSecret(input.ssn_tin, userId),
    ssn_last4: input.ssn_tin.replace(/\D/g, "").slice(-4),
  };
  return getDb().transaction(async (tx) => {
    const [theCase] = await tx
      .select({ year: clientCases.taxYear })
      .from(clientCases)
      .where(and(eq(clientCases.userId, userId), eq(clientCases.taxYear, taxYear)));
    if (!theCase) return "no-case";
    const [row] = await tx
      .insert(taxpayerRecords)
      .values({ userId, taxYear, ...values })
      .onConflictDoUpdate({ target: [taxpayerRecords.userId, taxpayerRecords.taxYear], set: { ...values, updatedAt: sql`now()` } })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    const outcome = row?.inserted ? "created" : "updated";
    if (audit)
      await recordAudit(
        { actor: audit.actor, action: "taxpayer-info-saved", clientId: userId, taxYear, detail: outcome === "created" ? "submitted" : "changed", ip: audit.ip },
        tx,
      );
    return outcome;
  });
}

export function toFilingView(row: Row): FilingView {
  return {
    id: row.id,
    fullName: [row.name_as_per_ssn, row.middle_name, row.last_name].filter(Boolean).join(" "),
    filingStatus: row.filing_status,
    status: filingStatusOf({ ...row, ssn_tin: row.ssn_last4 }),
    submittedOn: row.createdAt.toISOString(),
    lastUpdated: row.updatedAt.toISOString(),
    maskedSsn: `***-**-${row.ssn_last4}`,
    visaType: row.visa_type,
    occupation: row.occupation,
    personal: {
      firstName: row.name_as_per_ssn,
      middleName: row.middle_name,
      lastName: row.last_name,
      dateOfBirth: row.date_of_birth,
      firstEntryDateUsa: row.first_entry_date_usa,
      timeZone: row.time_zone,
    },
    contact: {
      primaryContact: `${row.primary_country_code} ${row.primary_contact}`,
      secondaryContact: row.secondary_contact ? `${row.secondary_country_code} ${row.secondary_contact}` : "",
      alternateEmail: row.alternate_email,
      city: row.city,
      state: row.state,
      zipcode: row.zipcode,
      mailingAddress: row.current_mailing_address,
    },
  };
}
