import { desc, eq, sql } from "drizzle-orm";
import { filingStatusOf, TAXPAYER_FIELDS } from "~/domain/taxpayer";
import type { TaxpayerInput, TaxpayerValues } from "~/domain/taxpayer";
import type { FilingView } from "~/domain/portal";
import { decryptSecret, encryptSecret } from "./crypto.server";
import { getDb } from "./db/client.server";
import { taxpayerRecords } from "./db/schema";

type Row = typeof taxpayerRecords.$inferSelect;

/**
 * The owner's own record for their form, SSN decrypted: the only place a full SSN
 * leaves the database. Every query here is scoped by the acting user's id.
 */
export async function getOwnTaxpayerValues(userId: string): Promise<TaxpayerValues | null> {
  const [row] = await getDb().select().from(taxpayerRecords).where(eq(taxpayerRecords.userId, userId)).limit(1);
  if (!row) return null;
  const values = {} as TaxpayerValues;
  for (const field of TAXPAYER_FIELDS) values[field] = field === "ssn_tin" ? decryptSecret(row.ssn_tin, userId) : row[field];
  return values;
}

/** Creates the user's record or updates it: one upsert, so concurrent saves leave one row. */
export async function saveTaxpayerRecord(userId: string, input: TaxpayerInput): Promise<void> {
  const values = {
    ...input,
    ssn_tin: encryptSecret(input.ssn_tin, userId),
    ssn_last4: input.ssn_tin.replace(/\D/g, "").slice(-4),
  };
  await getDb()
    .insert(taxpayerRecords)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: taxpayerRecords.userId, set: { ...values, updatedAt: sql`now()` } });
}

function toView(row: Row): FilingView {
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

/** The user's filings, newest first, with the SSN masked. */
export async function listOwnFilings(userId: string): Promise<FilingView[]> {
  const rows = await getDb()
    .select()
    .from(taxpayerRecords)
    .where(eq(taxpayerRecords.userId, userId))
    .orderBy(desc(taxpayerRecords.createdAt));
  return rows.map(toView);
}
