/**
 * A client's case per tax year (docs/product/workflow.md#cases-per-tax-year): what the client and
 * the staff are sent about it. Pure types and rules shared by the browser and the server.
 */
import type { DocumentCategoryKey } from "./documents";
import type { FilingView } from "./portal";
import type { TaxpayerValues } from "./taxpayer";
import type { StageKey, WorkflowFlags } from "./workflow";

/** One of the client's own cases as the portal shows it. Nothing here is internal to staff. */
export type ClientCaseView = {
  taxYear: number;
  stage: StageKey;
  flags: WorkflowFlags;
  /** The year's taxpayer information, SSN masked; null before the client sends it. */
  filing: FilingView | null;
  /** Whether the client may still add and remove their own documents (DOCUMENTS not completed). */
  documentsOpen: boolean;
};

/** A document as its client sees it: their own uploads, and staff's once shared. */
export type ClientDocumentView = {
  id: string;
  category: DocumentCategoryKey;
  name: string;
  size: number;
  /** ISO timestamp. */
  uploadedAt: string;
  /** Uploaded by the client (removable while documents are open); else shared by the firm. */
  mine: boolean;
  /** Sent against a requested item the firm has received: it stays (the client cannot remove it). */
  accepted: boolean;
};

/** A document as staff see it on the case page. */
export type StaffDocumentView = {
  id: string;
  category: DocumentCategoryKey;
  name: string;
  size: number;
  /** ISO timestamp. */
  uploadedAt: string;
  /** Who uploaded it: a name, and whether it was the client. */
  uploadedBy: { name: string; client: boolean } | null;
  /** ISO timestamp when shared with the client; null for an unshared staff document. */
  sharedAt: string | null;
  /** Uploaded by the client after the acting staff member last opened the case. */
  isNew: boolean;
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
