/**
 * The checklists staff start a case's "What we need from you" list from: one per service and,
 * for returns, per visa situation. Each item says in one line exactly what the client should
 * send, and names the document category its uploads are filed under (domain/documents.ts).
 * Staff add the template's items to a case and then anything else as free text; a template
 * added twice adds only the items whose title is not on the list yet.
 *
 * The facts here must be right (docs/product/public-site.md#tax-facts): where a form, a box or an
 * office is named, it is the one the IRS, FinCEN or CBP uses.
 */
import type { VisaStatus } from "~/domain/auth";
import type { DocumentCategoryKey } from "~/domain/documents";
import type { VisaType } from "~/domain/taxpayer";
import type { services } from "./services";

export type ServiceId = (typeof services)[number]["id"];

export type TemplateItem = {
  /** What the client sees as the item's name (at most 200 characters). */
  title: string;
  /** One line: exactly what to send. */
  detail: string;
  /** Where uploads against the item are filed. */
  category: DocumentCategoryKey;
};

export type RequestTemplate = {
  /** Stable key: stored on each item it adds (document_requests.template). */
  id: string;
  service: ServiceId;
  /** The name staff choose it by. */
  label: string;
  /** The visas (sign-up profile) this template suits: it is offered first for such a client. */
  visas: readonly VisaStatus[];
  /** The same, as the year's taxpayer information names the visa. */
  visaTypes: readonly VisaType[];
  items: readonly TemplateItem[];
};

const I94_SITE = "i94.cbp.dhs.gov";

export const REQUEST_TEMPLATES = [
  {
    id: "1040nr-student",
    service: "1040-1040nr",
    label: "1040-NR: F-1 or J-1 student or scholar",
    visas: ["F-1", "J-1"],
    visaTypes: ["F1-OPT", "F1-CPT", "J", "M", "Q"],
    items: [
      {
        title: "Form W-2",
        detail: "Every W-2 for the year from each US employer, including on-campus jobs and OPT or CPT employers.",
        category: "w-2",
      },
      {
        title: "Form 1042-S",
        detail:
          "Each 1042-S you received (for a scholarship, a fellowship or wages exempt under a tax treaty), usually from your school's payroll office.",
        category: "1042-s",
      },
      {
        title: "1099 forms, if any",
        detail:
          "Any 1099-INT (bank interest), 1099-B (sales of shares), 1099-MISC or 1099-NEC you received. If you received none, answer that it doesn't apply.",
        category: "1099-forms",
      },
      {
        title: "Form I-20 or DS-2019",
        detail:
          "All pages of each I-20 (F-1) or DS-2019 (J-1) that covered any part of the year, including the page with the travel signature.",
        category: "passport-visa",
      },
      {
        title: "Passport",
        detail: "The photo page of your current passport.",
        category: "passport-visa",
      },
      {
        title: "US visa",
        detail: "The passport page with your current US visa stamp.",
        category: "passport-visa",
      },
      {
        title: "I-94 travel history",
        detail: `Your most recent I-94 and your travel history, both downloaded from ${I94_SITE}.`,
        category: "passport-visa",
      },
      {
        title: "Prior US tax returns",
        detail:
          "Your federal returns (1040-NR or 1040) and Forms 8843 from earlier years in the US, if you filed any.",
        category: "prior-us-returns",
      },
      {
        title: "Form 8843: your days in the US",
        detail:
          "The dates you entered and left the US in this year and each earlier year, with the visa you held each time (a list in a PDF or Word file is fine).",
        category: "other-documents",
      },
      {
        title: "Form 8843: your school and program director",
        detail:
          "The name, address and phone number of your school, and of your program's director (your DSO for F-1, your Responsible Officer for J-1).",
        category: "other-documents",
      },
    ],
  },
  {
    id: "1040-worker",
    service: "1040-1040nr",
    label: "1040 or 1040-NR: H-1B or L-1 worker",
    visas: ["H-1B", "L-1"],
    visaTypes: ["H1-A", "H1-B", "H-4", "L1-A", "L1-B", "L-2"],
    items: [
      {
        title: "Form W-2 from each employer",
        detail: "Every W-2 for the year from each employer you worked for, including one you left during the year.",
        category: "w-2",
      },
      {
        title: "Form 1099-INT",
        detail: "Each 1099-INT for interest from US bank, savings and deposit accounts.",
        category: "1099-forms",
      },
      {
        title: "Form 1099-DIV",
        detail: "Each 1099-DIV for dividends from US brokerage accounts and funds.",
        category: "1099-forms",
      },
      {
        title: "Form 1099-B",
        detail: "Each 1099-B (or your broker's consolidated 1099) for shares or funds you sold, with the cost basis.",
        category: "1099-forms",
      },
      {
        title: "Health coverage forms (1095)",
        detail:
          "Form 1095-A if you bought insurance through HealthCare.gov or a state marketplace; any 1095-B or 1095-C you received.",
        category: "other-documents",
      },
      {
        title: "Passport, visa and I-94",
        detail: `Your passport photo page, the page with your US visa stamp, your I-797 approval notice and your I-94 travel history from ${I94_SITE}.`,
        category: "passport-visa",
      },
      {
        title: "Last year's tax return",
        detail: "Your complete federal and state returns for the previous year, as filed.",
        category: "prior-us-returns",
      },
      {
        title: "Dependents' documents",
        detail:
          "For your spouse and each child: passport photo page, date of birth, SSN or ITIN if they have one, and the months they lived with you in the US.",
        category: "passport-visa",
      },
    ],
  },
  {
    id: "1040-resident",
    service: "1040-1040nr",
    label: "1040: resident or green card holder",
    visas: ["Green Card"],
    visaTypes: ["Green Card", "US Citizen"],
    items: [
      {
        title: "Form W-2",
        detail: "Every W-2 for the year from each employer you worked for.",
        category: "w-2",
      },
      {
        title: "1099 forms",
        detail:
          "Every 1099 you received: for example 1099-INT, 1099-DIV, 1099-B, 1099-NEC, 1099-MISC, 1099-R (pensions) and 1099-G (unemployment, state refunds).",
        category: "1099-forms",
      },
      {
        title: "Form 1098: mortgage interest",
        detail: "Form 1098 from your mortgage lender, and your property tax bills paid in the year, if you own a home.",
        category: "other-documents",
      },
      {
        title: "Form 1098-E: student loan interest",
        detail: "Form 1098-E from your student loan servicer, if you paid interest on a student loan.",
        category: "other-documents",
      },
      {
        title: "Last year's tax return",
        detail: "Your complete federal and state returns for the previous year, as filed.",
        category: "prior-us-returns",
      },
      {
        title: "Income from outside the US",
        detail:
          "Statements of income earned abroad (salary, interest, rent, pensions) and of any foreign tax paid on it: US residents report their worldwide income.",
        category: "bank-statements",
      },
      {
        title: "Green card",
        detail: "Both sides of your green card (Form I-551), if you hold one.",
        category: "passport-visa",
      },
    ],
  },
  {
    id: "itin-w7",
    service: "itin",
    label: "ITIN application (Form W-7)",
    visas: [],
    visaTypes: [],
    items: [
      {
        title: "Passport",
        detail:
          "A scan of every page now; the IRS then needs the original or a copy certified by the office that issued it (notarized copies are not accepted).",
        category: "passport-visa",
      },
      {
        title: "Tax return or exception documents",
        detail:
          "The income forms for the return the W-7 goes with, or, if you apply under an exception, the letter it requires (for example from your bank or school).",
        category: "other-documents",
      },
      {
        title: "US visa",
        detail: "The passport page with your US visa stamp, if you have one.",
        category: "passport-visa",
      },
      {
        title: "US entry record",
        detail: `The passport page with your US entry stamp, or your I-94 record from ${I94_SITE}.`,
        category: "passport-visa",
      },
    ],
  },
  {
    id: "fbar-fatca",
    service: "fbar-fatca",
    label: "FBAR and FATCA (Form 8938)",
    visas: ["Green Card", "H-1B", "L-1"],
    visaTypes: ["Green Card", "US Citizen", "H1-B", "L1-A", "L1-B"],
    items: [
      {
        title: "Foreign accounts: bank and account number",
        detail:
          "For each account outside the US held at any time in the year, even if closed: the institution's name and full address, the account number and its type.",
        category: "bank-statements",
      },
      {
        title: "Foreign accounts: highest balance",
        detail:
          "For each account, the highest balance during the calendar year in its own currency, with the statements that show it.",
        category: "bank-statements",
      },
      {
        title: "Joint and signature-only accounts",
        detail:
          "For an account you hold with someone else, or may sign on without owning: the other owner's name and address.",
        category: "bank-statements",
      },
      {
        title: "Other foreign assets (FATCA)",
        detail:
          "Foreign shares, mutual funds, pension or insurance policies with a cash value: their highest value in the year and their value on December 31.",
        category: "investment-proofs",
      },
    ],
  },
  {
    id: "fica-refund",
    service: "fica-refund",
    label: "FICA refund: F-1 or J-1 taxes withheld by mistake",
    visas: ["F-1", "J-1"],
    visaTypes: ["F1-OPT", "F1-CPT", "J", "M", "Q"],
    items: [
      {
        title: "Form W-2",
        detail: "The W-2 that shows the Social Security tax (box 4) and Medicare tax (box 6) withheld.",
        category: "w-2",
      },
      {
        title: "Pay stubs",
        detail: "Pay stubs that show Social Security and Medicare tax taken from your pay, including the last one of the year.",
        category: "other-documents",
      },
      {
        title: "Form I-20 or DS-2019",
        detail: "All pages of each I-20 or DS-2019 that covered the time you worked.",
        category: "passport-visa",
      },
      {
        title: "I-94 record",
        detail: `Your most recent I-94 and your travel history from ${I94_SITE}.`,
        category: "passport-visa",
      },
      {
        title: "US visa and work permit",
        detail: "The passport page with your US visa stamp, and both sides of your EAD card if you worked on OPT.",
        category: "passport-visa",
      },
      {
        title: "Employer's refusal letter",
        detail:
          "Your employer's letter saying it will not refund the tax. If you have none, answer that you can't get it: we then prepare Form 8316 instead.",
        category: "other-documents",
      },
      {
        title: "Form 843 details",
        detail:
          "Your current address and phone number, the employer's name and EIN (box b of the W-2), and the dates you worked there.",
        category: "other-documents",
      },
    ],
  },
  {
    id: "form-4868",
    service: "form-4868",
    label: "Form 4868 extension",
    visas: [],
    visaTypes: [],
    items: [
      {
        title: "Estimate of this year's income",
        detail:
          "The income forms you have so far (W-2, 1099, 1042-S), or your best estimate of wages and other income for those that have not come.",
        category: "other-documents",
      },
      {
        title: "Tax payments made",
        detail:
          "Tax already paid for the year: withholding on your W-2s and 1099s, and any estimated tax payments (Form 1040-ES) with their dates.",
        category: "other-documents",
      },
      {
        title: "Last year's tax return",
        detail: "Your federal return for the previous year, as filed: it helps us estimate what you may owe.",
        category: "prior-us-returns",
      },
    ],
  },
  {
    id: "tax-planning",
    service: "tax-planning",
    label: "Tax planning",
    visas: [],
    visaTypes: [],
    items: [
      {
        title: "Last year's tax return",
        detail: "Your complete federal and state returns for the previous year, as filed.",
        category: "prior-us-returns",
      },
      {
        title: "Pay so far this year",
        detail: "Your most recent pay stub from each job, showing the year-to-date pay and tax withheld.",
        category: "w-2",
      },
      {
        title: "Investment and retirement accounts",
        detail: "The latest statements of your brokerage, 401(k), IRA and HSA accounts.",
        category: "investment-proofs",
      },
      {
        title: "Income from outside the US",
        detail: "Salary, interest, rent or gains you receive or expect from outside the US this year, and from which country.",
        category: "bank-statements",
      },
      {
        title: "Changes you are planning",
        detail:
          "Dates of any move to or from the US, visa or green card change, marriage, home purchase or new business, this year or next.",
        category: "other-documents",
      },
    ],
  },
] as const satisfies readonly RequestTemplate[];

export type RequestTemplateId = (typeof REQUEST_TEMPLATES)[number]["id"];

export function requestTemplate(id: string): RequestTemplate | undefined {
  return (REQUEST_TEMPLATES as readonly RequestTemplate[]).find((t) => t.id === id);
}

/**
 * The templates in the order staff are offered them: those that suit the client's visa first
 * (as the year's taxpayer information names it, or, when that names none a template suits, as
 * the sign-up profile does), then the others, each group in the list's own order.
 */
export function templatesFor(visa: { status?: string | null; type?: string | null }): {
  suggested: RequestTemplate[];
  others: RequestTemplate[];
} {
  const all = REQUEST_TEMPLATES as readonly RequestTemplate[];
  const byType = visa.type ? all.filter((t) => (t.visaTypes as readonly string[]).includes(visa.type!)) : [];
  const byStatus = visa.status ? all.filter((t) => (t.visas as readonly string[]).includes(visa.status!)) : [];
  const suggested = byType.length > 0 ? byType : byStatus;
  return { suggested, others: all.filter((t) => !suggested.includes(t)) };
}
