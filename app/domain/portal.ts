import type { ClientDocumentView } from "./documents";
import { isOutstanding } from "./requests";
import type { ClientRequestView } from "./requests";
import type { ClientResidency } from "./residency/client";
import type { FilingStatus, TaxpayerField, TaxpayerValues } from "./taxpayer";
import type { FieldErrors } from "./validation";
import { stageAfter } from "./workflow";
import type { StageKey, WorkflowFlags } from "./workflow";

/**
 * What /dashboard's loader sends: the owner's own record, SSN in full (only here). When the
 * record could not be read, no values at all: the page then shows no form, so that a save
 * cannot replace the stored record with an empty one.
 */
export type DashboardData =
  | {
      email: string;
      loadFailed: false;
      values: TaxpayerValues;
      hasRecord: boolean;
      /** The tax year whose form this is. */
      taxYear: number;
      /** The earlier year the form was filled from, when this year has no record yet. */
      prefilledFrom: number | null;
      /** The client's other years with a case, newest first (for switching). */
      otherYears: number[];
    }
  | { email: string; loadFailed: true };

/** What /dashboard's action answers. */
export type DashboardResult =
  | { ok: true }
  | { ok: false; errors: FieldErrors<TaxpayerField>; formError?: string; values: TaxpayerValues };

/** One filing as My Tax Filings shows it: the SSN is masked before it leaves the server. */
export type FilingView = {
  id: string;
  fullName: string;
  filingStatus: string;
  status: FilingStatus;
  /** ISO timestamps. */
  submittedOn: string;
  lastUpdated: string;
  maskedSsn: string;
  visaType: string;
  occupation: string;
  personal: {
    firstName: string;
    middleName: string;
    lastName: string;
    dateOfBirth: string;
    firstEntryDateUsa: string;
    timeZone: string;
  };
  contact: {
    primaryContact: string;
    secondaryContact: string;
    alternateEmail: string;
    city: string;
    state: string;
    zipcode: string;
    mailingAddress: string;
  };
};

/**
 * One tax year's case on My Tax Filings whose taxpayer information has been sent; `complete` once
 * every stage of the case is (its status stays the taxpayer information's Submitted or Incomplete).
 */
export type FilingEntry = FilingView & { taxYear: number; stage: StageKey; complete: boolean };

/** Counters of My Tax Filings: Completed counts filings whose case is complete, In Progress the rest. */
export function filingCounters(filings: readonly Pick<FilingEntry, "complete">[]) {
  const completed = filings.filter((f) => f.complete).length;
  return { total: filings.length, completed, inProgress: filings.length - completed };
}

/** One tax year's case on My Tax Filings whose taxpayer information is not sent yet. */
export type AwaitingFiling = { taxYear: number; stage: StageKey };

/** What /my-tax-filing's loader sends: the filings sent, the years still waiting for them, and the years the client may start. */
export type MyFilingsData = {
  /** Newest tax year first; SSNs masked. */
  filings: FilingEntry[];
  /** Newest tax year first. */
  awaitingInfo: AwaitingFiling[];
  /** Years the client has no case for and may start, newest first. */
  startYears: number[];
};

/** What /my-tax-filing's action answers when a year could not be started (success redirects). */
export type StartYearResult = { ok: false; message: string };

/** What /my-tax-filing/:year's loader sends: the case's stage, its documents and the e-mail setting. */
export type FilingPageData = {
  taxYear: number;
  /** The stage and completed stages as the client reads them (ClientCaseView). */
  stage: StageKey;
  flags: WorkflowFlags;
  /** Whether the taxpayer information of this year has been sent. */
  infoSent: boolean;
  /** Whether the client may still add and remove their own documents. */
  documentsOpen: boolean;
  documents: ClientDocumentView[];
  /** Whether stage e-mails are on (one setting for all the client's filings). */
  stageNotices: boolean;
  /** What the firm has asked the client for this year ("What we need from you"). */
  requests: ClientRequestView[];
  /** The year's residency as the client reads it; null before their history gave one. */
  residency: ClientResidency | null;
};

/** What /my-tax-filing/:year's action answers. */
export type FilingPageResult = { intent: "remove" | "stage-notices" | "form"; ok: boolean; message: string };

/** What the filing page says the client should do now, with where to do it (none when nothing is). */
export type ClientNextStep = { title: string; text: string; action: { label: string; to: string } | null };

/**
 * The filing page's next step, the first that applies: send the taxpayer information (nothing
 * starts without it), answer the items still needed, read the firm's unread messages, download
 * what the firm shared once documents are closed, upload documents while none are in; else
 * nothing to do for now. A step of a stage the filing has passed is never the next one: once a
 * draft was sent, the client is not asked for their information, nor after DOCUMENTS for their
 * documents (`stage` is the one the client reads).
 */
export function clientNextStep(
  filing: Pick<FilingPageData, "taxYear" | "stage" | "infoSent" | "documentsOpen" | "documents" | "requests">,
  unreadMessages: number,
  paths: { taxpayerForm: string; messages: string },
): ClientNextStep {
  const year = filing.taxYear;
  const needed = filing.requests.filter((r) => isOutstanding(r.state)).length;
  if (!filing.infoSent && !stageAfter(filing.stage, "preparation"))
    return {
      title: "Send us your taxpayer information",
      text: `We need it before we can start your ${year} filing.`,
      action: { label: `Open the ${year} taxpayer form`, to: paths.taxpayerForm },
    };
  if (needed > 0)
    return {
      title: needed === 1 ? "Send us the item we still need" : `Send us the ${needed} items we still need`,
      text: "Upload a file for each one, or tell us it doesn't apply to you or you can't get it.",
      action: { label: "See what we need", to: "#requests" },
    };
  if (unreadMessages > 0)
    return {
      title: unreadMessages === 1 ? "Read our message" : `Read our ${unreadMessages} messages`,
      text: "We wrote to you about this filing.",
      action: { label: "Go to your messages", to: paths.messages },
    };
  if (!filing.documentsOpen && filing.documents.some((d) => !d.mine))
    return {
      title: "Download the documents we shared with you",
      text: "They are listed under Documents below.",
      action: { label: "Go to the documents", to: "#documents" },
    };
  if (filing.documentsOpen && !filing.documents.some((d) => d.mine) && !stageAfter(filing.stage, "documents"))
    return {
      title: "Upload your documents",
      text: `Send us your tax documents for ${year} under Documents below.`,
      action: { label: "Go to the documents", to: "#documents" },
    };
  return {
    title: "Nothing to do for now",
    text: "We are working on your filing, and we will e-mail you when we need something from you.",
    action: null,
  };
}
