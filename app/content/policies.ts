/**
 * The Privacy Policy and Terms of Service, as structured sections (each with an anchor id for the
 * table of contents). Contact details come from business.ts. As docs/product/public-site.md#policies
 * says: both are marked last updated January 1, 2025; records kept at least seven years; free initial
 * consultation of 30 minutes; 100% satisfaction guarantee applies to fees; New York law with
 * arbitration; business hours Monday to Friday, 9 AM to 6 PM EST; response within 24 hours.
 */
import { business } from "./business";
import type { RichText } from "./service-details";

export type PolicyBlock = { kind: "p"; text: RichText } | { kind: "list"; items: readonly RichText[] };

export type PolicySection = {
  /** The anchor id, used by the table of contents. */
  id: string;
  title: string;
  blocks: readonly PolicyBlock[];
};

export type Policy = {
  title: string;
  path: "/privacy" | "/terms";
  lastUpdated: string;
  /** The same date as ISO 8601, for <time dateTime>. */
  lastUpdatedIso: string;
  seoDescription: string;
  intro: RichText;
  sections: readonly PolicySection[];
};

export const POLICIES_LAST_UPDATED = "January 1, 2025";
const lastUpdatedIso = "2025-01-01";

const p = (text: RichText): PolicyBlock => ({ kind: "p", text });
const list = (...items: RichText[]): PolicyBlock => ({ kind: "list", items });

const contactBlocks: readonly PolicyBlock[] = [
  list(
    ["E-mail: ", { text: business.email, href: `mailto:${business.email}` }],
    ["Phone: ", { text: business.phone.display, href: `tel:${business.phone.tel}` }],
    `Post: ${business.name}, ${business.address.lines.join(", ")}`,
    `Hours: ${business.hoursLong}`,
  ),
];

export const privacyPolicy: Policy = {
  title: "Privacy Policy",
  path: "/privacy",
  lastUpdated: POLICIES_LAST_UPDATED,
  lastUpdatedIso,
  seoDescription: `How ${business.name} collects, uses, shares, keeps and protects your personal and tax information, and your choices.`,
  intro: `You trust us with your passport, your SSN or ITIN and your income. This policy explains, in plain words, what we collect, why, who sees it, how long we keep it and how we protect it.`,
  sections: [
    {
      id: "who-we-are",
      title: "Who we are and what this policy covers",
      blocks: [
        p(
          `${business.name} prepares and files US tax returns and related forms for individuals, including non-resident aliens, visa holders and green card holders. This policy covers the personal information we handle when you use our website or client portal, contact us, or become our client. "We" and "us" mean ${business.name}; "you" means the person whose information we hold.`,
        ),
      ],
    },
    {
      id: "information-we-collect",
      title: "Information we collect",
      blocks: [
        p(
          "We collect only what we need for the service you ask for. Depending on the service, this includes:",
        ),
        list(
          "Identity details: your full name and date of birth, and those of your spouse and dependents.",
          "Contact details: e-mail address, phone numbers, mailing address and time zone.",
          "Tax identification numbers: your Social Security number (SSN) or Individual Taxpayer Identification Number (ITIN), and those of your spouse and dependents.",
          "Passport and visa details: passport information, visa type and immigration status, and the dates you entered and left the US, which decide your residency for tax purposes.",
          "Income and tax documents: Forms W-2, 1099, 1042-S and 1098-T, pay stubs, earlier tax returns, and records of foreign income and foreign tax paid.",
          "Bank and foreign account information: names, numbers and balances of foreign accounts for FBAR and Form 8938 reports, and bank details for refunds or payments.",
          "Account and message data: your sign-in e-mail, your password (stored only as a secure hash), messages you send us, and records of the work we do for you.",
          "Technical data: what your browser sends when you use the site, such as IP address and browser type, kept in server logs for security.",
        ),
        p(
          "Most of this comes from you. Some comes from others with your permission, for example from forms your employer issues or from the IRS when it replies to a filing.",
        ),
      ],
    },
    {
      id: "why-we-use-it",
      title: "Why we use it",
      blocks: [
        list(
          "To prepare, review and file your tax returns, extensions, ITIN applications, FBARs and the other forms you ask us to handle.",
          "To talk with you about your work, answer your questions, and tell you about deadlines and the status of your filings.",
          "To meet our legal obligations, including the IRS rules for tax return preparers and record-keeping, and to answer lawful requests from authorities.",
          "To keep your account and our systems secure, and to prevent fraud and identity theft.",
        ),
        p(
          "We do not use your information for advertising, and we do not make automated decisions about you.",
        ),
      ],
    },
    {
      id: "tax-return-information",
      title: "Your tax return information (IRC §7216)",
      blocks: [
        p(
          "Section 7216 of the Internal Revenue Code means that tax return preparers may not use or disclose your tax return information for any purpose other than preparing and filing your return without your consent, except where the law allows. If we ever want to use or share it for another purpose, we will first ask for your written consent, explain exactly what it covers, and respect your answer. Saying no does not change the service you receive.",
        ),
      ],
    },
    {
      id: "who-we-share-with",
      title: "Who we share it with",
      blocks: [
        p(
          "We share your information only as needed for the work you ask us to do, or when the law requires it:",
        ),
        list(
          "The IRS, FinCEN (for FBARs) and state tax agencies, when we file your returns and forms.",
          "Service providers that work for us under written contracts, such as secure hosting, e-filing and e-mail providers. They may use your information only to provide their service to us, and must protect it.",
          "People you authorize in writing, such as another adviser or someone holding your power of attorney.",
          "Courts, regulators or law enforcement, when the law requires it, for example under a valid subpoena.",
        ),
        p("We never sell or rent your personal information."),
      ],
    },
    {
      id: "how-long-we-keep-records",
      title: "How long we keep records",
      blocks: [
        p(
          "We keep your tax returns, the documents they are based on and our working papers for at least seven years after the return is filed. This covers the time in which the IRS and state agencies may review a return and the record-keeping rules for tax preparers. We keep some records longer while a review, claim or legal matter is open.",
        ),
        p(
          "After that, we delete or securely destroy them. If you close your account earlier, we keep what the law and our obligations require and delete the rest.",
        ),
      ],
    },
    {
      id: "security",
      title: "How we protect your information",
      blocks: [
        list(
          "Encryption: information travels over encrypted connections (HTTPS), and sensitive data such as SSNs and ITINs is encrypted when stored.",
          "Limited access: only the staff who need your information to work on your file can see it, and staff access to client records is logged.",
          "Multi-factor authentication: every staff member who can reach client information signs in with a second factor, as US rules for tax professionals require.",
          "A written information security plan, reviewed regularly, with training for everyone who handles client data.",
          "We never ask for your password by phone, e-mail or chat.",
        ),
        p(
          "Please do not send your SSN or tax documents by ordinary e-mail or chat; we tell you how to share them securely. No system is perfectly secure. If a breach affects your information, we will tell you and the authorities as the law requires, and explain what we are doing about it.",
        ),
      ],
    },
    {
      id: "your-choices-and-rights",
      title: "Your choices and rights",
      blocks: [
        p("You can ask us to:"),
        list(
          "Show you the information we hold about you and give you a copy.",
          "Correct information that is wrong or incomplete.",
          "Delete your information, where the law does not require us to keep it.",
          "Stop using information for a purpose you consented to (for the future).",
          "Stop sending you messages you do not need, such as reminders; we still send messages about your filings.",
          "Close your account.",
        ),
        p(
          `The law where you live may give you further rights. To use any right, contact us as shown below. We reply ${business.responsePromise} to confirm your request, and may ask you to prove who you are before we act on it.`,
        ),
      ],
    },
    {
      id: "cookies",
      title: "Cookies",
      blocks: [
        p(
          "We use only the cookies needed to keep you signed in and to protect our forms from misuse. We do not use advertising or tracking cookies.",
        ),
      ],
    },
    {
      id: "where-we-process",
      title: "Where your information is processed",
      blocks: [
        p(
          "Our team works from our office in Hyderabad, India, and our service providers may store information in the United States or other countries. The protections in this policy apply wherever your information is processed.",
        ),
      ],
    },
    {
      id: "children",
      title: "Children's information",
      blocks: [
        p(
          "Our services are for adults. We hold information about children only when a parent or guardian gives it to us for a tax return or an ITIN application, and we protect it in the same way.",
        ),
      ],
    },
    {
      id: "changes",
      title: "Changes to this policy",
      blocks: [
        p(
          "We may update this policy. The date at the top shows the current version. If a change affects how we use information we already hold, we will tell you before it takes effect.",
        ),
      ],
    },
    {
      id: "contact",
      title: "Contact us",
      blocks: [p("For questions or requests about your privacy, contact us:"), ...contactBlocks],
    },
  ],
};

export const termsOfService: Policy = {
  title: "Terms of Service",
  path: "/terms",
  lastUpdated: POLICIES_LAST_UPDATED,
  lastUpdatedIso,
  seoDescription: `The terms for using ${business.name} and our tax services: your responsibilities, fees, our satisfaction guarantee, records, New York law and arbitration.`,
  intro: `These terms explain what you can expect from ${business.name} and what we need from you. Please read them before you create an account or engage us.`,
  sections: [
    {
      id: "about-these-terms",
      title: "About these terms",
      blocks: [
        p(
          `These terms apply when you use the ${business.name} website or client portal, or engage us for a service. By creating an account or engaging us, you agree to them. For each engagement we confirm the service and the fee in writing; where that confirmation differs from these terms, the confirmation applies to that engagement.`,
        ),
      ],
    },
    {
      id: "our-services",
      title: "Our services",
      blocks: [
        p(
          "We prepare and file US federal income tax returns (Form 1040 and Form 1040-NR), extensions (Form 4868), ITIN applications (Form W-7), FBAR and FATCA reports, help with Form W-4, and tax planning, together with related forms we agree in writing.",
        ),
        p(
          "Information on this website is general, not advice for your situation. Our advice is based on the facts you give us and the law when we give it. We represent you before the IRS only if we agree to do so in writing.",
        ),
      ],
    },
    {
      id: "your-responsibilities",
      title: "Your responsibilities",
      blocks: [
        list(
          "Give us accurate and complete information and documents, in good time, and tell us promptly about any change.",
          "Review every return and form we prepare before you approve it. You sign your returns, and you remain responsible for what they say and for paying any tax you owe.",
          "Keep your own copies of your documents and returns.",
          "Keep your sign-in details private, and tell us at once if you think someone else has used your account.",
          "Use our website lawfully, and upload only documents you have the right to share.",
        ),
        p(
          "We rely on the information you give us. We are not responsible for errors, penalties or interest that result from information that was wrong, incomplete or late.",
        ),
      ],
    },
    {
      id: "fees",
      title: "Consultations and fees",
      blocks: [
        list(
          "Your initial consultation, of 30 minutes, is free.",
          [
            "Our fees are as published on our ",
            { text: "pricing page", href: "/pricing" },
            ". We confirm the fee for your work in writing before we start. If the work turns out larger than agreed, we ask you before doing more.",
          ],
          "Our fees do not include any tax, interest or penalty you owe to the IRS or a state. You pay those directly to the tax agency.",
          "Fees are due before we file, unless we agree otherwise in writing.",
        ),
      ],
    },
    {
      id: "satisfaction-guarantee",
      title: "Our 100% satisfaction guarantee",
      blocks: [
        p(
          "If you are not satisfied with our service, tell us what went wrong. We will first try to put it right at no charge. If you are still not satisfied, we refund the fee you paid us for that service.",
        ),
        p(
          "The guarantee applies to our fees only. It refunds our fee; it does not cover tax you owe, or penalties or interest charged by the IRS or a state, and it is not a promise of any result.",
        ),
      ],
    },
    {
      id: "no-guarantee-of-outcomes",
      title: "No guarantee of outcomes",
      blocks: [
        p(
          "The IRS and other agencies decide on every return and application. We do not promise any refund or refund amount, any tax saving, the approval of an ITIN application, or any processing time. The times and figures on our website are typical, not promises.",
        ),
      ],
    },
    {
      id: "records",
      title: "Records",
      blocks: [
        p([
          "We keep copies of your returns, supporting documents and our working papers for at least seven years after filing, and you may ask for copies during that time. Our ",
          { text: "Privacy Policy", href: "/privacy" },
          " explains how we protect them.",
        ]),
      ],
    },
    {
      id: "confidentiality",
      title: "Confidentiality",
      blocks: [
        p(
          "We keep your information confidential and use it only as our Privacy Policy describes. As tax return preparers, we may not use or disclose your tax return information without your consent, except as the law allows (Internal Revenue Code §7216).",
        ),
      ],
    },
    {
      id: "hours-and-response",
      title: "Business hours and response times",
      blocks: [
        p(
          `Our business hours are ${business.hoursLong}. We respond to messages ${business.responsePromise}. Deadlines are busy: to be sure we can file on time, send complete documents well before the due date.`,
        ),
      ],
    },
    {
      id: "limitation-of-liability",
      title: "Limitation of liability",
      blocks: [
        p(
          "To the extent the law allows, our total liability for any claim connected with our services is limited to the fees you paid us for the service the claim concerns. We are not liable for indirect or consequential losses, or for tax you would have owed in any case. Nothing in these terms limits a liability that the law does not allow us to limit.",
        ),
      ],
    },
    {
      id: "ending-our-work",
      title: "Ending our work together",
      blocks: [
        p(
          "You may stop our work at any time; you pay only for the work already done. We may stop if we do not receive the information we need, if agreed fees are not paid, or if we are asked to do something unlawful or unethical. We tell you in writing and return your original documents.",
        ),
      ],
    },
    {
      id: "governing-law-and-disputes",
      title: "Governing law and disputes",
      blocks: [
        p(
          "These terms are governed by the laws of the State of New York, USA, without regard to its conflict-of-law rules.",
        ),
        p(
          "If a dispute arises, please contact us first: most problems are solved by talking. If we cannot resolve it within 30 days, it will be settled by binding arbitration in New York, New York, before a single arbitrator and on an individual basis. Either of us may instead bring a claim in small claims court if it qualifies.",
        ),
      ],
    },
    {
      id: "changes",
      title: "Changes to these terms",
      blocks: [
        p(
          "We may update these terms. The date at the top shows the current version. Changes do not affect work already agreed, and we tell clients with open work about important changes before they take effect.",
        ),
      ],
    },
    {
      id: "contact",
      title: "Contact us",
      blocks: [p("For questions about these terms, contact us:"), ...contactBlocks],
    },
  ],
};

export const policies = {
  lastUpdated: POLICIES_LAST_UPDATED,
  privacy: privacyPolicy,
  terms: termsOfService,
} as const;

/** All the text of a policy in one string, for content checks. */
export function policyText(policy: Policy): string {
  const rich = (r: RichText) =>
    typeof r === "string" ? r : r.map((x) => (typeof x === "string" ? x : x.text)).join("");
  return [
    policy.title,
    rich(policy.intro),
    ...policy.sections.flatMap((s) => [
      s.title,
      ...s.blocks.flatMap((b) => (b.kind === "p" ? [rich(b.text)] : b.items.map(rich))),
    ]),
  ].join("\n");
}
