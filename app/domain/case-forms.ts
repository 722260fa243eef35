/**
 * The staff's case page (/admin/clients/:clientId/:year): its forms and what its action answers.
 * Pure rules shared by the browser and the server (app/server/http/form.server.ts parseForm reads
 * the forms).
 */
import { formsByIntent, SaveWorkflowForm } from "./admin";
import { formField } from "./auth";
import { MAX_NOTE_LENGTH } from "./cases";
import { parseTaxYear } from "./tax-year";
import { stageLabel } from "./workflow";
import type { StageKey } from "./workflow";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "./validation";
import { z } from "./zod";

/** The page's texts that the action and the tests share. */
export const CASE_MESSAGES = {
  unknown: "This request could not be read. Reload the page and try again.",
  noSuchCase: "This case no longer exists.",
  otherCase: "This form belongs to another case. Reload the page and try again.",
  nothingToReveal:
    "There is no SSN/ITIN to reveal: the client has not sent their taxpayer information for this year.",
  chooseDocument: "Choose a document.",
  shared: (n: number) =>
    n === 1
      ? "The document is now shared with the client, and they have been sent an e-mail about it."
      : `${n} documents are now shared with the client, and they have been sent an e-mail about them.`,
  unshared: (n: number) =>
    n === 1 ? "The client no longer sees this document." : `The client no longer sees these ${n} documents.`,
  shareUnchanged: "Nothing changed: the document is already in that state, or it is the client's own upload.",
  workflowSaved: "Workflow saved.",
  stageMoved: (stage: StageKey, mailed: boolean) =>
    mailed
      ? `Workflow saved. The case is now at ${stageLabel(stage)}, and the client has been sent an e-mail about it.`
      : `Workflow saved. The case is now at ${stageLabel(stage)}. The client turned stage e-mails off, so none was sent.`,
  noSuchStaff: "This staff member is not on the active staff. Choose someone from the list.",
  noteAdded: "Note added.",
  noteEmpty: "Write the note before adding it.",
  noteTooLong: `A note can be at most ${MAX_NOTE_LENGTH.toLocaleString("en-US")} characters.`,
  chooseYear: "Choose one of the years listed.",
  yearExists: (year: number) => `This client already has a case for ${year}.`,
  invitationSent: (email: string) => `A new invitation is being e-mailed to ${email}.`,
  invitationNotNeeded:
    "This client can already sign in (with a password or with Google), so there is no invitation to send again. If they forgot their password, they can use Forgot password on the sign-in page.",
  invitationDeactivated: "This client's account is deactivated, so no invitation was sent.",
} as const;

/** Every value of a field that may be sent several times (the documents chosen). */
const allValues = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

/** Reveal SSN/ITIN: the full number, once, written to the audit trail. */
export const RevealSsnForm = z.object({ intent: z.literal("reveal-ssn") });

const documentIds = allValues.pipe(z.array(z.string()).min(1, CASE_MESSAGES.chooseDocument));

/** Share staff documents with the client (they are e-mailed), or stop sharing them. */
export const ShareForm = z.object({ intent: z.literal("share"), documentIds });
export const UnshareForm = z.object({ intent: z.literal("unshare"), documentIds });

/** An internal note: trimmed, not empty, at most MAX_NOTE_LENGTH characters, line breaks kept. */
export const AddNoteForm = z.object({
  intent: z.literal("add-note"),
  body: formField.pipe(
    z
      .string()
      .trim()
      .min(1, CASE_MESSAGES.noteEmpty)
      .max(MAX_NOTE_LENGTH, CASE_MESSAGES.noteTooLong)
      .refine((v) => !hasControlCharacters(v), CONTROL_CHARACTERS_MESSAGE),
  ),
});

/** Open another tax year's case for the client: the year chosen (null: none, or not a year the product knows). */
export const OpenYearForm = z.object({
  intent: z.literal("open-year"),
  taxYear: formField.transform((raw) => parseTaxYear(raw)),
});

/** Send the client's invitation again: a fresh link to choose a password, while none is chosen. */
export const ResendInvitationForm = z.object({ intent: z.literal("resend-invitation") });

/** The case page's forms, told apart by their intent. */
export const CasePageForm = formsByIntent([
  RevealSsnForm,
  ShareForm,
  UnshareForm,
  SaveWorkflowForm,
  AddNoteForm,
  OpenYearForm,
  ResendInvitationForm,
]);

/** What the case page's action answers (the revealed number only here, never in the loader's data). */
export type CaseActionResult =
  | { intent: "reveal-ssn"; ok: true; ssn: string }
  | { intent: "reveal-ssn"; ok: false; message: string }
  | { intent: "share" | "unshare"; ok: boolean; message: string }
  | { intent: "save-workflow"; ok: boolean; message: string }
  | { intent: "add-note"; ok: true; message: string }
  | { intent: "add-note"; ok: false; message: string; body: string }
  | { intent: "open-year"; ok: false; message: string }
  | { intent: "resend-invitation"; ok: boolean; message: string }
  | { intent: "unknown"; ok: false; message: string };
