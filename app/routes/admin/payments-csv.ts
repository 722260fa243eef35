import type { Route } from "./+types/payments-csv";
import { toCsv } from "~/domain/admin";
import { newYorkDay } from "~/domain/business-days";
import { centsToInput } from "~/domain/fees";
import { recordAudit } from "~/server/audit/audit.server";
import { staffContext } from "~/server/auth/session.server";
import { ledgerRows } from "~/server/fees/payments-report.server";

// The CSV for the books (/admin/payments.csv, admins only by domain/policy.ts,
// docs/product/fees.md#who-may-do-what): one row per payment and per refund, and an
// "overpayment" row after a payment part of which was not owed (money to give back), the amount in
// dollars with two decimals, always positive (the Kind column says which way the money went: a
// negative amount would start with "-", which the formula guard must prefix, and the books would
// read it as text). Every cell is quoted, and one that a spreadsheet would read as a formula is
// prefixed (domain/admin.ts toCsv). Audited.

const COLUMNS = ["Date", "Invoice", "Client", "Email", "Tax Year", "Method", "Reference", "Amount (USD)", "Kind", "Status"] as const;


export async function loader({ context }: Route.LoaderArgs) {
  const admin = context.get(staffContext);
  const rows = await ledgerRows();
  await recordAudit({
    actor: admin,
    action: "payments-exported",
    detail: `${rows.length} ${rows.length === 1 ? "row" : "rows"}`,
    ip: context.clientIp,
  });
  const body = toCsv([
    [...COLUMNS],
    ...rows.map((r) => [r.date, r.number, r.clientName, r.email, r.taxYear, r.method, r.reference, centsToInput(Math.abs(r.amountCents)), r.kind, r.status]),
  ]);
  const date = newYorkDay();
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="taxbridge-payments-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
