import type { Route } from "./+types/clients-csv";
import { parseAdminQuery, toCsv } from "~/domain/admin";
import type { AdminClientRow } from "~/domain/admin";
import { STAGES } from "~/domain/workflow";
import { findClients } from "~/server/admin.server";
import { recordAudit } from "~/server/audit.server";
import { staffContext } from "~/server/session.server";

/** The columns of the export: the first ones as they always were, then the tax year's. */
const CSV_COLUMNS = [
  "No.",
  "Client ID",
  "Name",
  "Email",
  "Assigned To",
  "Status",
  "Documents",
  ...STAGES.map((s) => s.label),
  "Created",
  "Tax Year",
  "Tax Info",
  "Tax Info Last Changed",
] as const;

/** "Submitted on 2026-03-04" or "Not submitted": the year's taxpayer information. */
function taxInfoCell(taxInfo: AdminClientRow["taxInfo"]): string {
  return taxInfo ? `Submitted on ${taxInfo.submittedAt.slice(0, 10)}` : "Not submitted";
}

// Export Data: the list on screen (its tax year, section, search and stage filter), every page, as CSV.
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(staffContext);
  const query = parseAdminQuery(new URL(request.url).searchParams);
  const { rows } = await findClients(query);
  const csv = toCsv([
    [...CSV_COLUMNS],
    ...rows.map((r, i) => [
      i + 1,
      r.code,
      r.name,
      r.email,
      r.assignee?.name ?? "Unassigned",
      STAGES.find((s) => s.key === r.stage)!.label,
      r.documentCount,
      ...STAGES.map((s) => (r.flags[s.key] ? "Completed" : "Pending")),
      r.createdAt.slice(0, 10),
      r.taxYear,
      taxInfoCell(r.taxInfo),
      r.taxInfo ? r.taxInfo.updatedAt.slice(0, 10) : "",
    ]),
  ]);
  await recordAudit({
    actor: admin,
    action: "clients-exported",
    taxYear: query.year,
    detail: `${rows.length} ${rows.length === 1 ? "client" : "clients"} of tax year ${query.year}`,
    ip: context.clientIp,
  });
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="taxbridge-clients-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
