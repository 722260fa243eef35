/**
 * The return's form that a case's residency calls for (docs/product/residency.md#the-returns-form):
 * the upload of a draft defaults to it, and a draft of the other kind asks staff to say they mean it.
 */
import type { ReturnForm } from "../e-signature";
import type { ResidencyOutcome, ResidencyStatus } from "./rules";

/**
 * Form 1040 for a resident or a citizen, 1040-NR for a nonresident; for a dual-status year, the
 * form of the part the year ends in (a resident at December 31 files the 1040). The status staff
 * confirmed wins over the computed one; null before the history gave an outcome.
 */
export function residencyReturnForm(outcome: readonly ResidencyOutcome[] | null, confirmed: ResidencyStatus | null): ReturnForm | null {
  const own = outcome?.find((o) => o.role === "client") ?? null;
  const status = confirmed ?? own?.status ?? null;
  switch (status) {
    case "resident":
    case "citizen":
      return "1040";
    case "nonresident":
      return "1040-NR";
    case "dual-status":
      if (own?.status !== "dual-status") return null;
      return own.forms.includes("dual-status-1040") ? "1040" : "1040-NR";
    default:
      return null;
  }
}

/** The family a form belongs to for this check (1040-SR is a 1040); amendments and extensions are not compared. */
function family(form: ReturnForm): "1040" | "1040-NR" | null {
  return form === "1040" || form === "1040-SR" ? "1040" : form === "1040-NR" ? "1040-NR" : null;
}

/** Whether `chosen` is of the other kind than the residency's form. */
export function differsFromResidency(expected: ReturnForm | null, chosen: ReturnForm): boolean {
  if (expected === null) return false;
  const a = family(expected);
  const b = family(chosen);
  return a !== null && b !== null && a !== b;
}

export const RESIDENCY_RETURN_TEXTS = {
  hint: (form: ReturnForm) => `The case's residency calls for Form ${form}.`,
  confirm: "The form differs from the case's residency: upload it anyway",
  differs: (expected: ReturnForm, chosen: ReturnForm) =>
    `The case's residency calls for Form ${expected}, and this draft is a Form ${chosen}. Tick "The form differs from the case's residency: upload it anyway" to upload it, or choose Form ${expected}.`,
} as const;
