/**
 * Document requests: a case's checklist of what the firm needs from the client. Each item is
 * in one of these states:
 * - requested: the client owes it (outstanding);
 * - uploaded: the client sent files against it, staff have not looked yet;
 * - not-applicable / unavailable: the client answered "doesn't apply" or "can't get it", with a note;
 * - received: staff accepted it (done);
 * - returned: staff sent it back with a reason the client sees (outstanding again).
 */
import { REQUEST_TEMPLATES } from "../content/request-templates";
import { RESIDENCY_TEMPLATE_ID } from "../content/residency-template";
import { formsByIntent } from "./admin";
import { formField } from "./auth";
import { CLIENT_LIMIT_MESSAGES } from "./client-limits";
import { DOCUMENT_CATEGORIES } from "./documents";
import type { DocumentCategoryKey } from "./documents";
import { hasControlCharacters, isUuid } from "./validation";
import { z } from "./zod";

export const REQUEST_STATES = ["requested", "uploaded", "not-applicable", "unavailable", "received", "returned"] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** The states in which the client still owes the item: these count as outstanding and are reminded of. */
export const OUTSTANDING_STATES = ["requested", "returned"] as const satisfies readonly RequestState[];

export function isOutstanding(state: RequestState): boolean {
  return (OUTSTANDING_STATES as readonly RequestState[]).includes(state);
}

// ---------------------------------------------------------------------------------------------
// What the pages show of an item, how each side names its state, the forms and their answers.
// Pure rules and texts shared by the browser and the server.


/** A file the client uploaded against an item. */
export type RequestFile = { id: string; name: string; size: number; /** ISO timestamp. */ uploadedAt: string };

/** One item as its client sees it. */
export type ClientRequestView = {
  id: string;
  title: string;
  detail: string;
  category: DocumentCategoryKey;
  state: RequestState;
  /** The client's note with "doesn't apply" or "can't get it" ("" when none). */
  clientNote: string;
  /** Why staff returned it ("" unless it was returned). */
  returnReason: string;
  /** ISO timestamp of the client's last answer or upload, null when none. */
  answeredAt: string | null;
  files: RequestFile[];
};

/** One item as staff see it: who reviewed it, and whether it may still be removed. */
export type StaffRequestView = ClientRequestView & {
  template: string | null;
  /** ISO timestamp. */
  createdAt: string;
  reviewedBy: string | null;
  /** ISO timestamp. */
  reviewedAt: string | null;
  /** Never answered and nothing uploaded against it: staff may take it off the list. */
  removable: boolean;
};

/** How the client's page names each state. */
export const CLIENT_STATE_LABELS: Record<RequestState, string> = {
  requested: "Needed",
  uploaded: "Sent: we will check it",
  "not-applicable": "You said it doesn't apply",
  unavailable: "You said you can't get it",
  received: "Received",
  returned: "Sent back: please look again",
};

/** How the staff's case page names each state. */
export const STAFF_STATE_LABELS: Record<RequestState, string> = {
  requested: "Requested",
  uploaded: "Uploaded: to review",
  "not-applicable": "Client: doesn't apply",
  unavailable: "Client: can't get it",
  received: "Received",
  returned: "Returned to client",
};

/** The client's two answers other than a file. */
export const CLIENT_ANSWERS = ["not-applicable", "unavailable"] as const;
export type ClientAnswer = (typeof CLIENT_ANSWERS)[number];

export const ANSWER_LABELS: Record<ClientAnswer, string> = {
  "not-applicable": "Doesn't apply to me",
  unavailable: "I can't get it",
};

/** States in which the client may upload against an item (a received one is done). */
export const UPLOADABLE_STATES = ["requested", "returned", "uploaded", "not-applicable", "unavailable"] as const satisfies readonly RequestState[];
/** States in which the client may answer "doesn't apply" or "can't get it". */
export const ANSWERABLE_STATES = OUTSTANDING_STATES;
/** States whose answer the client may take back: staff have not reviewed it yet. */
export const WITHDRAWABLE_STATES = ["not-applicable", "unavailable"] as const satisfies readonly RequestState[];
/** States staff may mark received: anything not received yet (a file may have come another way). */
export const RECEIVABLE_STATES = ["requested", "returned", "uploaded", "not-applicable", "unavailable"] as const satisfies readonly RequestState[];
/** States staff may return: the client answered, or it was received. */
export const RETURNABLE_STATES = ["uploaded", "not-applicable", "unavailable", "received"] as const satisfies readonly RequestState[];

/** States with nothing left to do: the client's page folds them away (a "Finished" list). */
export const FINISHED_STATES = ["received", "not-applicable"] as const satisfies readonly RequestState[];

export function stateIn(state: RequestState, states: readonly RequestState[]): boolean {
  return states.includes(state);
}

export const MAX_REQUEST_TITLE_LENGTH = 200;
export const MAX_REQUEST_DETAIL_LENGTH = 1000;
export const MAX_REQUEST_NOTE_LENGTH = 1000;
export const MAX_RETURN_REASON_LENGTH = 1000;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Every answer of the two requests routes, by code. A page posted without JavaScript is sent
 * back with the code in its address (`?requests=code&n=…&item=…`), and shows the same text.
 */
export const REQUEST_TEXTS = {
  // The client's answers.
  "answered-not-applicable": "Thank you. We noted that this item doesn't apply to you.",
  "answered-unavailable": "Thank you. We noted that you can't get this item, and we will read your note.",
  withdrawn: "Your answer was taken back. The item is needed again.",
  "choose-answer": "Choose “Doesn't apply to me” or “I can't get it”.",
  "note-empty": "Write a short note: why the item doesn't apply, or why you can't get it.",
  "note-too-long": `The note can be at most ${count(MAX_REQUEST_NOTE_LENGTH)} characters.`,
  "note-invalid": "The note contains characters that are not allowed.",
  "too-many-answers": CLIENT_LIMIT_MESSAGES.answer,
  // Staff.
  "template-added": "Items added from the template. The client has been sent an e-mail asking for them.",
  "template-nothing": "Nothing was added: every item of this template is already on the list.",
  "choose-template": "Choose a template from the list.",
  "item-added": "Item added. The client has been sent an e-mail asking for it.",
  "title-empty": "Write what you need from the client.",
  "title-too-long": `The title can be at most ${count(MAX_REQUEST_TITLE_LENGTH)} characters.`,
  "title-invalid": "The title contains characters that are not allowed.",
  "title-exists": "An item with this title is already on the list.",
  "detail-too-long": `The details can be at most ${count(MAX_REQUEST_DETAIL_LENGTH)} characters.`,
  "detail-invalid": "The details contain characters that are not allowed.",
  "choose-category": "Choose the category the client's files go to.",
  received: "Marked received.",
  returned: "Returned. The client sees your reason and has been sent an e-mail asking them to look at it.",
  "reason-empty": "Write why you are returning it: the client sees this reason.",
  "reason-too-long": `The reason can be at most ${count(MAX_RETURN_REASON_LENGTH)} characters.`,
  "reason-invalid": "The reason contains characters that are not allowed.",
  removed: "Item removed from the list.",
  "not-removable":
    "This item cannot be removed: the client has answered it or uploaded files against it. Mark it received or return it instead.",
  // Both.
  "item-changed": "This item has changed since the page was opened. Here is where it stands now.",
  "no-such-item": "This item is no longer on the list. Reload the page to see the current list.",
  "no-such-case": "This case no longer exists.",
  "bad-form": "The form could not be read. Please reload the page and try again.",
} as const;

export type RequestCode = keyof typeof REQUEST_TEXTS;

/** The codes that report a change made (the others refuse, or report that nothing changed). */
const DONE_CODES: ReadonlySet<RequestCode> = new Set([
  "answered-not-applicable",
  "answered-unavailable",
  "withdrawn",
  "template-added",
  "item-added",
  "received",
  "returned",
  "removed",
]);

export function isRequestCode(value: unknown): value is RequestCode {
  return typeof value === "string" && Object.hasOwn(REQUEST_TEXTS, value);
}

/** The code whose text is `message` (a schema's message), else "bad-form". */
export function requestCodeOf(message: string): RequestCode {
  const found = (Object.keys(REQUEST_TEXTS) as RequestCode[]).find((code) => REQUEST_TEXTS[code] === message);
  return found ?? "bad-form";
}

/** What a requests route answers (and what its page shows after a post without JavaScript). */
export type RequestResult = {
  tone: "success" | "warning" | "error";
  code: RequestCode;
  message: string;
  /** The item it is about, or null for the list as a whole. */
  requestId: string | null;
};

/** The answer for `code`; `n` is the number of items a template added. */
export function requestResult(code: RequestCode, requestId: string | null = null, n = 0): RequestResult {
  const message =
    code === "template-added"
      ? n === 1
        ? "1 item added from the template. The client has been sent an e-mail asking for it."
        : `${count(n)} items added from the template. The client has been sent an e-mail asking for them.`
      : REQUEST_TEXTS[code];
  const tone = DONE_CODES.has(code) ? "success" : code === "template-nothing" || code === "item-changed" ? "warning" : "error";
  return { tone, code, message, requestId };
}

/** An item's id as sent: null when it cannot name an item. */
export function requestIdOf(raw: unknown): string | null {
  return isUuid(raw) ? raw.toLowerCase() : null;
}

/** The search a page is sent back with after a post without JavaScript (no leading "?"). */
export function requestResultSearch(result: RequestResult, n = 0): string {
  const params = new URLSearchParams({ requests: result.code });
  if (result.code === "template-added") params.set("n", String(n));
  if (result.requestId) params.set("item", result.requestId);
  return params.toString();
}

/** The answer a page's address carries (see requestResultSearch), or null. */
export function requestResultFromSearch(params: URLSearchParams): RequestResult | null {
  const code = params.get("requests");
  if (!isRequestCode(code)) return null;
  const n = Number.parseInt(params.get("n") ?? "0", 10);
  return requestResult(code, requestIdOf(params.get("item")), Number.isSafeInteger(n) && n > 0 ? n : 0);
}

/** The client's summary line: how many items are still needed. */
export function clientRequestSummary(items: readonly { state: RequestState }[]): string {
  const open = items.filter((i) => isOutstanding(i.state)).length;
  if (items.length === 0) return "We have not asked you for anything yet. When we need a document, it will be listed here and we will e-mail you.";
  if (open === 0) return "Nothing is needed from you right now: every item has an answer. We will e-mail you if we need anything else.";
  return `${count(open)} of ${count(items.length)} ${items.length === 1 ? "item" : "items"} still needed.`;
}

/** How many of the client's answers (an upload, "doesn't apply", "can't get it") wait for staff's review. */
export function awaitingReview(items: readonly { state: RequestState }[]): number {
  return items.filter((i) => stateIn(i.state, ["uploaded", "not-applicable", "unavailable"])).length;
}

/** The staff's summary line: outstanding items, and answers waiting for their review. */
export function staffRequestSummary(items: readonly { state: RequestState }[]): string {
  if (items.length === 0) return "Nothing requested yet.";
  const open = items.filter((i) => isOutstanding(i.state)).length;
  const toReview = awaitingReview(items);
  const received = items.filter((i) => i.state === "received").length;
  return `${count(items.length)} ${items.length === 1 ? "item" : "items"}: ${count(open)} outstanding, ${count(toReview)} to review, ${count(received)} received.`;
}

// --- the forms -------------------------------------------------------------------------------

const requestId = formField.transform(requestIdOf);

/** One line of text: runs of spaces and line breaks as one space. */
const oneLine = (value: string) => value.replace(/\s+/g, " ");

/** A required text a person wrote: trimmed, not empty, at most `max` characters, no control characters. */
function writtenText(max: number, codes: { empty: RequestCode; tooLong: RequestCode; invalid: RequestCode }) {
  return formField.pipe(
    z
      .string()
      .trim()
      .min(1, REQUEST_TEXTS[codes.empty])
      .max(max, REQUEST_TEXTS[codes.tooLong])
      .refine((v) => !hasControlCharacters(v), REQUEST_TEXTS[codes.invalid]),
  );
}

const CATEGORY_KEYS = DOCUMENT_CATEGORIES.map((c) => c.key) as [DocumentCategoryKey, ...DocumentCategoryKey[]];
// The fixed templates, and the one a case's residency makes (content/residency-template.ts).
const TEMPLATE_IDS: [string, ...string[]] = [RESIDENCY_TEMPLATE_ID, ...REQUEST_TEMPLATES.map((t): string => t.id)];

/** The client: "doesn't apply" or "can't get it", with a note. */
export const AnswerRequestForm = z.object({
  intent: z.literal("answer"),
  requestId,
  answer: formField.pipe(z.enum(CLIENT_ANSWERS, { error: REQUEST_TEXTS["choose-answer"] })),
  note: writtenText(MAX_REQUEST_NOTE_LENGTH, { empty: "note-empty", tooLong: "note-too-long", invalid: "note-invalid" }),
});

/** The client takes back an answer staff have not reviewed yet. */
export const WithdrawAnswerForm = z.object({ intent: z.literal("withdraw"), requestId });

export const ClientRequestForm = formsByIntent([AnswerRequestForm, WithdrawAnswerForm]);

/** Staff add a template's items (those whose title is not on the list yet). */
export const AddTemplateForm = z.object({
  intent: z.literal("add-template"),
  template: formField.pipe(z.enum(TEMPLATE_IDS, { error: REQUEST_TEXTS["choose-template"] })),
});

/** Staff add an item of their own. */
export const AddItemForm = z.object({
  intent: z.literal("add-item"),
  title: writtenText(MAX_REQUEST_TITLE_LENGTH, { empty: "title-empty", tooLong: "title-too-long", invalid: "title-invalid" }).transform(oneLine),
  detail: formField.pipe(
    z
      .string()
      .trim()
      .max(MAX_REQUEST_DETAIL_LENGTH, REQUEST_TEXTS["detail-too-long"])
      .refine((v) => !hasControlCharacters(v), REQUEST_TEXTS["detail-invalid"])
      .transform(oneLine),
  ),
  category: formField.pipe(z.enum(CATEGORY_KEYS, { error: REQUEST_TEXTS["choose-category"] })),
});

export const ReceiveRequestForm = z.object({ intent: z.literal("receive"), requestId });

export const ReturnRequestForm = z.object({
  intent: z.literal("return"),
  requestId,
  reason: writtenText(MAX_RETURN_REASON_LENGTH, { empty: "reason-empty", tooLong: "reason-too-long", invalid: "reason-invalid" }),
});

export const RemoveRequestForm = z.object({ intent: z.literal("remove"), requestId });

export const StaffRequestForm = formsByIntent([
  AddTemplateForm,
  AddItemForm,
  ReceiveRequestForm,
  ReturnRequestForm,
  RemoveRequestForm,
]);

/**
 * Why an upload against an item is refused as a whole (the uploader shows it beside the file,
 * as it shows a file's own reason: lower case, no full stop).
 */
export const REQUEST_UPLOAD_MESSAGES = {
  noSuchItem: "this item is no longer on your list; reload the page to see the current list",
  received: "we have already received this item, so nothing more can be sent against it; use Add documents to send another file",
} as const;

/** Where a tax year's request answers are posted from the client's page. */
export const clientRequestsPath = (taxYear: number) => `/my-tax-filing/${taxYear}/requests`;

/** Where a case's request changes are posted from the staff's case page. */
export const staffRequestsPath = (clientId: string, taxYear: number) =>
  `/admin/clients/${encodeURIComponent(clientId)}/${taxYear}/requests`;

/** The hidden field a page's script adds: its post is answered in place, not by sending the page back. */
export const ENHANCED_FIELD = "enhanced";
