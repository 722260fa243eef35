import { PAGE_INTENTS, personArea, planChange, RESIDENCY_PAGE_TEXTS } from "~/components/portal/residency/history-edit";
import type { Area, HistoryTexts, I94Shown, PageFailure, PageIntent, PageResult } from "~/components/portal/residency/history-edit";
import { orderPeople } from "~/components/portal/residency/history-edit";
import { newYorkDay } from "~/domain/business-days";
import { parseDollars, RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
import type { PersonInput } from "~/domain/residency/forms";
import { readI94History } from "~/domain/residency/i94";
import { z } from "~/domain/zod";
import { logError } from "~/log";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { parseForm } from "~/server/http/form.server";
import type { RawForm } from "~/server/http/form.server";
import { ownCaseFacts, readHistory, saveHistory, setCaseFacts } from "./history.server";
import type { HistoryView } from "./history.server";

// What the forms of the visa and travel history post (docs/product/residency.md#the-history),
// answered the same way for the client's own page (/my-residency) and for staff's page of a
// client's case (/admin/clients/:clientId/:year/residency/history): each form posts its intent;
// every change reads the whole history, makes the one change (history-edit.ts planChange) and
// saves the whole of it (saveHistory checks every field: nothing is saved when one is wrong; it
// audits the change with the acting user and computes the residency of every case of the client
// again). The client is always the caller's (the signed-in client, or the case of the staff
// page's address): no client id is read from the form.

/** The history as the page shows it and changes it: each person's input, client first. */
export function historyPeople(view: HistoryView): PersonInput[] {
  return orderPeople(view.people.map(({ id: _id, findings: _findings, ...person }) => person));
}

const IntentForm = z.object({ intent: z.preprocess((v) => [v].flat()[0], z.enum(PAGE_INTENTS)) });

/** The first text a form sent in `name`; "" when not sent. */
const textOf = (raw: RawForm) => (name: string) => [raw[name] ?? ""].flat()[0] ?? "";

/** The section each intent answers in. */
function areaOf(intent: PageIntent, person: string): Area {
  switch (intent) {
    case "read-i94":
    case "add-i94":
      return "i94";
    case "add-spouse":
    case "add-dependant":
    case "remove-person":
      return "household";
    case "save-about":
      return "about";
    case "save-foreign":
      return "foreign";
    default:
      return personArea(person || "client");
  }
}

/** The fields a form sent, kept to show again (never the hidden list of stays). */
function sentValues(raw: RawForm): Record<string, string> {
  const field = textOf(raw);
  return Object.fromEntries(Object.keys(raw).filter((name) => name !== "stays").map((name) => [name, field(name)]));
}

function readPaste(text: string): I94Shown {
  const reading = readI94History(text, newYorkDay());
  return { text, stays: reading.stays, unread: reading.unread, warnings: reading.warnings };
}

export type HistoryActionOptions = {
  /** The words of the page that posted (its answers are shown there). */
  texts?: HistoryTexts;
  /** Whether the page has the form of each year's foreign balance (the client's own page); else that intent is no form of the page. */
  foreign?: boolean;
  /** Where a failure is logged ("portal", "admin"). */
  scope?: string;
};

/** What the page shows (`result`) with its status; null when `clientId` names no client the actor may change (the page's 404). */
export type HistoryAnswer = { status: number; result: PageResult } | null;

/**
 * One form of the history's page, posted by `actor` about the history of `clientId` (which the
 * caller takes from the session or the address, never from the form). Reading an I-94 paste
 * saves nothing; every other form changes the history (or, on the client's page, a year's
 * foreign balance) or is refused with the message of each field, and nothing is changed.
 */
export async function historyAction(actor: SessionUser, clientId: string, request: Request, ip: string, options: HistoryActionOptions = {}): Promise<HistoryAnswer> {
  const T = options.texts ?? RESIDENCY_PAGE_TEXTS;
  const scope = options.scope ?? "portal";
  const reply = (result: PageResult, status = 200) => ({ status, result });
  const parsed = await parseForm(request, IntentForm);
  const field = textOf(parsed.raw);
  const badForm = () =>
    reply({ ok: false, intent: "save-about", area: "page", errors: {}, formError: RESIDENCY_FORM_MESSAGES.badForm, values: {}, i94: null }, 400);
  if (!parsed.ok) return badForm();
  const intent = parsed.values.intent;
  if (intent === "save-foreign" && options.foreign === false) return badForm();
  const area = areaOf(intent, field("person"));
  const values = sentValues(parsed.raw);
  const failure = (over: Partial<PageFailure>, status: number) =>
    reply({ ok: false, intent, area, errors: {}, formError: null, values, i94: null, ...over }, status);

  // Reading a paste saves nothing: the page shows what was read.
  if (intent === "read-i94") {
    const text = field("i94");
    if (text.trim() === "") return failure({ errors: { i94: T.i94Empty } }, 400);
    return reply({ ok: true, intent, area: "i94", i94: readPaste(text) });
  }
  // A year's foreign balance: a fact of that year's case, not of the history.
  if (intent === "save-foreign") {
    const year = Number(field("year"));
    const balance = parseDollars(field("balance"));
    if (!balance.ok) return failure({ errors: { balance: balance.message } }, 400);
    const facts = (await ownCaseFacts(clientId)).find((f) => f.taxYear === year);
    if (!facts) return failure({ formError: RESIDENCY_FORM_MESSAGES.noSuchCase }, 404);
    const saved = await setCaseFacts(actor, clientId, year, { foreignAccountsHighestCents: balance.cents, filesJointly: facts.filesJointly }, ip);
    if (!saved.ok) return failure({ formError: Object.values(saved.errors)[0] ?? RESIDENCY_FORM_MESSAGES.saveFailed }, saved.status ?? 400);
    return reply({ ok: true, intent, area: "foreign", message: T.foreignSaved(year, balance.cents), stamp: crypto.randomUUID() });
  }
  // Adding what was read: should it fail, the paste is read again and shown with the message.
  const i94 = intent === "add-i94" && field("i94").trim() !== "" ? readPaste(field("i94")) : null;

  let view: HistoryView | null;
  try {
    view = await readHistory(actor, clientId);
  } catch (error) {
    logError(scope, "could not read residency history", error);
    return failure({ formError: RESIDENCY_FORM_MESSAGES.saveFailed, i94 }, 500);
  }
  if (!view) return null;
  try {
    const plan = planChange(intent, historyPeople(view), field, () => crypto.randomUUID(), T);
    if (plan.kind === "refuse") return failure({ errors: plan.errors, formError: plan.formError, i94 }, plan.status);
    if (!plan.nothing) {
      const saved = await saveHistory(actor, clientId, { people: plan.people }, ip, newYorkDay());
      if (!saved.ok) return failure({ ...plan.fieldsOf(saved.errors), i94 }, saved.status ?? 400);
    }
    return reply({ ok: true, intent, area, message: plan.message, stamp: crypto.randomUUID() });
  } catch (error) {
    logError(scope, "could not save residency history", error);
    return failure({ formError: RESIDENCY_FORM_MESSAGES.saveFailed, i94 }, 500);
  }
}
