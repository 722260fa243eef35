/**
 * The content of the six service pages. Every page answers the same six questions
 * (docs/product/look-and-voice.md#voice): who needs this, what we do, what you provide, how long it
 * takes, what it costs, and what happens next. Year-dependent facts come from tax-facts.ts, with
 * the year they apply to.
 *
 * Rules for this text: plain English, short sentences, one-line explanations of jargon, and no
 * promised outcomes (no refund amounts, no approval, no IRS dates we do not control).
 */
import { dollarsOf } from "./price-list";
import { business } from "./business";
import { residencyTool } from "./tools";
import { servicePages } from "./service-pages";
import { servicePriceDollars } from "./services";
import { fatcaFacts, fbarFacts, formatUsd, returnDates, TAX_YEAR } from "./tax-facts";

/** A link inside running text: internal paths start with "/", anything else opens the outside site. */
export type InlineLink = { text: string; href: string };
/** A paragraph or list item: plain text, or text pieces and links. */
export type RichText = string | readonly (string | InlineLink)[];

export type ServiceSlug = (typeof servicePages)[number]["slug"];

/** A titled block of text: paragraphs, then an optional list, then optional closing paragraphs. */
export type TextBlock = {
  title: string;
  paragraphs?: readonly RichText[];
  items?: readonly RichText[];
  after?: readonly RichText[];
};

export type FactTable = {
  caption: string;
  headers: readonly [string, string, string];
  rows: readonly (readonly [string, string, string])[];
};

/** A highlighted block placed after "Who needs this": rules, penalties, thresholds. */
export type Callout = TextBlock & { id: string; tone: "info" | "warning"; table?: FactTable };

export type KeyFact = { label: string; value: string };

export type NextStep = { title: string; text: RichText };

/** A one-line explanation of a term the reader may not know. */
export type Definition = { term: string; meaning: string };

type CommonDetail = {
  slug: ServiceSlug;
  /** The page's h1 (the service's name from service-pages.ts). */
  name: string;
  path: string;
  /** Small label above the h1, usually the form numbers. */
  overline: string;
  seo: { title: string; description: string };
  lead: string;
  definitions: readonly Definition[];
  /** Prefilled text of the WhatsApp chat link; names the service. */
  whatsappText: string;
  next: readonly NextStep[];
};

export type StandardServiceDetail = CommonDetail & {
  kind: "standard";
  keyFacts: {
    title: string;
    /** Which year the facts apply to, shown with them. */ appliesTo: string;
    facts: readonly KeyFact[];
  };
  who: TextBlock;
  callouts: readonly Callout[];
  whatWeDo: TextBlock;
  provide: TextBlock;
  timing: TextBlock;
  cost: { from: number; unit: string; includes: readonly string[]; note: RichText };
};

export type ItinPlan = {
  name: string;
  price: number;
  unit: string;
  time: string;
  popular: boolean;
  features: readonly string[];
};

export type ItinStep = { title: string; text: string };

export type ItinServiceDetail = CommonDetail & {
  kind: "itin";
  /** The one-line explanation the page leads with. */
  oneLine: string;
  who: TextBlock;
  whatWeDo: TextBlock;
  provide: TextBlock;
  documentOptions: TextBlock;
  steps: readonly ItinStep[];
  timing: TextBlock;
  plans: readonly ItinPlan[];
  pricingNote: readonly RichText[];
};

export type ServiceDetail = StandardServiceDetail | ItinServiceDetail;

/** The six questions every service page answers, as its section headings. */
export const serviceQuestions = {
  who: "Who needs this",
  whatWeDo: "What we do",
  provide: "What you provide",
  timing: "How long it takes",
  cost: "What it costs",
  next: "What happens next",
} as const;

/** The free first consultation (the pricing page's Basic Consultation). */
export const freeConsultation = "The first consultation (30 minutes) is free.";

function page(slug: ServiceSlug) {
  const found = servicePages.find((s) => s.slug === slug);
  if (!found) throw new Error(`Unknown service page: ${slug}`);
  return { slug: found.slug, name: found.name, path: found.path };
}

function chatText(service: string): string {
  return `Hello ${business.name}, I would like help with ${service}.`;
}

const contactLink: InlineLink = { text: "contact us", href: "/contact" };

// ---------------------------------------------------------------------------------------------
// ITIN Processing
// ---------------------------------------------------------------------------------------------

const itin: ItinServiceDetail = {
  kind: "itin",
  ...page("itin-processing"),
  overline: "Form W-7",
  seo: {
    title: "ITIN Processing (Form W-7)",
    description:
      "ITIN: the tax number for people who cannot get an SSN. We review your documents and prepare Form W-7. Standard Processing $199, Expedited Processing $299, per application.",
  },
  oneLine: "ITIN: the tax number for people who cannot get an SSN.",
  lead: "An Individual Taxpayer Identification Number (ITIN) is a nine-digit number the IRS gives to people who must file, or be listed on, a US tax return but cannot get a Social Security number (SSN). You apply on Form W-7. We review your documents and prepare the application with you.",
  definitions: [
    { term: "ITIN", meaning: "the tax number for people who cannot get an SSN." },
    {
      term: "Form W-7",
      meaning: "the IRS application for an ITIN, usually sent together with your federal tax return.",
    },
    {
      term: "Certified copy",
      meaning:
        "a copy certified by the agency that issued the document, such as your passport office. A notary's stamp is not enough.",
    },
  ],
  who: {
    title: serviceQuestions.who,
    paragraphs: [
      "You need an ITIN if you have a US tax reason to be on a return and you are not eligible for an SSN. Common cases:",
    ],
    items: [
      "Spouses on a dependent visa, such as H-4, who are not eligible for an SSN and are named on a joint return",
      "Children and other dependents who are not eligible for an SSN, when they qualify you for a tax benefit on your return",
      "Nonresident aliens who must file a US return, for example to report US income or to claim back tax that was withheld",
      "Nonresident aliens claiming a tax treaty benefit, and foreign owners of US property or investments",
      "People whose ITIN has expired and who need it on a return this year (a renewal also uses Form W-7)",
    ],
  },
  whatWeDo: {
    title: serviceQuestions.whatWeDo,
    items: [
      "Check that an ITIN is right for you. If you can get an SSN, you must get an SSN instead.",
      "Review your identity documents against the IRS's list before anything is sent.",
      "Prepare Form W-7 with you, together with the tax return it usually goes with, or the papers that show you qualify for an exception.",
      "Explain the ways to submit your documents, so you choose how your passport is handled.",
      "Follow the application and tell you when the IRS answers or asks for more.",
    ],
    after: [
      "An ITIN is for tax use only. It does not give permission to work in the US and does not change your immigration status.",
    ],
  },
  provide: {
    title: serviceQuestions.provide,
    items: [
      "A valid passport: the only document that proves both who you are and your foreign status on its own.",
      "Without a passport: at least two documents from the IRS list that together prove who you are and your foreign status, such as a national identity card and a birth certificate. One must have your photo, except for young dependents.",
      "Originals, or copies certified by the agency that issued them. Notarized copies and ordinary photocopies are not accepted.",
      "For dependents: proof that they live in the US, such as school or medical records, unless their passport shows a date of entry into the US (some exceptions apply).",
      "Your tax return information, or the documents that show why you qualify for an exception to filing a return with Form W-7.",
    ],
  },
  documentOptions: {
    title: "Your passport does not have to leave your hands",
    paragraphs: [
      "You can mail original documents to the IRS with your application; the IRS returns them by mail, which can take 60 days or more. You can send certified copies instead. Or you can have your documents checked in person, by appointment at an IRS Taxpayer Assistance Center or by a Certifying Acceptance Agent, who returns them to you at once. We explain each route and help you choose.",
    ],
  },
  steps: [
    {
      title: "Document Review",
      text: "We check your documents against the IRS's rules: which ones you need, originals or certified copies, expiry dates, and what dependents must add. Problems found here save weeks later.",
    },
    {
      title: "Application Preparation",
      text: "We prepare Form W-7 with you, with the tax return it goes with or the papers for an exception. You review everything and sign.",
    },
    {
      title: "IRS Submission",
      text: "Your application goes to the IRS by the route you chose: by mail to the IRS ITIN Operation in Austin, Texas, or in person at an IRS Taxpayer Assistance Center or with a Certifying Acceptance Agent.",
    },
    {
      title: "Status Tracking",
      text: "We follow the application until the IRS answers. The IRS sends your ITIN by letter (notice CP565). If it asks for more information, we explain what it needs and help you reply.",
    },
  ],
  timing: {
    title: serviceQuestions.timing,
    paragraphs: [
      "Standard Processing usually takes 6-10 weeks and Expedited Processing 2-4 weeks, counted from the day your documents are complete. The IRS sets its own processing times: they are longer from mid-January to the end of April and for applications sent from abroad. We cannot speed up the IRS or promise a date.",
    ],
  },
  plans: [
    {
      name: "Standard Processing",
      price: dollarsOf("itin-standard"),
      unit: "per application",
      time: "6-10 weeks",
      popular: false,
      features: [
        "Document review against the IRS's rules",
        "Form W-7 prepared with you",
        "Guidance on how to submit your documents",
        "Status tracking until the IRS answers",
      ],
    },
    {
      name: "Expedited Processing",
      price: dollarsOf("itin-expedited"),
      unit: "per application",
      time: "2-4 weeks",
      popular: true,
      features: [
        "Everything in Standard Processing",
        "Priority handling: your file is reviewed and prepared first",
        "Help arranging an in-person document check, so your passport stays with you",
        "Weekly status updates",
      ],
    },
  ],
  pricingNote: [
    "Prices are per application: one for each person who needs an ITIN. We confirm your fee in writing before we start.",
    "Times are typical, not a promise: the IRS decides when and whether to issue an ITIN.",
    [
      "If you also need the tax return that goes with your application, see ",
      { text: "1040 & 1040-NR Returns", href: "/services/1040-returns" },
      " or the ",
      { text: "pricing page", href: "/pricing" },
      ".",
    ],
  ],
  whatsappText: chatText("ITIN Processing (Form W-7)"),
  next: [
    {
      title: "Talk to us",
      text: `Call or message us. ${freeConsultation} We confirm that an ITIN is right for you and which plan fits.`,
    },
    {
      title: "Create your account",
      text: [
        { text: "Sign up", href: "/signup" },
        " and fill in your taxpayer information, so we have your details in one safe place.",
      ],
    },
    {
      title: "Send your documents for review",
      text: "We tell you how to share your documents securely and check them before anything goes to the IRS.",
    },
    {
      title: "We prepare, you sign, we track",
      text: "We prepare Form W-7, you review and sign it, it goes to the IRS, and we keep you informed until the IRS answers.",
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// FBAR & FATCA Filing
// ---------------------------------------------------------------------------------------------

const fbarThreshold = formatUsd(fbarFacts.threshold);

const fbar: StandardServiceDetail = {
  kind: "standard",
  ...page("fbar-filing"),
  overline: "FinCEN Form 114 and IRS Form 8938",
  seo: {
    title: "FBAR & FATCA Filing",
    description: `Report foreign bank accounts (FBAR) and foreign assets (FATCA Form 8938). FBAR is required when your foreign accounts total more than ${fbarThreshold} at any time in the year. From $200.`,
  },
  lead: "If you are a US person with bank or investment accounts outside the United States, you may have to report them every year, even when they earn nothing and you owe no tax on them. We work out what you must report, prepare it, and file it with your approval.",
  definitions: [
    {
      term: "FBAR",
      meaning:
        "the yearly Report of Foreign Bank and Financial Accounts (FinCEN Form 114), filed online with the US Treasury, not with your tax return.",
    },
    {
      term: "FATCA (Form 8938)",
      meaning:
        "a separate statement of foreign financial assets, filed with your income tax return when your assets pass higher thresholds.",
    },
    {
      term: "US person",
      meaning:
        "a US citizen, a green card holder, or anyone who is a resident for tax purposes (for example, by passing the substantial presence test).",
    },
  ],
  keyFacts: {
    title: "Key dates and thresholds",
    appliesTo: `For calendar year ${fbarFacts.calendarYear} (tax year ${TAX_YEAR})`,
    facts: [
      { label: "FBAR threshold", value: `More than ${fbarThreshold} in total, at any time in the year` },
      { label: "FBAR due date", value: fbarFacts.dueDate },
      { label: "Automatic extension", value: `${fbarFacts.extendedDueDate}, no request needed` },
      { label: "Form 8938", value: "Filed with your return; thresholds start above $50,000" },
    ],
  },
  who: {
    title: serviceQuestions.who,
    paragraphs: [
      `You must file an FBAR if you are a US person and the total value of all your foreign financial accounts was more than ${fbarThreshold} at any time during calendar year ${fbarFacts.calendarYear}. Add up the highest balance of each account: three accounts that each reached $4,000 make $12,000, so you must file, even though no single account passed ${fbarThreshold}.`,
    ],
    items: [
      "H-1B, L-1 and other visa holders who are residents for tax purposes and keep savings, fixed deposits or investments in their home country",
      "Green card holders and US citizens, whether they live in the US or abroad",
      "F-1 and J-1 visa holders once they become residents for tax purposes (students usually after five calendar years in the US)",
      "Anyone who can sign on a foreign account, such as a parent's account, even if the money is not theirs; joint accounts count in full for each owner",
    ],
  },
  callouts: [
    {
      id: "fbar-penalties",
      tone: "warning",
      title: "Penalties for not filing",
      paragraphs: [
        "Non-willful penalties (for a mistake, not a deliberate choice) can exceed $10,000 per report, and the maximum rises with inflation each year. Since the Supreme Court's decision in Bittner v. United States (2023), this penalty applies per report, not per account.",
        "Willful penalties (for a deliberate failure) can reach 50% of the account balance, or a larger fixed amount, whichever is greater. Criminal penalties are also possible.",
        "The IRS has procedures for people who missed filings without meaning to. Talk to us before you file for past years, so we can choose the right one with you.",
      ],
    },
    {
      id: "fatca-thresholds",
      tone: "info",
      title: `Form 8938 (FATCA) thresholds, tax year ${fatcaFacts.taxYear}`,
      paragraphs: [
        'Form 8938 is filed with the income tax return of US citizens and residents for tax purposes (and of some nonresidents who choose to file jointly). You file it when the total value of your foreign financial assets is more than the amounts below. "Living abroad" means you meet the IRS\'s bona fide residence test or physical presence test.',
        "Form 8938 does not replace the FBAR. Many people must file both.",
      ],
      table: {
        caption: `Form 8938 reporting thresholds for tax year ${fatcaFacts.taxYear}`,
        headers: [
          "Your situation",
          "Total on the last day of the year is more than",
          "Or at any time in the year it was more than",
        ],
        rows: fatcaFacts.thresholds.map(
          (t) => [t.filer, formatUsd(t.lastDay), formatUsd(t.anyTime)] as const,
        ),
      },
    },
  ],
  whatWeDo: {
    title: serviceQuestions.whatWeDo,
    items: [
      "Confirm whether you must file the FBAR, Form 8938, both or neither, from your residency for tax purposes and your balances.",
      "List every reportable account: bank accounts, fixed deposits, brokerage and mutual fund accounts, and insurance policies with a cash value.",
      "Find the highest balance of each account in the year and convert it to US dollars at the Treasury's year-end exchange rate.",
      "Prepare the FBAR and send it to you for review. You sign FinCEN Form 114a, which authorizes us to file it for you.",
      "File the FBAR electronically through FinCEN's BSA E-Filing System, and add Form 8938 to your income tax return when it is required.",
      "If you missed earlier years, explain the options the IRS offers for late filings before anything is sent.",
    ],
  },
  provide: {
    title: serviceQuestions.provide,
    items: [
      "Your full legal name, address, and SSN or ITIN",
      "For each foreign account: the name and address of the bank or institution, the account number, the type of account, and any joint owners",
      `Statements that show the highest balance of each account during ${fbarFacts.calendarYear}`,
      "For Form 8938: the value of other foreign assets, such as shares in foreign companies or interests in foreign partnerships",
      "Your visa history and US arrival dates, if you are not sure whether you are a resident for tax purposes",
    ],
  },
  timing: {
    title: serviceQuestions.timing,
    paragraphs: [
      "Most FBARs are ready for your review within 3 to 5 business days after we have all your statements. We file on the day you approve and sign the authorization, and send you FinCEN's confirmation of receipt.",
      `The FBAR for calendar year ${fbarFacts.calendarYear} is due ${fbarFacts.dueDate}, with an automatic extension to ${fbarFacts.extendedDueDate}.`,
    ],
  },
  cost: {
    from: servicePriceDollars("fbar-fatca"),
    unit: "per calendar year",
    includes: [
      "A check of whether you must file the FBAR, Form 8938 or both",
      "The FBAR for one calendar year, filed electronically",
      "Form 8938 prepared for your income tax return when it is required",
    ],
    note: "The final fee depends on how many accounts and assets you have. We confirm it in writing before we start. Earlier years are quoted separately.",
  },
  whatsappText: chatText("FBAR & FATCA Filing"),
  next: [
    {
      title: "Tell us about your accounts",
      text: `Call or message us. ${freeConsultation} We tell you what you must file and what it will cost.`,
    },
    {
      title: "Send your statements",
      text: "We tell you how to share your statements securely. Please do not send them by ordinary e-mail.",
    },
    {
      title: "Review and sign",
      text: "We prepare the FBAR and send it for your review. You sign FinCEN Form 114a so we can file for you.",
    },
    {
      title: "We file and confirm",
      text: "We file the FBAR and send you the confirmation. We keep your records for at least seven years.",
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// 1040 & 1040-NR Returns
// ---------------------------------------------------------------------------------------------

const returns1040: StandardServiceDetail = {
  kind: "standard",
  ...page("1040-returns"),
  overline: "Form 1040 and Form 1040-NR",
  seo: {
    title: "1040 & 1040-NR Returns",
    description:
      "US federal returns on the right form: Form 1040 for residents for tax purposes, Form 1040-NR for nonresidents. Residency check, treaty benefits, e-filing. From $250.",
  },
  lead: "Your US federal income tax return, prepared on the right form for your status. Residents for tax purposes file Form 1040. Nonresidents file Form 1040-NR. We work out which one is yours, prepare it, and file it once you approve.",
  definitions: [
    {
      term: "Resident for tax purposes",
      meaning:
        "someone taxed like a US citizen, on income from anywhere in the world. A green card makes you one, and so can the days you spend in the US.",
    },
    {
      term: "Nonresident alien",
      meaning: "someone who is not a resident for tax purposes and is taxed mainly on US income.",
    },
    {
      term: "Dual-status",
      meaning:
        "resident for part of the year and nonresident for the rest, usually the year you arrive or leave.",
    },
  ],
  keyFacts: {
    title: "Key dates",
    appliesTo: `For tax year ${returnDates.taxYear}`,
    facts: [
      { label: "Return and payment due", value: returnDates.dueDate },
      { label: "With an extension (Form 4868)", value: `${returnDates.extendedDueDate}, to file only` },
      { label: "Nonresidents with no US wages", value: `Due ${returnDates.nonresidentNoWagesDueDate}` },
      { label: "Form 8843 (exempt individuals)", value: "Filed every year, even with no income" },
    ],
  },
  who: {
    title: serviceQuestions.who,
    paragraphs: [
      "Most people with US income must file a federal return each year. Nonresident aliens who work in the US usually must file Form 1040-NR. Common cases we handle:",
    ],
    items: [
      "H-1B and L-1 workers, who usually become residents for tax purposes once they pass the substantial presence test",
      "Students on F-1, J-1, M or Q visas, who are usually nonresidents for their first five calendar years in the US",
      "Green card holders and US citizens, who report income from anywhere in the world",
      "People who arrived in or left the US during the year and may be dual-status",
      [
        "Families whose spouse or dependents need an ITIN to be on the return (see ",
        { text: "ITIN Processing", href: "/services/itin-processing" },
        ")",
      ],
    ],
  },
  callouts: [
    {
      id: "which-form",
      tone: "info",
      title: "1040 or 1040-NR: which form is yours?",
      paragraphs: [
        "You are a resident for tax purposes if you had a green card at any time in the year (the green card test), or if you pass the substantial presence test: at least 31 days in the US this year, and at least 183 days over three years, counting all days this year, one third of the days last year and one sixth of the days the year before.",
        'Some days do not count. Students on F, J, M or Q visas are usually "exempt individuals" for their first five calendar years in the US, and teachers and trainees on J or Q visas for two of the last six years. Exempt individuals file Form 8843 to explain this, even with no income.',
        [
          "Filing the wrong form is a common and costly mistake: nonresidents generally cannot file jointly or take the standard deduction (students and business apprentices from India are an exception under the tax treaty). If you are not sure which form is yours, ",
          contactLink,
          " before you file.",
        ],
        [
          "To see how the substantial presence test works out with your own days, try our free ",
          { text: "residency calculator", href: residencyTool.path },
          ".",
        ],
      ],
    },
  ],
  whatWeDo: {
    title: serviceQuestions.whatWeDo,
    items: [
      "Work out your residency status for the year, including dual-status years and the choices available in the year you arrive.",
      "Prepare Form 1040 or Form 1040-NR with the schedules you need, and Form 8843 when it applies.",
      "Claim the tax treaty benefits you are entitled to, with the statements the IRS requires.",
      "Report foreign income and claim the foreign tax credit where the rules allow, so the same income is not taxed twice.",
      "Point out FBAR and Form 8938 duties, and prepare them if you want us to.",
      "E-file the return after you review and approve it, or prepare it for mailing when e-filing is not possible.",
    ],
  },
  provide: {
    title: serviceQuestions.provide,
    items: [
      "Passport, visa and I-94 details, and the dates of every entry to and exit from the US",
      "Your SSN or ITIN, and those of your spouse and dependents",
      "Forms W-2 from employers, and any Forms 1099, 1042-S or 1098-T you received",
      "Last year's tax return, if you filed one",
      "Details of foreign income, foreign tax paid and foreign accounts",
      "Bank details for any refund or for paying tax you owe",
    ],
  },
  timing: {
    title: serviceQuestions.timing,
    paragraphs: [
      [
        "Most returns are ready for your review within 5 to 7 business days after we have all your documents. Rush Processing (48-hour turnaround) is available as an add-on; see ",
        { text: "pricing", href: "/pricing" },
        ".",
      ],
      "After e-filing, the IRS usually confirms that it accepted the return within a day or two. If a refund is due, the IRS decides when to pay it; we cannot promise an amount or a date.",
      `Returns for tax year ${returnDates.taxYear} are due ${returnDates.dueDate} (${returnDates.nonresidentNoWagesDueDate} for nonresidents with no US wages subject to withholding).`,
    ],
  },
  cost: {
    from: servicePriceDollars("1040-1040nr"),
    unit: "per return",
    includes: [
      "A residency check for the year",
      "Your federal return, Form 1040 or Form 1040-NR",
      "Form 8843 when it applies",
      "E-filing after your approval",
    ],
    note: "State returns, earlier years and more complex situations, such as rental property or a business, are quoted before we start. We confirm every fee in writing first.",
  },
  whatsappText: chatText("a 1040 or 1040-NR return"),
  next: [
    {
      title: "Ask which form is yours",
      text: ["Call, message or ", contactLink, `. ${freeConsultation}`],
    },
    {
      title: "Send your documents",
      text: "We send you a checklist for your situation and tell you how to share documents securely.",
    },
    {
      title: "Review your draft",
      text: "We explain the return, what you owe or what may come back to you. Nothing is filed until you approve it.",
    },
    {
      title: "We file and keep copies",
      text: "We file the return and send you a copy with the IRS acceptance. We keep your records for at least seven years.",
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// W-4 Assistance
// ---------------------------------------------------------------------------------------------

const w4: StandardServiceDetail = {
  kind: "standard",
  ...page("w4-assistance"),
  overline: "Form W-4, Employee's Withholding Certificate",
  seo: {
    title: "W-4 Assistance",
    description:
      "Fill in Form W-4 correctly so your paycheck withholding matches your tax, including the special rules for nonresident aliens (IRS Notice 1392). From $75.",
  },
  lead: "Form W-4 tells your employer how much federal income tax to take from each paycheck. Filled in well, your withholding is close to the tax you really owe, so the year ends without a large bill.",
  definitions: [
    {
      term: "Form W-4",
      meaning: "the Employee's Withholding Certificate. You give it to your employer, not to the IRS.",
    },
    {
      term: "Withholding",
      meaning: "income tax your employer takes from your pay and sends to the IRS for you.",
    },
    { term: "Notice 1392", meaning: "the IRS's special Form W-4 instructions for nonresident aliens." },
  ],
  keyFacts: {
    title: "At a glance",
    appliesTo: `For pay in ${TAX_YEAR}`,
    facts: [
      { label: "Who receives it", value: "Your employer's payroll team" },
      { label: "When to give it", value: "When you start a job, and when your situation changes" },
      { label: "Nonresident aliens", value: "Follow IRS Notice 1392" },
      { label: "Treaty exemption", value: "Claimed on Form 8233, not on Form W-4" },
    ],
  },
  who: {
    title: serviceQuestions.who,
    items: [
      "Anyone starting a new job in the US",
      "Employees on H-1B, L-1, F-1 (on-campus work, CPT or OPT) or J-1 visas who are nonresident aliens and must follow special rules",
      "People whose life changed: a marriage, a child, a second job, or a spouse who started working",
      "Anyone who owed a lot, or got a large refund, last year and wants withholding closer to the real tax",
      "People who became residents for tax purposes during their stay and can now use the regular instructions",
    ],
  },
  callouts: [
    {
      id: "nonresident-rules",
      tone: "info",
      title: "Special rules for nonresident aliens",
      paragraphs: [
        [
          "If you are a nonresident alien for tax purposes, the regular Form W-4 instructions do not fit you. IRS ",
          { text: "Notice 1392", href: "https://www.irs.gov/pub/irs-pdf/n1392.pdf" },
          ' changes them. For example, you check "Single or Married filing separately" whatever your marital status, you write "Nonresident Alien" or "NRA" in the space below Step 4(c), and you may not claim exemption from withholding on Form W-4.',
        ],
        "Your employer also adds an amount to your wages when it works out your withholding, because nonresidents generally cannot take the standard deduction. Students and business apprentices from India may be an exception under the tax treaty.",
        "If a tax treaty exempts part of your pay, you claim it on Form 8233, given to your employer, not on Form W-4.",
      ],
    },
  ],
  whatWeDo: {
    title: serviceQuestions.whatWeDo,
    items: [
      "Check your residency for tax purposes, which decides which instructions apply to you.",
      "Estimate your tax for the year from your pay, other jobs, your spouse's income and your deductions.",
      "Fill in Form W-4 with you, step by step, and explain each line.",
      "For nonresident aliens, apply Notice 1392 and check whether a tax treaty lets part of your pay be exempt.",
      "Tell you what to look for on your next pay stubs to confirm the change.",
    ],
  },
  provide: {
    title: serviceQuestions.provide,
    items: [
      "Your most recent pay stub",
      "Last year's tax return, if you filed one",
      "Your visa type and the dates you entered the US",
      "Pay from other jobs and your spouse's pay, if any",
      "Expected deductions and credits, such as children you support",
    ],
  },
  timing: {
    title: serviceQuestions.timing,
    paragraphs: [
      "One call of 30 to 45 minutes is usually enough. We send your completed Form W-4 the same or the next business day.",
      "Your employer must put a new Form W-4 into effect no later than the first payroll period ending on or after the 30th day after receiving it, so check your pay stubs over the following month.",
    ],
  },
  cost: {
    from: servicePriceDollars("w4"),
    unit: "per Form W-4",
    includes: [
      "A residency check and a withholding estimate",
      "A completed Form W-4, ready for your employer",
      "Notice 1392 rules applied for nonresident aliens",
    ],
    note: "Many states have their own withholding form. If you need one, we tell you before we start whether there is an extra fee.",
  },
  whatsappText: chatText("W-4 Assistance"),
  next: [
    {
      title: "Talk to us",
      text: `Call or message us with your latest pay stub at hand. ${freeConsultation}`,
    },
    {
      title: "We fill in Form W-4 with you",
      text: "We go through each step together and send you the completed form to sign.",
    },
    {
      title: "Give it to your employer",
      text: "Hand the signed form to your employer's payroll team. Do not send it to the IRS.",
    },
    {
      title: "Check your pay",
      text: "Look at the federal income tax line on your next pay stubs. If it is not what we expected, tell us and we check it with you.",
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Form 4868 Extension
// ---------------------------------------------------------------------------------------------

const extension4868: StandardServiceDetail = {
  kind: "standard",
  ...page("form-4868-extension"),
  overline: "Form 4868, automatic extension of time to file",
  seo: {
    title: "Form 4868 Extension",
    description: `Form 4868 extends the time to file your federal return to ${returnDates.extendedDueDate}. It does not extend the time to pay: tax owed is still due ${returnDates.dueDate}. From $50.`,
  },
  lead: `Form 4868 gives you more time to file your federal return: to ${returnDates.extendedDueDate} for tax year ${returnDates.taxYear}. It does not give you more time to pay. Any tax you owe is still due ${returnDates.dueDate}.`,
  definitions: [
    {
      term: "Form 4868",
      meaning: "the Application for Automatic Extension of Time To File U.S. Individual Income Tax Return.",
    },
    {
      term: "Automatic",
      meaning: "you do not give the IRS a reason; an extension filed correctly by the due date is granted.",
    },
  ],
  keyFacts: {
    title: "Key dates",
    appliesTo: `For tax year ${returnDates.taxYear}`,
    facts: [
      { label: "File Form 4868 by", value: returnDates.dueDate },
      { label: "Pay tax owed by", value: returnDates.dueDate },
      { label: "New deadline to file", value: returnDates.extendedDueDate },
      {
        label: "Nonresidents with no US wages",
        value: `${returnDates.nonresidentNoWagesDueDate}, extended to ${returnDates.nonresidentNoWagesExtendedDueDate}`,
      },
    ],
  },
  who: {
    title: serviceQuestions.who,
    paragraphs: [
      "An extension helps when you cannot file a complete and correct return by the deadline. For example:",
    ],
    items: [
      "You are waiting for documents, such as a corrected Form W-2 or 1099, a Form 1042-S, or statements for foreign income",
      "You need time to put together an ITIN application that goes with your return",
      "You moved to or left the US during the year and your residency status needs careful work",
      "You are traveling, unwell or simply out of time close to the deadline",
    ],
  },
  callouts: [
    {
      id: "time-to-pay",
      tone: "warning",
      title: "More time to file, not more time to pay",
      paragraphs: [
        `Interest runs on any tax not paid by ${returnDates.dueDate}, and a late-payment penalty usually applies too, even with an extension. If you pay at least 90% of your tax by ${returnDates.dueDate} and the rest with your return, the IRS generally does not charge the late-payment penalty; interest still applies.`,
        "Filing late without an extension usually costs more: the penalty for filing late is generally much higher than the penalty for paying late.",
        `US citizens and residents who live outside the US on the due date get two extra months, to ${returnDates.livingAbroadDueDate}, to file and pay (interest still runs from ${returnDates.dueDate}); Form 4868 can add more time to file.`,
        `Nonresident aliens who had no US wages subject to withholding have a later due date: ${returnDates.nonresidentNoWagesDueDate}, extended to ${returnDates.nonresidentNoWagesExtendedDueDate} with Form 4868.`,
        "A federal extension does not always cover your state return. Some states accept it; others need their own form.",
      ],
    },
  ],
  whatWeDo: {
    title: serviceQuestions.whatWeDo,
    items: [
      `Estimate your tax for tax year ${returnDates.taxYear}, so you know whether to pay anything by ${returnDates.dueDate}.`,
      "Prepare Form 4868 and e-file it with the IRS, after you approve it.",
      "Explain how to pay your estimate, for example through IRS Direct Pay, and what proof to keep.",
      "Send you the IRS acknowledgment that your extension was accepted.",
      `Plan the rest of your return so it is filed well before ${returnDates.extendedDueDate}.`,
    ],
  },
  provide: {
    title: serviceQuestions.provide,
    items: [
      "Your name, address, and SSN or ITIN (and your spouse's, if you file jointly)",
      "Last year's return, if you filed one",
      "The tax documents you already have: Forms W-2, 1099 or 1042-S, and records of estimated tax paid",
      "A rough idea of the income you are still waiting for documents on",
    ],
  },
  timing: {
    title: serviceQuestions.timing,
    paragraphs: [
      "An extension takes one short call. Once you approve the estimate, we usually e-file Form 4868 the same or the next business day, and the IRS usually acknowledges it within a day or two.",
      `Form 4868 must be filed by ${returnDates.dueDate}. Please contact us by early April: we cannot promise to file requests that reach us on the deadline itself.`,
    ],
  },
  cost: {
    from: servicePriceDollars("form-4868"),
    unit: "per extension",
    includes: [
      `A tax estimate for the payment due ${returnDates.dueDate}`,
      "Form 4868 prepared and e-filed",
      "The IRS acknowledgment sent to you",
    ],
    note: "Any tax you pay goes straight to the IRS; it is not part of our fee. If we then prepare your return, the extension stays in the same file.",
  },
  whatsappText: chatText("a Form 4868 extension"),
  next: [
    {
      title: `Contact us before ${returnDates.dueDate}`,
      text: `Call or message us with last year's return at hand. ${freeConsultation}`,
    },
    {
      title: "We estimate what you owe",
      text: `You decide how much to pay by ${returnDates.dueDate}, and pay it directly to the IRS.`,
    },
    {
      title: "We file the extension",
      text: "We e-file Form 4868 after your approval and send you the IRS acknowledgment.",
    },
    {
      title: "We finish your return",
      text: `Send the missing documents when you have them. We prepare your return for filing before ${returnDates.extendedDueDate}.`,
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Professional Tax Planning
// ---------------------------------------------------------------------------------------------

const planning: StandardServiceDetail = {
  kind: "standard",
  ...page("professional-tax-planning"),
  overline: "Planning for the year ahead",
  seo: {
    title: "Professional Tax Planning",
    description: `Plan your US taxes across two countries before the year ends. Most decisions for tax year ${TAX_YEAR} must be made before ${returnDates.yearEnd}. From $500.`,
  },
  lead: `Tax planning looks at the year ahead, not the year behind. For people with ties to two countries, a few decisions made at the right time can change what you owe. Most of these decisions must be made before ${returnDates.yearEnd}.`,
  definitions: [
    {
      term: "Tax planning",
      meaning:
        "choosing, within the rules, how and when you earn, save, invest and move money, before the year ends.",
    },
    {
      term: "Tax treaty",
      meaning:
        "an agreement between the US and another country that decides which country may tax which income.",
    },
    {
      term: "Foreign tax credit",
      meaning: "a US credit for income tax you paid to another country on the same income (Form 1116).",
    },
  ],
  keyFacts: {
    title: "Key dates",
    appliesTo: `For tax year ${TAX_YEAR}`,
    facts: [
      { label: "Most decisions must be made by", value: returnDates.yearEnd },
      {
        label: `IRA contributions for ${TAX_YEAR} can wait until`,
        value: returnDates.iraContributionDeadline,
      },
      { label: "Return due", value: returnDates.dueDate },
    ],
  },
  who: {
    title: serviceQuestions.who,
    items: [
      "Visa holders who expect to become residents for tax purposes, or to leave the US, this year or next",
      "People with income, property or investments in two countries",
      "Employees with stock awards (RSUs, ESPP or options) or a large bonus",
      "Families buying or selling a home in the US or abroad",
      "Owners of foreign mutual funds, which US rules usually treat as PFICs (passive foreign investment companies) and tax harshly",
      "Anyone who owed a lot last year and wants no surprise this year",
    ],
  },
  callouts: [
    {
      id: "december-31",
      tone: "info",
      title: `Why ${returnDates.yearEnd} matters`,
      paragraphs: [
        `Most choices that lower your tax for ${TAX_YEAR} count only if you make them by ${returnDates.yearEnd}: for example, 401(k) contributions through your payroll, selling investments to use losses, gifts to charity, and the timing of a move or a sale.`,
        `A few can wait: contributions to a traditional or Roth IRA for ${TAX_YEAR} can be made until ${returnDates.iraContributionDeadline}. After the year ends, most of the rest can only be reported, not changed.`,
        "We do not promise a saving. We show you the options, their effect and their risks; you decide.",
      ],
    },
  ],
  whatWeDo: {
    title: serviceQuestions.whatWeDo,
    items: [
      "Review your last returns and your plans for this year and next.",
      "Project your US tax for the year, including how a tax treaty and the foreign tax credit affect it.",
      "Compare options: retirement contributions, the timing of income and sales, residency choices in the year you arrive or leave, and how you hold foreign investments.",
      "Give you a written plan with actions, amounts and dates.",
      "Check the plan with you again before the year ends, if your situation changes.",
    ],
    after: [
      "We advise on US federal tax. For tax in another country, we work with your adviser there, or tell you when you need one.",
    ],
  },
  provide: {
    title: serviceQuestions.provide,
    items: [
      "Your last two US tax returns, and your foreign returns if you file them",
      "Recent pay stubs and stock award statements",
      "A list of your accounts, investments and property, in the US and abroad",
      "Your visa history and your plans: a move, a green card application, a marriage, a child, a purchase or a sale",
    ],
  },
  timing: {
    title: serviceQuestions.timing,
    paragraphs: [
      "After the planning meeting, we usually send your written plan within 5 to 7 business days.",
      `The earlier in the year you start, the more options you have. Decisions for tax year ${TAX_YEAR} must be made by ${returnDates.yearEnd}.`,
    ],
  },
  cost: {
    from: servicePriceDollars("tax-planning"),
    unit: "per plan",
    includes: [
      "A planning meeting with a tax professional",
      "A projection of your US tax for the year",
      "A written plan with actions, amounts and dates",
      "A follow-up call before the year ends",
    ],
    note: "Situations with several countries, a business, or stock compensation over several years are quoted before we start. We confirm every fee in writing first.",
  },
  whatsappText: chatText("Professional Tax Planning"),
  next: [
    {
      title: "Book a conversation",
      text: `Call or message us. ${freeConsultation} We tell you whether planning is worth it for you this year.`,
    },
    {
      title: "Send your documents",
      text: "We send a short checklist and tell you how to share your documents securely.",
    },
    {
      title: "Planning meeting",
      text: "We go through your options together and answer your questions.",
    },
    {
      title: `Act before ${returnDates.yearEnd}`,
      text: "You receive the written plan and act on it in time. When the year ends, we prepare your return with the plan in mind.",
    },
  ],
};

/** Each service page's content, keyed by its slug in service-pages.ts. */
export const serviceDetails = {
  "itin-processing": itin,
  "fbar-filing": fbar,
  "1040-returns": returns1040,
  "w4-assistance": w4,
  "form-4868-extension": extension4868,
  "professional-tax-planning": planning,
} as const satisfies Record<ServiceSlug, ServiceDetail>;

export const itinDetail: ItinServiceDetail = serviceDetails["itin-processing"];

/** All the text of a page in one string, for checks such as "this page never says X". */
export function serviceDetailText(detail: ServiceDetail): string {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") parts.push(value);
    else if (typeof value === "number") parts.push(String(value));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(detail);
  return parts.join("\n");
}
