/**
 * The visa and travel history's page, the client's (/my-residency) and staff's
 * (/admin/clients/:clientId/:year/residency/history): what its forms post and answer, and how one
 * change is made to the whole history (its words: history-texts.ts). Pure: the shared action
 * (app/server/residency/history-action.server.ts) reads the history, applies the change planned
 * here and saves the whole of it with saveHistory, which checks every field
 * (app/domain/residency/forms.ts).
 */
import { isRealDay } from "~/domain/business-days";
import { blankPerson, HISTORY_LIMITS, joinTouchingStays, RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
import type { FieldErrorMap, PeriodInput, PersonInput, StayInput } from "~/domain/residency/forms";
import { CATEGORY_STATUSES, STATUS_LABELS, STATUSES } from "~/domain/residency/history";
import type { IsoDay, Status } from "~/domain/residency/history";
import { I94_MAX_LINES } from "~/domain/residency/i94";
import type { ReadStay, UnreadLine } from "~/domain/residency/i94";
import { RESIDENCY_PAGE_TEXTS, staffHistoryTexts } from "./history-texts";
import type { HistoryTexts } from "./history-texts";

export const RESIDENCY_PATH = "/my-residency";
export const I94_SITE = "https://i94.cbp.dhs.gov/";

export const PAGE_INTENTS = [
  "save-foreign",
  "add-period",
  "remove-period",
  "add-stay",
  "remove-stay",
  "own-stays",
  "read-i94",
  "add-i94",
  "add-spouse",
  "add-dependant",
  "remove-person",
  "save-about",
] as const;
export type PageIntent = (typeof PAGE_INTENTS)[number];

/** The page's sections a result is shown in: a person's card, the I-94 paste, the household, "About you". */
export type Area = `person:${string}` | "i94" | "household" | "about" | "foreign" | "page";
export const personArea = (key: string): Area => `person:${key}`;

const M = RESIDENCY_FORM_MESSAGES;

// The page's words, in the client's voice and in staff's (history-texts.ts).
export { RESIDENCY_PAGE_TEXTS, staffHistoryTexts };
export type { HistoryTexts };

/* ------------------------------------------------------------------ what the page shows */

/** A person as the page shows them: what the history input holds. */
export type PersonShown = PersonInput;

export type ResidencyPageData = {
  people: PersonShown[];
  /** Each filing year's highest combined balance outside the US (cents; null: none), newest first. */
  foreign: Array<{ year: number; highestCents: number | null }>;
  savedAt: string | null;
  /** The client's filing years, newest first (each filing page shows that year's residency). */
  years: number[];
};

export type I94Shown = { text: string; stays: ReadStay[]; unread: UnreadLine[]; warnings: UnreadLine[] };

export type PageFailure = {
  ok: false;
  intent: PageIntent;
  area: Area;
  /** Each field's message, by the field's name in the form. */
  errors: Record<string, string>;
  /** A message for the form as a whole. */
  formError: string | null;
  /** What was sent, shown again in the form. */
  values: Record<string, string>;
  i94: I94Shown | null;
};
export type PageSaved = { ok: true; intent: PageIntent; area: Area; message: string; stamp: string };
export type PageRead = { ok: true; intent: "read-i94"; area: "i94"; i94: I94Shown };
export type PageResult = PageFailure | PageSaved | PageRead;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "August 10, 2023". */
export function longDay(day: IsoDay): string {
  return `${MONTHS[Number(day.slice(5, 7)) - 1] ?? ""} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;
}

export function periodName(p: Pick<PeriodInput, "status" | "category">): string {
  return `${STATUS_LABELS[p.status]}${p.category ? ` (${p.category})` : ""}`;
}

export function periodSpan(p: Pick<PeriodInput, "from" | "to">): string {
  return `${longDay(p.from)} to ${p.to === null ? "now" : longDay(p.to)}`;
}

export function staySpan(s: Pick<StayInput, "arrival" | "departure">): string {
  return `${longDay(s.arrival)} to ${s.departure === null ? "still here" : longDay(s.departure)}`;
}

/** The client first, then the spouse, then the dependants in their order. */
export function orderPeople<P extends Pick<PersonInput, "role">>(people: readonly P[]): P[] {
  const rank = { client: 0, spouse: 1, dependant: 2 } as const;
  return [...people].sort((a, b) => rank[a.role] - rank[b.role]);
}

/** A form control's id, unique on the page. */
export const controlId = (personKey: string, form: string, field: string) => `res-${personKey}-${form}-${field}`;

/** Whether a J-1 or Q-1 program's category applies to `status`. */
export const hasProgram = (status: string) => (CATEGORY_STATUSES as readonly string[]).includes(status);

export const STUDENT_STATUSES: readonly Status[] = ["F-1", "M-1"];

/* ------------------------------------------------------------------ changes */

type Fields = (name: string) => string;
type Refusal = { kind: "refuse"; status: number; errors: Record<string, string>; formError: string | null };
/**
 * A change ready to save: the whole history after it, what to say once saved, and how the save's
 * errors (keyed by path, `people.0.periods.2.from`) map to the fields of the form that was sent.
 */
type Planned = {
  kind: "save";
  people: PersonInput[];
  message: string;
  fieldsOf: (errors: FieldErrorMap) => { errors: Record<string, string>; formError: string | null };
  /** Nothing to save (the change is already there). */
  nothing?: boolean;
};
export type Plan = Refusal | Planned;

const refuse = (formError: string | null, errors: Record<string, string> = {}, status = 400): Refusal => ({ kind: "refuse", status, errors, formError });

/**
 * The errors under `prefix` whose rest is one of `fields` (path → field name), as field errors;
 * every other error joins the form's message, `describe` naming what it is about when it can.
 */
function mapErrors(
  errors: FieldErrorMap,
  prefix: string,
  fields: Record<string, string>,
  describe: (path: string) => string | null = () => null,
): { errors: Record<string, string>; formError: string | null } {
  const mapped: Record<string, string> = {};
  const rest: string[] = [];
  for (const [path, message] of Object.entries(errors)) {
    const field = path.startsWith(`${prefix}.`) ? fields[path.slice(prefix.length + 1)] : undefined;
    if (field !== undefined) mapped[field] ??= message;
    else {
      const about = describe(path);
      const line = about ? `${about}: ${message}` : message;
      if (!rest.includes(line)) rest.push(line);
    }
  }
  return { errors: mapped, formError: rest.length > 0 ? rest.join(" ") : null };
}

/** The first of `items` that shares a day with [from, to] (to null: open), or null. */
function sharing<T>(items: readonly T[], from: IsoDay, to: IsoDay | null, start: (t: T) => IsoDay, end: (t: T) => IsoDay | null): T | null {
  return items.find((item) => {
    const itemEnd = end(item);
    return (to === null || start(item) <= to) && (itemEnd === null || from <= itemEnd);
  }) ?? null;
}

const asDay = (raw: string): IsoDay | null => (/^\d{4}-\d{2}-\d{2}$/.test(raw) && isRealDay(raw) ? raw : null);

function findPerson(people: readonly PersonInput[], key: string): number {
  return key === "" ? -1 : people.findIndex((p) => p.key === key);
}

const withPerson = (people: readonly PersonInput[], index: number, change: (p: PersonInput) => PersonInput) =>
  people.map((p, i) => (i === index ? change(p) : p));

/** A period's and a stay's description for an error that names another item of the list. */
function itemAbout(people: readonly PersonInput[]) {
  return (path: string): string | null => {
    const match = /^people\.(\d+)\.(periods|stays)\.(\d+)\./.exec(path);
    if (!match) return null;
    const person = people[Number(match[1])];
    if (match[2] === "periods") {
      const p = person?.periods[Number(match[3])];
      return p && typeof p.from === "string" ? `The ${periodName(p)} period from ${p.from}` : null;
    }
    const s = person?.stays[Number(match[3])];
    return s && typeof s.arrival === "string" ? `The stay from ${s.arrival} to ${s.departure ?? "now"}` : null;
  };
}

/**
 * The whole history after the change a form asks for (`intent`, its fields read by `field`), or
 * why it is refused before anything is saved. `people` is the history as read, in the page's order;
 * `T` the words of the page that sent it (the client's own, or staff's).
 */
export function planChange(
  intent: Exclude<PageIntent, "read-i94" | "save-foreign">,
  people: readonly PersonInput[],
  field: Fields,
  newKey: () => string,
  T: HistoryTexts = RESIDENCY_PAGE_TEXTS,
): Plan {
  const whose = T.whose;
  const key = field("person");
  const at = findPerson(people, key);
  const person = people[at];
  switch (intent) {
    case "add-period": {
      if (!person) return refuse(T.noPerson, {}, 404);
      const status = field("status");
      const period = {
        status,
        category: hasProgram(status) ? field("category") : null,
        from: field("from"),
        to: field("to"),
      };
      const from = asDay(period.from);
      const to = period.to.trim() === "" ? null : asDay(period.to);
      if (from !== null && (to !== null || period.to.trim() === "") && (to === null || to >= from)) {
        const other = sharing(person.periods, from, to, (p) => p.from, (p) => p.to);
        if (other) return refuse(null, { from: M.periodsOverlap(other.from, other.to) });
      }
      const j = person.periods.length;
      const next = withPerson(people, at, (p) => ({ ...p, periods: [...p.periods, period as unknown as PeriodInput] }));
      const label = STATUSES.includes(status as Status) ? periodName({ status: status as Status, category: (period.category || null) as PeriodInput["category"] }) : status;
      return {
        kind: "save",
        people: next,
        message: `Added the status period ${label}, ${from ? periodSpan({ from, to }) : ""}, to ${whose(person)} history.`,
        fieldsOf: (errors) =>
          mapErrors(errors, `people.${at}.periods.${j}`, { status: "status", category: "category", from: "from", to: "to" }, itemAbout(next)),
      };
    }
    case "remove-period": {
      if (!person) return refuse(T.noPerson, {}, 404);
      const from = field("from");
      const gone = person.periods.find((p) => p.from === from);
      if (!gone) return refuse(T.noPeriod, {}, 404);
      const next = withPerson(people, at, (p) => ({ ...p, periods: p.periods.filter((r) => r !== gone) }));
      return {
        kind: "save",
        people: next,
        message: `Removed the status period ${periodName(gone)}, ${periodSpan(gone)}, from ${whose(person)} history.`,
        fieldsOf: (errors) => mapErrors(errors, "-", {}, itemAbout(next)),
      };
    }
    case "add-stay": {
      if (!person) return refuse(T.noPerson, {}, 404);
      const stay = { arrival: field("arrival"), departure: field("departure"), transit: field("transit") === "on", source: "typed" as const };
      const arrival = asDay(stay.arrival);
      const departure = stay.departure.trim() === "" ? null : asDay(stay.departure);
      if (arrival !== null && (departure !== null || stay.departure.trim() === "") && (departure === null || departure >= arrival)) {
        const other = sharing(person.stays, arrival, departure, (s) => s.arrival, (s) => s.departure);
        if (other) return refuse(null, { arrival: M.staysOverlap(other.arrival, other.departure) });
      }
      const j = person.stays.length;
      const next = withPerson(people, at, (p) => ({ ...p, stays: [...p.stays, stay as unknown as StayInput] }));
      return {
        kind: "save",
        people: next,
        message: `Added ${whose(person)} stay${arrival ? ` from ${staySpan({ arrival, departure })}` : ""}${stay.transit ? " (in transit)" : ""}.`,
        fieldsOf: (errors) =>
          mapErrors(errors, `people.${at}.stays.${j}`, { arrival: "arrival", departure: "departure", transit: "transit" }, itemAbout(next)),
      };
    }
    case "remove-stay": {
      if (!person) return refuse(T.noPerson, {}, 404);
      const arrival = field("arrival");
      const gone = person.stays.find((s) => s.arrival === arrival);
      if (!gone) return refuse(T.noStay, {}, 404);
      const next = withPerson(people, at, (p) => ({ ...p, stays: p.stays.filter((s) => s !== gone) }));
      return {
        kind: "save",
        people: next,
        message: `Removed ${whose(person)} stay from ${staySpan(gone)}.`,
        fieldsOf: (errors) => mapErrors(errors, "-", {}, itemAbout(next)),
      };
    }
    case "own-stays": {
      if (!person) return refuse(T.noPerson, {}, 404);
      if (person.role === "client") return refuse(T.ownStaysClient);
      const own = field("own") === "1";
      const next = withPerson(people, at, (p) => ({ ...p, ownStays: own, stays: own ? p.stays : [] }));
      return {
        kind: "save",
        people: next,
        nothing: person.ownStays === own,
        message: own
          ? `${person.name} now has stays of their own: add them in ${person.name}'s card.`
          : T.nowTravelsWithClient(person.name),
        fieldsOf: (errors) => mapErrors(errors, "-", {}, itemAbout(next)),
      };
    }
    case "add-i94": {
      const clientAt = people.findIndex((p) => p.role === "client");
      const client = people[clientAt];
      if (!client) return refuse(T.noPerson, {}, 404);
      const read = readStaysField(field("stays"));
      if (read === null) return refuse(T.i94Bad);
      const known = (s: ReadStay) => client.stays.some((c) => c.arrival === s.arrival && c.departure === s.departure);
      const fresh = read.filter((s) => !known(s));
      const already = read.length - fresh.length;
      const stays = joinTouchingStays([...client.stays, ...fresh.map((s) => ({ arrival: s.arrival, departure: s.departure, transit: false, source: "i94" as const }))]);
      const next = withPerson(people, clientAt, (p) => ({ ...p, stays }));
      const added = fresh.length === 1 ? "1 stay" : `${fresh.length} stays`;
      return {
        kind: "save",
        people: next,
        nothing: fresh.length === 0,
        message:
          fresh.length === 0
            ? T.allKnown
            : `${T.i94Added(added)}${already > 0 ? ` ${already === 1 ? "1 was" : `${already} were`} already there.` : ""}`,
        fieldsOf: (errors) => mapErrors(errors, "-", {}, itemAbout(next)),
      };
    }
    case "add-spouse":
    case "add-dependant": {
      const spouse = intent === "add-spouse";
      if (spouse && people.some((p) => p.role === "spouse")) return refuse(T.spouseExists);
      const added = blankPerson(spouse ? "spouse" : newKey(), spouse ? "spouse" : "dependant", field("name"), {
        relation: spouse ? null : (field("relation") as PersonInput["relation"]),
        dateOfBirth: field("dateOfBirth") as IsoDay,
        ownStays: field("travelsWithMe") !== "on",
      });
      const n = people.length;
      const name = added.name.trim();
      return {
        kind: "save",
        people: [...people, added],
        message: spouse ? T.spouseAdded(name) : T.dependantAdded(name),
        fieldsOf: (errors) =>
          mapErrors(errors, `people.${n}`, { name: "name", relation: "relation", dateOfBirth: "dateOfBirth", ownStays: "travelsWithMe" }),
      };
    }
    case "remove-person": {
      if (!person) return refuse(T.noPerson, {}, 404);
      if (person.role === "client") return refuse(T.notYourself);
      const next = people.filter((_, i) => i !== at);
      return {
        kind: "save",
        people: next,
        message: T.personRemoved(person.name),
        fieldsOf: (errors) => mapErrors(errors, "-", {}, itemAbout(next)),
      };
    }
    case "save-about": {
      const clientAt = people.findIndex((p) => p.role === "client");
      const client = people[clientAt];
      if (!client) return refuse(T.noPerson, {}, 404);
      const issued = field("itinIssued");
      const lastUsed = field("itinLastUsed");
      const fica = field("fica");
      const kept = (name: "school" | "sponsor") => (field(`has-${name}`) === "1" ? field(name) : client[name]);
      const about = {
        ...client,
        citizenship: field("citizenship"),
        taxResidence: field("taxResidence"),
        itin: issued.trim() === "" && lastUsed.trim() === "" ? null : { issuedYear: issued, lastUsedYear: lastUsed },
        ficaWithheld: fica === "yes" ? true : fica === "no" ? false : fica === "" || fica === "unknown" ? null : fica,
        school: kept("school"),
        sponsor: kept("sponsor"),
        greenCardSteps: field("greenCardSteps") === "on",
      } as unknown as PersonInput;
      const next = withPerson(people, clientAt, () => about);
      const changed = aboutChanges(client, about);
      return {
        kind: "save",
        people: next,
        message: changed.length === 0 ? "Saved. Nothing had changed." : T.aboutSaved(joinWords(changed)),
        fieldsOf: (errors) =>
          mapErrors(errors, `people.${clientAt}`, {
            citizenship: "citizenship",
            taxResidence: "taxResidence",
            itin: "itinIssued",
            "itin.issuedYear": "itinIssued",
            "itin.lastUsedYear": "itinLastUsed",
            ficaWithheld: "fica",
            school: "school",
            sponsor: "sponsor",
            greenCardSteps: "greenCardSteps",
          }),
      };
    }
  }
}

/** The stays an "Add these stays" form sent back (JSON), or null when they are not a list of stays. */
export function readStaysField(raw: string): ReadStay[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > Math.min(I94_MAX_LINES, HISTORY_LIMITS.stays)) return null;
  const stays: ReadStay[] = [];
  for (const item of parsed as unknown[]) {
    if (typeof item !== "object" || item === null) return null;
    const { arrival, departure } = item as Record<string, unknown>;
    if (typeof arrival !== "string" || asDay(arrival) === null) return null;
    if (departure !== null && (typeof departure !== "string" || asDay(departure) === null || departure < arrival)) return null;
    stays.push({ arrival, departure: departure as IsoDay | null });
  }
  return stays;
}

const norm = (v: unknown) => (typeof v === "string" ? v.trim() || null : v ?? null);

/** What "About you" changed, in words. */
function aboutChanges(before: PersonInput, after: PersonInput): string[] {
  const changed: string[] = [];
  if (norm(before.citizenship) !== norm(after.citizenship)) changed.push("citizenship");
  if (norm(before.taxResidence) !== norm(after.taxResidence)) changed.push("country of tax residence");
  const itin = (p: PersonInput) => (p.itin ? `${norm(String(p.itin.issuedYear))}/${norm(p.itin.lastUsedYear === null ? null : String(p.itin.lastUsedYear))}` : null);
  if (itin(before) !== itin(after)) changed.push("ITIN years");
  if (before.ficaWithheld !== after.ficaWithheld) changed.push("answer on Social Security and Medicare tax");
  if (norm(before.school) !== norm(after.school)) changed.push("school");
  if (norm(before.sponsor) !== norm(after.sponsor)) changed.push("J-1 sponsor");
  if (before.greenCardSteps !== after.greenCardSteps) changed.push("answer on a green card");
  return changed;
}

function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
