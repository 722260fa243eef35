import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { databaseKind, openPglite } from "~/server/db/client.server";
import { tempDirs } from "../helpers/temp-dirs";

// Migration 0007 (cases per tax year): what was stored before it is tax year 2025, a client's
// number stays theirs, and a new year's case of the same client keeps it. Run on an embedded
// database of its own, migrated up to 0006 first (once: in the PGlite run of the suite).

const scratchDir = tempDirs("taxbridge-migration-");

/** A copy of db/migrations, in `scratch`, that stops after migration `last`. */
function migrationsUpTo(scratch: string, last: number): string {
  const folder = path.join(scratch, `migrations-${last}`);
  cpSync("db/migrations", folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe.runIf(databaseKind() === "pglite")("migration 0007: cases per tax year", () => {
  it("puts every case, taxpayer record and document stored before it in tax year 2025", async () => {
    const scratch = scratchDir();
    const client = openPglite(path.join(scratch, "db"));
    const db = drizzle(client);
    try {
      await migrate(db, { migrationsFolder: migrationsUpTo(scratch, 6) });
      await client.exec(`
        insert into "user" (id, name, email, email_verified, role) values
          ('c1', 'Ana Client', 'ana@example.com', true, 'user'),
          ('s1', 'Sam Staff', 'sam@example.com', true, 'admin');
        insert into profiles (id, email, full_name) values ('c1', 'ana@example.com', 'Ana Client');
        update client_cases set documents = true, current_stage = 'preparation', assignee_id = 's1' where user_id = 'c1';
        insert into taxpayer_records (user_id, name_as_per_ssn, last_name, ssn_tin, ssn_last4, date_of_birth, occupation,
          filing_status, first_entry_date_usa, visa_type, primary_contact, city, state, zipcode, current_mailing_address)
        values ('c1', 'Ana', 'Client', 'ciphertext', '1234', '1990-01-01', 'Student', 'Single', '2020-08-01', 'F1-OPT',
          '5550100', 'Austin', 'TX', '78701', '1 Main St');
        insert into documents (client_id, category, original_name, size, content_type, storage_key, uploaded_by)
        values ('c1', 'form-16', 'form.pdf', 10, 'application/pdf', 'key-1', 's1');
      `);
      const before = await client.query<{ number: number }>(`select number from client_cases where user_id = 'c1'`);

      await migrate(db, { migrationsFolder: "db/migrations" });

      const cases = await client.query<{ tax_year: number; number: number; current_stage: string; assignee_id: string }>(
        `select tax_year, number, current_stage, assignee_id from client_cases where user_id = 'c1'`,
      );
      expect(cases.rows).toEqual([{ tax_year: 2025, number: before.rows[0]!.number, current_stage: "preparation", assignee_id: "s1" }]);
      expect((await client.query(`select tax_year from taxpayer_records`)).rows).toEqual([{ tax_year: 2025 }]);
      expect((await client.query(`select tax_year, from_client, shared_at from documents`)).rows).toEqual([
        { tax_year: 2025, from_client: false, shared_at: null },
      ]);
      expect((await client.query(`select stage_notices from profiles`)).rows).toEqual([{ stage_notices: true }]);

      // A second year for the same client keeps their number; the same year twice is refused.
      await client.exec(`insert into client_cases (user_id, tax_year, number) values ('c1', 2024, ${before.rows[0]!.number})`);
      await expect(client.exec(`insert into client_cases (user_id, tax_year) values ('c1', 2024)`)).rejects.toThrow();
      // A second record for one year is refused; another year takes one.
      await expect(
        client.exec(`insert into taxpayer_records (user_id, tax_year, name_as_per_ssn, last_name, ssn_tin, ssn_last4, date_of_birth,
          occupation, filing_status, first_entry_date_usa, visa_type, primary_contact, city, state, zipcode, current_mailing_address)
          select user_id, 2025, name_as_per_ssn, last_name, ssn_tin, ssn_last4, date_of_birth, occupation, filing_status,
          first_entry_date_usa, visa_type, primary_contact, city, state, zipcode, current_mailing_address from taxpayer_records`),
      ).rejects.toThrow();
      // A client account made after the migration gets the filing season's case.
      await client.exec(`insert into "user" (id, name, email, email_verified, role) values ('c2', 'Bo New', 'bo@example.com', true, 'user')`);
      const fresh = await client.query<{ tax_year: number }>(`select tax_year from client_cases where user_id = 'c2'`);
      expect(fresh.rows).toEqual([{ tax_year: currentFilingYear() }]);
    } finally {
      await client.close();
    }
  });
});
