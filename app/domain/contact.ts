import { z } from "./zod";
import { CONTROL_CHARACTERS_MESSAGE, EMAIL_SHAPE, fieldErrors, hasControlCharacters } from "./validation";
import type { FieldErrors } from "./validation";

/** Spec section 5: the contact form's rules and messages. */
export const CONTACT_MESSAGES = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email",
  subjectRequired: "Subject is required",
  descriptionRequired: "Message is required",
  descriptionTooShort: "Message must be at least 10 characters",
  descriptionTooLong: "Message must be 500 characters or fewer",
  phoneInvalid: "Please enter a valid phone number",
  nameTooLong: "Name must be 100 characters or fewer",
  subjectTooLong: "Subject must be 150 characters or fewer",
  emailTooLong: "Email must be 254 characters or fewer",
  banner: "Please fix the errors above.",
  sendFailed: "Failed to send message. Please try again or contact us directly.",
  rateLimited:
    "You have sent several messages in a short time. Please try again in an hour, or call or e-mail us directly.",
  successTitle: "Message Sent!",
  successBody: "We'll get back to you within 24 hours",
  submit: "Send Message",
  submitting: "Sending your message...",
} as const;

export const DESCRIPTION_MIN = 10;
export const DESCRIPTION_MAX = 500;
/** How long the success modal stays open (spec: 5 seconds). */
export const CONTACT_SUCCESS_MS = 5_000;

export const CONTACT_FIELDS = ["name", "email", "phone", "subject", "description"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

const text = z.preprocess((v) => (typeof v === "string" ? v : ""), z.string());

export const ContactSchema = z.object({
  name: text
    .transform((v) => v.trim())
    .pipe(z.string().min(1, CONTACT_MESSAGES.nameRequired).max(100, CONTACT_MESSAGES.nameTooLong).refine((v) => !hasControlCharacters(v), CONTROL_CHARACTERS_MESSAGE)),
  email: text.transform((v) => v.trim()).pipe(
    z
      .string()
      .min(1, CONTACT_MESSAGES.emailRequired)
      .max(254, CONTACT_MESSAGES.emailTooLong)
      .regex(EMAIL_SHAPE, CONTACT_MESSAGES.emailInvalid),
  ),
  phone: text
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .refine((v) => v === "" || /^\+?[0-9 ()-]{7,20}$/.test(v), CONTACT_MESSAGES.phoneInvalid)
        .transform((v) => (v === "" ? null : v)),
    ),
  subject: text
    .transform((v) => v.trim())
    .pipe(z.string().min(1, CONTACT_MESSAGES.subjectRequired).max(150, CONTACT_MESSAGES.subjectTooLong).refine((v) => !hasControlCharacters(v), CONTROL_CHARACTERS_MESSAGE)),
  description: text.pipe(
    z
      .string()
      .superRefine((v, ctx) => {
        const trimmed = v.trim();
        if (trimmed.length === 0) ctx.addIssue({ code: "custom", message: CONTACT_MESSAGES.descriptionRequired });
        else if (trimmed.length < DESCRIPTION_MIN)
          ctx.addIssue({ code: "custom", message: CONTACT_MESSAGES.descriptionTooShort });
        else if (v.length > DESCRIPTION_MAX)
          ctx.addIssue({ code: "custom", message: CONTACT_MESSAGES.descriptionTooLong });
        else if (hasControlCharacters(v)) ctx.addIssue({ code: "custom", message: CONTROL_CHARACTERS_MESSAGE });
      })
      .transform((v) => v.trim()),
  ),
});

export type ContactInput = z.output<typeof ContactSchema>;
export type ContactValues = Record<ContactField, string>;

export const emptyContactValues: ContactValues = { name: "", email: "", phone: "", subject: "", description: "" };

export type ContactResult =
  | { ok: true; data: ContactInput }
  | { ok: false; errors: FieldErrors<ContactField> };

/** Checks a submission with the rules of spec section 5 (the browser and the server both call this). */
export function validateContact(input: Record<string, unknown>): ContactResult {
  const result = ContactSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrors<ContactField>(result.error) };
}
