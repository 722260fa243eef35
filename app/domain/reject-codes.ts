/**
 * IRS e-file reject codes of individual returns, explained to the client in our own plain words
 * (docs/product/look-and-voice.md#voice). The codes are the IRS's business rules; the firm files
 * with its tax software and records the IRS's answer, and when a return is rejected the client is
 * told what happened and what to do.
 *
 * A rejected return may be corrected and sent again within 5 calendar days and still count as
 * filed on time (the IRS's perfection period for Forms 1040 and 4868; the last day is `resendBy`
 * in domain/returns.ts). Each code is explained in two forms: before that deadline and after it.
 *
 * Pure rules shared by the browser and the server.
 */

/** Whose details the IRS found wrong. */
export type RejectConcerns = "taxpayer" | "spouse" | "dependent" | "employer";

export type RejectCodeEntry = {
  code: string;
  concerns: RejectConcerns;
  /** One short line for a heading. */
  title: string;
  /** What the IRS found, in plain words. */
  explanation: string;
  /** What the client does while the return can still be sent again on time. */
  beforeDeadline: string;
  /** What the client does once those 5 days have passed. */
  afterDeadline: string;
};

/** How many calendar days a rejected return may be corrected and sent again and still be on time. */
export const RESUBMIT_WITHIN_DAYS = 5;

/**
 * A reject code as the IRS writes it: one or more rule families of capital letters and digits that
 * start with a letter (IND, R0000, F1040, FW2, SEIC-F1040…), each followed by a dash, then three
 * digits, and an optional dash and two digits.
 */
const REJECT_CODE_SHAPE = /^[A-Z][A-Z0-9]{1,9}(?:-[A-Z][A-Z0-9]{1,9})*-\d{3}(?:-\d{2})?$/;

export const REJECT_CODE_FORMAT_MESSAGE =
  "Enter the reject code as the IRS writes it, for example IND-031-04 or FW2-502";

/** The code in its written form (trimmed, capital letters), or null when it is not one. */
export function normalizeRejectCode(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return REJECT_CODE_SHAPE.test(code) ? code : null;
}

// Sentences said under several codes.
const SEND_AGAIN = "Then we will correct the return and send it to the IRS again.";
const LATE =
  "The 5 days the IRS gives to correct a rejected return and still count it as sent on time have passed.";
const LATE_FILING =
  "The IRS may now count the return as filed on the day it accepts it. If that day is after the due date, a penalty and interest for filing late may apply. We will explain your choices, which may include filing on paper.";
const AGI_PIN_HELP =
  "AGI (adjusted gross income) is a total on your return: on last year's Form 1040 or 1040-NR it is on line 11. A Self-Select PIN is a 5-digit number you chose to sign last year's return.";
const IP_PIN_HELP =
  "An IP PIN (Identity Protection PIN) is a 6-digit number the IRS gives to protect a person's tax number. A new one is issued every year, and only the one for this year works.";

function entry(
  code: string,
  concerns: RejectConcerns,
  title: string,
  explanation: string,
  todo: string,
  lateTodo: string,
): RejectCodeEntry {
  return {
    code,
    concerns,
    title,
    explanation,
    beforeDeadline: `${todo} ${SEND_AGAIN} Please do this as soon as you can: we have ${RESUBMIT_WITHIN_DAYS} days from the rejection to send the return again.`,
    afterDeadline: `${LATE} ${lateTodo} ${LATE_FILING}`,
  };
}

const ENTRIES: RejectCodeEntry[] = [
  entry(
    "IND-031-04",
    "taxpayer",
    "Your last year's AGI or PIN did not match",
    `To check who signs, the IRS compares the amount of last year's AGI, or last year's Self-Select PIN, with its records. The number sent for you did not match. ${AGI_PIN_HELP}`,
    "Send us a copy of last year's return, or tell us if you did not file one or filed it late. If the IRS has not finished processing last year's return, the right amount may be 0. We will use the number the IRS expects.",
    "Send us a copy of last year's return, or tell us if you did not file one or filed it late.",
  ),
  entry(
    "IND-032-04",
    "spouse",
    "Your spouse's last year's AGI or PIN did not match",
    `To check who signs, the IRS compares the amount of your spouse's AGI from last year, or their Self-Select PIN, with its records. The number sent for your spouse did not match. ${AGI_PIN_HELP}`,
    "Send us a copy of your spouse's return from last year, or tell us if they did not file one or filed it late. If the IRS has not finished processing it, the right amount may be 0.",
    "Send us a copy of your spouse's return from last year, or tell us if they did not file one or filed it late.",
  ),
  entry(
    "IND-180-01",
    "taxpayer",
    "Your IP PIN did not match",
    `The IRS has an IP PIN for you, and the number on the return is not the right one. ${IP_PIN_HELP}`,
    "Send us your IP PIN for this year. You find it in the letter the IRS sent you (CP01A) or in your IRS online account.",
    "Send us your IP PIN for this year, from the IRS letter (CP01A) or your IRS online account.",
  ),
  entry(
    "IND-181-01",
    "taxpayer",
    "Your IP PIN is missing",
    `IRS records show that you have an IP PIN, but the return did not include one. ${IP_PIN_HELP}`,
    "Send us your IP PIN for this year. You find it in the letter the IRS sent you (CP01A) or in your IRS online account.",
    "Send us your IP PIN for this year, from the IRS letter (CP01A) or your IRS online account.",
  ),
  entry(
    "IND-182-01",
    "spouse",
    "Your spouse's IP PIN did not match",
    `The IRS has an IP PIN for your spouse, and the number on the return is not the right one. ${IP_PIN_HELP}`,
    "Send us your spouse's IP PIN for this year, from their IRS letter (CP01A) or their IRS online account.",
    "Send us your spouse's IP PIN for this year, from their IRS letter (CP01A) or their IRS online account.",
  ),
  entry(
    "IND-183-01",
    "spouse",
    "Your spouse's IP PIN is missing",
    `IRS records show that your spouse has an IP PIN, but the return did not include one. ${IP_PIN_HELP}`,
    "Send us your spouse's IP PIN for this year, from their IRS letter (CP01A) or their IRS online account.",
    "Send us your spouse's IP PIN for this year, from their IRS letter (CP01A) or their IRS online account.",
  ),
  entry(
    "IND-996",
    "dependent",
    "A dependent's IP PIN did not match",
    `A dependent is a person you support, such as a child, who is listed on your return. The IRS has an IP PIN for one of your dependents, and the number on the return is missing or not the right one. ${IP_PIN_HELP}`,
    "Send us this year's IP PIN for each dependent who has one, from the IRS letter (CP01A) or the IRS online account.",
    "Send us this year's IP PIN for each dependent who has one.",
  ),
  entry(
    "IND-452",
    "taxpayer",
    "Your tax number was already used this year",
    "Another return for this tax year was already filed with your SSN or ITIN (ITIN: the tax number for people who cannot get an SSN). This can happen when a return was filed twice, or when someone else used your number.",
    "Tell us if you, or anyone for you, already filed a return for this year. If you did not, someone may have used your number: tell us, and we will explain how to report it to the IRS. The return may then need to be filed on paper.",
    "Tell us if you, or anyone for you, already filed a return for this year. If you did not, someone may have used your number: tell us, and we will explain how to report it to the IRS.",
  ),
  entry(
    "IND-507",
    "dependent",
    "A dependent was already claimed",
    "A dependent is a person you support, such as a child, who is listed on your return. Another return for this tax year already lists one of your dependents, with the same SSN or ITIN.",
    "Check with anyone who could also list this person, such as a former spouse or a relative, and check the dependent's SSN or ITIN on their card or letter. Tell us what you find. If you are sure you have the right to claim them, the return may need to be filed on paper.",
    "Check with anyone who could also list this person, and check the dependent's SSN or ITIN. Tell us what you find.",
  ),
  entry(
    "IND-524",
    "taxpayer",
    "Your date of birth did not match",
    "The date of birth on the return is not the one the IRS has for you. The IRS gets it from the Social Security Administration, or from your ITIN application.",
    "Check your date of birth on your passport, and tell us if it differs from the one we have. If the IRS's record is wrong, the record must be fixed first; we will tell you how.",
    "Check your date of birth on your passport, and tell us if it differs from the one we have.",
  ),
  entry(
    "F1040-526-03",
    "spouse",
    "Your spouse's date of birth did not match",
    "The date of birth on the return is not the one the IRS has for your spouse. The IRS gets it from the Social Security Administration, or from the ITIN application.",
    "Check your spouse's date of birth on their passport, and tell us if it differs from the one we have.",
    "Check your spouse's date of birth on their passport, and tell us if it differs from the one we have.",
  ),
  entry(
    "R0000-500-01",
    "taxpayer",
    "Your name and tax number did not match",
    "The IRS compares the name and the SSN or ITIN on the return with its records, and they did not match. Often the name was changed (for example after marriage) or is written in a different order.",
    "Send us a photo of your Social Security card or your ITIN letter, and tell us if your name has changed. We will write your name exactly as it is on that card or letter.",
    "Send us a photo of your Social Security card or your ITIN letter, and tell us if your name has changed.",
  ),
  entry(
    "R0000-503-02",
    "spouse",
    "Your spouse's name and tax number did not match",
    "The IRS compares your spouse's name and SSN or ITIN on the return with its records, and they did not match. Often the name was changed or is written in a different order.",
    "Send us a photo of your spouse's Social Security card or ITIN letter, and tell us if their name has changed.",
    "Send us a photo of your spouse's Social Security card or ITIN letter, and tell us if their name has changed.",
  ),
  entry(
    "R0000-504-02",
    "dependent",
    "A dependent's name and tax number did not match",
    "A dependent is a person you support, such as a child, who is listed on your return. The name and SSN or ITIN of one of your dependents did not match the IRS's records.",
    "Send us a photo of each dependent's Social Security card or ITIN letter. We will write each name exactly as it is there.",
    "Send us a photo of each dependent's Social Security card or ITIN letter.",
  ),
  entry(
    "FW2-502",
    "employer",
    "An employer's name and number did not match",
    "A W-2 is the form an employer gives you with your pay and the tax held back. The employer's name and EIN (the employer's tax number) on one of your W-2 forms did not match the IRS's records.",
    "Send us a clear copy of each W-2 you received, or a corrected W-2 if your employer issued one. If a W-2 looks wrong, ask your employer to check it.",
    "Send us a clear copy of each W-2 you received, or a corrected W-2 if your employer issued one.",
  ),
];

export const REJECT_CODES: Readonly<Record<string, RejectCodeEntry>> = Object.freeze(
  Object.fromEntries(ENTRIES.map((e) => [e.code, Object.freeze(e)])),
);

export type RejectCodeDescription = {
  code: string;
  known: boolean;
  concerns: RejectConcerns | null;
  title: string;
  explanation: string;
  whatToDo: string;
};

const GENERIC_TITLE = "The IRS could not accept the return";
const GENERIC_EXPLANATION =
  "The IRS checks every return it receives against its records. Something on your return did not pass one of these checks. We are looking at what the IRS found and will tell you what it means.";
const GENERIC_TODO =
  "You do not need to do anything yet. If we need a document or an answer from you, we will ask you in your portal.";

/**
 * What the client reads about a reject code. Codes the catalogue does not hold get a general
 * explanation (with the code, for staff to explain). A string that is not a reject code at all
 * is a programming error: staff input goes through `normalizeRejectCode` first.
 */
export function describeRejectCode(code: string, { deadlinePassed }: { deadlinePassed: boolean }): RejectCodeDescription {
  const written = normalizeRejectCode(code);
  if (written === null) throw new RangeError(`Not an IRS reject code: ${JSON.stringify(code)}`);
  const known = Object.hasOwn(REJECT_CODES, written) ? REJECT_CODES[written] : undefined;
  if (known) {
    return {
      code: written,
      known: true,
      concerns: known.concerns,
      title: known.title,
      explanation: known.explanation,
      whatToDo: deadlinePassed ? known.afterDeadline : known.beforeDeadline,
    };
  }
  return {
    code: written,
    known: false,
    concerns: null,
    title: GENERIC_TITLE,
    explanation: GENERIC_EXPLANATION,
    whatToDo: deadlinePassed ? `${LATE} ${GENERIC_TODO} ${LATE_FILING}` : GENERIC_TODO,
  };
}
