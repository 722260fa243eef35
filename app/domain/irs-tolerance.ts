/**
 * When a corrected return needs a new signature. After the client signed Form 8879 (or 8878), the
 * firm may correct the return (after an IRS reject, say) and send it without a new signature only
 * while the correction changes income or AGI by no more than $50, and the total tax, the tax
 * withheld, and the refund or amount owed each by no more than $14. Past any of these, the client
 * signs again.
 *
 * Staff type the four differences in dollars; they are parsed into integer cents from the text,
 * never through floating point. Pure rules shared by the browser and the server.
 */
import { z } from "./zod";

export type ToleranceDifferences = {
  incomeOrAgiCents: number;
  taxCents: number;
  withholdingCents: number;
  refundOrOwedCents: number;
};

export type ToleranceField = keyof ToleranceDifferences;

/** The largest difference, either way, that needs no new signature (cents, inclusive). */
export const IRS_TOLERANCE_CENTS: Readonly<Record<ToleranceField, number>> = Object.freeze({
  incomeOrAgiCents: 5000,
  taxCents: 1400,
  withholdingCents: 1400,
  refundOrOwedCents: 1400,
});

export const TOLERANCE_LABELS: Readonly<Record<ToleranceField, string>> = Object.freeze({
  incomeOrAgiCents: "Income or AGI",
  taxCents: "Total tax",
  withholdingCents: "Tax withheld",
  refundOrOwedCents: "Refund or amount owed",
});

const FIELDS = Object.keys(IRS_TOLERANCE_CENTS) as ToleranceField[];

/**
 * Whether a correction stays within the IRS's tolerance. `exceeded` names the differences past
 * their limit, in the order of the form. Differences are whole cents; anything else is refused.
 */
export function withinIrsTolerance(differences: ToleranceDifferences): { within: boolean; exceeded: ToleranceField[] } {
  const exceeded: ToleranceField[] = [];
  for (const field of FIELDS) {
    const cents = differences[field];
    if (!Number.isSafeInteger(cents)) throw new RangeError(`${field} must be a whole number of cents, not ${String(cents)}`);
    if (Math.abs(cents) > IRS_TOLERANCE_CENTS[field]) exceeded.push(field);
  }
  return { within: exceeded.length === 0, exceeded };
}

// ---------------------------------------------------------------------------------------------
// Dollar amounts typed by staff

/** The largest amount the form takes: 99,999,999,999.99 dollars. */
const MAX_DOLLAR_DIGITS = 11;

export const DOLLARS_MESSAGES = {
  required: "Enter the difference in dollars (0 if there is none)",
  shape: "Enter an amount in dollars, like 12.34, $1,234.00 or -5",
  decimals: "Use at most 2 digits after the decimal point",
  tooLarge: "This amount is too large",
} as const;

/**
 * A dollar amount as typed ("12.34", "$1,234.00", "-5", "-$0.50") in integer cents, or the message
 * saying what is wrong with it. Commas must group thousands; no exponent, no spaces inside.
 */
export function parseDollarsToCents(raw: string): { ok: true; cents: number } | { ok: false; message: string } {
  const text = raw.trim();
  if (text === "") return { ok: false, message: DOLLARS_MESSAGES.required };
  const match = /^([+-]?)\$?([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[1] && match[2])) return { ok: false, message: DOLLARS_MESSAGES.shape };
  const [, signBefore = "", signAfter = "", whole = "", fraction = ""] = match;
  if (fraction.length > 2) return { ok: false, message: DOLLARS_MESSAGES.decimals };
  const digits = whole.replaceAll(",", "").replace(/^0+(?=\d)/, "");
  if (digits.length > MAX_DOLLAR_DIGITS) return { ok: false, message: DOLLARS_MESSAGES.tooLarge };
  // At most 13 digits of cents: well inside the integers a double holds exactly.
  const cents = Number(digits) * 100 + Number(fraction.padEnd(2, "0"));
  const negative = (signBefore || signAfter) === "-" && cents !== 0;
  return { ok: true, cents: negative ? -cents : cents };
}

const dollarsField = z
  .string({ error: DOLLARS_MESSAGES.required })
  .transform((raw, ctx) => {
    const parsed = parseDollarsToCents(raw);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    return parsed.cents;
  });

/**
 * The form staff fill in when they correct a signed return: how much each figure changed, in
 * dollars, either way. Parsed into the differences `withinIrsTolerance` takes.
 */
export const toleranceFormSchema = z
  .object({
    incomeOrAgi: dollarsField,
    tax: dollarsField,
    withholding: dollarsField,
    refundOrOwed: dollarsField,
  })
  .transform(
    (form): ToleranceDifferences => ({
      incomeOrAgiCents: form.incomeOrAgi,
      taxCents: form.tax,
      withholdingCents: form.withholding,
      refundOrOwedCents: form.refundOrOwed,
    }),
  );
