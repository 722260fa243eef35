import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clientWriteLimits } from "~/server/limits/client-limits.server";
import { getDb } from "~/server/db/client.server";
import { taxpayerRecords } from "~/server/db/schema";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { signedInClient, withCookie } from "./helpers";

// Run behind the root's and the portal layout's middleware, as the server runs them.
const { action: dashboardAction, loader: dashboardLoader } = await routeModule("routes/portal/taxpayer-information.tsx");
const { loader: filingsLoader } = await routeModule("routes/portal/my-tax-filing.tsx");

const record = sampleTaxpayer;

type Result = { ok: boolean; errors?: Record<string, string> };

async function save(cookie: string, fields: Record<string, string>) {
  const req = withCookie("/dashboard", cookie, { method: "POST", body: new URLSearchParams(fields) });
  return unwrap<Result>(await dashboardAction(routeArgs(req) as never));
}

async function load(cookie: string) {
  return unwrap<{ values: typeof record; hasRecord: boolean; email: string }>(
    await dashboardLoader(routeArgs(withCookie("/dashboard", cookie)) as never),
  ).body;
}

async function filings(cookie: string) {
  return unwrap<{ filings: Array<Record<string, unknown>> }>(await filingsLoader(routeArgs(withCookie("/my-tax-filing", cookie)) as never)).body
    .filings;
}

let a: { id: string; cookie: string };
let b: { id: string; cookie: string };

beforeEach(async () => {
  a = await signedInClient("a@example.com");
  b = await signedInClient("b@example.com");
});

describe("taxpayer record", () => {
  it("a first save creates the record and a later save updates it", async () => {
    expect((await load(a.cookie)).hasRecord).toBe(false);
    expect((await load(a.cookie)).values.time_zone).toBe("IST");
    expect((await save(a.cookie, record)).body).toEqual({ ok: true });
    const first = await getDb().select().from(taxpayerRecords);
    expect(first).toHaveLength(1);

    expect((await save(a.cookie, { ...record, occupation: "Data Scientist", ssn_tin: "987-65-4321" })).body.ok).toBe(true);
    const rows = await getDb().select().from(taxpayerRecords);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.occupation).toBe("Data Scientist");
    expect(rows[0]!.createdAt.getTime()).toBe(first[0]!.createdAt.getTime());
    expect(rows[0]!.updatedAt.getTime()).toBeGreaterThanOrEqual(first[0]!.updatedAt.getTime());

    const loaded = await load(a.cookie);
    expect(loaded.hasRecord).toBe(true);
    expect(loaded.values).toEqual({ ...record, occupation: "Data Scientist", ssn_tin: "987-65-4321" });
  });

  it("thirty concurrent saves by one user (the most one account may make in 10 minutes) leave one row and no error", async () => {
    const results = await Promise.all(
      Array.from({ length: clientWriteLimits.taxInfo.limit }, (_, i) => save(a.cookie, { ...record, occupation: `Engineer ${i}` })),
    );
    expect(results.every((r) => r.status === 200 && r.body.ok)).toBe(true);
    expect(await getDb().select().from(taxpayerRecords)).toHaveLength(1);
  });

  it("keeps no SSN in the raw column", async () => {
    await save(a.cookie, record);
    const raw = await getDb().execute(sql`select * from taxpayer_records`);
    const text = JSON.stringify((raw as unknown as { rows: unknown[] }).rows);
    expect(text).not.toContain("123-45-6789");
    expect(text).not.toContain("123456789");
    expect(text).toMatch(/"ssn_tin":"v1\.[0-9a-f]{12}\./);
  });

  it("refuses a bad save with each field's message and stores nothing", async () => {
    const refused = await save(a.cookie, {
      ...record,
      name_as_per_ssn: "",
      ssn_tin: "12345678",
      filing_status: "Please select filing status",
      visa_type: "Please select",
      date_of_birth: "2999-01-01",
      zipcode: "<script>",
      alternate_email: "not-an-email",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({
      name_as_per_ssn: "First name is required",
      ssn_tin: "Enter the SSN or ITIN as NNN-NN-NNNN (9 digits)",
      filing_status: "Please select filing status",
      visa_type: "Please select your visa type",
      date_of_birth: "This date cannot be in the future",
      zipcode: "Enter a postal code of 3 to 10 letters, digits, spaces or hyphens",
      alternate_email: "Please enter a valid email",
    });
    expect(await getDb().select().from(taxpayerRecords)).toHaveLength(0);
  });

  it("lists filings with the SSN masked and never sends it whole", async () => {
    expect(await filings(a.cookie)).toEqual([]);
    await save(a.cookie, record);
    const list = await filings(a.cookie);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ fullName: "Ravi Kumar", status: "Submitted", maskedSsn: "***-**-6789", visaType: "H1-B", filingStatus: "Single" });
    expect(JSON.stringify(list)).not.toContain("123-45");
  });
});

describe("two clients", () => {
  it("B never reads or changes A's record, whatever ids or fields B sends", async () => {
    await save(a.cookie, record);
    const [aRow] = await getDb().select().from(taxpayerRecords);

    // B's reads show nothing of A.
    expect((await load(b.cookie)).hasRecord).toBe(false);
    expect(JSON.stringify(await load(b.cookie))).not.toContain("Ravi");
    expect(await filings(b.cookie)).toEqual([]);

    // B's save with A's ids lands on B's own record only.
    await save(b.cookie, { ...record, name_as_per_ssn: "Mallory", ssn_tin: "555-55-5555", user_id: a.id, userId: a.id, id: aRow!.id });
    const rows = await getDb().select().from(taxpayerRecords);
    expect(rows).toHaveLength(2);
    const aAfter = rows.find((r) => r.userId === a.id)!;
    expect(aAfter.name_as_per_ssn).toBe("Ravi");
    expect(aAfter.ssn_tin).toBe(aRow!.ssn_tin);
    expect((await load(a.cookie)).values.ssn_tin).toBe("123-45-6789");
    expect((await load(b.cookie)).values.name_as_per_ssn).toBe("Mallory");
  });

  it("a copied ciphertext does not decrypt for another user", async () => {
    await save(a.cookie, record);
    await save(b.cookie, { ...record, name_as_per_ssn: "Bee", ssn_tin: "111-22-3333" });
    const [aRow] = (await getDb().select().from(taxpayerRecords)).filter((r) => r.userId === a.id);
    await getDb().execute(sql`update taxpayer_records set ssn_tin = ${aRow!.ssn_tin} where user_id = ${b.id}`);
    // B's page shows neither A's number nor a form (see integrity.test.ts): only that loading failed.
    const bView = await load(b.cookie);
    expect(bView).toEqual({ email: "b@example.com", loadFailed: true });
  });

  it("signed-out visitors are sent to /login", async () => {
    const res = await dashboardAction(routeArgs(new Request("http://localhost:3000/dashboard", { method: "POST", body: new URLSearchParams(record) })) as never).catch(
      (r: unknown) => r,
    );
    expect((res as Response).headers.get("location")).toBe("/login?redirectTo=%2Fdashboard");
    expect(await getDb().select().from(taxpayerRecords)).toHaveLength(0);
  });
});
