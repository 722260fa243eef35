/** The eight stages of a client's filing, in order (docs/product/workflow.md#stages). */
export const STAGES = [
  { key: "home", label: "HOME" },
  { key: "taxinfo", label: "TAX INFO" },
  { key: "documents", label: "DOCUMENTS" },
  { key: "preparation", label: "PREPARATION" },
  { key: "draft", label: "DRAFT" },
  { key: "payment", label: "PAYMENT" },
  { key: "efiling", label: "E-FILING" },
  { key: "finalcopies", label: "FINAL COPIES" },
] as const;

export type StageKey = (typeof STAGES)[number]["key"];
export type StageLabel = (typeof STAGES)[number]["label"];
export type WorkflowFlags = Record<StageKey, boolean>;

export const STAGE_KEYS: readonly StageKey[] = STAGES.map((s) => s.key);

export function stageLabel(key: StageKey): StageLabel {
  return STAGES.find((s) => s.key === key)!.label;
}

export function isStageKey(value: unknown): value is StageKey {
  return typeof value === "string" && (STAGE_KEYS as readonly string[]).includes(value);
}

export const noFlags: WorkflowFlags = {
  home: false,
  taxinfo: false,
  documents: false,
  preparation: false,
  draft: false,
  payment: false,
  efiling: false,
  finalcopies: false,
};

/** True once every stage of the case is complete (all eight flags). */
export function caseComplete(flags: WorkflowFlags): boolean {
  return STAGE_KEYS.every((k) => flags[k]);
}

/**
 * The current stage is the first stage not completed; FINAL COPIES when all are
 * (docs/product/workflow.md#flags-and-the-current-stage).
 */
export function currentStage(flags: WorkflowFlags): StageKey {
  return STAGE_KEYS.find((k) => !flags[k]) ?? "finalcopies";
}

/**
 * What a case's records of the return and the fee say happened, whatever flags staff ticked
 * (docs/product/workflow.md#the-stage-the-client-reads).
 */
export type CaseProgress = {
  /** A draft of the return was sent to the client for review (a version exists). */
  draftSent: boolean;
  /** The client approved the current version of the draft (a signature needs that approval). */
  draftApproved: boolean;
  /** The fee is paid: an invoice was paid in full, and none is still owed. */
  feePaid: boolean;
  /** The return was transmitted (federal or state), whatever was answered. */
  transmitted: boolean;
  /** The IRS accepted the federal return. */
  accepted: boolean;
  /** The final copies were released to the client. */
  finalCopiesReleased: boolean;
};

export const noProgress: CaseProgress = {
  draftSent: false,
  draftApproved: false,
  feePaid: false,
  transmitted: false,
  accepted: false,
  finalCopiesReleased: false,
};

/** How many stages, from the first, the records show passed: the furthest stage reached is the one after them. */
function stagesPassed(progress: CaseProgress): number {
  const at = (key: StageKey) => STAGE_KEYS.indexOf(key);
  if (progress.finalCopiesReleased) return STAGE_KEYS.length;
  if (progress.accepted) return at("finalcopies");
  if (progress.transmitted) return at("efiling");
  if (progress.draftApproved) return at("payment");
  if (progress.draftSent) return at("draft");
  return 0;
}

/**
 * The stages the client reads as completed: those staff ticked, every stage before the furthest
 * one the records reached, and PAYMENT once the fee is paid. Their current stage
 * (currentStage of these) is then never before the furthest the records reached.
 */
export function flagsWithProgress(flags: WorkflowFlags, progress: CaseProgress): WorkflowFlags {
  const passed = stagesPassed(progress);
  return Object.fromEntries(
    STAGE_KEYS.map((key, i) => [key, flags[key] || i < passed || (key === "payment" && progress.feePaid)]),
  ) as WorkflowFlags;
}

/** Whether `stage` comes after `other` in the workflow. */
export function stageAfter(stage: StageKey, other: StageKey): boolean {
  return STAGE_KEYS.indexOf(stage) > STAGE_KEYS.indexOf(other);
}
