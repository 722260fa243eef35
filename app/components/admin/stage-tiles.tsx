import { CircleCheck, CircleDashed } from "lucide-react";
import { Select } from "~/components/portal/select-field";
import type { StaffMember } from "~/domain/admin";
import { STAGES } from "~/domain/workflow";
import type { WorkflowFlags } from "~/domain/workflow";
import { STAGE_ICONS } from "./stage-badge";

/**
 * The eight stages of a workflow form as tiles, each a check box named "completed" that says
 * Completed or Pending (the table's workflow panel and the case page).
 */
export function StageTiles({ flags }: { flags: WorkflowFlags }) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-ink-soft">Mark each stage Completed or Pending.</legend>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {STAGES.map((stage, index) => {
          const Icon = STAGE_ICONS[stage.key];
          return (
            <li key={stage.key}>
              <label className="group/tile flex h-full min-h-11 cursor-pointer flex-col gap-2 rounded-xl border-2 border-line bg-white p-3 transition-colors outline-offset-2 has-checked:border-emerald-600 has-checked:bg-emerald-50 has-focus-visible:outline-3 has-focus-visible:outline-primary-500 hover:border-primary-600">
                <input type="checkbox" name="completed" value={stage.key} defaultChecked={flags[stage.key]} className="sr-only" />
                <span className="flex items-center gap-2 text-sm font-semibold text-ink">
                  <Icon className="size-4 shrink-0 text-ink-muted" aria-hidden="true" />
                  <span>
                    <span className="sr-only">{`Stage ${index + 1}: `}</span>
                    {stage.label}
                  </span>
                </span>
                <span className="inline-flex items-center gap-1.5 text-sm font-medium text-ink-muted group-has-checked/tile:hidden">
                  <CircleDashed className="size-4" aria-hidden="true" />
                  Pending
                </span>
                <span className="hidden items-center gap-1.5 text-sm font-semibold text-emerald-800 group-has-checked/tile:inline-flex">
                  <CircleCheck className="size-4" aria-hidden="true" />
                  Completed
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * The workflow form's "Assigned To" select: Unassigned, then the active staff. An assignee who
 * is no longer among them stays selectable, so a save does not drop them unasked.
 */
export function AssigneeField({ id, assignee, staff }: { id: string; assignee: { id: string; name: string } | null; staff: readonly StaffMember[] }) {
  const listed = !assignee || staff.some((s) => s.id === assignee.id);
  return (
    <div className="max-w-sm">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        Assigned To
      </label>
      <Select id={id} name="assigneeId" defaultValue={assignee?.id ?? ""}>
        <option value="">Unassigned</option>
        {listed || !assignee ? null : <option value={assignee.id}>{assignee.name}</option>}
        {staff.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </Select>
    </div>
  );
}
