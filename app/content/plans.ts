/**
 * The /pricing page: four plans, three add-ons and the questions people ask about fees.
 * Names, prices and periods are those of docs/product/public-site.md#pricing-page, word for word.
 */
import { business } from "./business";
import { wholeDollars } from "./price-list";

/** A fixed fee in whole dollars, the free consultation, or a price agreed per contract. */
export type PlanPrice = "Free" | "Custom" | `$${number}`;

/** Theme token (app.css) that marks the plan's card. */
export type PlanColour = "ink-muted" | "primary-600" | "primary-800" | "ink";

export type Plan = {
  /** Stable id for anchors and tests. */
  id: string;
  name: string;
  price: PlanPrice;
  period: string;
  description: string;
  features: readonly string[];
  notIncluded: readonly string[];
  popular: boolean;
  colour: PlanColour;
};

export const plans = [
  {
    id: "basic-consultation",
    name: "Basic Consultation",
    price: "Free",
    period: "one-time, 30 minutes",
    description:
      "A first conversation with a tax professional about your situation. No obligation, and no documents needed yet.",
    features: [
      "30-minute call or video meeting",
      "A first look at your residency status for tax purposes",
      "Which forms you need to file this year",
      "A clear quote before any work starts",
    ],
    notIncluded: ["Preparing or filing a return", "Review of your documents"],
    popular: false,
    colour: "ink-muted",
  },
  {
    id: "standard-filing",
    name: "Standard Filing",
    price: wholeDollars("standard-filing"),
    period: "per tax year",
    description:
      "For most individual filers with wages, a scholarship or a stipend: your federal return prepared, reviewed with you and e-filed.",
    features: [
      "Federal return: Form 1040 or 1040-NR",
      "Residency check (substantial presence test)",
      "Tax treaty benefits applied where you qualify",
      "Form 8843 when you need it",
      "Draft for your review before we file",
      "E-filing and final copies for your records",
      `Answers by e-mail ${business.responsePromise}`,
    ],
    notIncluded: ["FBAR and FATCA reports", "ITIN application (Form W-7)", "Audit protection"],
    popular: true,
    colour: "primary-600",
  },
  {
    id: "premium-service",
    name: "Premium Service",
    price: wholeDollars("premium-service"),
    period: "per tax year",
    description:
      "For more involved returns: income or accounts in more than one country, investments, rental income or self-employment.",
    features: [
      "Everything in Standard Filing",
      "FBAR (FinCEN Form 114) and FATCA (Form 8938) reports",
      "Foreign tax credit (Form 1116)",
      "Investment, rental and self-employment income",
      "Dual-status return for the year you arrive or leave",
      "A planning call before the next tax year",
    ],
    notIncluded: ["ITIN application (Form W-7)", "Audit protection"],
    popular: false,
    colour: "primary-800",
  },
  {
    id: "enterprise",
    name: "Enterprise",
    price: "Custom",
    period: "annual contract",
    description:
      "For employers, universities and families with several filers: one yearly agreement, priced for the work you need.",
    features: [
      "Several filers under one agreement",
      "A named tax professional as your contact",
      "Planning sessions through the year",
      "Help for new hires and students with their W-4 and 1040-NR",
      "Fees and timelines agreed in the contract",
    ],
    notIncluded: [],
    popular: false,
    colour: "ink",
  },
] as const satisfies readonly Plan[];

/** The plan button's label (docs/product/public-site.md#pricing-page). */
export function planButtonLabel(plan: Pick<Plan, "price">): string {
  switch (plan.price) {
    case "Free":
      return "Book Consultation for Free";
    case "Custom":
      return "Contact Us for Custom";
    default:
      return "Get Started";
  }
}

/** Every plan button leads to the contact page (docs/product/public-site.md#pricing-page). */
export const planButtonHref = "/contact";

export type AddOn = {
  id: string;
  name: string;
  /** What the add-on means in a few words, shown next to the name. */
  detail?: string;
  price: `+$${number}`;
  /** The unit the price is charged per, when it is not once per return. */
  unit?: string;
  description: string;
};

export const addOns = [
  {
    id: "rush-processing",
    name: "Rush Processing",
    detail: "48-hour turnaround",
    price: `+${wholeDollars("rush-processing")}`,
    description:
      "We prepare your draft within 48 hours of receiving all your documents and answers, for when a deadline is close.",
  },
  {
    id: "audit-protection",
    name: "Audit Protection",
    price: `+${wholeDollars("audit-protection")}`,
    description:
      "If the IRS writes to you about a return we prepared, we explain the letter, gather what it asks for and prepare your reply. It does not pay any tax, penalty or interest the IRS decides you owe.",
  },
  {
    id: "prior-year-returns",
    name: "Prior Year Returns",
    price: `+${wholeDollars("prior-year-returns")}`,
    unit: "per additional year",
    description:
      "Missed a year, or filed the wrong form? We prepare returns for earlier years, added to your plan for the current year.",
  },
] as const satisfies readonly AddOn[];

export type Faq = { question: string; answer: string };

/** Questions about fees, answered plainly. */
export const pricingFaq = [
  {
    question: "What do your fees cover?",
    answer:
      "Our fee pays for our work: reviewing your documents, preparing the returns and forms listed in your plan, and filing them. It does not include any tax you owe to the IRS or a state; you pay that directly to them.",
  },
  {
    question: "When do I pay?",
    answer:
      "After you have reviewed the draft of your return and before we file it. The free consultation costs nothing, and for work priced on quote we agree the fee with you before we start.",
  },
  {
    question: "What does the satisfaction guarantee cover?",
    answer:
      "Our 100% satisfaction guarantee applies to our fees. If you are not satisfied with our service, tell us. The guarantee covers what you paid us; it cannot cover taxes, penalties or interest, and no one can promise the size of a refund. The Terms of Service give the details.",
  },
  {
    question: "I am not sure which plan I need.",
    answer:
      "Start with the free 30-minute consultation. We look at your visa, your income and your accounts, tell you which forms you need and quote the fee before any work starts.",
  },
] as const satisfies readonly Faq[];
