/**
 * The product's first text of each service's engagement letter (docs/product/engagement.md):
 * what the firm will do, for what fee, and what the client must do. Admins write their own in the
 * panel (/admin/engagement); the first save of a service makes its version 1 from this text. The
 * fields in {{ }} are filled in for each case (app/domain/engagement.ts).
 */
import type { EngagementService } from "~/domain/engagement";

const opening = `Dear {{client_name}},

Thank you for choosing {{firm_name}}. This letter sets out what we will do for you for the {{tax_year}} tax year, what it costs, and what we need from you. Please read it, and accept it in your portal if you agree.`;

const closing = `Fee
Our fee for this work is {{fee}} ({{fee_basis}}), as on our price list. Work you ask for beyond what this letter describes is quoted and invoiced separately, and only after you agree to it. We send the invoice through your portal; the final copies of your filings are released once it is paid.

Your responsibilities
You are responsible for giving us complete and accurate information, and for telling us about every source of income and every document we ask for. We rely on what you give us and do not audit it. You will review the draft we prepare before it is filed, and you are responsible for the return or form you sign. Keep your records for at least three years after filing.

Our responsibilities
We will prepare your filing from the information you give us, under the law as it stands when we prepare it, and keep your information confidential. We use or disclose your tax information only to prepare and file your return, unless you give us your separate written consent under section 7216 of the Internal Revenue Code; no consent is needed for this engagement.

Time and end of this engagement
This engagement covers the {{tax_year}} tax year only and ends when the filing described above is made, or when either of us ends it in writing. Questions from the IRS about the filing after that are a new engagement.

By accepting this letter in your portal, you agree to its terms.

{{firm_name}}`;

const scope: Record<EngagementService, string> = {
  "1040-nr": `What we will do
We will prepare your {{tax_year}} federal income tax return as a nonresident alien (Form 1040-NR) and the statements it needs, including Form 8843 for each member of your household who is an exempt individual. We will apply any income tax treaty benefit you qualify for, e-file the return when it can be e-filed, and tell you of the IRS's answer.`,
  "1040": `What we will do
We will prepare your {{tax_year}} federal income tax return as a resident alien or citizen (Form 1040) with its schedules, consider the first-year and joint-filing choices open to you, e-file the return and tell you of the IRS's answer.`,
  itin: `What we will do
We will prepare your application for an Individual Taxpayer Identification Number (Form W-7) with the tax return or the exception documents it needs, check your identity documents against the IRS's list, and send the application to the IRS. The IRS decides whether to issue the number and how long that takes.`,
  "fbar-fatca": `What we will do
We will prepare your Report of Foreign Bank and Financial Accounts (FinCEN Form 114, the FBAR) for {{tax_year}} when your foreign accounts together exceeded $10,000 at any time in the year, and your Statement of Specified Foreign Financial Assets (Form 8938) when your assets exceed its thresholds, from the account statements you give us.`,
  "fica-refund": `What we will do
We will prepare your claim for a refund of Social Security and Medicare tax withheld from your pay in {{tax_year}} when you were exempt from it (Form 843, with Form 8316 or your employer's statement), after you have first asked your employer to repay it, and send the claim to the IRS.`,
  extension: `What we will do
We will prepare and file your application for an automatic extension of time to file your {{tax_year}} return (Form 4868) by the due date. An extension of time to file is not an extension of time to pay: tax you owe is due by the original due date.`,
  planning: `What we will do
We will review your situation for the {{tax_year}} tax year across the United States and your other country, and give you our written recommendations on your residency, your withholding, treaty benefits and the filings ahead. Preparing returns is not part of this engagement.`,
};

/** The first text of each service's template. */
export const DEFAULT_ENGAGEMENT_TEMPLATES: Record<EngagementService, string> = Object.fromEntries(
  (Object.keys(scope) as EngagementService[]).map((service) => [service, `${opening}\n\n${scope[service]}\n\n${closing}`]),
) as Record<EngagementService, string>;
