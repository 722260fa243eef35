import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";

// A new client's first case is the filing season's (docs/product/workflow.md#cases-per-tax-year):
// the database fills it in (client_cases.tax_year's default, for the account made by sign-up's
// trigger) and the pages count it (currentFilingYear). Both on New York's calendar, so that the
// season does not turn at 7 pm there on New Year's Eve.

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe("the filing season's year", () => {
  it("is the same in the database's default and in the pages, at the turn of the year in New York", async () => {
    const [column] = rows<{ column_default: string }>(
      await getDb().execute(sql`select column_default from information_schema.columns where table_name = 'client_cases' and column_name = 'tax_year'`),
    );
    expect(column?.column_default).toContain("now()");
    for (const moment of ["2026-12-31T23:59:59Z", "2027-01-01T02:00:00Z", "2027-01-01T04:59:59Z", "2027-01-01T05:00:00Z", "2026-07-04T03:30:00Z"]) {
      // The default as the database would compute it at `moment`.
      const atMoment = column!.column_default.replaceAll("now()", `'${moment}'::timestamptz`);
      const [computed] = rows<{ year: number }>(await getDb().execute(sql.raw(`select ${atMoment} as year`)));
      expect(Number(computed?.year), moment).toBe(currentFilingYear(new Date(moment)));
    }
    expect(currentFilingYear(new Date("2027-01-01T02:00:00Z"))).toBe(2025);
    expect(currentFilingYear(new Date("2027-01-01T05:00:00Z"))).toBe(2026);
  });

  it("is the one a new client's case gets", async () => {
    await getDb().execute(sql`insert into "user" (id, name, email, email_verified, role) values ('fy-1', 'Fay Year', 'fay@example.com', true, 'user')`);
    const cases = rows<{ tax_year: number }>(await getDb().execute(sql`select tax_year from client_cases where user_id = 'fy-1'`));
    expect(cases.map((c) => Number(c.tax_year))).toEqual([currentFilingYear()]);
  });
});
