/**
 * Home page content: hero slides, highlights, services showcase, value proposition,
 * testimonials and the payment section with its pricing grid.
 * Figures (clients, satisfaction, years…) come from `business.ts`, never restated here.
 */
import { business, figures } from "~/content/business";
import { servicePages } from "~/content/service-pages";
import { fbarFacts, formatUsd } from "~/content/tax-facts";

/** Hero carousel: time each slide stays before the next one (docs/product/public-site.md#home: 30 s). */
export const HERO_INTERVAL_MS = 30_000;
/** Testimonial carousel: time each testimonial stays (docs/product/public-site.md#home: 5 s). */
export const TESTIMONIAL_INTERVAL_MS = 5_000;

/* ------------------------------------------------------------------ hero */

/** The illustration drawn for a slide (and the icon its image fallback shows). */
export type HeroArt = "returns" | "itin" | "fbar";

export type HeroSlide = {
  id: string;
  /** Short line above the title. */
  eyebrow: string;
  title: string;
  subtitle: string;
  /**
   * The slide's accent colour: `base` is the dark end of the background gradient
   * (white text sits on it), `tint` a light shade for small highlights on the dark background.
   */
  accent: { name: string; base: `#${string}`; tint: `#${string}` };
  features: readonly string[];
  art: HeroArt;
  /**
   * The slide's background picture, drawn for it (an SVG under public/hero; the CSP allows only
   * same-origin and data: images). When it fails to load, the slide shows its gradient with an
   * icon instead.
   */
  image: `/hero/${string}.svg`;
};

export const heroSlides: readonly HeroSlide[] = [
  {
    id: "returns",
    eyebrow: "1040 and 1040-NR returns",
    title: "US tax returns for visa holders and non-residents",
    subtitle:
      "On an F-1, J-1, H-1B or L-1 visa? We check whether you file as a resident or a nonresident, apply the tax treaty of your country where it fits, and file your federal return.",
    accent: { name: "teal", base: "#08536b", tint: "#a3d2df" },
    features: [
      "Residency check (the substantial presence test)",
      "Tax treaty benefits reviewed",
      "Form 8843 for students and scholars",
      "Your federal return e-filed for you",
    ],
    art: "returns",
    image: "/hero/returns.svg",
  },
  {
    id: "itin",
    eyebrow: "ITIN processing (Form W-7)",
    title: "An ITIN when you cannot get a Social Security number",
    subtitle:
      "An ITIN is the tax number the IRS gives to people who cannot get an SSN, such as the spouse or child of a visa holder. We prepare your Form W-7 and help you send the right documents.",
    accent: { name: "violet", base: "#4b3a8c", tint: "#d4ccf5" },
    features: [
      "Form W-7 prepared and checked",
      "Clear guidance on passport and identity documents",
      "Sent with your tax return when the IRS requires it",
      "Status tracking until your number arrives",
    ],
    art: "itin",
    image: "/hero/itin.svg",
  },
  {
    id: "fbar",
    eyebrow: "FBAR and FATCA reporting",
    title: "Bank accounts back home? Report them the right way",
    subtitle: `If your accounts outside the US add up to more than ${formatUsd(fbarFacts.threshold)} at any time in the year, you may need to file an FBAR. FATCA (Form 8938) can apply too. We check what applies to you and file it.`,
    accent: { name: "green", base: "#1d5b48", tint: "#b6e3cf" },
    features: [
      "FBAR (FinCEN Form 114) filed online",
      "FATCA Form 8938 prepared with your return",
      "Due April 15, with an automatic extension to October 15",
      "Help with years you missed",
    ],
    art: "fbar",
    image: "/hero/fbar.svg",
  },
];

/* ------------------------------------------------------------ highlights */

export type HighlightIcon = "consultation" | "licensed" | "response" | "fees";

export const highlights: readonly { icon: HighlightIcon; title: string; text: string }[] = [
  {
    icon: "consultation",
    title: "Free first consultation",
    text: "Thirty minutes with a tax professional to understand your situation. No cost and no obligation.",
  },
  {
    icon: "licensed",
    title: business.licensedBadge,
    text: "Licensed tax professionals prepare and review your return. They work with visa holders every season.",
  },
  {
    icon: "response",
    title: `A reply ${business.responsePromise}`,
    text: `Write to us and we answer ${business.responsePromise} on business days (${business.hours}), in plain English.`,
  },
  {
    icon: "fees",
    title: "Clear fees",
    text: "You know the price before we start. Our satisfaction guarantee covers our fees.",
  },
];

/* ------------------------------------------------------ services showcase */

export type ShowcaseIcon = "itin" | "fbar" | "returns" | "w4" | "extension" | "planning";

const showcaseIcons: Record<(typeof servicePages)[number]["slug"], ShowcaseIcon> = {
  "itin-processing": "itin",
  "fbar-filing": "fbar",
  "1040-returns": "returns",
  "w4-assistance": "w4",
  "form-4868-extension": "extension",
  "professional-tax-planning": "planning",
};

/** The six service cards: one per service page, in the menu's order. */
export const showcaseServices = servicePages.map((service) => ({
  ...service,
  icon: showcaseIcons[service.slug],
}));

export type Stat = { value: string; label: string };

/** Showcase stats: clients served, years, satisfaction (docs/product/public-site.md#marketing-figures). */
export const showcaseStats: readonly Stat[] = [
  { value: figures.clientsServed, label: "Clients served" },
  { value: figures.yearsInBusiness, label: "Years in business" },
  { value: figures.satisfaction, label: "Client satisfaction" },
];

/* ------------------------------------------------------ value proposition */

export type ValueIcon = "crossBorder" | "security" | "plain" | "deadlines" | "team" | "honest";

export const valueProposition = {
  overline: "Why international clients choose us",
  title: "A tax firm that understands life between two countries",
  lead: "US tax rules for people on visas are different from the rules most Americans know. We work with these rules every day, so you do not have to learn them alone.",
  points: [
    {
      icon: "crossBorder",
      title: "Cross-border know-how",
      text: "Resident or nonresident, tax treaties, income from your home country, dual-status years: this is our daily work, not an exception.",
    },
    {
      icon: "security",
      title: "Your SSN and passport kept safe",
      text: "Your SSN or ITIN is encrypted when we store it and shown masked on screen. Only you and our staff can open your documents, and every time staff open your record, it is logged.",
    },
    {
      icon: "plain",
      title: "Plain-English answers",
      text: "Short, clear explanations without jargon. If a tax term matters, we tell you what it means in one line.",
    },
    {
      icon: "deadlines",
      title: "Deadlines tracked for you",
      text: "April 15 for most returns and the FBAR, October 15 with an extension. An extension gives more time to file, not more time to pay.",
    },
    {
      icon: "team",
      title: "One team from start to finish",
      text: "The same team reviews your documents, prepares your return, answers your questions and sends you the final copies.",
    },
    {
      icon: "honest",
      title: "Honest advice, no promises",
      text: "We never promise a refund or an amount. Your result depends on your own facts, and we explain them to you before you sign.",
    },
  ] satisfies { icon: ValueIcon; title: string; text: string }[],
} as const;

/* ----------------------------------------------------------- testimonials */

export type Testimonial = {
  name: string;
  /** Visa status and place, shown under the name. */
  detail: string;
  /** 0 to 5 in half steps. */
  rating: number;
  text: string;
  /** Initials shown in the avatar circle (no photos). */
  avatar: string;
  verified: boolean;
};

/**
 * Sample testimonials. Before launch the firm replaces them with real reviews that the
 * clients agreed to publish (US rules forbid invented or edited reviews).
 */
export const testimonials: readonly Testimonial[] = [
  {
    name: "Priya S.",
    detail: "F-1 student, Boston",
    rating: 5,
    text: "I did not know that students must file Form 8843. TaxBridge explained it in simple words and filed everything well before the deadline.",
    avatar: "PS",
    verified: true,
  },
  {
    name: "Daniel O.",
    detail: "H-1B software engineer, Texas",
    rating: 4.5,
    text: "My first year in the US was part resident, part nonresident. They explained my status clearly and answered every e-mail within a day.",
    avatar: "DO",
    verified: true,
  },
  {
    name: "Mei L.",
    detail: "J-1 researcher, California",
    rating: 5,
    text: "Getting an ITIN for my husband felt impossible from abroad. They checked every document before we sent the W-7 and told us what to expect at each step.",
    avatar: "ML",
    verified: true,
  },
  {
    name: "Arjun R.",
    detail: "Green card holder, New Jersey",
    rating: 4,
    text: "I had bank accounts in India and had never filed an FBAR. They sorted out the past years calmly and without judgement.",
    avatar: "AR",
    verified: false,
  },
];

/**
 * Testimonial block stats: satisfaction, total refunds, happy clients, support
 * (docs/product/public-site.md#marketing-figures).
 */
export const testimonialStats: readonly Stat[] = [
  { value: figures.satisfaction, label: "Client satisfaction" },
  { value: figures.totalRefunds, label: "Total refunds for our clients" },
  { value: figures.clientsServed, label: "Happy clients" },
  { value: figures.support, label: "Support" },
];

/* -------------------------------------------------------- payment section */

export type CardBrand = "visa" | "mastercard" | "amex" | "rupay";

export const paymentSection = {
  overline: "Limited time offer",
  title: "Start your US tax filing today",
  lead: "Pay a one-time booking fee to reserve your place with a TaxBridge tax professional this season. We then contact you to collect your documents.",
  acceptedCards: [
    { brand: "visa", name: "Visa" },
    { brand: "mastercard", name: "Mastercard" },
    { brand: "amex", name: "American Express" },
    { brand: "rupay", name: "RuPay" },
  ] satisfies { brand: CardBrand; name: string }[],
  price: "₹299",
  originalPrice: "₹499",
  saveLabel: "Save ₹200",
  offerLabel: "LIMITED TIME - 40% OFF",
  buttonLabel: "PAY SECURELY NOW",
  busyLabel: "PROCESSING...",
  /** Where the button leads (routes/marketing/pay.ts): the client's open fee, or sign in first. */
  action: "/pay",
  /** Said when the server cannot be reached to find the client's fee. */
  failureMessage: "Payment failed. Please try again.",
} as const;

export type PricingGridEntry = { name: string; price: string; note: string };

/** The grid below the payment offer (docs/product/public-site.md#payment-offer), fees in US dollars. */
export const paymentPricingGrid: readonly PricingGridEntry[] = [
  { name: "Standard Filing", price: "$85", note: "A simple federal return, such as wages from one job." },
  {
    name: "Itemized Filing",
    price: "$150",
    note: "A return with itemized deductions, such as state income tax or gifts to charity.",
  },
  {
    name: "Business Filing",
    price: "$150-$400",
    note: "Returns with business or self-employment income. The fee depends on the size of the business.",
  },
  {
    name: "FICA Taxes",
    price: "$100",
    note: "Help to claim back Social Security and Medicare tax withheld when you may be exempt, for example on an F-1 or J-1 visa.",
  },
  {
    name: "Business Incorporation",
    price: "$600",
    note: "Forming a US company (LLC or corporation), with the papers to start it.",
  },
];

/* -------------------------------------------------------------- closing */

export const homeCallToAction = {
  title: "Ready to file with confidence?",
  text: `Create your account in two minutes, or tell us about your situation first. We reply ${business.responsePromise} on business days.`,
  primary: { to: "/signup", label: "Get Started" },
  secondary: { to: "/contact", label: "Contact Us" },
} as const;
