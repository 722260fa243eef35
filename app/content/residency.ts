/**
 * Texts of the residency calculator (/tools/residency-calculator). The rules and their messages
 * live in domain/residency.ts; this module holds what the page says around them.
 *
 * Rules for this text: plain English, one-line explanations of terms, no promised outcomes, and
 * always the reminder that this is guidance, not tax advice.
 */
import type { ExcludedKind, ResidencyNote, VisaCategory } from "~/domain/residency";
import type { RichText } from "./service-details";

/** Where each result leads: the 1040 page covers both Form 1040 and Form 1040-NR returns. */
export const RETURNS_SERVICE_PATH = "/services/1040-returns";

export const residencyPage = {
  seo: {
    title: "Tax residency calculator: the substantial presence test",
    description:
      "Resident or nonresident alien for US tax purposes? Check the substantial presence test with your days in the US and your visa, see the arithmetic, and find out whether you file Form 1040 or 1040-NR.",
  },
  overline: "Free tool",
  title: "Resident or nonresident for tax purposes?",
  lead: "Your answer decides which federal return you file: Form 1040 for residents, Form 1040-NR for nonresidents. Enter your days in the US and your visa status, and we show the result of the IRS tests, with the arithmetic.",
  definition: {
    term: "Resident alien for tax purposes",
    meaning:
      "someone who is not a US citizen but is taxed like one. It is a tax status, not an immigration status.",
  },
  privacy: "Your answers are not stored. Please do not enter your name, SSN or passport number here.",
} as const;

export const residencyForm = {
  title: "Your answers",
  yearSection: "Which year?",
  taxYearLabel: "Tax year to check",
  taxYearHint: "The year your return is for. The calculator also asks about the two years before it.",
  statusSection: "Your visa status",
  categoryLegend: "Which describes you in the year you are checking and the two years before it?",
  statusYearsTitle: "Your years as a student, teacher or trainee",
  statusYearsIntro:
    "List every calendar year you were in the US in that status, also years before the three above. Any part of a year counts as a whole year.",
  studentYearsLabel: "Calendar years as a student (F, J, M or Q visa)",
  teacherYearsLabel: "Calendar years as a teacher, researcher or trainee (J or Q visa)",
  yearsHint: "For example 2021-2023, 2025. Leave empty if none.",
  statusChangeSummary: "Did your status change during one of these years?",
  statusChangeText:
    "Days in a status that is not exempt count, even in a year you were also a student, teacher or trainee. For example, if you changed from F-1 to H-1B on October 1, enter the days from October 1.",
  otherStatusLabel: "Days in another status",
  daysSection: "Your days in the US",
  daysIntro:
    "Count every day you were in the US, even part of a day. Your passport stamps or the I-94 travel history on the CBP website help you count.",
  presentLabel: "Days in the US",
  excludedSummary: "Days that don't count",
  excludedIntro: "Leave these empty unless they apply to you. Each day belongs in one line only.",
  submit: "Check my status",
  submitting: "Checking...",
  sendFailed: "Your answers could not be checked just now. Please check your connection and try again.",
  errorSummaryTitle: "Please check your answers",
} as const;

/** The three years, named relative to the one checked (the page adds the calendar year when it can). */
export const yearNames = ["The year you are checking", "The year before", "Two years before"] as const;

export const excludedLabels: Record<ExcludedKind, string> = {
  commuting: "Days commuting to work from a home in Canada or Mexico",
  transit: "Days in transit between two places outside the US, for less than 24 hours",
  crew: "Days as a crew member of a foreign vessel",
  medical: "Days you could not leave because of a medical condition that arose in the US",
};

/** Short names for the breakdown under the arithmetic (the reasons above it say more). */
export const excludedShortLabels: Record<ExcludedKind, string> = {
  commuting: "commuting",
  transit: "in transit",
  crew: "ship's crew",
  medical: "medical",
};

export const categoryOptions: readonly { value: VisaCategory; label: string; description: string }[] = [
  {
    value: "not-exempt",
    label: "Not a student, teacher or trainee",
    description: "For example H-1B, L-1, O-1, E, TN, a visitor visa, or no visa. All your days in the US count.",
  },
  {
    value: "student",
    label: "Student on an F, J, M or Q visa",
    description:
      "Also a spouse or child in F-2, J-2 or M-2 status. Students are usually exempt for their first 5 calendar years in the US.",
  },
  {
    value: "teacher",
    label: "Teacher, researcher or trainee on a J or Q visa",
    description:
      "For example a J-1 scholar, researcher, physician or au pair, and their J-2 family. Usually exempt for their first 2 calendar years.",
  },
  {
    value: "green-card",
    label: "Green card holder (lawful permanent resident)",
    description: "At any time in the year you are checking.",
  },
];

export const residencyResultText = {
  heading: (year: number, status: "resident" | "nonresident") => `Your result for ${year}: ${statusPhrase(status)}`,
  verdict: (year: number, status: "resident" | "nonresident") =>
    `Based on your answers, you are a ${statusPhrase(status)} for ${year}.`,
  form: (form: "1040" | "1040-NR") =>
    form === "1040"
      ? "Residents file Form 1040 and report income from anywhere in the world."
      : "Nonresidents file Form 1040-NR and report mainly income from US sources.",
  reasonsTitle: "Why",
  tableCaption: (year: number) => `The substantial presence test for ${year}`,
  columns: {
    year: "Year",
    present: "Days in the US",
    notCounted: "Days that don't count",
    counted: "Days that count",
    share: "Share counted",
    term: "Days for the test",
  },
  shares: ["all", "one third", "one sixth"] as const,
  total: "Total",
  needed: (year: number, total: number, minimum: number) =>
    `Needed: at least ${total} in total, and at least ${minimum} days in ${year} that count.`,
  exactNote: "Each year is divided exactly; the figures are rounded to two decimals only for display.",
  exemptDays: "exempt",
  notesTitle: "What else to know",
  disclaimerTitle: "Guidance, not tax advice",
  disclaimer:
    "This calculator applies the IRS rules in Publication 519 to the answers you gave. It does not cover every case, for example diplomats and staff of international organizations (A and G visas), tax treaty tie-breaker rules, or the year you leave the US. Before you file, have a professional check your situation.",
  returnLink: (form: "1040" | "1040-NR") => `Get help with your Form ${form}`,
  contactLink: "Ask a tax professional",
  changeAnswers: "You can change your answers below and check again.",
} as const;

export function statusPhrase(status: "resident" | "nonresident"): string {
  return status === "resident" ? "resident alien for tax purposes" : "nonresident alien for tax purposes";
}

const contactUs = { text: "talk to us", href: "/contact" } as const;

/** The notes that can follow a result; `year` is the year checked. */
export function residencyNote(note: ResidencyNote, year: number): { title: string; text: RichText } {
  switch (note) {
    case "form-8843":
      return {
        title: "File Form 8843",
        text: `Form 8843 tells the IRS why some of your days in ${year} do not count: as a student, teacher or trainee, or because of a medical condition. Attach it to your ${year} return, or send it on its own if you have no return to file. Your spouse and children in F-2, J-2 or M-2 status each file their own.`,
      };
    case "closer-connection":
      return {
        title: "You may still be a nonresident: the closer connection exception",
        text: `You were in the US fewer than 183 days in ${year} that count. If your tax home was in another country for all of ${year}, and your ties to that country were closer than your ties to the US, you can be treated as a nonresident. You claim this on Form 8840, filed with your return. It is not available if you applied for a green card or took steps to apply.`,
      };
    case "first-year-choice":
      return {
        title: "The first-year choice",
        text: `If you meet the substantial presence test for ${year + 1}, you may be able to choose to be a resident for part of ${year}. You need at least 31 days in a row in the US in ${year}, and to be in the US on at least 75% of the days from the first of those 31 days to December 31, ${year}. You cannot have been a resident in ${year - 1}. The choice is made on your ${year} return once you meet the test for ${year + 1}, which often means filing for an extension first.`,
      };
    case "green-card":
      return {
        title: "The green card test",
        text: `A green card makes you a resident for tax purposes, whatever your days in the US. If you received it during ${year} and were not a resident before, ${year} may be a dual-status year: nonresident before the first day you were in the US with it, resident from that day. You stay a resident for tax purposes until the green card is formally given up or ends, even while you live abroad.`,
      };
    case "dual-status":
      return {
        title: "The year you arrive can be dual-status",
        text: `If you were not a resident in ${year - 1}, your residency for ${year} usually starts on your first day in the US in ${year} that counts. If that day is after January 1, you were a nonresident before it, so ${year} is a dual-status year, with its own rules for the return.`,
      };
    case "student-beyond-five-years":
      return {
        title: "Students after 5 calendar years",
        text: [
          "A student can remain exempt after 5 calendar years by showing the IRS that they do not intend to live in the US permanently and have kept to the terms of their visa. This is explained on Form 8843. If it may apply to you, ",
          contactUs,
          " before you file.",
        ],
      };
    case "teacher-foreign-employer":
      return {
        title: "Teachers and trainees paid from abroad",
        text: [
          "A teacher or trainee whose pay all comes from a foreign employer can stay exempt for longer than this calculator assumes. If that is your case, ",
          contactUs,
          " before you file.",
        ],
      };
  }
}

/** The side panel: the rules in short. */
export const residencyRules = {
  title: "How the test works",
  intro: "You are a resident alien for tax purposes for a year if you pass either test:",
  tests: [
    {
      name: "The green card test",
      text: "You were a lawful permanent resident (green card holder) at any time in the year.",
    },
    {
      name: "The substantial presence test",
      text: "You were in the US at least 31 days in the year, and at least 183 days counting all days in the year, one third of the days in the year before and one sixth of the days two years before.",
    },
  ],
  example:
    "Example: 120 days in each of three years counts as 120 + 40 + 20 = 180 days. That is fewer than 183, so the test is not met.",
  exemptTitle: "Days that don't count",
  exempt: [
    "Days as an exempt individual: usually a student's first 5 calendar years, or a teacher's or trainee's first 2",
    "Days commuting to work from a home in Canada or Mexico",
    "Days in transit between two places outside the US, for less than 24 hours",
    "Days as a crew member of a foreign vessel",
    "Days you could not leave because of a medical condition that arose in the US",
  ],
  source: "Source: IRS Publication 519, U.S. Tax Guide for Aliens.",
} as const;
