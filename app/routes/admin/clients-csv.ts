import type { Route } from "./+types/clients-csv";
import { parseAdminQuery, toCsv } from "~/domain/admin";
import { STAGES } from "~/domain/workflow";
import { findClients } from "~/server/admin.server";
import { recordAudit } from "~/server/audit.server";
import { staffContext } from "~/server/session.server";

// Export Data: the current filtered list (all pages) as CSV.
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(staffContext);
  const query = parseAdminQuery(new URL(request.url).searchParams);
  const { rows } = await findClients(query);
  const csv = toCsv([
    ["No.", "Client ID", "Name", "Email", "Assigned To", "Status", "Documents", ...STAGES.map((s) => s.label), "Created"],
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
    ]),
  ]);
  await recordAudit({ actor: admin, action: "clients-exported", detail: `${rows.length} clients`, ip: context.clientIp });
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="taxbridge-clients-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
