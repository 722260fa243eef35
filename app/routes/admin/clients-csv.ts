import { worksOutsideUs } from "~/server/consents/outside-us.server";
import type { Route } from "./+types/clients-csv";
import { parseAdminQuery, toCsv } from "~/domain/admin";
import { newYorkDay } from "~/domain/business-days";
import type { AdminClientRow, ExportedCase } from "~/domain/admin";
import type { ResidencyStatus } from "~/domain/residency/rules";
import { STAGES } from "~/domain/workflow";
import { logError } from "~/log";
import { countListed } from "~/server/clients/list.server";
import { exportCases } from "~/server/clients/export.server";
import { recordAudit } from "~/server/audit/audit.server";
import { staffContext } from "~/server/auth/session.server";

/** The columns of the export: the first ones as they always were, then the tax year's, then the client's residency. */
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
  "Residency",
] as const;

/** Rows per chunk of the download (about 245 bytes each). */
const CHUNK_ROWS = 200;

/** "Submitted on 2026-03-04" or "Not submitted": the year's taxpayer information. */
function taxInfoCell(taxInfo: AdminClientRow["taxInfo"]): string {
  return taxInfo ? `Submitted on ${taxInfo.submittedAt.slice(0, 10)}` : "Not submitted";
}

/** The client's residency status of the year in words, in the Residency column. */
const RESIDENCY_CELL_WORDS: Record<ResidencyStatus, string> = {
  resident: "Resident",
  nonresident: "Nonresident",
  "dual-status": "Dual-status",
  citizen: "US citizen",
};

/**
 * "Nonresident", "Dual-status (confirmed)" or "No history yet": the client's residency status as
 * the case stores it. Once staff confirmed it, the status they confirmed (the one the return
 * follows); when that differs from the computed one (staff gave a reason), the computed one too:
 * "Resident (confirmed; computed: Dual-status)", as the case page's overview says it.
 */
function residencyCell(residency: ExportedCase["residency"]): string {
  const { status, confirmed } = residency;
  if (confirmed !== null) {
    const computed = status !== null && status !== confirmed ? `; computed: ${RESIDENCY_CELL_WORDS[status]}` : "";
    return `${RESIDENCY_CELL_WORDS[confirmed]} (confirmed${computed})`;
  }
  return status === null ? "No history yet" : RESIDENCY_CELL_WORDS[status];
}

/**
 * Export Data: the list on screen (its tax year, section, search, stage, return and residency filters), every page, as
 * CSV. The export is recorded in the audit trail before any of it is sent; then the rows are read
 * and sent a batch at a time as the download takes them (exportCases), so that a year of any size
 * costs the server the same little memory.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(staffContext);
  // Staff who work outside the United States export only the clients whose consent to disclose is in force.
  // Only staff who work outside the United States have their export filtered by consent.
  const query = { ...parseAdminQuery(new URL(request.url).searchParams), viewer: (await worksOutsideUs(admin.id)) ? admin.id : undefined };
  const count = await countListed(query);
  await recordAudit({
    actor: admin,
    action: "clients-exported",
    taxYear: query.year,
    detail: `${count} ${count === 1 ? "client" : "clients"} of tax year ${query.year}`,
    ip: context.clientIp,
  });
  const batches = exportCases(query);
  const encoder = new TextEncoder();
  let number = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(toCsv([[...CSV_COLUMNS]])));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) return controller.close();
        // A chunk per CHUNK_ROWS rows: text of a few dozen KB, which the young generation's
        // collections free as soon as it is sent (a string over 128 KB goes straight to the old
        // generation, which is collected far less often: the server's memory grew by 130 MB
        // over the export of 1,000,000 clients in chunks of 1,000).
        for (let start = 0; start < next.value.length; start += CHUNK_ROWS) {
          const rows = next.value.slice(start, start + CHUNK_ROWS).map((r) => [
            (number += 1),
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
            residencyCell(r.residency),
          ]);
          controller.enqueue(encoder.encode(toCsv(rows)));
        }
      } catch (error) {
        // The download ends short (its headers are sent): the browser reports it as failed.
        logError("admin", "client export failed", error);
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const date = newYorkDay();
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="taxbridge-clients-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
