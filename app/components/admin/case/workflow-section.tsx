import { ListChecks } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useBlocker, useNavigation } from "react-router";
import { useFollowingState } from "~/components/hooks";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import type { StaffMember } from "~/domain/admin";
import { STAGES, stageLabel } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import { AssigneeField, StageTiles } from "../stage-tiles";
import { CaseSection } from "./case-section";

export const UNSAVED_WORKFLOW_QUESTION = "Leave this page? Your changes to the workflow are not saved.";

export type CaseWorkflow = {
  stage: StageKey;
  flags: WorkflowFlags;
  assignee: { id: string; name: string } | null;
};

/** The form's state as one comparable text: the ticked stages and the assignee. */
function snapshotOf(flags: WorkflowFlags, assigneeId: string): string {
  return `${STAGES.filter((s) => flags[s.key])
    .map((s) => s.key)
    .join(",")}|${assigneeId}`;
}

function snapshotOfForm(form: HTMLFormElement): string {
  const data = new FormData(form);
  const done = new Set(data.getAll("completed").map(String));
  return `${STAGES.filter((s) => done.has(s.key))
    .map((s) => s.key)
    .join(",")}|${String(data.get("assigneeId") ?? "")}`;
}

/**
 * The case's workflow: a tile per stage (a check box styled as a tile that reads Completed or
 * Pending, by CSS alone, as in the panel's list) and the assignee. The server recomputes the
 * stage and e-mails the client when it moves. Leaving the page with changes not saved asks first:
 * the browser's question for a reload or a closed tab, a confirmation for a link in the app.
 */
export function WorkflowSection({
  clientId,
  taxYear,
  workflow,
  staff,
  result,
}: {
  clientId: string;
  taxYear: number;
  workflow: CaseWorkflow;
  staff: readonly StaffMember[];
  result?: { ok: boolean; message: string };
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save-workflow";
  const formRef = useRef<HTMLFormElement>(null);
  const saved = snapshotOf(workflow.flags, workflow.assignee?.id ?? "");
  // What the form holds now; set back to the saved state whenever the saved state changes.
  const [current, setCurrent] = useFollowingState(saved);
  const dirty = current !== saved;

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // Links and Back inside the app: the forms of this page post to this page and are let through.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(UNSAVED_WORKFLOW_QUESTION)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);

  return (
    <CaseSection
      id="workflow"
      title="Workflow and assignee"
      icon={<ListChecks className="size-5" aria-hidden="true" />}
      lead={
        <>
          Current stage: <span className="font-semibold text-ink">{stageLabel(workflow.stage)}</span>.
          Assigned to <span className="font-semibold text-ink">{workflow.assignee?.name ?? "nobody"}</span>.
        </>
      }
    >
      <Form
        ref={formRef}
        method="post"
        preventScrollReset
        className="space-y-5"
        onChange={(event) => setCurrent(snapshotOfForm(event.currentTarget))}
      >
        <input type="hidden" name="intent" value="save-workflow" />
        <input type="hidden" name="clientId" value={clientId} />
        <input type="hidden" name="taxYear" value={taxYear} />
        {/* Keyed on the saved values, so the inputs follow them after a save. */}
        <div key={saved} className="space-y-5">
          <StageTiles flags={workflow.flags} />

          <AssigneeField id="case-assignee" assignee={workflow.assignee} staff={staff} />
        </div>

        {result ? <Alert tone={result.ok ? "success" : "error"}>{result.message}</Alert> : null}

        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" className="min-h-11 sm:min-h-0" disabled={saving} busy={saving} aria-busy={saving}>
            Save Changes
          </Button>
          {dirty ? (
            <>
              <Button
                type="button"
                variant="secondary"
                className="min-h-11 sm:min-h-0"
                onClick={() => {
                  formRef.current?.reset();
                  setCurrent(saved);
                }}
              >
                Discard changes
              </Button>
              <p className="text-sm font-medium text-accent-700" role="status">
                You have changes that are not saved.
              </p>
            </>
          ) : null}
        </div>
      </Form>
    </CaseSection>
  );
}
