/**
 * Saving a client's immigration history (docs/product/residency.md#the-history), and the facts,
 * findings and confirmation of a case's residency: the shapes a page posts (plain JSON), their
 * checks and the message of each field. Pure schemas and texts shared by the browser and the
 * server (app/server/residency). Nothing is saved unless the whole input passes.
 *
 * The history's input, posted as one JSON field:
 *
 *     { people: [{ key, role, name, relation, dateOfBirth, citizenship, taxResidence, ownStays,
 *                  greenCardSteps, itin: { issuedYear, lastUsedYear } | null, ficaWithheld,
 *                  school, sponsor,
 *                  periods: [{ status, category, from, to }],
 *                  stays: [{ arrival, departure, transit, source }] }] }
 *
 * Errors are keyed by the field's path, `people.1.stays.3.departure`, so that a page shows each
 * message beside its field; `people`, `periods` and `stays` name the whole list (too many, no
 * client), and `form` an input that is not a history at all.
 */
import { calendarDay, isRealDay } from "../business-days";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "../validation";
import { z } from "../zod";
import { CATEGORY_STATUSES, PROGRAM_CATEGORIES, STATUSES } from "./history";
import type { IsoDay, PersonRole, ProgramCategory, StaffFindings, Status } from "./history";
import type { ResidencyStatus } from "./rules";
import { DOLLARS_MESSAGES, parseDollarsToCents } from "../irs-tolerance";

/** How many people, status periods and stays one client's history may hold (periods and stays counted over all the people). */
export const HISTORY_LIMITS = { people: 10, periods: 60, stays: 400 } as const;
/** The longest name, and the longest of the other texts (citizenship, tax residence, school, sponsor). */
export const NAME_MAX = 100;
export const TEXT_MAX = 100;
/** The longest reason staff give for a status other than the computed one. */
export const CONFIRM_REASON_MAX = 500;
/** The earliest day of a period or a stay; the latest is a year after New York's today. */
export const HISTORY_EARLIEST_DAY: IsoDay = "1950-01-01";
/** The earliest date of birth (a parent may be older than the stays). */
export const BIRTH_EARLIEST_DAY: IsoDay = "1900-01-01";
/** ITINs have been issued since 1996. */
export const ITIN_FIRST_YEAR = 1996;
/** The most a foreign balance may be, in cents ($1 trillion): beyond it, a typing mistake. */
export const FOREIGN_ACCOUNTS_MAX_CENTS = 100_000_000_000_000;

export const PERSON_ROLES = ["client", "spouse", "dependant"] as const satisfies readonly PersonRole[];
export const RELATIONS = ["child", "parent", "other"] as const;
export type Relation = (typeof RELATIONS)[number];
export const STAY_SOURCES = ["typed", "i94"] as const;
export type StaySource = (typeof STAY_SOURCES)[number];
export const RESIDENCY_STATUSES = ["resident", "nonresident", "dual-status", "citizen"] as const satisfies readonly ResidencyStatus[];

/** The longest JSON text of a history read (a full one of 10 people, 60 periods and 400 stays is about 60,000 characters). */
export const HISTORY_JSON_MAX = 300_000;

/** A dependant's key: the id the history gave them, or one the page made up for a new one. */
const DEPENDANT_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** The last day a period or a stay may reach: the same day a year after `today` (February 29 runs to March 1). */
export function latestHistoryDay(today: IsoDay): IsoDay {
  return calendarDay(Number(today.slice(0, 4)) + 1, Number(today.slice(5, 7)), Number(today.slice(8, 10)));
}

const longDay = (day: IsoDay) => {
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  return `${months[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;
};

export const RESIDENCY_FORM_MESSAGES = {
  balanceInvalid: "Enter the highest balance in dollars and cents, such as 12,345.67, or leave it empty when there are no foreign accounts.",
  balanceTooLarge: `Enter at most $${(FOREIGN_ACCOUNTS_MAX_CENTS / 100).toLocaleString("en-US")}.`,
  badForm: "The history could not be read. Please reload the page and try again.",
  tooManyPeople: `A household can list at most ${HISTORY_LIMITS.people} people.`,
  tooManyPeriods: `A history can hold at most ${HISTORY_LIMITS.periods} status periods in all. Join periods of the same status that follow each other.`,
  tooManyStays: `A history can hold at most ${HISTORY_LIMITS.stays} stays in all.`,
  noClient: "The history needs its client: add yourself first.",
  roleRequired: "Choose who this person is: you, your spouse or a dependant.",
  secondClient: "Only one person can be you (the client).",
  secondSpouse: "Only one person can be your spouse.",
  keyInvalid: "This person could not be told apart from the others. Please reload the page and try again.",
  nameRequired: "Enter the person's name.",
  nameTooLong: `Enter at most ${NAME_MAX} characters.`,
  tooLong: `Enter at most ${TEXT_MAX} characters.`,
  textInvalid: "Enter this as text.",
  controlCharacters: CONTROL_CHARACTERS_MESSAGE,
  relationRequired: "Choose how this dependant is related to you: child, parent or other.",
  relationNotDependant: "Only a dependant has a relation.",
  dateRequired: "Enter a date.",
  dateInvalid: "Enter a real date as YYYY-MM-DD.",
  dateTooEarly: "Enter a date from January 1, 1950.",
  dateTooLate: (latest: IsoDay) => `Enter a date no later than ${longDay(latest)}, a year from today.`,
  birthTooEarly: "Enter a date of birth from January 1, 1900.",
  birthInFuture: "A date of birth cannot be in the future.",
  yesNo: "Choose yes or no.",
  yesNoUnknown: "Choose yes, no or not known.",
  statusRequired: "Choose a status from the list.",
  categoryRequired: "Choose what the J-1 program is for: student, teacher, trainee, researcher or scholar.",
  categoryInvalid: "Choose a category from the list: student, teacher, trainee, researcher or scholar.",
  categoryNotAllowed: "Only a J-1 or Q-1 status has a program category.",
  periodEndsBeforeStart: "The last day in the status cannot be before its first day.",
  periodsOverlap: (from: IsoDay, to: IsoDay | null) =>
    `This period overlaps the one from ${from} to ${to ?? "now"}: a person holds one status at a time, so end the earlier one the day before this one starts.`,
  departureBeforeArrival: "The departure cannot be before the arrival.",
  staysOverlap: (arrival: IsoDay, departure: IsoDay | null) =>
    `This stay shares days with the stay from ${arrival} to ${departure ?? "now"}: a day can be in one stay only.`,
  sourceInvalid: "The source of a stay is either typed or an I-94 paste.",
  itinYear: (latest: number) => `Enter a year from ${ITIN_FIRST_YEAR} to ${latest}.`,
  itinIssuedRequired: "Enter the year the ITIN was issued.",
  lastUsedBeforeIssued: "The last year the ITIN was used cannot be before the year it was issued.",
  foreignAccountsInvalid: "Enter the highest balance as a whole number of cents, 0 or more, or leave it empty when there are no foreign accounts.",
  residencyStatusRequired: "Choose resident, nonresident, dual-status or US citizen.",
  reasonRequired: "Give the reason for a status other than the computed one.",
  reasonTooLong: `Write at most ${CONFIRM_REASON_MAX} characters.`,
  taxYearInvalid: "Choose a tax year.",
  // What the server answers.
  notYours: "This history is not yours to see or change.",
  noSuchClient: "There is no such client.",
  noSuchCase: "There is no case of that client for that tax year.",
  noSuchPerson: "There is no such person in the client's history.",
  staffOnly: "Only staff may do this.",
  notComputed: "The residency of this case has not been computed yet: save the client's history first.",
  saved: "Your history has been saved.",
  saveFailed: "We could not save the history. Please try again.",
} as const;

const M = RESIDENCY_FORM_MESSAGES;

/* ------------------------------------------------------------------ the input's shape */

export type PeriodInput = { status: Status; category: ProgramCategory | null; from: IsoDay; to: IsoDay | null };
export type StayInput = { arrival: IsoDay; departure: IsoDay | null; transit: boolean; source: StaySource };
export type ItinInput = { issuedYear: number; lastUsedYear: number | null };

/** One person of the history as checked: texts trimmed, empty ones null. */
export type PersonInput = {
  /** "client", "spouse", or a dependant's id (a new dependant: any other key the page made up). */
  key: string;
  role: PersonRole;
  name: string;
  relation: Relation | null;
  dateOfBirth: IsoDay | null;
  citizenship: string | null;
  taxResidence: string | null;
  /** Always true for the client; a spouse or dependant without it is counted on the client's stays. */
  ownStays: boolean;
  greenCardSteps: boolean;
  itin: ItinInput | null;
  ficaWithheld: boolean | null;
  school: string | null;
  sponsor: string | null;
  periods: PeriodInput[];
  stays: StayInput[];
};

export type HistoryInput = { people: PersonInput[] };

/** A person with nothing told yet but who they are: no facts, no periods, no stays. */
export function blankPerson(key: string, role: PersonRole, name: string, over: Partial<PersonInput> = {}): PersonInput {
  return {
    key,
    role,
    name,
    relation: null,
    dateOfBirth: null,
    citizenship: null,
    taxResidence: null,
    ownStays: true,
    greenCardSteps: false,
    itin: null,
    ficaWithheld: null,
    school: null,
    sponsor: null,
    periods: [],
    stays: [],
    ...over,
  };
}

export type FieldErrorMap = Record<string, string>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldErrorMap };

/* ------------------------------------------------------------------ fields */

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);
/** Absent, null and empty (after trimming) are all "not given". */
const blankToNull = (v: unknown) => {
  const t = trimmed(v);
  return t === undefined || t === "" ? null : t;
};

/** A day written YYYY-MM-DD from `min` to `max`, with one message for what is wrong. */
function day(min: IsoDay, max: IsoDay, tooEarly: string, tooLate: string) {
  return z.string({ error: M.dateRequired }).superRefine((v, ctx) => {
    const problem = !isRealDay(v) ? M.dateInvalid : v < min ? tooEarly : v > max ? tooLate : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

const historyDay = (today: IsoDay) => day(HISTORY_EARLIEST_DAY, latestHistoryDay(today), M.dateTooEarly, M.dateTooLate(latestHistoryDay(today)));
const requiredDay = (today: IsoDay) => z.preprocess(blankToNull, historyDay(today));
const optionalDay = (today: IsoDay) => z.preprocess(blankToNull, historyDay(today).nullable());

/** A text of at most `max` characters with no control characters; empty is null unless `required`. */
function optionalText(max: number) {
  return z.preprocess(
    blankToNull,
    z
      .string({ error: M.textInvalid })
      .max(max, max === NAME_MAX ? M.nameTooLong : M.tooLong)
      .refine((v) => !hasControlCharacters(v), M.controlCharacters)
      .nullable(),
  );
}
const nameText = z.preprocess(
  blankToNull,
  z
    .string({ error: M.nameRequired })
    .max(NAME_MAX, M.nameTooLong)
    .refine((v) => !hasControlCharacters(v), M.controlCharacters),
);

const flag = (message: string) => z.boolean({ error: message }).default(false);

/** A year typed in a box ("2019") or sent as a number; empty is null. */
function year(latest: number, message: string) {
  return z.preprocess(
    (v) => {
      const t = blankToNull(v);
      return typeof t === "string" && /^\d{1,6}$/.test(t) ? Number(t) : t;
    },
    z.number({ error: message }).int(message).min(ITIN_FIRST_YEAR, message).max(latest, message).nullable(),
  );
}

/**
 * Checks across fields run also when a field failed to be read (zod skips them then by default), so
 * that every message is shown at once: each compares only values that were read.
 */
const acrossFields = { when: () => true };

/** Whether both are days (a check across fields runs also when one of them failed). */
const bothDays = (a: unknown, b: unknown) => typeof a === "string" && typeof b === "string" && isRealDay(a) && isRealDay(b);

/** The zod schemas of one person, one status period and one stay, for `today` (New York's). */
export function residencySchemas(today: IsoDay) {
  const currentYear = Number(today.slice(0, 4));
  const period = z
    .object({
      status: z.enum(STATUSES, { error: M.statusRequired }),
      category: z.preprocess(blankToNull, z.enum(PROGRAM_CATEGORIES, { error: M.categoryInvalid }).nullable()),
      from: requiredDay(today),
      to: optionalDay(today),
    })
    .superRefine((p, ctx) => {
      if (p.status === "J-1" && p.category === null) ctx.addIssue({ code: "custom", path: ["category"], message: M.categoryRequired });
      if (STATUSES.includes(p.status) && !CATEGORY_STATUSES.includes(p.status) && p.category !== null)
        ctx.addIssue({ code: "custom", path: ["category"], message: M.categoryNotAllowed });
      if (bothDays(p.from, p.to) && p.to! < p.from) ctx.addIssue({ code: "custom", path: ["to"], message: M.periodEndsBeforeStart });
    }, acrossFields);
  const stay = z
    .object({
      arrival: requiredDay(today),
      departure: optionalDay(today),
      transit: flag(M.yesNo),
      source: z.enum(STAY_SOURCES, { error: M.sourceInvalid }).default("typed"),
    })
    .superRefine((s, ctx) => {
      if (bothDays(s.arrival, s.departure) && s.departure! < s.arrival) ctx.addIssue({ code: "custom", path: ["departure"], message: M.departureBeforeArrival });
    }, acrossFields);
  const itin = z
    .object({
      issuedYear: year(currentYear, M.itinYear(currentYear)).refine((v) => v !== null, M.itinIssuedRequired),
      lastUsedYear: year(currentYear, M.itinYear(currentYear)),
    }, { error: M.itinIssuedRequired })
    .superRefine((i, ctx) => {
      if (Number.isInteger(i.issuedYear) && Number.isInteger(i.lastUsedYear) && i.lastUsedYear! < i.issuedYear!)
        ctx.addIssue({ code: "custom", path: ["lastUsedYear"], message: M.lastUsedBeforeIssued });
    }, acrossFields)
    .transform((i): ItinInput => ({ issuedYear: i.issuedYear!, lastUsedYear: i.lastUsedYear }));
  /** A person's own fields, without their periods and stays. */
  const person = z
    .object({
      key: z.preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.string()),
      role: z.enum(PERSON_ROLES, { error: M.roleRequired }),
      name: nameText,
      relation: z.preprocess(blankToNull, z.enum(RELATIONS, { error: M.relationRequired }).nullable()),
      dateOfBirth: z.preprocess(blankToNull, day(BIRTH_EARLIEST_DAY, today, M.birthTooEarly, M.birthInFuture).nullable()),
      citizenship: optionalText(TEXT_MAX),
      taxResidence: optionalText(TEXT_MAX),
      ownStays: flag(M.yesNo),
      greenCardSteps: flag(M.yesNo),
      itin: z.preprocess((v) => (v === undefined ? null : v), itin.nullable()),
      ficaWithheld: z.preprocess((v) => (v === undefined ? null : v), z.boolean({ error: M.yesNoUnknown }).nullable()),
      school: optionalText(TEXT_MAX),
      sponsor: optionalText(TEXT_MAX),
    })
    .superRefine((p, ctx) => {
      if (p.role === "dependant" && p.relation === null) ctx.addIssue({ code: "custom", path: ["relation"], message: M.relationRequired });
      if ((p.role === "client" || p.role === "spouse") && p.relation !== null) ctx.addIssue({ code: "custom", path: ["relation"], message: M.relationNotDependant });
      if (p.role === "dependant" && (!DEPENDANT_KEY.test(p.key) || p.key === "client" || p.key === "spouse"))
        ctx.addIssue({ code: "custom", path: ["key"], message: M.keyInvalid });
    }, acrossFields)
    .transform((p) => ({ ...p, key: p.role === "dependant" ? p.key : p.role, ownStays: p.role === "client" ? true : p.ownStays }));
  return { person, period, stay };
}

/* ------------------------------------------------------------------ the whole history */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first message of each path of `error`, under `prefix`. */
function collect(errors: FieldErrorMap, prefix: string, error: z.ZodError): void {
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].filter((part) => part !== "").join(".");
    errors[key || "form"] ??= issue.message;
  }
}

/**
 * The first of `items` (in order of their start) that shares a day with one before it, per item:
 * each is checked against the earlier one that reaches furthest. `end` null is open (reaches on).
 */
function overlaps<T>(items: ReadonlyArray<{ index: number; item: T }>, start: (t: T) => IsoDay, end: (t: T) => IsoDay | null) {
  const sorted = [...items].sort((a, b) => (start(a.item) < start(b.item) ? -1 : start(a.item) > start(b.item) ? 1 : a.index - b.index));
  const found: Array<{ index: number; other: T }> = [];
  let reach: T | null = null;
  for (const { index, item } of sorted) {
    if (reach !== null) {
      const reachEnd = end(reach);
      if (reachEnd === null || start(item) <= reachEnd) found.push({ index, other: reach });
    }
    const itemEnd = end(item);
    if (reach === null || itemEnd === null || (end(reach) !== null && itemEnd > end(reach)!)) reach = item;
  }
  return found;
}

/**
 * Reads a posted history (the JSON field as posted, or what it parses to) for `today` (New York's): every field checked,
 * then each person's periods and stays against each other, and the household's roles. Either
 * the whole history, or the message of each field that is wrong.
 */
export function parseHistoryInput(posted: unknown, today: IsoDay): Parsed<HistoryInput> {
  let raw = posted;
  if (typeof posted === "string") {
    if (posted.length > HISTORY_JSON_MAX) return { ok: false, errors: { form: M.badForm } };
    try {
      raw = JSON.parse(posted) as unknown;
    } catch {
      return { ok: false, errors: { form: M.badForm } };
    }
  }
  if (!isRecord(raw) || !Array.isArray(raw.people)) return { ok: false, errors: { form: M.badForm } };
  const rawPeople: unknown[] = raw.people;
  if (rawPeople.length > HISTORY_LIMITS.people) return { ok: false, errors: { people: M.tooManyPeople } };
  const listOf = (p: unknown, field: "periods" | "stays"): unknown[] | null => {
    if (!isRecord(p) || p[field] === undefined || p[field] === null) return [];
    return Array.isArray(p[field]) ? p[field] : null;
  };
  if (rawPeople.some((p) => listOf(p, "periods") === null || listOf(p, "stays") === null)) return { ok: false, errors: { form: M.badForm } };
  const periodCount = rawPeople.reduce<number>((n, p) => n + listOf(p, "periods")!.length, 0);
  const stayCount = rawPeople.reduce<number>((n, p) => n + listOf(p, "stays")!.length, 0);
  const counts: FieldErrorMap = {};
  if (periodCount > HISTORY_LIMITS.periods) counts.periods = M.tooManyPeriods;
  if (stayCount > HISTORY_LIMITS.stays) counts.stays = M.tooManyStays;
  if (Object.keys(counts).length > 0) return { ok: false, errors: counts };

  const schemas = residencySchemas(today);
  const errors: FieldErrorMap = {};
  const people: PersonInput[] = [];
  const keys = new Set<string>();
  let clients = 0;
  rawPeople.forEach((rawPerson, i) => {
    const at = `people.${i}`;
    const fields = schemas.person.safeParse(isRecord(rawPerson) ? rawPerson : {});
    if (!fields.success) collect(errors, at, fields.error);

    const periods: Array<{ index: number; item: PeriodInput }> = [];
    listOf(rawPerson, "periods")!.forEach((rawPeriod, j) => {
      const period = schemas.period.safeParse(isRecord(rawPeriod) ? rawPeriod : {});
      if (period.success) periods.push({ index: j, item: period.data });
      else collect(errors, `${at}.periods.${j}`, period.error);
    });
    for (const { index, other } of overlaps(periods, (p) => p.from, (p) => p.to)) errors[`${at}.periods.${index}.from`] ??= M.periodsOverlap(other.from, other.to);

    const stays: Array<{ index: number; item: StayInput }> = [];
    listOf(rawPerson, "stays")!.forEach((rawStay, j) => {
      const stay = schemas.stay.safeParse(isRecord(rawStay) ? rawStay : {});
      if (stay.success) stays.push({ index: j, item: stay.data });
      else collect(errors, `${at}.stays.${j}`, stay.error);
    });
    for (const { index, other } of overlaps(stays, (s) => s.arrival, (s) => s.departure)) errors[`${at}.stays.${index}.arrival`] ??= M.staysOverlap(other.arrival, other.departure);

    if (!fields.success) {
      // A dependant's key still counts toward telling the others apart.
      if (isRecord(rawPerson) && rawPerson.role === "dependant" && typeof rawPerson.key === "string") keys.add(rawPerson.key.trim());
      return;
    }
    const person = fields.data;
    if (person.role === "client" && ++clients > 1) errors[`${at}.role`] ??= M.secondClient;
    else if (person.role === "spouse" && keys.has("spouse")) errors[`${at}.role`] ??= M.secondSpouse;
    else if (keys.has(person.key)) errors[`${at}.key`] ??= M.keyInvalid;
    keys.add(person.key);
    people.push({ ...person, periods: periods.map((p) => p.item), stays: stays.map((s) => s.item) });
  });
  if (clients === 0 && !rawPeople.some((p) => isRecord(p) && p.role === "client")) errors.people ??= M.noClient;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: { people } };
}

/* ------------------------------------------------------------------ a case's facts, findings, confirmation */

/** The case's facts the flags need: the highest combined foreign balance (integer cents; null: none) and joint filing. */
export const CaseFactsSchema = z.object({
  foreignAccountsHighestCents: z.preprocess(
    (v) => (v === undefined || v === "" ? null : v),
    z.number({ error: M.foreignAccountsInvalid }).int(M.foreignAccountsInvalid).min(0, M.foreignAccountsInvalid).max(FOREIGN_ACCOUNTS_MAX_CENTS, M.foreignAccountsInvalid).nullable(),
  ),
  filesJointly: z.boolean({ error: M.yesNo }),
});
export type CaseFactsInput = z.output<typeof CaseFactsSchema>;

/** Staff's findings for a person and a tax year. */
export const FindingsSchema = z.object({
  studentException: z.boolean({ error: M.yesNo }),
  deMinimis: z.boolean({ error: M.yesNo }),
  abroadAfterLeaving: z.boolean({ error: M.yesNo }),
}) satisfies z.ZodType<StaffFindings>;

/** Staff's confirmation of a case's residency status: a reason is needed when it is not the computed one (the server checks that). */
export const ConfirmationSchema = z.object({
  status: z.enum(RESIDENCY_STATUSES, { error: M.residencyStatusRequired }),
  reason: z.preprocess(
    blankToNull,
    z
      .string({ error: M.reasonRequired })
      .max(CONFIRM_REASON_MAX, M.reasonTooLong)
      .refine((v) => !hasControlCharacters(v), M.controlCharacters)
      .nullable(),
  ),
});
export type ConfirmationInput = z.output<typeof ConfirmationSchema>;

function parseWith<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const errors: FieldErrorMap = {};
  collect(errors, "", result.error);
  return { ok: false, errors };
}

export const parseCaseFacts = (raw: unknown): Parsed<CaseFactsInput> => parseWith(CaseFactsSchema, raw);
export const parseFindings = (raw: unknown): Parsed<StaffFindings> => parseWith(FindingsSchema, raw);
export const parseConfirmation = (raw: unknown): Parsed<ConfirmationInput> => parseWith(ConfirmationSchema, raw);

/** How many people, periods and stays a history holds, and how many of the stays came from an I-94 paste. */
export type HistoryCounts = { people: number; periods: number; stays: number; fromI94: number };

export function countHistory(history: { people: ReadonlyArray<{ periods: readonly unknown[]; stays: ReadonlyArray<{ source: StaySource }> }> }): HistoryCounts {
  const stays = history.people.flatMap((p) => p.stays);
  return {
    people: history.people.length,
    periods: history.people.reduce((n, p) => n + p.periods.length, 0),
    stays: stays.length,
    fromI94: stays.filter((s) => s.source === "i94").length,
  };
}

/** Words for the audit trail: counts only, never what a person wrote ("1 person, 2 periods, 5 stays (3 from an I-94 paste)"). */
export function countsText(counts: HistoryCounts): string {
  const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
  return `${plural(counts.people, "person", "people")}, ${plural(counts.periods, "period")}, ${plural(counts.stays, "stay")}${
    counts.fromI94 > 0 ? ` (${counts.fromI94} from an I-94 paste)` : ""
  }`;
}

/**
 * Stays that follow each other on one day joined into one: the I-94 reader (i94.ts) pairs a day
 * trip (left and came back the same day) into a stay that ends on that day and one that begins on
 * it, and a person's stays may not share a day here. The days present are the same. Stays in
 * transit are never joined; the joined stay keeps the first one's source. Oldest first.
 */
export function joinTouchingStays(stays: readonly StayInput[]): StayInput[] {
  const out: StayInput[] = [];
  for (const stay of [...stays].sort((a, b) => (a.arrival < b.arrival ? -1 : a.arrival > b.arrival ? 1 : 0))) {
    const last = out.at(-1);
    if (last && !last.transit && !stay.transit && last.departure === stay.arrival) out[out.length - 1] = { ...last, departure: stay.departure };
    else out.push({ ...stay });
  }
  return out;
}

/**
 * The highest balance as it is typed ("12,345.67", "$12345", "0.5") in whole cents (the app's one
 * reading of dollars, parseDollarsToCents); null for an empty box (no foreign accounts); a message
 * when it is not an amount, is negative, or is more than the case can hold.
 */
export function parseDollars(typed: string): { ok: true; cents: number | null } | { ok: false; message: string } {
  if (typed.trim() === "") return { ok: true, cents: null };
  const parsed = parseDollarsToCents(typed);
  if (!parsed.ok || parsed.cents < 0)
    return { ok: false, message: parsed.ok || parsed.message !== DOLLARS_MESSAGES.tooLarge ? M.balanceInvalid : M.balanceTooLarge };
  if (parsed.cents > FOREIGN_ACCOUNTS_MAX_CENTS) return { ok: false, message: M.balanceTooLarge };
  return { ok: true, cents: parsed.cents };
}

/** Cents as the box shows them again: "12,345.67" (empty for none). */
export function dollarsText(cents: number | null): string {
  if (cents === null) return "";
  return `${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`;
}
