/**
 * Reading a client's I-94 travel history. On the US CBP I-94 website, "Get Travel History" shows
 * a table of the person's arrivals in and departures from the US, newest first: a row number, the
 * date, the type (Arrival or Departure) and the location (a port code such as "NYC" or "SFR", or a
 * port name). A client copies that table and pastes it into a text box; this module reads the
 * text into events and pairs them into stays in the US. Nothing is saved here: the page shows what
 * was read and names each line that could not be read by its line number. Pure rules, no I/O.
 *
 * What a line may look like (each of these reads as the same event):
 *
 *     1	2025-08-14	Arrival	NYC          (tab-separated, as copied from the site's table)
 *     1  08/14/2025  arrival  NYC          (spaces; MM/DD/YYYY, or M/D/YYYY)
 *     2025-08-14 A NYC 1                   (a single letter for the type; the row number last)
 *
 * - Columns are separated by tabs or spaces, in any order: the line's first date is its date, its
 *   first word "Arrival" or "Departure" (any case; else its first lone "A" or "D") is its type, a
 *   whole number at its start (or, when there is none there, at its end) is a row number and is
 *   ignored, and the words left over are the port, as written.
 * - Dates are YYYY-MM-DD (month and day may have one digit) or MM/DD/YYYY (month first, as in the
 *   US; M/D/YYYY too). A date must be a real calendar day, not before 1950-01-01 and not after
 *   `today`.
 * - Blank lines are skipped, and so is a header row: a line with no digit that has the word "date"
 *   (for example "Row Date Type Location").
 * - Any other line that cannot be read is listed in `unread` with its 1-based line number and what
 *   is wrong: no date, a date we could not read, a date that is not a real day, in the future or
 *   before 1950, or neither arrival nor departure. The other lines are still read.
 * - At most I94_MAX_LINES lines are read (trailing blank lines do not count). A longer paste is not
 *   read at all: one unread entry says it is too long.
 *
 * Order and pairing. Events are sorted by date, oldest first, whatever the paste's order (the site
 * lists newest first). The sort is stable, except within one day, where the paste's order says
 * nothing reliable (the site lists dates, not times) and the order that pairs stays is chosen:
 *
 * - Same-day rule: a day's events continue the alternation from the event before that day. If the
 *   person was in the US (the last earlier event is an arrival), that day's departures come first:
 *   they left and came back the same day (a day trip to Canada or Mexico), and the stay goes on.
 *   If they were outside (the last earlier event is a departure), the day's arrivals come first: an
 *   arrival and a departure on the same day are a one-day stay. On the history's first day there is
 *   no earlier event, so the next later event decides: if it is a departure, the day is ordered to
 *   end with an arrival (its departures come first, unless it has more arrivals than departures);
 *   otherwise its arrivals come first. Either way the day's events alternate as long as both kinds
 *   are left, and events of the same kind on one day keep the paste's order.
 *
 * Stays pair each arrival with the next departure; both dates are days of presence and are kept as
 * given (a departure on the day of the arrival is a stay of one day). The last stay is open
 * (departure null) when the newest event is an arrival. Problems in the pairing are `warnings`,
 * named by the line of the event where they show (`text` is that line, as pasted):
 *
 * - two arrivals in a row: the departure between them is missing, so the stay that began with the
 *   first is not produced (we do not know when it ended); the warning names the second arrival's line.
 * - the history begins with a departure: the arrival before it is older than the history reaches,
 *   so that stay is not produced.
 * - two departures in a row: the arrival between them is missing, so the stay that ended with the
 *   second is not produced.
 *
 * Messages never repeat more than I94_ECHO_LIMIT characters of what the client wrote, and neither
 * do `text` nor `port`.
 */

import { isRealDay } from "../business-days";
import type { IsoDay } from "./history";

export type { IsoDay };
export type TravelEvent = { line: number; date: IsoDay; kind: "arrival" | "departure"; port: string };
export type UnreadLine = { line: number; text: string; message: string };
export type ReadStay = { arrival: IsoDay; departure: IsoDay | null };
export type I94Reading = {
  /** Oldest first. */
  events: TravelEvent[];
  /** Oldest first; the last may be open (departure null). */
  stays: ReadStay[];
  /** Lines that are neither blank nor a header and could not be read, by 1-based line number. */
  unread: UnreadLine[];
  /** Pairing problems: two arrivals in a row, a history that begins with a departure, two departures in a row. */
  warnings: UnreadLine[];
};

/** The most lines of a paste that are read. */
export const I94_MAX_LINES = 500;
/** The earliest date accepted. */
export const I94_EARLIEST_DAY = "1950-01-01";
/** The most characters of a client's line that are repeated back (in `text`, `port` or a message). */
export const I94_ECHO_LIMIT = 80;

/* ------------------------------------------------------------------ messages */

/** The examples every date message gives. */
const DATE_EXAMPLES = "2025-08-14 or 08/14/2025";

export const I94_MESSAGES = {
  tooLong: (lines: number) =>
    `Your paste has ${lines} lines, more than the ${I94_MAX_LINES} we can read, so we did not read it. Paste only the table of arrivals and departures.`,
  noDate: (line: number) =>
    `Line ${line}: we could not find a date. Each line needs the date of an arrival or a departure, for example ${DATE_EXAMPLES}.`,
  unreadableDate: (line: number) => `Line ${line}: we could not read a date. Write it as ${DATE_EXAMPLES}.`,
  notRealDate: (line: number, written: string) =>
    `Line ${line}: ${clip(written)} is not a real date. Check the month and the day${
      written.includes("/") ? " (the month comes first, as in 08/14/2025)" : ""
    }.`,
  inFuture: (line: number, written: string) =>
    `Line ${line}: ${clip(written)} is in the future. Check the date.`,
  tooEarly: (line: number, written: string) =>
    `Line ${line}: ${clip(written)} is before 1950. Check the year.`,
  noType: (line: number) =>
    `Line ${line}: we could not tell whether this is an arrival or a departure. Write Arrival or Departure beside the date.`,
  twoArrivals: (line: number, first: IsoDay, second: IsoDay) =>
    `Line ${line}: two arrivals in a row, on ${first} and ${second}. The departure between them is missing, so we did not count the stay that began on ${first}. Tell us when you left the US.`,
  startsWithDeparture: (line: number, date: IsoDay) =>
    `Line ${line}: your history begins with a departure on ${date}. Your arrival before it is older than the history shows, so we did not count that stay. Tell us when you arrived.`,
  twoDepartures: (line: number, first: IsoDay, second: IsoDay) =>
    `Line ${line}: two departures in a row, on ${first} and ${second}. The arrival between them is missing, so we did not count the stay that ended on ${second}. Tell us when you arrived.`,
} as const;

/** At most I94_ECHO_LIMIT characters of what the client wrote, with "…" when cut. */
function clip(text: string): string {
  const chars = Array.from(text);
  return chars.length <= I94_ECHO_LIMIT ? text : `${chars.slice(0, I94_ECHO_LIMIT).join("")}…`;
}

/* ------------------------------------------------------------------ dates */

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/** Looks like someone wrote a date, in a form we do not read (14.08.2025, 2025/08/14, 8/14/25). */
const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/;

type DateToken = { ok: true; date: IsoDay } | { ok: false; message: string };

/** A date token's reading, or null when the token is not a date at all. */
function readDate(token: string, line: number, today: IsoDay): DateToken | null {
  const iso = ISO_DATE.exec(token);
  const us = iso ? null : US_DATE.exec(token);
  if (!iso && !us)
    return DATE_LIKE.test(token) ? { ok: false, message: I94_MESSAGES.unreadableDate(line) } : null;
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : [Number(us?.[3]), Number(us?.[1]), Number(us?.[2])];
  const date = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  if (!isRealDay(date)) return { ok: false, message: I94_MESSAGES.notRealDate(line, token) };
  if (date < I94_EARLIEST_DAY) return { ok: false, message: I94_MESSAGES.tooEarly(line, token) };
  if (date > today) return { ok: false, message: I94_MESSAGES.inFuture(line, token) };
  return { ok: true, date };
}

/* ------------------------------------------------------------------ lines */

type Kind = TravelEvent["kind"];

const TYPE_WORDS: Record<string, Kind> = { arrival: "arrival", departure: "departure" };
const TYPE_LETTERS: Record<string, Kind> = { a: "arrival", d: "departure" };
const ROW_NUMBER = /^#?\d{1,6}\.?$/;

type LineReading =
  { kind: "skip" } | { kind: "event"; event: TravelEvent } | { kind: "unread"; message: string };

function isHeader(text: string): boolean {
  return !/\d/.test(text) && /\bdate\b/i.test(text);
}

function readLine(text: string, line: number, today: IsoDay): LineReading {
  const trimmed = text.trim();
  if (trimmed === "" || isHeader(trimmed)) return { kind: "skip" };
  const tokens = trimmed.split(/\s+/);

  // The row number: at the start, or else at the end (never the only token).
  const rest = [...tokens];
  if (rest.length > 1 && ROW_NUMBER.test(rest[0] ?? "")) rest.shift();
  else if (rest.length > 1 && ROW_NUMBER.test(rest[rest.length - 1] ?? "")) rest.pop();

  let dateIndex = -1;
  let date: IsoDay | null = null;
  for (const [index, token] of rest.entries()) {
    const reading = readDate(token, line, today);
    if (!reading) continue;
    if (!reading.ok) return { kind: "unread", message: reading.message };
    dateIndex = index;
    date = reading.date;
    break;
  }
  if (date === null) return { kind: "unread", message: I94_MESSAGES.noDate(line) };

  const findType = (table: Record<string, Kind>) =>
    rest.findIndex((token, index) => index !== dateIndex && Object.hasOwn(table, token.toLowerCase()));
  let typeIndex = findType(TYPE_WORDS);
  let kind = typeIndex >= 0 ? TYPE_WORDS[rest[typeIndex]?.toLowerCase() ?? ""] : undefined;
  if (!kind) {
    typeIndex = findType(TYPE_LETTERS);
    kind = typeIndex >= 0 ? TYPE_LETTERS[rest[typeIndex]?.toLowerCase() ?? ""] : undefined;
  }
  if (!kind) return { kind: "unread", message: I94_MESSAGES.noType(line) };

  const port = rest.filter((_, index) => index !== dateIndex && index !== typeIndex).join(" ");
  return { kind: "event", event: { line, date, kind, port: clip(port) } };
}

/* ------------------------------------------------------------------ order and pairing */

/** Oldest first; within a day, the order that continues the alternation (see the same-day rule above). */
function orderEvents(events: TravelEvent[]): TravelEvent[] {
  const byDate = [...events].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const days: TravelEvent[][] = [];
  for (const event of byDate) {
    const last = days[days.length - 1];
    if (last && last[0]?.date === event.date) last.push(event);
    else days.push([event]);
  }

  const ordered: TravelEvent[] = [];
  for (const [index, day] of days.entries()) {
    const arrivals = day.filter((event) => event.kind === "arrival");
    const departures = day.filter((event) => event.kind === "departure");
    const before = ordered[ordered.length - 1];
    const after = days[index + 1]?.[0]?.kind;
    // The history's first day: end with an arrival when a departure comes next.
    const departuresFirst = before
      ? before.kind === "arrival"
      : after === "departure" && departures.length >= arrivals.length;
    let next: Kind = departuresFirst ? "departure" : "arrival";
    while (arrivals.length > 0 || departures.length > 0) {
      const queue = next === "arrival" ? arrivals : departures;
      const event = queue.shift() ?? (next === "arrival" ? departures : arrivals).shift();
      if (event) ordered.push(event);
      next = next === "arrival" ? "departure" : "arrival";
    }
  }
  return ordered;
}

function pairStays(
  events: TravelEvent[],
  textOf: (line: number) => string,
): { stays: ReadStay[]; warnings: UnreadLine[] } {
  const stays: ReadStay[] = [];
  const warnings: UnreadLine[] = [];
  const warn = (event: TravelEvent, message: string) =>
    warnings.push({ line: event.line, text: textOf(event.line), message });
  let previous: TravelEvent | null = null;
  for (const event of events) {
    if (event.kind === "arrival") {
      if (previous?.kind === "arrival") {
        warn(event, I94_MESSAGES.twoArrivals(event.line, previous.date, event.date));
      }
    } else if (previous?.kind === "arrival") {
      stays.push({ arrival: previous.date, departure: event.date });
    } else if (previous === null) {
      warn(event, I94_MESSAGES.startsWithDeparture(event.line, event.date));
    } else {
      warn(event, I94_MESSAGES.twoDepartures(event.line, previous.date, event.date));
    }
    previous = event;
  }
  if (previous?.kind === "arrival") stays.push({ arrival: previous.date, departure: null });
  return { stays, warnings };
}

/* ------------------------------------------------------------------ reading */

/**
 * Reads a pasted I-94 travel history. `today` is the firm's today (YYYY-MM-DD): no date may be
 * after it.
 */
export function readI94History(text: string, today: IsoDay): I94Reading {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new TypeError(`today must be YYYY-MM-DD, not ${clip(today)}`);
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  while (lines.length > 0 && (lines[lines.length - 1] ?? "").trim() === "") lines.pop();

  if (lines.length > I94_MAX_LINES) {
    const line = I94_MAX_LINES + 1;
    return {
      events: [],
      stays: [],
      unread: [
        { line, text: clip((lines[line - 1] ?? "").trim()), message: I94_MESSAGES.tooLong(lines.length) },
      ],
      warnings: [],
    };
  }

  const read: TravelEvent[] = [];
  const unread: UnreadLine[] = [];
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const reading = readLine(raw, line, today);
    if (reading.kind === "event") read.push(reading.event);
    else if (reading.kind === "unread")
      unread.push({ line, text: clip(raw.trim()), message: reading.message });
  }

  const events = orderEvents(read);
  const { stays, warnings } = pairStays(events, (line) => clip((lines[line - 1] ?? "").trim()));
  return { events, stays, unread, warnings };
}
