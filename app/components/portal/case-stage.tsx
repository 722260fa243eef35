import { Check, Circle, CircleDot } from "lucide-react";
import { STAGE_ICONS, STAGE_STYLES } from "~/components/admin/stage-badge";
import { CASE_COMPLETE_TEXT, CASE_STAGE_TEXTS } from "~/content/case-stages";
import { caseComplete, STAGES } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";

/** A filing's stage as the client sees it: the word "Stage", then its hue, icon and the client's name for it. */
export function CaseStageBadge({ stage }: { stage: StageKey }) {
  const Icon = STAGE_ICONS[stage];
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-sm text-ink-muted">
      <span>Stage</span>
      <span
        className={`inline-flex shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-semibold tracking-wide whitespace-nowrap ${STAGE_STYLES[stage]}`}
      >
        <Icon className="size-3.5" aria-hidden="true" />
        {CASE_STAGE_TEXTS[stage].title}
      </span>
    </span>
  );
}

export type StepState = "done" | "current" | "to-come";

/**
 * Each stage's state on the timeline: the stages staff marked complete are done, the case's
 * current stage is current (done too once every stage is complete), the rest are to come.
 */
export function stepStates(stage: StageKey, flags: WorkflowFlags): Record<StageKey, StepState> {
  return Object.fromEntries(
    STAGES.map(({ key }) => [key, flags[key] ? "done" : key === stage ? "current" : "to-come"]),
  ) as Record<StageKey, StepState>;
}

const STEP_WORDS: Record<StepState, string> = {
  done: "Done",
  current: "Current stage",
  "to-come": "To come",
};

const STEP_STYLES: Record<StepState, { item: string; mark: string }> = {
  done: { item: "border-green-200 bg-green-50", mark: "bg-green-700 text-white" },
  current: { item: "border-primary-600 bg-white ring-2 ring-primary-200", mark: "bg-primary-600 text-white" },
  "to-come": { item: "border-line bg-surface", mark: "border border-ink-muted/50 bg-white text-ink-muted" },
};

/**
 * The eight stages as an ordered list: each says in words whether it is done, current or to
 * come (the colours and marks only repeat it); the current one carries aria-current="step".
 */
export function StageTimeline({ stage, flags }: { stage: StageKey; flags: WorkflowFlags }) {
  const states = stepStates(stage, flags);
  return (
    <ol
      className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-8"
      aria-label="Stages of this filing"
    >
      {STAGES.map(({ key }, index) => {
        const state = states[key];
        const Mark = state === "done" ? Check : state === "current" ? CircleDot : Circle;
        return (
          <li
            key={key}
            aria-current={key === stage ? "step" : undefined}
            className={`flex items-center gap-3 rounded-xl border px-3 py-2.5 xl:flex-col xl:items-start xl:gap-2 ${STEP_STYLES[state].item}`}
          >
            <span
              className={`inline-flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-bold ${STEP_STYLES[state].mark}`}
              aria-hidden="true"
            >
              {state === "to-come" ? index + 1 : <Mark className="size-4" />}
            </span>
            <span className="min-w-0">
              <span className="block text-sm font-semibold break-words text-ink">
                {CASE_STAGE_TEXTS[key].title}
              </span>
              <span
                className={`block text-xs ${state === "current" ? "font-semibold text-primary-700" : state === "done" ? "text-green-800" : "text-ink-muted"}`}
              >
                {STEP_WORDS[state]}
              </span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** "What this stage means" and "What happens next" for the case's current stage. */
export function StageExplainer({ stage, flags }: { stage: StageKey; flags: WorkflowFlags }) {
  const texts = caseComplete(flags) ? CASE_COMPLETE_TEXT : CASE_STAGE_TEXTS[stage];
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <section aria-labelledby="stage-means-title" className="rounded-xl bg-surface p-4">
        <h3 id="stage-means-title" className="text-base font-semibold text-ink">
          What this stage means
        </h3>
        <p className="mt-1.5 text-ink-soft">{texts.means}</p>
      </section>
      <section aria-labelledby="stage-next-title" className="rounded-xl bg-surface p-4">
        <h3 id="stage-next-title" className="text-base font-semibold text-ink">
          What happens next
        </h3>
        <p className="mt-1.5 text-ink-soft">{texts.next}</p>
      </section>
    </div>
  );
}
