/**
 * The words of the case's Residency section (docs/product/residency.md) and of its line on the
 * overview: statuses, rules, forms, choices, the section's messages, and reading a dollar amount
 * typed by staff. Pure: shared by the route's action and the components.
 */
import { CONTROL_CHARACTERS_MESSAGE } from "~/domain/validation";
import { RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
export { dollarsText, parseDollars } from "~/domain/residency/forms";
import type { PersonInput } from "~/domain/residency/forms";
import { STATUS_LABELS } from "~/domain/residency/history";
import type { PersonRole, StaffFindings, StatusPeriod } from "~/domain/residency/history";
import type { PresenceRow, ResidencyChoice, ResidencyFlag, ResidencyForm, ResidencyRule, ResidencyStatus } from "~/domain/residency/rules";

/** A person of the client's history as the section shows it (the server's PersonView): their id once saved, staff's findings by tax year. */
export type HistoryPerson = PersonInput & { id: string | null; findings: Record<number, StaffFindings> | null };

export const RESIDENCY_STATUS_WORDS: Record<ResidencyStatus, string> = {
  resident: "Resident alien",
  nonresident: "Nonresident alien",
  "dual-status": "Dual-status alien",
  citizen: "US citizen",
};

export const RESIDENCY_RULE_WORDS: Record<ResidencyRule, string> = {
  citizen: "US citizen: the residency tests are for aliens only",
  "green-card-test": "Green card test",
  "substantial-presence-test": "Substantial presence test",
  "not-met": "Neither test met",
};

export const RESIDENCY_FORM_WORDS: Record<ResidencyForm, string> = {
  "1040": "Form 1040",
  "1040-NR": "Form 1040-NR",
  "dual-status-1040": "A dual-status return: Form 1040, with Form 1040-NR as its statement",
  "dual-status-1040-NR": "A dual-status return: Form 1040-NR, with Form 1040 as its statement",
  "8843": "Form 8843 (an exempt individual)",
  "residency-statement": "A statement of the residency dates, with the return",
};

export const ROLE_WORDS: Record<PersonRole, string> = { client: "Client", spouse: "Spouse", dependant: "Dependant" };

export const CHOICE_TITLES: Record<ResidencyChoice["kind"], string> = {
  "first-year-choice": "First-year choice",
  "closer-connection": "Closer connection exception",
  "possible-termination": "Possible termination of residency",
  "joint-6013g": "Nonresident spouse treated as a resident (section 6013(g))",
  "joint-6013h": "Nonresident spouse treated as a resident (section 6013(h))",
};

export const FLAG_TITLES: Record<ResidencyFlag["kind"], string> = {
  "itin-expired": "ITIN expired",
  "itin-expiring": "ITIN expiring",
  "itin-old": "ITIN issued before 2013",
  "fica-refund": "Social Security and Medicare tax withheld",
  "india-treaty": "US-India treaty",
  fbar: "FBAR",
  "form-8938": "Form 8938",
};

/** The weight of a year of the substantial presence test, in words. */
export const WEIGHT_WORDS: Record<PresenceRow["divisor"], string> = { 1: "All", 3: "A third", 6: "A sixth" };

/** A year's share of the 183 days, two decimals ("61.33"). */
export function shareOf(row: Pick<PresenceRow, "termSixths">): string {
  return (row.termSixths / 6).toFixed(2);
}

/** "March 1, 2025". */
export function longDay(day: string): string {
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  return `${months[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}, ${day.slice(0, 4)}`;
}

/** A status period in words: "F-1 student, from March 1, 2023 to June 30, 2024". */
export function periodWords(p: StatusPeriod): string {
  const label = STATUS_LABELS[p.status] + (p.category ? ` (${p.category})` : "");
  return `${label}, from ${longDay(p.from)} ${p.to ? `to ${longDay(p.to)}` : "on (still in this status)"}`;
}

/** The overview's line: the status as staff confirmed it, or as computed and not confirmed, or no history yet. */
export function residencyGlance(residency: { status: ResidencyStatus | null; confirmed: ResidencyStatus | null }): string {
  if (residency.confirmed !== null) {
    const computed = residency.status !== null && residency.status !== residency.confirmed ? `; computed: ${RESIDENCY_STATUS_WORDS[residency.status]}` : "";
    return `${RESIDENCY_STATUS_WORDS[residency.confirmed]} (confirmed${computed})`;
  }
  if (residency.status === null) return "No history yet";
  return `${RESIDENCY_STATUS_WORDS[residency.status]} (not confirmed)`;
}

export const RESIDENCY_INTENTS = ["save-findings", "save-facts", "confirm", "confirm-other"] as const;
export type ResidencyIntent = (typeof RESIDENCY_INTENTS)[number];

export function isResidencyIntent(value: string): value is ResidencyIntent {
  return (RESIDENCY_INTENTS as readonly string[]).includes(value);
}

/** What a refused form of the section answers: the message of each field (`form`: the whole form), the person it was about, and what was typed. */
export type ResidencyActionResult = {
  intent: ResidencyIntent | "unknown";
  ok: false;
  errors: Record<string, string>;
  /** The person of a findings form. */
  person?: string;
  values?: Record<string, string>;
};

export const RESIDENCY_SECTION_MESSAGES = {
  unknown: "This form could not be read. Please reload the page and try again.",
  dollarsInvalid: RESIDENCY_FORM_MESSAGES.balanceInvalid,
  dollarsTooLarge: RESIDENCY_FORM_MESSAGES.balanceTooLarge,
  yesNo: RESIDENCY_FORM_MESSAGES.yesNo,
  controlCharacters: CONTROL_CHARACTERS_MESSAGE,
  noSuchPerson: RESIDENCY_FORM_MESSAGES.noSuchPerson,
  statusRequired: RESIDENCY_FORM_MESSAGES.residencyStatusRequired,
  reasonRequired: RESIDENCY_FORM_MESSAGES.reasonRequired,
} as const;

export const RESIDENCY_DONE = {
  "findings-saved": "The findings were saved and the residency computed again.",
  "facts-saved": "The case's facts were saved and the residency computed again.",
  confirmed: "The residency status was confirmed.",
} as const;
export type ResidencyDone = keyof typeof RESIDENCY_DONE;

export function residencyDoneMessage(value: string | null): string | null {
  return value !== null && Object.hasOwn(RESIDENCY_DONE, value) ? RESIDENCY_DONE[value as ResidencyDone] : null;
}

