import { CircleCheck, UserCheck } from "lucide-react";
import type { FormEvent, ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import { useFetcher } from "react-router";
import { useHydrated } from "~/components/hooks";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { UNASSIGNED } from "~/domain/admin";
import type { AdminClientRow, StaffMember } from "~/domain/admin";

/** What the list's action answers to an assignment (the row's select or "Assign selected"). */
export type AssignAnswer = { ok: boolean; message: string };

const compactSelect =
  "block min-w-0 cursor-pointer rounded-md border border-line bg-white py-1.5 pr-1 pl-2 text-sm text-ink shadow-sm focus:border-primary-600 focus:ring-2 focus:ring-primary-200 focus:outline-none disabled:cursor-wait max-md:min-h-11";

/**
 * A row's "Assigned To": Unassigned and the active staff. With JavaScript a choice saves at once
 * (the list reloads behind it); without, the Assign button under it sends the form. A row whose
 * workflow panel holds unsaved changes asks first (`confirmDiscard`), since the saved values the
 * panel shows change with it.
 */
export function AssigneeCell({
  row,
  staff,
  confirmDiscard,
}: {
  row: AdminClientRow;
  staff: readonly StaffMember[];
  confirmDiscard?: (clientId: string) => boolean;
}) {
  const fetcher = useFetcher<AssignAnswer>();
  const hydrated = useHydrated();
  const saved = row.assignee?.id ?? "";
  // While the choice is being saved it shows; after, the saved value does (a refused one goes back).
  const pending = fetcher.formData?.get("assigneeId");
  const value = typeof pending === "string" ? pending : saved;
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const selectId = `client-${row.id}-assignee`;
  const statusId = `${selectId}-status`;

  function choose(event: FormEvent<HTMLSelectElement>) {
    const form = event.currentTarget.form;
    if (!form || (confirmDiscard && !confirmDiscard(row.id))) return;
    void fetcher.submit(form);
  }

  return (
    <fetcher.Form method="post" className="flex flex-col items-start gap-1">
      <input type="hidden" name="intent" value="assign" />
      <input type="hidden" name="clientId" value={row.id} />
      <input type="hidden" name="taxYear" value={row.taxYear} />
      <select
        id={selectId}
        name="assigneeId"
        value={value}
        onChange={choose}
        aria-label={`Assigned To: ${row.code} ${row.name}`}
        aria-describedby={answer ? statusId : undefined}
        aria-busy={fetcher.state !== "idle"}
        className={`${compactSelect} w-full md:w-32`}
      >
        <option value="">Unassigned</option>
        {staff.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <Button type="submit" variant="secondary" size="sm" className="px-2 py-1 max-md:min-h-11">
          Assign
        </Button>
      )}
      <span id={statusId} role="status" className="text-xs">
        {answer ? (
          answer.ok ? (
            <span className="inline-flex items-center gap-1 font-semibold text-emerald-800">
              <CircleCheck className="size-3.5 shrink-0" aria-hidden="true" />
              <span aria-hidden="true">Saved</span>
              <span className="sr-only">{answer.message}</span>
            </span>
          ) : (
            <span className="font-medium text-red-700">{answer.message}</span>
          )
        ) : null}
      </span>
    </fetcher.Form>
  );
}

/** A row's check box for the bulk bar (it belongs to the bar's form, wherever it sits). */
export function RowCheckbox({
  row,
  formId,
  checked,
  onChange,
}: {
  row: AdminClientRow;
  formId: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 max-md:min-h-11 max-md:pr-2">
      <input
        type="checkbox"
        form={formId}
        name="selected"
        value={row.id}
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
        aria-label={`Select ${row.code} ${row.name}`}
        className="size-4 cursor-pointer accent-primary-600 max-md:size-5"
      />
      <span className="text-sm font-medium text-ink md:hidden" aria-hidden="true">
        Select
      </span>
    </label>
  );
}

export type BulkAssignBarProps = {
  formId: string;
  taxYear: number;
  staff: readonly StaffMember[];
  /** How many of the page's rows are ticked. */
  selectedCount: number;
  rowCount: number;
  onSelectAll: (all: boolean) => void;
  fetcher: FetcherWithComponents<AssignAnswer>;
  /** Asked before rows whose workflow panel has unsaved changes are assigned. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** The answer of a post made without JavaScript (the page's own action data). */
  answer?: AssignAnswer;
};

/**
 * Above the list: select the whole page, how many rows are ticked (announced as it changes), the
 * staff member, and "Assign selected". The rows' check boxes belong to this form through their
 * `form` attribute, so without JavaScript it still sends the ticked rows.
 */
export function BulkAssignBar({
  formId,
  taxYear,
  staff,
  selectedCount,
  rowCount,
  onSelectAll,
  fetcher,
  onSubmit,
  answer,
}: BulkAssignBarProps) {
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  const shown = fetcher.state === "idle" ? (fetcher.data ?? answer) : undefined;
  const all = rowCount > 0 && selectedCount === rowCount;
  const some = selectedCount > 0 && !all;
  let count: ReactNode = "Tick the clients to assign, choose a staff member, then Assign selected.";
  if (hydrated) count = selectedCount === 0 ? "No clients selected" : `${selectedCount} selected`;
  return (
    <fetcher.Form
      id={formId}
      method="post"
      onSubmit={onSubmit}
      aria-label="Assign selected clients"
      className="space-y-3 border-b border-line bg-surface px-4 py-3 sm:px-5"
    >
      <input type="hidden" name="intent" value="assign-selected" />
      <input type="hidden" name="taxYear" value={taxYear} />
      <div className="flex flex-wrap items-center gap-x-5 gap-y-3">
        <label
          className={`inline-flex items-center gap-2 text-sm font-medium text-ink max-md:min-h-11 ${hydrated ? "cursor-pointer" : "hidden"}`}
        >
          <input
            type="checkbox"
            checked={all}
            ref={(el) => {
              if (el) el.indeterminate = some;
            }}
            disabled={!hydrated || rowCount === 0}
            onChange={(event) => onSelectAll(event.currentTarget.checked)}
            className="size-4 cursor-pointer accent-primary-600 max-md:size-5"
          />
          Select all on this page
        </label>
        <p role="status" aria-live="polite" className="text-sm font-semibold text-ink-soft">
          {count}
        </p>
        <div className="flex flex-wrap items-center gap-2 md:ml-auto">
          <label htmlFor={`${formId}-assignee`} className="text-sm font-medium text-ink">
            Assign to
          </label>
          <select
            id={`${formId}-assignee`}
            name="assigneeId"
            required
            defaultValue=""
            className={`${compactSelect} w-auto max-w-56`}
          >
            <option value="" disabled>
              Choose a staff member
            </option>
            <option value={UNASSIGNED}>Unassigned</option>
            {staff.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <Button
            type="submit"
            size="sm"
            className="max-md:min-h-11"
            disabled={busy}
            busy={busy}
            aria-busy={busy}
          >
            {busy ? null : <UserCheck className="size-4" aria-hidden="true" />}
            Assign selected
          </Button>
        </div>
      </div>
      {shown ? <Alert tone={shown.ok ? "success" : "error"}>{shown.message}</Alert> : null}
    </fetcher.Form>
  );
}
