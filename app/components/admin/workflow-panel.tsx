import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import type { AdminClientRow, StaffMember } from "~/domain/admin";
import { STAGES } from "~/domain/workflow";
import { AssigneeField, StageTiles } from "./stage-tiles";

/** The action's answer to a "save-workflow" post, shown in that client's panel. */
export type WorkflowNotice = { clientId: string; tone: "success" | "error"; message: string };

export type WorkflowPanelProps = {
  id: string;
  row: AdminClientRow;
  staff: readonly StaffMember[];
  onClose: () => void;
  notice?: WorkflowNotice;
  /**
   * Told whether the ticked tiles or the assignee differ from the saved ones (false again once
   * they are saved, or when the panel goes).
   */
  onDirtyChange?: (clientId: string, dirty: boolean) => void;
};

/** Whether the form's ticked tiles or assignee differ from the row's saved workflow. */
function differsFromSaved(form: HTMLFormElement, row: AdminClientRow): boolean {
  const sent = new FormData(form);
  const ticked = new Set(sent.getAll("completed"));
  const assignee = sent.get("assigneeId") ?? "";
  return STAGES.some((s) => ticked.has(s.key) !== row.flags[s.key]) || assignee !== (row.assignee?.id ?? "");
}

/**
 * One client's workflow: a tile per stage (a checkbox styled as a tile that reads Completed or
 * Pending, by CSS alone, so it works before hydration), the assignee, Save Changes and Close. The
 * server recomputes the current stage from the flags
 * (docs/product/workflow.md#flags-and-the-current-stage).
 */
export function WorkflowPanel({ id, row, staff, onClose, notice, onDirtyChange }: WorkflowPanelProps) {
  const navigation = useNavigation();
  // This panel's save, from the post until the list has loaded again with the saved values.
  const sending =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === "save-workflow" &&
    navigation.formData.get("clientId") === row.id;
  const saving = sending && navigation.state === "submitting";
  const headingId = `${id}-title`;
  const flagsKey = STAGES.map((s) => (row.flags[s.key] ? "1" : "0")).join("");
  const savedKey = `${flagsKey}-${row.assignee?.id ?? ""}`;

  // Changes count against the saved workflow they were made on: once a save (or another staff
  // member's) brings new saved values, the inputs show them and nothing is unsaved.
  const [edited, setEdited] = useState({ savedKey, dirty: false });
  // While they are being saved, the changes are not at risk (a refused save makes them unsaved again).
  const dirty = edited.savedKey === savedKey && edited.dirty && !sending;
  const onChange = (event: FormEvent<HTMLFormElement>) =>
    setEdited({ savedKey, dirty: differsFromSaved(event.currentTarget, row) });

  useEffect(() => {
    onDirtyChange?.(row.id, dirty);
  }, [onDirtyChange, row.id, dirty]);
  // A panel that goes (closed, or its list left) takes its changes with it: it was asked first.
  useEffect(() => () => onDirtyChange?.(row.id, false), [onDirtyChange, row.id]);

  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="border-t border-line bg-primary-50/50 px-4 py-5 sm:px-6"
    >
      <h3 id={headingId} className="text-base font-semibold text-ink">
        Workflow for {row.name} <span className="font-normal text-ink-muted">({row.code})</span>
      </h3>
      <Form method="post" className="mt-4 space-y-5" onChange={onChange}>
        <input type="hidden" name="intent" value="save-workflow" />
        <input type="hidden" name="clientId" value={row.id} />
        <input type="hidden" name="taxYear" value={row.taxYear} />
        {/* Keyed on the saved values, so the inputs follow them; the buttons keep focus. */}
        <div key={savedKey} className="space-y-5">
          <StageTiles flags={row.flags} />

          <AssigneeField id={`${id}-assignee`} assignee={row.assignee} staff={staff} />
        </div>

        {notice && notice.clientId === row.id ? <Alert tone={notice.tone}>{notice.message}</Alert> : null}

        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={saving} busy={saving} aria-busy={saving}>
            Save Changes
          </Button>
          <Button type="button" variant="secondary" onClick={onClose}>
            Close
          </Button>
          {dirty ? <p className="text-sm font-medium text-accent-700">Changes not saved yet.</p> : null}
        </div>
      </Form>
    </section>
  );
}
