/**
 * The firm's days. The firm works in New York: its "today" is New York's calendar day
 * (`newYorkDay()`), for every date a person enters or is shown as a day (a payment received, a
 * due date, an e-file answer, an ID's expiry, the days left to send a rejected return again), and
 * a day is written "YYYY-MM-DD". A business day is a calendar day there that is not a Saturday, a
 * Sunday or a US federal holiday (on its observed date: a holiday that falls on a Saturday is kept
 * on the Friday before, one on a Sunday on the Monday after, as federal offices do), for the
 * inbox's clients waiting more than 2 business days for a staff reply
 * (docs/product/requests-and-messages.md#inbox). Pure rules shared by the browser and the server.
 *
 * Time is counted in "business time": the hours of business days only, in New York's clock. US
 * clocks change at 2 AM on a Sunday, never on a business day, so every business day is 24 hours
 * long and a business day's midnight always exists.
 */

export const FIRM_TIME_ZONE = "America/New_York";

/** How many business days a client may wait for a reply before their case is listed as waiting too long. */
export const REPLY_WITHIN_BUSINESS_DAYS = 2;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A calendar day as numbers: month 1-12. */
type CalendarDay = { y: number; m: number; d: number };

function dayKey({ y, m, d }: CalendarDay): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/**
 * The moment a day begins in UTC; month and day may run over (March 0 is the last day of
 * February). Date.UTC would read the years 0 to 99 as 1900 to 1999.
 */
function utcMs(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getTime();
}

function fromUtc(ms: number): CalendarDay {
  const date = new Date(ms);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

function plusDays(day: CalendarDay, days: number): CalendarDay {
  return fromUtc(utcMs(day.y, day.m, day.d) + days * DAY_MS);
}

function parseDay(day: string): CalendarDay {
  return { y: Number(day.slice(0, 4)), m: Number(day.slice(5, 7)), d: Number(day.slice(8, 10)) };
}

/** The day `d` of month `m` (1-12) of year `y`, YYYY-MM-DD; a day or month past the end runs on (April 31 is May 1). */
export function calendarDay(y: number, m: number, d: number): string {
  return dayKey(fromUtc(utcMs(y, m, d)));
}

/** Whether `value` is a day written YYYY-MM-DD that exists in the calendar (no February 30). */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = parseDay(value);
  return calendarDay(day.y, day.m, day.d) === value;
}

/** The day `days` calendar days after `day` (before it when negative), both YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return dayKey(plusDays(parseDay(day), days));
}

/** Calendar days from `from` to `to` (both YYYY-MM-DD): 0 on the same day, negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  const a = parseDay(from);
  const b = parseDay(to);
  return Math.round((utcMs(b.y, b.m, b.d) - utcMs(a.y, a.m, a.d)) / DAY_MS);
}

/** 0 Sunday … 6 Saturday. */
function weekday(day: CalendarDay): number {
  return new Date(utcMs(day.y, day.m, day.d)).getUTCDay();
}

/** The `n`th (1-based) `dow` of a month, or the last one when `n` is -1. */
function nthWeekday(y: number, m: number, dow: number, n: number): CalendarDay {
  if (n === -1) {
    const last = fromUtc(utcMs(y, m + 1, 0));
    return plusDays(last, -((weekday(last) - dow + 7) % 7));
  }
  const first = { y, m, d: 1 };
  return plusDays(first, ((dow - weekday(first) + 7) % 7) + (n - 1) * 7);
}

/** Saturday's holiday is kept on the Friday before, Sunday's on the Monday after. */
function observed(day: CalendarDay): CalendarDay {
  const dow = weekday(day);
  return dow === 6 ? plusDays(day, -1) : dow === 0 ? plusDays(day, 1) : day;
}

/** The federal holidays whose date (as set by law) falls in `y`, on their observed dates. */
function holidaysOf(y: number): CalendarDay[] {
  const days: CalendarDay[] = [
    observed({ y, m: 1, d: 1 }), // New Year's Day
    nthWeekday(y, 1, 1, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(y, 2, 1, 3), // Washington's Birthday
    nthWeekday(y, 5, 1, -1), // Memorial Day
    observed({ y, m: 7, d: 4 }), // Independence Day
    nthWeekday(y, 9, 1, 1), // Labor Day
    nthWeekday(y, 10, 1, 2), // Columbus Day
    observed({ y, m: 11, d: 11 }), // Veterans Day
    nthWeekday(y, 11, 4, 4), // Thanksgiving Day
    observed({ y, m: 12, d: 25 }), // Christmas Day
  ];
  // Juneteenth National Independence Day, a federal holiday since 2021.
  if (y >= 2021) days.push(observed({ y, m: 6, d: 19 }));
  return days;
}

const holidayCache = new Map<number, ReadonlySet<string>>();

/**
 * The observed federal holidays that fall in calendar year `y` ("YYYY-MM-DD"), in date order.
 * New Year's Day of the next year is among them when it falls on a Saturday (kept on December 31);
 * this year's, in that case, is not (it was kept the December before).
 */
export function federalHolidays(y: number): string[] {
  return [...holidaySet(y)].sort();
}

function holidaySet(y: number): ReadonlySet<string> {
  let set = holidayCache.get(y);
  if (!set) {
    set = new Set(
      [...holidaysOf(y), ...holidaysOf(y + 1)].filter((day) => day.y === y).map(dayKey),
    );
    holidayCache.set(y, set);
  }
  return set;
}

/** Whether a calendar day ("YYYY-MM-DD", or its numbers) is a business day of the firm. */
export function isBusinessDay(day: string | CalendarDay): boolean {
  const parts = typeof day === "string" ? parseDay(day) : day;
  const dow = weekday(parts);
  if (dow === 0 || dow === 6) return false;
  return !holidaySet(parts.y).has(dayKey(parts));
}

// ---------------------------------------------------------------------------------------------
// New York's clock

let formatter: Intl.DateTimeFormat | null = null;

function nyFormatter(): Intl.DateTimeFormat {
  formatter ??= new Intl.DateTimeFormat("en-US", {
    timeZone: FIRM_TIME_ZONE,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  });
  return formatter;
}

/** The moment as New York's calendar day and the milliseconds since its midnight (by the clock). */
function newYork(ms: number): { day: CalendarDay; msOfDay: number } {
  const parts: Record<string, number> = {};
  for (const part of nyFormatter().formatToParts(new Date(ms)))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  const hour = (parts.hour ?? 0) % 24;
  const msOfDay = ((hour * 60 + (parts.minute ?? 0)) * 60 + (parts.second ?? 0)) * 1000 + (((ms % 1000) + 1000) % 1000);
  return { day: { y: parts.year ?? 1970, m: parts.month ?? 1, d: parts.day ?? 1 }, msOfDay };
}

/** The moment of midnight in New York at the start of `day` (never in a clock change: those are at 2 AM). */
function newYorkMidnight(day: CalendarDay): number {
  const asUtc = utcMs(day.y, day.m, day.d);
  let guess = asUtc + 5 * 60 * 60 * 1000;
  for (let i = 0; i < 3; i++) {
    const seen = newYork(guess);
    const seenAsUtc = utcMs(seen.day.y, seen.day.m, seen.day.d) + seen.msOfDay;
    const next = guess - (seenAsUtc - asUtc);
    if (next === guess) break;
    guess = next;
  }
  return guess;
}

/**
 * New York's calendar day ("YYYY-MM-DD") at a moment; without one, now: the firm's today, the only
 * one (a moment given is for tests and for a record's own time).
 */
export function newYorkDay(at: Date = new Date()): string {
  return dayKey(newYork(at.getTime()).day);
}

/** The moment New York's calendar day `day` ("YYYY-MM-DD") begins, and `days` days after it. */
export function newYorkDayStart(day: string, days = 0): Date {
  return new Date(newYorkMidnight(plusDays(parseDay(day), days)));
}

function previousBusinessDay(day: CalendarDay): CalendarDay {
  let at = plusDays(day, -1);
  while (!isBusinessDay(at)) at = plusDays(at, -1);
  return at;
}

function sameDay(a: CalendarDay, b: CalendarDay): boolean {
  return a.y === b.y && a.m === b.m && a.d === b.d;
}

/** The business time between two moments, in milliseconds (0 when `to` is not after `from`). */
export function businessMsBetween(from: Date, to: Date): number {
  if (to.getTime() <= from.getTime()) return 0;
  const a = newYork(from.getTime());
  const b = newYork(to.getTime());
  if (sameDay(a.day, b.day)) return isBusinessDay(a.day) ? b.msOfDay - a.msOfDay : 0;
  let total = isBusinessDay(a.day) ? DAY_MS - a.msOfDay : 0;
  // Whole weeks hold five weekdays less their holidays; counted day by day, which stays cheap
  // for any wait a conversation can have.
  for (let day = plusDays(a.day, 1); !sameDay(day, b.day); day = plusDays(day, 1))
    if (isBusinessDay(day)) total += DAY_MS;
  if (isBusinessDay(b.day)) total += b.msOfDay;
  return total;
}

/** Whole business days between two moments (how long a client has waited, rounded down). */
export function businessDaysBetween(from: Date, to: Date): number {
  return Math.floor(businessMsBetween(from, to) / DAY_MS);
}

/** Whether someone waiting since `since` has, at `now`, waited more than the firm's reply time. */
export function waitedTooLong(since: Date, now: Date): boolean {
  return businessMsBetween(since, now) > REPLY_WITHIN_BUSINESS_DAYS * DAY_MS;
}

/**
 * The moment before which anyone still waiting at `now` has waited more than the firm's reply
 * time: `waitedTooLong(since, now)` exactly when `since < waitingCutoff(now)`. The database's
 * "waiting" filter compares with it.
 */
export function waitingCutoff(now: Date): Date {
  const here = newYork(now.getTime());
  // On a day off, business time stands still at the end of the last business day.
  let day = isBusinessDay(here.day) ? here.day : previousBusinessDay(here.day);
  const msOfDay = isBusinessDay(here.day) ? here.msOfDay : DAY_MS;
  for (let i = 0; i < REPLY_WITHIN_BUSINESS_DAYS; i++) day = previousBusinessDay(day);
  // The start of a business day holds the same business time as the end of the one before (and
  // every moment of the days off between): the cutoff is the earliest of them.
  if (msOfDay === 0) return new Date(newYorkMidnight(previousBusinessDay(day)) + DAY_MS);
  return new Date(newYorkMidnight(day) + msOfDay);
}
