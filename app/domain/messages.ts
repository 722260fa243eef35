/**
 * Secure messages (docs/product/requests-and-messages.md#messages): one conversation per case
 * between the client and the firm, in plain text, never edited once sent. Attachments become the
 * case's documents. Staff may hide a message from the client. Pure rules, forms and texts shared by
 * the browser and the server (app/server/messages/ does the rest).
 */
import { formsByIntent } from "./admin";
import { formField } from "./auth";
import { REPLY_WITHIN_BUSINESS_DAYS } from "./business-days";
import { isDocumentCategory } from "./documents";
import type { DocumentCategoryKey } from "./documents";
import { currentFilingYear, parseTaxYear } from "./tax-year";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters, UUID_SHAPE } from "./validation";
import { z } from "./zod";

/** The longest message, in characters (after trimming). */
export const MAX_MESSAGE_LENGTH = 5000;

/** Where a client's message is filed when no category is chosen for its attachments. */
export const DEFAULT_ATTACHMENT_CATEGORY: DocumentCategoryKey = "other-documents";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the conversation pages say. The tests read the same texts. */
export const MESSAGE_TEXTS = {
  empty: "Write your message before sending it.",
  tooLong: `A message can be at most ${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters.`,
  /** While the text is written: how far over the limit it is (the Send is refused with it). */
  overBy: (n: number) =>
    `${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters at most: ${n.toLocaleString("en-US")} too many. Shorten your message before sending it.`,
  badForm: "The form could not be read. Please reload the page and try again.",
  noEditing: "A message cannot be changed or deleted once it is sent.",
  noCase: (year: number | null) =>
    year === null
      ? "There is no filing for that tax year in your account."
      : `There is no ${year} filing in your account.`,
  noSuchCase: "This case no longer exists.",
  chooseCategory: "Choose one of the document categories for the attached files.",
  filesRefused:
    "Nothing was sent: a file was not accepted (the reason is shown below). Remove it or choose another file, then send again.",
  filesClosed: (year: number) =>
    `Your documents for ${year} are complete, so files can no longer be attached. Send your message without them, and we will tell you how to send the file.`,
  uploadTooLarge: "The files are larger than 100 MB together. Send fewer files with this message.",
  unreadable: "The message could not be read. Please try again.",
  sendFailed: "We could not send your message. Please try again.",
  sentByClient: (files: number) =>
    files === 0
      ? "Your message was sent. We will reply here, and e-mail you when we do."
      : `Your message and ${plural(files, "file", "files")} were sent. We will reply here, and e-mail you when we do.`,
  sentByStaff: (files: number, mailed: boolean) =>
    `${files === 0 ? "Message sent." : `Message and ${plural(files, "file", "files")} sent; the files are shared with the client.`} ${
      mailed
        ? "The client will be e-mailed a link to it in a few minutes, unless they read it or it is hidden first."
        : "The client already has an e-mail about an unread message from us, so no new one will be sent."
    }`,
  hidden: "The message is now hidden from the client.",
  hiddenWithFiles: (n: number) =>
    `The message is now hidden from the client, and ${n === 1 ? "its file is" : `its ${n} files are`} no longer shared with them.`,
  notHidden: "That message is not in this conversation, or it is already hidden.",
  hiddenLabel: "Hidden from the client",
} as const;

/** A message's text as it is kept: line breaks as \n, trimmed. */
const keptText = (raw: string) => raw.replace(/\r\n?/g, "\n").trim();

/** How many characters of the limit a text being written takes (as the server counts them). */
export const messageLength = (raw: string) => keptText(raw).length;

/** A message's text: line breaks kept (as \n), trimmed, not empty, not too long, no control characters. */
export const messageBody = formField.pipe(
  z
    .string()
    .transform(keptText)
    .pipe(
      z
        .string()
        .min(1, MESSAGE_TEXTS.empty)
        .max(MAX_MESSAGE_LENGTH, MESSAGE_TEXTS.tooLong)
        .refine((v) => !hasControlCharacters(v), CONTROL_CHARACTERS_MESSAGE),
    ),
);

/** The category the attached files are filed under ("" or absent: Other Documents; null: not a category). */
const attachmentCategory = formField.transform((raw): DocumentCategoryKey | null =>
  raw === "" ? DEFAULT_ATTACHMENT_CATEGORY : isDocumentCategory(raw) ? raw : null,
);

/** Send: the text, and the category of the files sent with it (if any). */
export const SendMessageForm = z.object({
  intent: z.literal("send"),
  body: messageBody,
  category: attachmentCategory,
});

/** Staff hide one message of the conversation from the client. */
export const HideMessageForm = z.object({
  intent: z.literal("hide"),
  messageId: formField.pipe(z.string().regex(UUID_SHAPE, MESSAGE_TEXTS.notHidden)),
});

/** The client's conversation page: only Send. */
export const ClientMessagesForm = formsByIntent([SendMessageForm]);

/** The staff's conversation page: Send and Hide. */
export const StaffMessagesForm = formsByIntent([SendMessageForm, HideMessageForm]);

/** Intents that ask to change a message once sent: there are none, and they are told so. */
export function asksToEdit(intent: unknown): boolean {
  return typeof intent === "string" && /^(edit|update|change|delete|remove|unhide)/i.test(intent.trim());
}

/** A file sent with a message, as the conversation lists it. */
export type MessageAttachment = { id: string; name: string; size: number };

/** One message as the client sees it: hidden ones never reach them. */
export type ClientMessageView = {
  id: string;
  /** Written by the client themself. */
  mine: boolean;
  /** "You", or the staff member's name and the firm's. */
  author: string;
  body: string;
  /** ISO timestamp. */
  sentAt: string;
  /** For the client's own messages: when the firm read it (ISO); else null. */
  readAt: string | null;
  /** A message from the firm the client had not read before this visit. */
  isNew: boolean;
  attachments: MessageAttachment[];
};

/** What the client's conversation page loads. */
export type ClientConversation = {
  taxYear: number;
  /** Whether the client may still attach files (their documents are not complete). */
  documentsOpen: boolean;
  messages: ClientMessageView[];
};

/** One message as staff see it, hidden ones included and marked. */
export type StaffMessageView = {
  id: string;
  fromClient: boolean;
  /** The client's name, or the staff member's ("A former staff member" when the account is gone). */
  author: string;
  body: string;
  /** ISO timestamp. */
  sentAt: string;
  /** When the other side read it (ISO), or null. */
  readAt: string | null;
  /** A message from the client no staff member had opened before this visit. */
  isNew: boolean;
  hidden: { at: string; by: string } | null;
  attachments: Array<MessageAttachment & { shared: boolean }>;
};

/** What a conversation page's action answers. */
export type MessageActionResult =
  | { intent: "send"; ok: true; message: string }
  | {
      intent: "send";
      ok: false;
      message: string;
      /** The text as sent, to be shown again. */
      body: string;
      /** The files that were not accepted, with the reason. */
      refused?: Array<{ name: string; reason: string }>;
    }
  | { intent: "hide"; ok: boolean; message: string }
  | { intent: "unknown"; ok: false; message: string };

// ---------------------------------------------------------------------------------------------
// The staff inbox (/admin/inbox)

export const INBOX_FILTERS = ["all", "unread", "waiting"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export const INBOX_FILTER_LABELS: Record<InboxFilter, string> = {
  all: "All conversations",
  unread: "Unread",
  waiting: `Waiting more than ${REPLY_WITHIN_BUSINESS_DAYS} business days`,
};

export const INBOX_PAGE_SIZE = 10;

/** The inbox's state, kept in the URL: ?year=&filter=&page= */
export type InboxQuery = { year: number; filter: InboxFilter; page: number };

export function parseInboxQuery(params: URLSearchParams, now: Date = new Date()): InboxQuery {
  const filter = params.get("filter");
  const page = Math.min(Number.parseInt(params.get("page") ?? "1", 10), 10_000_000);
  return {
    year: parseTaxYear(params.get("year"), now) ?? currentFilingYear(now),
    filter: (INBOX_FILTERS as readonly string[]).includes(filter ?? "") ? (filter as InboxFilter) : "all",
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** The inbox's address for a state (defaults left out). */
export function inboxHref(query: InboxQuery, overrides: Partial<InboxQuery> = {}, now: Date = new Date()): string {
  const next = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (next.year !== currentFilingYear(now)) params.set("year", String(next.year));
  if (next.filter !== "all") params.set("filter", next.filter);
  if (next.page > 1) params.set("page", String(next.page));
  const s = params.toString();
  return `/admin/inbox${s ? `?${s}` : ""}`;
}

/** One conversation in the inbox. */
export type InboxRow = {
  clientId: string;
  taxYear: number;
  code: string;
  name: string;
  /** ISO timestamp of the newest message, and who wrote it. */
  lastMessageAt: string;
  lastFromClient: boolean;
  /** Since when the client waits for a reply (ISO), or null when nobody waits. */
  waitingSince: string | null;
  /** Whole business days waited, when waiting. */
  waitedDays: number | null;
  /** Waiting more than the firm's reply time. */
  overdue: boolean;
  /** The client's messages no staff member has opened. */
  unread: number;
  assignee: string | null;
};

/** "Showing 1-10 of 12 conversations". */
export function inboxShowingText(page: number, matching: number): string {
  if (matching === 0) return "Showing 0 of 0 conversations";
  const from = (page - 1) * INBOX_PAGE_SIZE + 1;
  const to = Math.min(page * INBOX_PAGE_SIZE, matching);
  return `Showing ${from}-${to} of ${matching} ${matching === 1 ? "conversation" : "conversations"}`;
}

/** How long a client has waited, from whole business days: "Under 1 business day", "3 business days". */
export function waitedText(days: number): string {
  return days < 1 ? "Under 1 business day" : plural(days, "business day", "business days");
}

/** The client's conversation of a tax year. */
export const clientMessagesPath = (taxYear: number) => `/my-tax-filing/${taxYear}/messages`;

/** The staff's page of a case's conversation. */
export const staffMessagesPath = (clientId: string, taxYear: number) =>
  `/admin/clients/${encodeURIComponent(clientId)}/${taxYear}/messages`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** A message's moment as the audit trail names it: "Mar 3, 2026, 2:05 PM UTC" (never its text). */
export function messageMoment(date: Date): string {
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"} UTC`;
}
