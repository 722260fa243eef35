/**
 * The words of the visa and travel history's forms, in two voices: the client's own page
 * (/my-residency: "you", "your") and staff's page of a client's case
 * (/admin/clients/:clientId/:year/residency/history: "the client", "Priya's"). The forms of this
 * folder read them from their page (parts.tsx useHistoryTexts), and so do what the forms answer
 * (history-edit.ts planChange, app/server/residency/history-action.server.ts). Pure.
 */
import { caseHref } from "~/domain/admin-links";
import type { PersonInput } from "~/domain/residency/forms";
import { filingPath } from "~/components/portal/filing-card";

const RELATION_WORDS = { child: "child", parent: "parent", other: "dependant" } as const;

const STAFF_RELATION_WORDS = { child: "Child", parent: "Parent", other: "Dependant" } as const;

/** The client's own page: what they read and what they are told. */
export const RESIDENCY_PAGE_TEXTS = {
  title: "Your visa and travel history",
  lead: "Your visa or status in the US, and the days you spent here, decide whether US tax law treats you as a resident or a nonresident in each tax year. That decides which return you file: Form 1040 for a resident, Form 1040-NR for a nonresident, or both for a year in which it changed.",
  lead2: "List every status you have held in the US and every stay here, for you and for the family who live with you. We work out the rest from it.",
  back: "Back to My Tax Filing",
  residencyLine: "Your residency for each tax year is on its filing page:",
  residencyNoYears: "Once you start a tax year in My Tax Filing, your residency for that year shows on its filing page.",
  /** Where a year's residency shows, and the link's accessible name. */
  yearLink: (year: number) => ({ to: filingPath(year), label: `Your ${year} filing` }),
  /** "You", "Your spouse", "Your child". */
  roleWords: (p: Pick<PersonInput, "role" | "relation">): string =>
    p.role === "client" ? "You" : p.role === "spouse" ? "Your spouse" : `Your ${RELATION_WORDS[p.relation ?? "other"]}`,
  /** "your" or "Priya's". */
  whose: (p: Pick<PersonInput, "role" | "name">): string => (p.role === "client" ? "your" : `${p.name}'s`),
  periodsTitle: "Status periods",
  periodsHint: "A status period is the time you held one visa or status, such as F-1 student. Its last day is the last day you held it.",
  noPeriods: "No status periods yet.",
  staysTitle: "Stays in the US",
  staysHint: "Each time you came to the US: the day you arrived and the day you left. Both days count as days in the US.",
  noStays: "No stays yet.",
  travelsWithYou: "Travels with you: uses your stays",
  comesAndGoes: (name: string) => `Does ${name} come and go with you? Their own stays above are then removed.`,
  useClientStays: "Use my stays instead",
  fromI94: "From your I-94",
  addPeriod: "Add a status period",
  addStay: "Add a stay",
  transitLabel: "In transit under 24 hours between two foreign places",
  transitHint: "Only changing planes in the US on the way to another country. No day of it counts.",
  toHint: "Leave empty if you still hold this status.",
  departureHint: "Leave empty if you are still in the US.",
  programHint: "J-1 and Q-1 only: what you came to do.",
  i94Title: "Paste your I-94 travel history",
  /** The lead as shown: the words before the site's link, and after it. */
  i94LeadBefore: "The I-94 is the US government's record of your arrivals and departures. Go to",
  i94LeadAfter: ", choose “Get Travel History”, enter your passport details, then copy the table of dates and paste it here.",
  i94Label: "Your I-94 travel history",
  i94Hint: "Copy the whole table: date, arrival or departure, and port. Nothing is saved until you add the stays we read.",
  i94Empty: "Paste your travel history first.",
  i94Read: "Read my history",
  i94NothingRead: "We could not read any stay from what you pasted. Check that you copied the table of dates, or add your stays one by one.",
  i94ReadLead: (n: number) =>
    `We read ${n === 1 ? "1 stay" : `${n} stays`} from your history. Check ${n === 1 ? "it" : "them"}, then add ${n === 1 ? "it" : "them"} to your stays. Nothing is saved until you do.`,
  i94WhatRead: "What we read",
  i94ReadList: "Stays read from your I-94 history",
  i94Unread: "Lines we could not read",
  i94UnreadHint: "Fix these lines in the box above and read your history again, or add those stays one by one.",
  i94Warnings: "Please check",
  i94Add: (n: number) => (n === 1 ? "Add this stay" : `Add these ${n} stays`),
  i94Bad: "The stays we read could not be added. Please read your history again.",
  i94Added: (stays: string) => `Added ${stays} from your I-94 travel history to your stays.`,
  householdTitle: "Your household",
  householdLead: "Your spouse's and your dependants' visas and stays can change which return you file and which forms go with it. Add the family who live with you in the US.",
  householdList: "The people of your household",
  noHousehold: "You have not added anyone yet.",
  addSpouse: "Add your spouse",
  addDependant: "Add a dependant",
  relationLabel: "Relation to you",
  travelsWithMe: "Travels with me",
  travelsWithMeHint: "Tick this if they came and left with you: we use your stays for them.",
  travelsWithClient: "travels with you",
  nowTravelsWithClient: (name: string) => `${name} now travels with you and uses your stays.`,
  spouseAdded: (name: string) => `Added your spouse, ${name}. Add their status periods in their card.`,
  dependantAdded: (name: string) => `Added ${name} to your household. Add their status periods in their card.`,
  personRemoved: (name: string) => `Removed ${name} from your household, with their status periods and stays.`,
  foreignTitle: "Accounts outside the US",
  foreignLead:
    "US residents report foreign bank and financial accounts (the FBAR, and Form 8938 above higher amounts). For each tax year, the highest combined balance of all your accounts outside the US at any time in the year.",
  foreignLabel: (year: number) => `Highest combined balance in ${year} (US dollars)`,
  foreignHint: "Leave it empty if you had no accounts outside the US.",
  foreignSaved: (year: number, cents: number | null) =>
    cents === null ? `Saved: no accounts outside the US in ${year}.` : `Saved your highest balance outside the US in ${year}.`,
  foreignNone: "Your filing years will be listed here once you start one.",
  aboutTitle: "About you",
  aboutLead: "A few facts that change which forms you need.",
  citizenshipHint: "As on your passport. If you have two, write both.",
  taxResidenceHint: "The country whose tax system counts you as its resident, often your home country.",
  itinLegend: "Your ITIN",
  itinHint:
    "Only if you have an ITIN: the tax number the IRS gives people who cannot get a Social Security number. An ITIN not used on a federal tax return for three years in a row stops working.",
  ficaLegend: "Was Social Security or Medicare tax withheld from your pay?",
  ficaHint:
    "See boxes 4 and 6 of your W-2. Many F-1 and J-1 students and scholars do not owe these taxes; if they were taken, we can help you ask for them back.",
  schoolLabel: "Your school or university",
  schoolHint: "Where you study or studied in the US.",
  sponsorLabel: "Your J-1 program sponsor",
  sponsorHint: "The organisation named on your DS-2019 form.",
  greenCardLabel: "I have applied for a green card or taken steps toward one",
  greenCardHint: "A green card is lawful permanent residence: for example, a form I-485 you sent, or a petition an employer or a relative filed for you.",
  aboutSaved: (what: string) => `Saved your ${what}.`,
  save: "Save",
  // What the server answers.
  noPerson: "This person is no longer in your history. The page now shows your history as it is.",
  noPeriod: "That status period is no longer in your history. The page now shows your history as it is.",
  noStay: "That stay is no longer in your history. The page now shows your history as it is.",
  spouseExists: "You have already added your spouse.",
  notYourself: "You cannot remove yourself from your history.",
  ownStaysClient: "Your own stays are always used for you.",
  allKnown: "These stays are already in your history: nothing was added.",
} as const;

/** The words of one voice: the client's keys, each a text or a function of the same arguments. */
export type HistoryTexts = {
  readonly [K in keyof typeof RESIDENCY_PAGE_TEXTS]: (typeof RESIDENCY_PAGE_TEXTS)[K] extends (...args: infer A) => infer R
    ? (...args: A) => R
    : string;
};

/**
 * Staff's page of the client `client` for the case of `taxYear` (its links keep the list the case
 * was opened from, `back`): the same forms, about the client in the third person. The foreign
 * accounts' words are the client's (staff set that fact on the Residency section).
 */
export function staffHistoryTexts(client: { id: string; name: string }, back?: string): HistoryTexts {
  const name = client.name.trim() || "The client";
  return {
    ...RESIDENCY_PAGE_TEXTS,
    title: `${name}'s visa and travel history`,
    lead: "The client's visa or status in the US, and the days spent here, decide whether US tax law treats them as a resident or a nonresident in each tax year, and so which return they file. The client edits the same history at My residency (/my-residency).",
    lead2: "Every change is checked field by field (nothing is saved when a field is refused), audited with who made it, and the residency of each of the client's cases is computed again.",
    back: "Back to the Residency section",
    residencyLine: "The residency was computed again; each tax year's is in its case's Residency section:",
    residencyNoYears: "The client has no case yet: a year's residency shows in its case's Residency section.",
    yearLink: (year: number) => ({ to: caseHref(client.id, year, back, "residency"), label: `Residency of the ${year} case` }),
    roleWords: (p: Pick<PersonInput, "role" | "relation">) => (p.role === "client" ? "Client" : p.role === "spouse" ? "Spouse" : STAFF_RELATION_WORDS[p.relation ?? "other"]),
    whose: (p: Pick<PersonInput, "name">) => `${p.name}'s`,
    periodsHint: "A status period is the time the person held one visa or status, such as F-1 student. Its last day is the last day they held it.",
    staysHint: "Each time they came to the US: the day they arrived and the day they left. Both days count as days in the US.",
    travelsWithYou: "Travels with the client: uses the client's stays",
    comesAndGoes: (who: string) => `Does ${who} come and go with the client? Their own stays above are then removed.`,
    useClientStays: "Use the client's stays instead",
    fromI94: "From the I-94",
    toHint: "Leave empty if they still hold this status.",
    departureHint: "Leave empty if they are still in the US.",
    programHint: "J-1 and Q-1 only: what they came to do.",
    i94Title: "Paste the client's I-94 travel history",
    i94LeadBefore: "The I-94 is the US government's record of the client's arrivals and departures. At",
    i94LeadAfter: ", “Get Travel History” with the client's passport details gives the table of dates to paste here.",
    i94Label: "The client's I-94 travel history",
    i94Hint: "The whole table: date, arrival or departure, and port. Nothing is saved until the stays read are added.",
    i94Empty: "Paste the travel history first.",
    i94Read: "Read the history",
    i94NothingRead: "No stay could be read from what was pasted. Check that it is the table of dates, or add the stays one by one.",
    i94ReadLead: (n: number) =>
      `${n === 1 ? "1 stay was" : `${n} stays were`} read from the history. Check ${n === 1 ? "it" : "them"}, then add ${n === 1 ? "it" : "them"} to the client's stays. Nothing is saved until then.`,
    i94WhatRead: "What was read",
    i94ReadList: "Stays read from the client's I-94 history",
    i94Unread: "Lines that could not be read",
    i94UnreadHint: "Fix these lines in the box above and read the history again, or add those stays one by one.",
    i94Bad: "The stays read could not be added. Read the history again.",
    i94Added: (stays: string) => `Added ${stays} from the I-94 travel history to ${name}'s stays.`,
    householdTitle: "The client's household",
    householdLead: "The spouse's and the dependants' visas and stays can change which return the client files and which forms go with it: the family who live with the client in the US.",
    householdList: "The people of the client's household",
    noHousehold: "No one added yet.",
    addSpouse: "Add the client's spouse",
    relationLabel: "Relation to the client",
    travelsWithMe: "Travels with the client",
    travelsWithMeHint: "Tick this if they came and left with the client: the client's stays are used for them.",
    travelsWithClient: "travels with the client",
    nowTravelsWithClient: (who: string) => `${who} now travels with the client and uses ${name}'s stays.`,
    spouseAdded: (who: string) => `Added ${name}'s spouse, ${who}. Add their status periods in their card.`,
    dependantAdded: (who: string) => `Added ${who} to ${name}'s household. Add their status periods in their card.`,
    personRemoved: (who: string) => `Removed ${who} from ${name}'s household, with their status periods and stays.`,
    aboutTitle: "About the client",
    aboutLead: "A few facts that change which forms the client needs.",
    citizenshipHint: "As on the client's passport; both when they have two.",
    taxResidenceHint: "The country whose tax system counts the client as its resident, often their home country.",
    itinLegend: "The client's ITIN",
    itinHint:
      "Only if the client has an ITIN: the tax number the IRS gives people who cannot get a Social Security number. An ITIN not used on a federal tax return for three years in a row stops working.",
    ficaLegend: "Was Social Security or Medicare tax withheld from the client's pay?",
    ficaHint: "Boxes 4 and 6 of the client's W-2. Many F-1 and J-1 students and scholars do not owe these taxes; the firm can help claim them back.",
    schoolLabel: "The client's school or university",
    schoolHint: "Where they study or studied in the US.",
    sponsorLabel: "The client's J-1 program sponsor",
    sponsorHint: "The organisation named on their DS-2019 form.",
    greenCardLabel: "The client has applied for a green card or taken steps toward one",
    greenCardHint: "A green card is lawful permanent residence: for example, a form I-485 they sent, or a petition an employer or a relative filed for them.",
    aboutSaved: (what: string) => `Saved ${name}'s ${what}.`,
    noPerson: "This person is no longer in the client's history. The page now shows the history as it is.",
    noPeriod: "That status period is no longer in the client's history. The page now shows the history as it is.",
    noStay: "That stay is no longer in the client's history. The page now shows the history as it is.",
    spouseExists: "The client's spouse is already in the history.",
    notYourself: "The client cannot be removed from their own history.",
    ownStaysClient: "The client's own stays are always used for them.",
    allKnown: "These stays are already in the client's history: nothing was added.",
  };
}
