/**
 * The engagement letter (docs/product/engagement.md): the services a letter is for, the fee each
 * states from the price list, the template's fields, and the letter made from a template. Pure:
 * shared by the admin's editor, the case's letter and the client's page.
 */
import { business } from "~/content/business";
import { priceList } from "~/content/price-list";
import type { PriceListId } from "~/content/price-list";
import { formatUsd } from "~/domain/fees";
import { hasControlCharacters } from "~/domain/validation";

export const ENGAGEMENT_SERVICES = ["1040-nr", "1040", "itin", "fbar-fatca", "fica-refund", "extension", "planning"] as const;
export type EngagementService = (typeof ENGAGEMENT_SERVICES)[number];

export function isEngagementService(value: unknown): value is EngagementService {
  return typeof value === "string" && (ENGAGEMENT_SERVICES as readonly string[]).includes(value);
}

/** Each service: its name in the letter, and the price-list item its fee is. */
export const ENGAGEMENT_SERVICE_INFO: Record<EngagementService, { label: string; priceId: PriceListId }> = {
  "1040-nr": { label: "Federal nonresident return (Form 1040-NR)", priceId: "standard-filing" },
  "1040": { label: "Federal resident return (Form 1040)", priceId: "standard-filing" },
  itin: { label: "ITIN application (Form W-7)", priceId: "itin" },
  "fbar-fatca": { label: "FBAR and FATCA reporting (FinCEN Form 114, Form 8938)", priceId: "fbar-fatca" },
  "fica-refund": { label: "Refund of Social Security and Medicare tax withheld in error (Forms 843 and 8316)", priceId: "fica-refund" },
  extension: { label: "Extension of time to file (Form 4868)", priceId: "form-4868" },
  planning: { label: "Tax planning", priceId: "tax-planning" },
};

/** The fee a service's letter states: its price-list item (integer cents) and what it is called there. */
export function feeOf(service: EngagementService): { cents: number; basis: string } {
  const item = priceList.find((p) => p.id === ENGAGEMENT_SERVICE_INFO[service].priceId)!;
  return { cents: item.unitCents, basis: item.description };
}

/** The fields a template may use, each written {{name}}. */
export const TEMPLATE_FIELDS = {
  client_name: "The client's full name",
  tax_year: "The tax year",
  service: "The service's name",
  fee: "The fee, e.g. $299.00",
  fee_basis: "What the fee is on the price list, e.g. Standard Filing (per tax year)",
  firm_name: "The firm's name",
} as const;
export type TemplateField = keyof typeof TEMPLATE_FIELDS;

export const TEMPLATE_MAX_LENGTH = 20_000;
export const DECLINE_REASON_MAX = 1_000;

/** An accepted engagement letter of a case, whose signed PDF both sides download: its id and when it was accepted. */
export type SignedLetter = { id: string; at: string };

/** Where the client downloads their signed letter `letterId` of `taxYear`. */
export function clientLetterPdfHref(taxYear: number, letterId: string): string {
  return `/my-tax-filing/${taxYear}/engagement/${letterId}/pdf`;
}

/** Where staff download the client's signed letter `letterId`. */
export function staffLetterPdfHref(clientId: string, letterId: string): string {
  return `/admin/clients/${encodeURIComponent(clientId)}/engagement-letters/${letterId}`;
}

/** Where a case's current engagement letter stands: "none" before any letter, "sent" while unanswered. */
export type LetterState = "none" | "sent" | "accepted" | "declined";

/** What staff read of a case whose draft waits for its letter (beside the stage, and in the list). */
export const LETTER_MARKS = {
  none: "Engagement letter: not sent yet",
  sent: "Engagement letter: not accepted yet",
  declined: "Engagement letter: declined by the client",
} as const satisfies Record<Exclude<LetterState, "accepted">, string>;

/** The short form of each mark, on a row of the client list (its long form for screen readers and as a tooltip). */
export const LETTER_BADGES = {
  none: "No letter",
  sent: "Letter unsigned",
  declined: "Letter declined",
} as const satisfies Record<keyof typeof LETTER_MARKS, string>;

export type LetterMark = keyof typeof LETTER_MARKS;

/** The mark of a case (null: nothing to mark) from its letter's state and the firm's setting. */
export function letterMarkOf(state: LetterState, required: boolean): LetterMark | null {
  return required && state !== "accepted" ? state : null;
}

export const ENGAGEMENT_MESSAGES = {
  templateEmpty: "Write the letter: the template cannot be empty.",
  templateTooLong: `The template is too long: at most ${TEMPLATE_MAX_LENGTH.toLocaleString("en-US")} characters.`,
  unknownField: (names: string[]) => `Unknown field${names.length > 1 ? "s" : ""}: ${names.map((n) => `{{${n}}}`).join(", ")}. The fields are ${Object.keys(TEMPLATE_FIELDS).map((n) => `{{${n}}}`).join(", ")}.`,
  needsFields: "The letter must name the client and the fee: use {{client_name}} and {{fee}}.",
  controlCharacters: "Remove the control characters from the text.",
  unknownService: "Choose one of the services.",
  mustAgree: "Tick the box to say you have read the letter and agree to it.",
  nameRequired: "Type your full legal name to sign the letter.",
  nameMismatch: (expected: string) => `Type your name as the letter gives it: ${expected}.`,
  reasonRequired: "Tell us why you decline the letter, so that we can answer.",
  reasonTooLong: `Keep the reason under ${DECLINE_REASON_MAX.toLocaleString("en-US")} characters.`,
  noLetter: "There is no engagement letter for this year yet.",
  alreadyAnswered: "This letter has been answered already.",
  superseded: "This letter has been replaced by a newer one: answer the newer letter.",
  badForm: "The form could not be read. Reload the page and try again.",
  draftWaits:
    "The draft return waits for the client's engagement letter: send it from the case's Engagement section and upload the draft once the client has accepted it (an admin can turn this off on the Engagement letter page).",
} as const;

/** The names of the {{fields}} a template uses that are not fields. */
export function unknownFields(body: string): string[] {
  return [...new Set([...body.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1]!))].filter((name) => !(name in TEMPLATE_FIELDS));
}

/** What is wrong with a template's text, or null. */
export function templateProblem(body: string): string | null {
  if (body.trim() === "") return ENGAGEMENT_MESSAGES.templateEmpty;
  if (body.length > TEMPLATE_MAX_LENGTH) return ENGAGEMENT_MESSAGES.templateTooLong;
  // Tabs and line ends are a letter's; other control characters are not.
  if (hasControlCharacters(body)) return ENGAGEMENT_MESSAGES.controlCharacters;
  const unknown = unknownFields(body);
  if (unknown.length > 0) return ENGAGEMENT_MESSAGES.unknownField(unknown);
  if (!/\{\{\s*client_name\s*\}\}/.test(body) || !/\{\{\s*fee\s*\}\}/.test(body)) return ENGAGEMENT_MESSAGES.needsFields;
  return null;
}

/** The letter: the template with its fields filled in (line ends made \n, trailing spaces trimmed). */
export function renderLetter(body: string, values: { clientName: string; taxYear: number; service: EngagementService; feeCents: number; feeBasis: string }): string {
  const fields: Record<TemplateField, string> = {
    client_name: values.clientName,
    tax_year: String(values.taxYear),
    service: ENGAGEMENT_SERVICE_INFO[values.service].label,
    fee: formatUsd(values.feeCents),
    fee_basis: values.feeBasis,
    firm_name: business.name,
  };
  return body
    .replace(/\r\n?/g, "\n")
    .replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => (name in fields ? fields[name as TemplateField] : whole))
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
}

/** The name a letter gives its client ("Dear <name>," on a line of its own), which they type to accept it; null when it gives none. */
export function nameOfLetter(text: string): string | null {
  return /^Dear (.+),$/m.exec(text)?.[1]?.trim() ?? null;
}

/** Whether a typed name is the letter's name (case, spaces and accents aside). */
export function sameName(typed: string, expected: string): boolean {
  const plain = (s: string) =>
    s
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase();
  return plain(typed) !== "" && plain(typed) === plain(expected);
}

/** The service a case's letter is for by default: the return its residency calls for. */
export function defaultService(residencyStatus: string | null): EngagementService {
  return residencyStatus === "resident" ? "1040" : "1040-nr";
}
