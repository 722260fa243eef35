/**
 * A client's case per tax year (docs/product/workflow.md#cases-per-tax-year): what the client and
 * the staff are sent about it. Pure types and rules shared by the browser and the server.
 */
import type { FilingView } from "./portal";
import type { TaxpayerValues } from "./taxpayer";
import type { ClientResidency } from "./residency/client";
import type { StageKey, WorkflowFlags } from "./workflow";

/** One of the client's own cases as the portal shows it. Nothing here is internal to staff. */
export type ClientCaseView = {
  taxYear: number;
  /** The stage and completed stages as the client reads them (flagsWithProgress in workflow.ts). */
  stage: StageKey;
  flags: WorkflowFlags;
  /** The year's taxpayer information, SSN masked; null before the client sends it. */
  filing: FilingView | null;
  /** Whether the client may still add and remove their own documents (DOCUMENTS not completed). */
  documentsOpen: boolean;
  /** Whether the client asked for an e-mail at each new stage (their account's setting, the same for every year). */
  stageNotices: boolean;
  /** The year's residency as the client reads it (one year's page only; null in the list, and before the history gave one). */
  residency: ClientResidency | null;
};

/** An internal note: staff only, never in anything a client is sent. */
export type CaseNote = { id: string; body: string; author: string | null; createdAt: string };

/** One line of a case's activity, ready to show: labels and names, never keys or raw ids. */
export type ActivityEntry = { id: number; at: string; actor: string; text: string };

/** The taxpayer information as the case page shows it before Reveal: the SSN masked. */
export type MaskedTaxpayer = Omit<TaxpayerValues, "ssn_tin"> & {
  ssn_tin: string;
  submittedAt: string;
  updatedAt: string;
};

/** Largest internal note, in characters. */
export const MAX_NOTE_LENGTH = 4000;
