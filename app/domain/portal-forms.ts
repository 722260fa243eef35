/**
 * The client portal's forms about tax-year cases (read by app/server/http/form.server.ts parseForm),
 * and the words their answers use. Pure schemas and texts shared by the browser and the server.
 */
import { formsByIntent } from "./admin";
import { formField } from "./auth";
import { ApproveDraftForm, AskChangesForm, SendCodeForm, SignForm } from "./return-client";
import { parseTaxYear } from "./tax-year";
import { z } from "./zod";

/** Every value of a field that may be sent several times (the documents chosen). */
const allValues = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

/** "Start a tax year" on My Tax Filings: the year chosen, or null when it is not a year at all. */
export const StartYearForm = z.object({
  intent: formField.pipe(z.literal("start-year")),
  taxYear: formField.transform((raw) => parseTaxYear(raw.trim())),
});

/**
 * Remove on the client's own documents of a year: every id sent. One that holds a NUL character
 * names no document (the database would refuse it in a query) and is left out.
 */
export const RemoveOwnDocumentsForm = z.object({
  intent: z.literal("remove"),
  documentIds: allValues.transform((ids) => ({
    sent: ids.length,
    usable: ids.filter((id) => !id.includes("\u0000")),
  })),
});

/** The stage e-mail setting: ticked ("on") or not sent at all (unticked). */
export const StageNoticesForm = z.object({
  intent: z.literal("stage-notices"),
  stageNotices: formField.transform((value) => value === "on"),
});

/** The forms of a filing's page, told apart by their intent. */
export const FilingPageForm = formsByIntent([
  RemoveOwnDocumentsForm,
  StageNoticesForm,
  ApproveDraftForm,
  AskChangesForm,
  SendCodeForm,
  SignForm,
]);

/** What the portal's case forms say. */
export const CASE_MESSAGES = {
  yearExists: (year: number) => `You already have a filing for ${year}.`,
  yearNotOffered: "Choose one of the years listed.",
  startFailed: "We could not start that tax year. Please try again.",
  noCase: (year: number | null) =>
    year === null
      ? "There is no filing for that tax year in your account. Start the tax year from My Tax Filings first."
      : `There is no ${year} filing in your account. Start that tax year from My Tax Filings first.`,
  prefilled: (year: number) => `Started from your ${year} information — check each field before you save.`,
  documentsClosed: (year: number) =>
    `Your documents for ${year} are complete, so they can no longer be changed here. Send us a message if you need to add or remove one.`,
  nothingRemoved: "Nothing was removed. You can remove only documents you uploaded yourself.",
  removed: (count: number) =>
    count === 1 ? "The document was removed." : `${count} documents were removed.`,
  removeFailed: "We could not remove the document. Please try again.",
  acceptedStays: (titles: readonly string[]) =>
    titles.length === 1
      ? `This file stays: we have received “${titles[0]}”, which it was sent for. Send us a message if it needs to change.`
      : `These files stay: we have received the items they were sent for (${titles.map((t) => `“${t}”`).join(", ")}). Send us a message if they need to change.`,
  acceptedLabel: "Received by us: it stays",
  noticesOn: "Saved. We will e-mail you when one of your filings moves to a new stage.",
  noticesOff: "Saved. We will not e-mail you when your filings move to a new stage.",
  noticesFailed: "We could not save your e-mail setting. Please try again.",
  badForm: "The form could not be read. Please reload the page and try again.",
} as const;
