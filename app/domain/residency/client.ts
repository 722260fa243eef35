/**
 * What a client reads of their residency on a filing page (docs/product/residency.md#what-the-client-sees):
 * each person's outcome in plain words, what the history still lacks, the choices the firm will
 * discuss and the points to know. Staff's arithmetic, reasons and findings stay in the panel.
 */
import type { ResidencyOutcome, ResidencyStatus } from "./rules";

export type ClientResidencyPerson = {
  key: string;
  name: string;
  role: ResidencyOutcome["role"];
  summary: string;
  missing: string[];
  choices: string[];
  flags: string[];
};

export type ClientResidency = {
  people: ClientResidencyPerson[];
  /** Staff confirmed the outcome (the client's own status as computed, or as staff set it). */
  confirmed: boolean;
};

export const RESIDENCY_CLIENT_TEXTS = {
  title: (taxYear: number) => `Your residency for ${taxYear}`,
  none: (taxYear: number) =>
    `Tell us your visa and travel history and we will work out whether you were a resident or a nonresident for tax in ${taxYear}, and which forms you file.`,
  start: "Add your visa and travel history",
  edit: "Update your visa and travel history",
  missing: "Still missing from your history",
  choices: "Choices we will discuss with you",
  flags: "Good to know",
  confirmed: "Your preparer has confirmed this.",
  unconfirmed: "Your preparer will check this before preparing your return.",
} as const;

/** The client's view of a case's stored outcome; null before their history gave one. */
export function clientResidencyOf(outcome: readonly ResidencyOutcome[] | null, confirmedStatus: ResidencyStatus | null): ClientResidency | null {
  if (!outcome || outcome.length === 0) return null;
  return {
    people: outcome.map((o) => ({
      key: o.person,
      name: o.name,
      role: o.role,
      summary: o.summary,
      missing: o.missing,
      choices: o.choices.map((c) => c.text),
      flags: o.flags.map((f) => f.text),
    })),
    confirmed: confirmedStatus !== null,
  };
}
