import { ChevronDown, FolderOpen } from "lucide-react";
import { Fragment, useState } from "react";
import { Link, useFetcher } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { ADMIN_PAGE_SIZE, showingText } from "~/domain/admin";
import type { AdminClientRow, AdminQuery, StaffMember } from "~/domain/admin";
import { Pagination } from "./pagination";
import { StageBadge } from "./stage-badge";
import { WorkflowPanel } from "./workflow-panel";
import type { WorkflowNotice } from "./workflow-panel";

export type ClientTableProps = {
  rows: readonly AdminClientRow[];
  query: AdminQuery;
  /** Clients matching section + search + stage filter, before paging. */
  matching: number;
  pageCount: number;
  staff: readonly StaffMember[];
  /** The action's answer to the last "save-workflow" post, if any. */
  workflowNotice?: WorkflowNotice;
};

const COLUMNS = [
  "No.",
  "Client ID",
  "Name",
  "Email",
  "Assigned To",
  "Status",
  "Documents",
  "Actions",
] as const;

const th =
  "px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-ink-soft uppercase";
const td = "px-4 py-3 align-middle";

/**
 * The client list: one page of rows, each with its workflow panel that opens under it,
 * then "Showing X-Y of Z clients" and the page links. On narrow screens the table scrolls
 * sideways inside a focusable region; an open panel stays in view while it does.
 */
export function ClientTable({ rows, query, matching, pageCount, staff, workflowNotice }: ClientTableProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const firstNumber = (query.page - 1) * ADMIN_PAGE_SIZE + 1;

  const viewed = useFetcher();

  function toggle(id: string, open: boolean) {
    // Opening a client's case is written to the audit trail.
    if (open) viewed.submit({ intent: "view-case", clientId: id, taxYear: query.year }, { method: "post", action: "/admin/dashboard" });
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  return (
    <div className="overflow-hidden rounded-[var(--radius-card)] border border-line bg-white shadow-card">
      <div role="region" aria-label="Clients" tabIndex={0} className="@container overflow-x-auto">
        <table className="w-full min-w-[64rem] border-collapse text-sm">
          <caption className="sr-only">Client list</caption>
          <thead className="border-b border-line bg-surface">
            <tr>
              {COLUMNS.map((c) => (
                <th key={c} scope="col" className={th}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length} className="px-4 py-12 text-center text-base text-ink-soft">
                  No clients found matching your criteria.
                </td>
              </tr>
            ) : (
              rows.map((row, i) => {
                const open = expanded.has(row.id);
                const nameId = `client-${row.id}-name`;
                const panelId = `client-${row.id}-workflow`;
                const toggleId = `client-${row.id}-toggle`;
                return (
                  <Fragment key={row.id}>
                    <tr className={`border-t border-line ${open ? "bg-primary-50/50" : "hover:bg-surface"}`}>
                      <td className={`${td} text-ink-muted tabular-nums`}>{firstNumber + i}</td>
                      <td className={`${td} font-mono text-xs whitespace-nowrap text-ink-soft`}>
                        {row.code}
                      </td>
                      <td id={nameId} className={`${td} font-semibold text-ink`}>
                        {row.name}
                      </td>
                      <td className={`${td} break-words text-ink-soft`}>{row.email}</td>
                      <td className={td}>
                        {row.assignee ? (
                          <span className="text-ink">{row.assignee.name}</span>
                        ) : (
                          <span className="text-ink-muted italic">Unassigned</span>
                        )}
                      </td>
                      <td className={td}>
                        <StageBadge stage={row.stage} />
                      </td>
                      <td className={td}>
                        <Link
                          to={`/admin/clients/${row.id}/documents`}
                          className={buttonClass("secondary", "sm")}
                          aria-describedby={nameId}
                        >
                          <FolderOpen className="size-4" aria-hidden="true" />
                          {`Manage (${row.documentCount})`}
                        </Link>
                      </td>
                      <td className={td}>
                        <button
                          id={toggleId}
                          type="button"
                          className={buttonClass("ghost", "sm")}
                          aria-expanded={open}
                          aria-controls={open ? panelId : undefined}
                          aria-describedby={nameId}
                          onClick={() => toggle(row.id, !open)}
                        >
                          {open ? "Hide Workflow" : "View Workflow"}
                          <ChevronDown
                            className={`size-4 transition-transform ${open ? "rotate-180" : ""}`}
                            aria-hidden="true"
                          />
                        </button>
                      </td>
                    </tr>
                    {open ? (
                      <tr>
                        <td colSpan={COLUMNS.length} className="p-0">
                          <div className="sticky left-0 w-[100cqw]">
                            <WorkflowPanel
                              id={panelId}
                              row={row}
                              staff={staff}
                              notice={workflowNotice}
                              onClose={() => {
                                toggle(row.id, false);
                                document.getElementById(toggleId)?.focus();
                              }}
                            />
                          </div>
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      <div className="flex flex-col gap-3 border-t border-line px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
        <p className="text-sm text-ink-soft">{showingText(query.page, ADMIN_PAGE_SIZE, matching)}</p>
        <Pagination query={query} pageCount={pageCount} />
      </div>
    </div>
  );
}
