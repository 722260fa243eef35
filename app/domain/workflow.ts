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
