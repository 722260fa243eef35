import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { currentFilingYear } from "~/domain/tax-year";
import { noFlags, STAGES } from "~/domain/workflow";
import type { WorkflowFlags } from "~/domain/workflow";
import type { VisaStatus } from "~/domain/auth";
import { TIME_ZONES } from "~/domain/taxpayer";
import { getDb } from "~/server/db/client.server";
import { createAccount } from "~/server/auth/accounts.server";
import { clientCases, documents, user } from "~/server/db/schema";
import { getStorage, newStorageKey } from "~/server/storage/storage.server";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";

const people = [
  ["Aarav Sharma", "F-1"], ["Priya Nair", "H-1B"], ["Mateo García", "J-1"], ["Mei Lin", "F-1"],
  ["Oluwaseun Adeyemi", "H-1B"], ["Sofia Rossi", "L-1"], ["Hiroshi Tanaka", "Green Card"], ["Fatima Khan", "H-1B"],
  ["Lucas Silva", "F-1"], ["Ananya Reddy", "Non-Resident"], ["Daniel Cohen", "L-1"], ["Chloé Martin", "J-1"],
  ["Vikram Iyer", "H-1B"], ["Amara Okafor", "Other"], ["Nguyen Van An", "F-1"], ["Elif Yılmaz", "Green Card"],
] as const satisfies ReadonlyArray<readonly [string, VisaStatus]>;

/**
 * Fills an empty database with sample clients at every stage of the workflow, so a newcomer
 * sees a living panel. Sample accounts have no password: nobody can sign in as them.
 * Returns how many clients it created (0 when the database already has clients).
 */
export async function seedDemo(): Promise<number> {
  const db = getDb();
  const existing = await db.select({ id: user.id }).from(user).where(eq(user.role, "user")).limit(1);
  if (existing.length > 0) return 0;
  const [staff] = await db.select({ id: user.id }).from(user).where(eq(user.role, "admin")).limit(1);
  let n = 0;
  for (const [i, [name, visa]] of people.entries()) {
    const id = randomUUID();
    const email = `${name.toLowerCase().normalize("NFD").replace(/[^a-z ]/g, "").replace(/ +/g, ".")}@demo.taxbridge.example`;
    const done = i % (STAGES.length + 1);
    const flags = Object.fromEntries(STAGES.map((s, k) => [s.key, k < done])) as WorkflowFlags;
    const stage = STAGES.find((s) => !flags[s.key])?.key ?? "finalcopies";
    await db.transaction(async (tx) => {
      await createAccount({ id, name, email, visaStatus: visa, role: "user", emailVerified: true }, tx);
      // The case row exists already (created with the account); set where this sample stands.
      await tx
        .update(clientCases)
        .set({ ...noFlags, ...flags, currentStage: stage, assigneeId: i % 3 === 0 ? null : (staff?.id ?? null) })
        .where(and(eq(clientCases.userId, id), eq(clientCases.taxYear, currentFilingYear())));
    });
    if (done >= 1) {
      const [first, ...rest] = name.split(" ");
      await saveTaxpayerRecord(id, {
        name_as_per_ssn: first!,
        middle_name: "",
        last_name: rest.join(" ") || first!,
        // 9xx-7x-xxxx is the ITIN range: no real SSN is ever used as sample data.
        ssn_tin: `9${String(10 + i).padStart(2, "0")}-7${i % 10}-${String(1000 + i * 37).slice(0, 4)}`,
        date_of_birth: `19${85 + (i % 12)}-0${1 + (i % 9)}-1${i % 10}`,
        occupation: ["Graduate Student", "Software Engineer", "Research Scholar", "Physician", "Data Analyst"][i % 5]!,
        time_zone: TIME_ZONES[i % TIME_ZONES.length]!,
        filing_status: i % 4 === 0 ? "Married Filing Jointly" : "Single",
        first_entry_date_usa: `20${15 + (i % 9)}-08-1${i % 10}`,
        visa_type: (["F1-OPT", "H1-B", "J", "L1-A", "Green Card"] as const)[i % 5]!,
        primary_country_code: i % 2 ? "+1" : "+91",
        primary_contact: `98${String(40000000 + i * 1234567).slice(0, 8)}`,
        secondary_country_code: "+91",
        secondary_contact: "",
        alternate_email: "",
        city: ["Hyderabad", "Jersey City", "San Jose", "Austin", "Chicago"][i % 5]!,
        state: ["Telangana", "NJ", "CA", "TX", "IL"][i % 5]!,
        zipcode: ["500081", "07302", "95112", "78701", "60601"][i % 5]!,
        current_mailing_address: `${100 + i} Sample Street`,
      });
    }
    if (done >= 3) {
      // A few sample documents for clients past the DOCUMENTS stage.
      const pdf = new TextEncoder().encode(`%PDF-1.4\n% Sample document for ${name}\n%%EOF\n`);
      for (const [category, fileName] of [["form-16", "form-16-2025.pdf"], ["bank-statements", "bank-statement-march.pdf"]] as const) {
        const storageKey = newStorageKey();
        await getStorage().put(storageKey, pdf);
        // The client's own papers: sent by them, so they see them too.
        await db.insert(documents).values({
          clientId: id,
          taxYear: currentFilingYear(),
          category,
          originalName: fileName,
          size: pdf.length,
          contentType: "application/pdf",
          storageKey,
          fromClient: true,
        });
      }
    }
    n += 1;
  }
  return n;
}
