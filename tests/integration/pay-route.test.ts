import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoiceNumber } from "~/domain/fees";
import type { InvoiceStatus } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { invoices } from "~/server/db/schema";
import { account } from "../helpers/returns";
import { routeArgs, routeModule } from "../helpers/route";

// The payment offer's button leads to /pay (docs/product/public-site.md#payment-offer): a visitor
// signs in first, a client goes to their own open fee (or My Tax Filing), staff to their panel.
// Another client's invoice never decides where a client goes.

const payRoute = await routeModule("routes/marketing/pay.ts");
const Y = currentFilingYear();

let seq = 0;
async function invoiceOf(clientId: string, taxYear: number, status: InvoiceStatus): Promise<void> {
  seq += 1;
  await getDb().execute(sql`insert into client_cases (user_id, tax_year) values (${clientId}, ${taxYear}) on conflict do nothing`);
  await getDb()
    .insert(invoices)
    .values({ clientId, taxYear, numberYear: 2099, numberSeq: seq, number: invoiceNumber(2099, seq), status, totalCents: 29_900, dueOn: "2099-01-01", createdBy: clientId, sentAt: status === "draft" ? null : new Date() });
}

async function whereTo(cookie: string | null, json = false): Promise<{ status: number; to: string | null }> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (json) headers.accept = "application/json";
  let result: unknown;
  try {
    result = await payRoute.loader(routeArgs(new Request("http://localhost:3000/pay", { headers })) as never);
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, to: result.headers.get("location") };
  const body = result as { data: { to: string }; init: { status?: number } | null };
  return { status: body.init?.status ?? 200, to: body.data.to };
}

describe("/pay, where PAY SECURELY NOW leads", () => {
  it("sends a visitor to sign in, and back to /pay afterwards", async () => {
    expect(await whereTo(null)).toEqual({ status: 302, to: "/login?redirectTo=%2Fpay" });
    expect(await whereTo(null, true)).toEqual({ status: 200, to: "/login?redirectTo=%2Fpay" });
  });

  it("sends a client to their own open fee, never to another client's", async () => {
    const asha = await account("asha.pay@example.com", "Asha Rao");
    const ben = await account("ben.pay@example.com", "Ben Ito");
    // Nothing owed yet: My Tax Filing.
    expect((await whereTo(asha.cookie)).to).toBe("/my-tax-filing");
    // A draft is not a fee the client can see; another client's sent invoice is not hers.
    await invoiceOf(asha.id, Y, "draft");
    await invoiceOf(ben.id, Y - 1, "sent");
    expect((await whereTo(asha.cookie)).to).toBe("/my-tax-filing");
    expect((await whereTo(ben.cookie)).to).toBe(`/my-tax-filing/${Y - 1}#fee`);
    // Her sent invoice, then a partly paid one of another year (the newest open one wins).
    await invoiceOf(asha.id, Y, "sent");
    expect(await whereTo(asha.cookie)).toEqual({ status: 302, to: `/my-tax-filing/${Y}#fee` });
    expect(await whereTo(asha.cookie, true)).toEqual({ status: 200, to: `/my-tax-filing/${Y}#fee` });
    await invoiceOf(asha.id, Y - 1, "partly-paid");
    expect((await whereTo(asha.cookie)).to).toBe(`/my-tax-filing/${Y - 1}#fee`);
  });

  it("does not count paid or void invoices as open", async () => {
    const cleo = await account("cleo.pay@example.com", "Cleo Park");
    await invoiceOf(cleo.id, Y, "paid");
    await invoiceOf(cleo.id, Y, "void");
    expect((await whereTo(cleo.cookie)).to).toBe("/my-tax-filing");
  });

  it("sends staff to their panel", async () => {
    const admin = await account("boss.pay@taxbridge.test", "Boss", "admin");
    expect((await whereTo(admin.cookie)).to).toBe("/admin/dashboard");
  });
});
