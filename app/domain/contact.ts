import { CONTROL_CHARACTERS_MESSAGE, EMAIL_SHAPE, hasControlCharacters } from "./validation";
import type { FieldErrors } from "./validation";

/** The contact form's rules and messages (docs/product/public-site.md#contact-form). */
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
/** How long the success modal stays open (docs/product/public-site.md#contact-form: 5 seconds). */
export const CONTACT_SUCCESS_MS = 5_000;

export const CONTACT_FIELDS = ["name", "email", "phone", "subject", "description"] as const;
/** A field people never see; bots that fill every input give themselves away. */
export const HONEYPOT_FIELD = "company_website";
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** A submitted message after the checks: text trimmed, an empty phone as null. */
export type ContactInput = {
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  description: string;
};
export type ContactValues = Record<ContactField, string>;

export const emptyContactValues: ContactValues = { name: "", email: "", phone: "", subject: "", description: "" };

export type ContactResult =
  | { ok: true; data: ContactInput }
  | { ok: false; errors: FieldErrors<ContactField> };

const PHONE_SHAPE = /^\+?[0-9 ()-]{7,20}$/;

function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The first failing rule's message for each field (undefined when the field passes). */
function fieldChecks(values: ContactValues): FieldErrors<ContactField> {
  const name = values.name.trim();
  const email = values.email.trim();
  const phone = values.phone.trim();
  const subject = values.subject.trim();
  const description = values.description.trim();
  const errors: FieldErrors<ContactField> = {
    name: !name
      ? CONTACT_MESSAGES.nameRequired
      : name.length > 100
        ? CONTACT_MESSAGES.nameTooLong
        : hasControlCharacters(name)
          ? CONTROL_CHARACTERS_MESSAGE
          : undefined,
    email: !email
      ? CONTACT_MESSAGES.emailRequired
      : email.length > 254
        ? CONTACT_MESSAGES.emailTooLong
        : !EMAIL_SHAPE.test(email)
          ? CONTACT_MESSAGES.emailInvalid
          : undefined,
    phone: phone !== "" && !PHONE_SHAPE.test(phone) ? CONTACT_MESSAGES.phoneInvalid : undefined,
    subject: !subject
      ? CONTACT_MESSAGES.subjectRequired
      : subject.length > 150
        ? CONTACT_MESSAGES.subjectTooLong
        : hasControlCharacters(subject)
          ? CONTROL_CHARACTERS_MESSAGE
          : undefined,
    description: !description
      ? CONTACT_MESSAGES.descriptionRequired
      : description.length < DESCRIPTION_MIN
        ? CONTACT_MESSAGES.descriptionTooShort
        : values.description.length > DESCRIPTION_MAX
          ? CONTACT_MESSAGES.descriptionTooLong
          : hasControlCharacters(values.description)
            ? CONTROL_CHARACTERS_MESSAGE
            : undefined,
  };
  for (const field of CONTACT_FIELDS) if (errors[field] === undefined) delete errors[field];
  return errors;
}

/**
 * Checks a submission with the rules of docs/product/public-site.md#contact-form. The server and
 * the browser (the contact form's enhancement, app/enhance/contact-form.ts) both call this, so it
 * stays free of dependencies.
 */
export function validateContact(input: Record<string, unknown>): ContactResult {
  const values: ContactValues = {
    name: textOf(input.name),
    email: textOf(input.email),
    phone: textOf(input.phone),
    subject: textOf(input.subject),
    description: textOf(input.description),
  };
  const errors = fieldChecks(values);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const phone = values.phone.trim();
  return {
    ok: true,
    data: {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: phone === "" ? null : phone,
      subject: values.subject.trim(),
      description: values.description.trim(),
    },
  };
}
