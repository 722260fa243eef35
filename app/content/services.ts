/**
 * The eight services of the /services accordion, with their prices
 * (docs/product/public-site.md#services-page). Each description says who needs the service and what
 * we do; none promises an outcome. Where a service has its own page (service-pages.ts), `page`
 * links to it.
 */
import { wholeDollars } from "./price-list";
import type { servicePages } from "./service-pages";

/** A fixed fee in whole dollars, or a price we quote after reviewing the case. */
export type ServicePrice = `$${number}` | "On quote";

export type ServicePagePath = (typeof servicePages)[number]["path"];

export type Service = {
  /** Stable id: the accordion item value and the page anchor (/services#fica-refund). */
  id: string;
  name: string;
  price: ServicePrice;
  /** Who needs it and what we do, in plain English. */
  description: string;
  /** What the fee includes. */
  features: readonly string[];
  /** The service's own page, when it has one. */
  page?: ServicePagePath;
};

export const services = [
  {
    id: "itin",
    name: "ITIN Processing",
    price: wholeDollars("itin"),
    description:
      "An ITIN is the US tax number for people who cannot get a Social Security number, such as the spouse or child of a visa holder, or a nonresident with US income to report. We check that you qualify, prepare Form W-7 and tell you exactly which identity documents to send and how.",
    features: [
      "Eligibility check before you apply",
      "Form W-7 prepared and reviewed",
      "The tax return or exception documents that must go with it",
      "Guidance on passport copies and certified documents",
      "Status follow-up with the IRS until the number arrives",
    ],
    page: "/services/itin-processing",
  },
  {
    id: "fbar-fatca",
    name: "FBAR & FATCA Filing",
    price: wholeDollars("fbar-fatca"),
    description:
      "US citizens, green card holders and residents for tax purposes must report foreign bank and financial accounts when their total was over $10,000 at any time in the year (FBAR), and some must also report foreign assets to the IRS (FATCA). We list your accounts, work out what must be reported and file the reports for you.",
    features: [
      "Review of your foreign accounts and assets",
      "FBAR (FinCEN Form 114) filed electronically",
      "FATCA Form 8938 with your return when it is required",
      "Conversion of foreign balances at the official year-end rates",
      "A record of what was filed, for your files",
    ],
    page: "/services/fbar-filing",
  },
  {
    id: "1040-1040nr",
    name: "1040 & 1040-NR Returns",
    price: wholeDollars("1040-1040nr"),
    description:
      "Your federal return depends on your residency for tax purposes, not only on your visa. Residents file Form 1040; nonresidents, including many F-1 and J-1 students in their first years, file Form 1040-NR. We work out which one applies to you, apply any tax treaty you qualify for and prepare and file the return.",
    features: [
      "Residency check (the substantial presence test and its exceptions)",
      "Tax treaty benefits applied where you qualify",
      "Form 8843 for students and scholars who need it",
      "Dual-status returns for the year you arrive or leave",
      "Draft for your review, then e-filing",
    ],
    page: "/services/1040-returns",
  },
  {
    id: "w4",
    name: "W-4 Assistance",
    price: wholeDollars("w4"),
    description:
      "Form W-4 tells your employer how much tax to hold back from each paycheck. New employees, people changing jobs or visa status, and nonresidents (who must follow special IRS rules on this form) often get it wrong. We look at your pay and your situation and fill in the form with you.",
    features: [
      "Review of your pay, other income and filing status",
      "Nonresident rules for Form W-4 (IRS Notice 1392) applied",
      "A completed Form W-4 to hand to your employer",
      "A check again after a raise, a second job or a marriage",
    ],
    page: "/services/w4-assistance",
  },
  {
    id: "form-4868",
    name: "Form 4868 Extension",
    price: wholeDollars("form-4868"),
    description:
      "If you cannot file your return by April 15, Form 4868 gives you until October 15 to file. It does not give you more time to pay: any tax you owe is still due on April 15. We estimate what you owe, file the extension on time and tell you how to pay.",
    features: [
      "Estimate of the tax you may owe",
      "Form 4868 filed electronically before the deadline",
      "Confirmation that the IRS accepted the extension",
      "Instructions to pay any tax due by April 15",
    ],
    page: "/services/form-4868-extension",
  },
  {
    id: "tax-planning",
    name: "Professional Tax Planning",
    price: wholeDollars("tax-planning"),
    description:
      "For people with income in more than one country, a move to or from the US, a change of visa status or a new green card. Many choices must be made before December 31 to count for the year. We review your situation, estimate your tax and give you a plan with dates.",
    features: [
      "One-to-one planning session with a tax professional",
      "Estimate of this year's US tax",
      "Residency and tax treaty planning around a move or status change",
      "A written action list with dates",
      "A follow-up review before the year ends",
    ],
    page: "/services/professional-tax-planning",
  },
  {
    id: "fica-refund",
    name: "FICA Refund Assistance",
    price: wholeDollars("fica-refund"),
    description:
      "Many nonresident students and scholars on F-1, J-1, M-1 or Q-1 visas do not owe Social Security and Medicare taxes (FICA), but employers sometimes withhold them by mistake. We check whether you are exempt, ask your employer to refund the tax and, if the employer does not, claim it from the IRS.",
    features: [
      "Check of your exemption from Social Security and Medicare tax",
      "Letter to your employer asking for the refund",
      "Form 843 and Form 8316 prepared for the IRS when needed",
      "List of the supporting documents to include",
    ],
  },
  {
    id: "international-forms",
    name: "International Forms",
    price: "On quote",
    description:
      "For people who receive gifts or inheritances from abroad, own shares in a foreign company, hold foreign mutual funds or have a foreign trust. These forms vary a lot in size. We tell you which forms apply, review your documents and give you a fixed quote before any work starts.",
    features: [
      "Form 3520 for foreign gifts, inheritances and trusts",
      "Form 5471 for shares in a foreign company",
      "Form 8621 for foreign mutual funds (PFICs)",
      "Form 1116 foreign tax credit and Form 2555 foreign earned income",
      "A fixed quote before we begin",
    ],
  },
] as const satisfies readonly Service[];


/** The fee of a fixed-price service in whole dollars (the service pages quote these as "from"). */
export function servicePriceDollars(id: (typeof services)[number]["id"]): number {
  const price = services.find((s) => s.id === id)?.price;
  if (!price || price === "On quote") throw new Error(`service ${id} has no fixed price`);
  return Number(price.slice(1));
}
