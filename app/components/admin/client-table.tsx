import { ChevronDown, FolderOpen } from "lucide-react";
import { Fragment, useState } from "react";
import type { ReactNode } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { ADMIN_PAGE_SIZE, adminQueryString, showingText } from "~/domain/admin";
import type { AdminClientRow, AdminQuery, StaffMember } from "~/domain/admin";
import { Pagination } from "./pagination";
import { StageBadge } from "./stage-badge";
import { AssigneeCell, BulkAssignBar, RowCheckbox } from "./table/assign";
import type { AssignAnswer } from "./table/assign";
import { CaseBadges, NewUploadsBadge, TaxInfoStatus } from "./table/cells";
import { caseHref, dashboardHref, documentsHref } from "~/domain/admin-links";
import type { UnsavedWorkflows } from "./table/unsaved-workflows";
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
  /** The open panels' unsaved changes (useUnsavedWorkflows): closing a panel with some asks first. */
  unsaved?: Pick<UnsavedWorkflows, "setDirty" | "confirmDiscard" | "confirmDiscardAny">;
  /** The action's answer to "Assign selected" posted without JavaScript, if any. */
  bulkAnswer?: AssignAnswer;
};

/** The bulk bar's form: the rows' check boxes belong to it. */
const BULK_FORM_ID = "bulk-assign";

const COLUMNS = [
  "No.",
  "Client ID",
  "Name",
  "Email",
  "Assigned To",
  "Status",
  "Tax Info",
  "Documents",
  "Actions",
] as const;

// Two layouts from one table. From the md breakpoint, a table whose columns all fit beside the
// sidebar at 1280 px (narrow padding, the e-mail cut short with its full text in a tooltip).
// Below it, each row is a card: a two-column grid, every value under its own small label.
const th = "px-2 py-3 text-left text-xs font-semibold tracking-wide text-ink-soft uppercase";
const td = "px-2 py-3 align-middle max-md:p-0";
const cardRow =
  "max-md:grid max-md:grid-cols-2 max-md:gap-x-4 max-md:gap-y-3 max-md:rounded-xl max-md:border max-md:border-line max-md:p-4 max-md:shadow-sm";

/** A value's label in the card layout (the table's column headers say it from md up). */
function CardLabel({ children }: { children: ReactNode }) {
  return (
    <span className="mb-1 block text-xs font-semibold tracking-wide text-ink-muted uppercase md:hidden">
      {children}
    </span>
  );
}

/**
 * The client list of one tax year: the bulk bar (tick rows, "Assign selected"), one page of rows,
 * each with its check box, its own "Assigned To" select, the badges of what waits on the case and
 * its workflow panel that opens under it, then "Showing X-Y of Z clients" and the page links. At
 * 1280 px every column shows beside the sidebar; on a phone each client is a card. A panel with
 * unsaved changes asks before it closes, and before its row is assigned.
 */
export function ClientTable({
  rows,
  query,
  matching,
  pageCount,
  staff,
  workflowNotice,
  unsaved,
  bulkAnswer,
}: ClientTableProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  // The ticked rows of this page (the table is remade for another page, search or year).
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const ticked = rows.filter((r) => selected.has(r.id));
  const bulk = useFetcher<AssignAnswer>();
  // Once "Assign selected" has gone through, the rows are unticked for the next choice.
  const [bulkSeen, setBulkSeen] = useState(bulk.data);
  if (bulk.data !== bulkSeen) {
    setBulkSeen(bulk.data);
    if (bulk.data?.ok) setSelected(new Set());
  }

  function tick(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }
  const firstNumber = (query.page - 1) * ADMIN_PAGE_SIZE + 1;
  // Where the case page and the documents come back to: this very list.
  const back = dashboardHref(useLocation().search);

  const viewed = useFetcher();

  function toggle(id: string, open: boolean): boolean {
    if (!open && unsaved && !unsaved.confirmDiscard(id)) return false;
    // Opening a client's case is written to the audit trail.
    if (open)
      viewed.submit(
        { intent: "view-case", clientId: id, taxYear: query.year },
        { method: "post", action: "/admin/dashboard" },
      );
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
    return true;
  }

  return (
    <section
      aria-labelledby="client-list-title"
      className="overflow-hidden rounded-[var(--radius-card)] border border-line bg-white shadow-card"
    >
      <h2
        id="client-list-title"
        className="border-b border-line px-4 py-3 text-base font-semibold text-ink sm:px-5"
      >
        {`Clients for tax year ${query.year}`}
      </h2>
      <BulkAssignBar
        formId={BULK_FORM_ID}
        taxYear={query.year}
        staff={staff}
        selectedCount={ticked.length}
        rowCount={rows.length}
        onSelectAll={(all) => setSelected(all ? new Set(rows.map((r) => r.id)) : new Set())}
        fetcher={bulk}
        answer={bulkAnswer}
        onSubmit={(event) => {
          if (unsaved && !unsaved.confirmDiscardAny(ticked.map((r) => r.id))) event.preventDefault();
        }}
      />
      <div
        role="region"
        aria-label={`Clients, tax year ${query.year}`}
        tabIndex={0}
        className="@container md:overflow-x-auto"
      >
        <table className="w-full border-collapse text-sm max-md:block">
          <caption className="sr-only">{`Client list, tax year ${query.year}`}</caption>
          <thead className="border-b border-line bg-surface max-md:hidden">
            <tr>
              {COLUMNS.map((c) => (
                <th key={c} scope="col" className={`${th} ${c === "Assigned To" ? "" : "whitespace-nowrap"}`}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="max-md:block max-md:space-y-3 max-md:p-3">
            {rows.length === 0 ? (
              <tr className="max-md:block">
                <td
                  colSpan={COLUMNS.length}
                  className="px-4 py-12 text-center text-base text-ink-soft max-md:block"
                >
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
                    <tr
                      data-client-row=""
                      className={`border-t border-line ${cardRow} ${open ? "bg-primary-50/50" : "hover:bg-surface"}`}
                    >
                      <td className={`${td} text-ink-muted tabular-nums max-md:order-0 max-md:self-center`}>
                        <span className="flex items-center gap-1.5">
                          <RowCheckbox
                            row={row}
                            formId={BULK_FORM_ID}
                            checked={selected.has(row.id)}
                            onChange={(on) => tick(row.id, on)}
                          />
                          <span className="max-md:hidden">{firstNumber + i}</span>
                        </span>
                      </td>
                      <td
                        className={`${td} font-mono text-xs whitespace-nowrap text-ink-soft max-md:order-1 max-md:self-center max-md:text-right`}
                      >
                        {row.code}
                      </td>
                      <td id={nameId} className={`${td} max-md:order-2 max-md:col-span-2 md:min-w-28`}>
                        <Link
                          to={caseHref(row.id, row.taxYear, back)}
                          className="font-semibold [overflow-wrap:anywhere] text-primary-700 underline-offset-2 hover:underline max-md:inline-flex max-md:min-h-11 max-md:items-center max-md:text-base"
                        >
                          {row.name}
                        </Link>
                        <CaseBadges
                          outstandingRequests={row.outstandingRequests}
                          unreadMessages={row.unreadMessages}
                          letter={row.letter}
                        />
                      </td>
                      <td
                        className={`${td} text-ink-soft max-md:order-3 max-md:col-span-2 md:w-[22%] md:max-w-0`}
                      >
                        <span
                          className="block truncate max-md:whitespace-normal max-md:[overflow-wrap:anywhere]"
                          title={row.email}
                        >
                          {row.email}
                        </span>
                      </td>
                      <td className={`${td} max-md:order-5`}>
                        <CardLabel>Assigned To</CardLabel>
                        <AssigneeCell row={row} staff={staff} confirmDiscard={unsaved?.confirmDiscard} />
                      </td>
                      <td className={`${td} max-md:order-4`}>
                        <CardLabel>Status</CardLabel>
                        <StageBadge stage={row.stage} compact />
                      </td>
                      <td className={`${td} max-md:order-6`}>
                        <CardLabel>Tax Info</CardLabel>
                        <TaxInfoStatus taxInfo={row.taxInfo} />
                      </td>
                      <td className={`${td} max-md:order-7`}>
                        <CardLabel>Documents</CardLabel>
                        <span className="flex flex-col items-start gap-1">
                          <Link
                            to={documentsHref(row.id, row.taxYear, back)}
                            className={buttonClass("secondary", "sm", "px-2.5 max-md:min-h-11")}
                            aria-describedby={nameId}
                          >
                            <FolderOpen className="size-4 md:hidden" aria-hidden="true" />
                            {`Manage (${row.documentCount})`}
                          </Link>
                          <NewUploadsBadge count={row.newUploads} />
                        </span>
                      </td>
                      <td className={`${td} max-md:order-8 max-md:col-span-2`}>
                        <button
                          id={toggleId}
                          type="button"
                          className={buttonClass(
                            "ghost",
                            "sm",
                            "gap-1 px-1.5 max-md:min-h-11 max-md:w-full max-md:border max-md:border-primary-600",
                          )}
                          aria-expanded={open}
                          aria-controls={open ? panelId : undefined}
                          aria-describedby={nameId}
                          onClick={() => toggle(row.id, !open)}
                        >
                          {open ? "Hide Workflow" : "View Workflow"}
                          <ChevronDown
                            className={`size-4 transition-transform md:hidden ${open ? "rotate-180" : ""}`}
                            aria-hidden="true"
                          />
                        </button>
                      </td>
                    </tr>
                    {open ? (
                      <tr className="max-md:block">
                        <td
                          colSpan={COLUMNS.length}
                          className="p-0 max-md:block max-md:overflow-hidden max-md:rounded-xl max-md:border max-md:border-line"
                        >
                          <div className="md:sticky md:left-0 md:w-[100cqw]">
                            <WorkflowPanel
                              id={panelId}
                              row={row}
                              staff={staff}
                              notice={workflowNotice}
                              onDirtyChange={unsaved?.setDirty}
                              onClose={() => {
                                if (toggle(row.id, false)) document.getElementById(toggleId)?.focus();
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
        <Pagination page={query.page} pageCount={pageCount} href={(page) => `/admin/dashboard${adminQueryString(query, { page })}`} />
      </div>
    </section>
  );
}
