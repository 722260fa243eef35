import { formField } from "./auth";
import { CONTACT_FIELDS, HONEYPOT_FIELD, validateContact } from "./contact";
import type { ContactInput } from "./contact";
import { z } from "./zod";

/**
 * The contact form as the server reads it: the rules of docs/product/public-site.md#contact-form
 * (`validateContact`, which the public page's browser module runs too, without zod;
 * docs/decisions/0008) and the honeypot. A form whose hidden field is filled in is a bot's: it is
 * `trapped`, and nothing else is checked.
 */
export const ContactFormSchema = z
  .object({
    name: formField,
    email: formField,
    phone: formField,
    subject: formField,
    description: formField,
    [HONEYPOT_FIELD]: formField,
  })
  .transform((form, ctx): { trapped: true } | { trapped: false; message: ContactInput } => {
    if (form[HONEYPOT_FIELD].trim() !== "") return { trapped: true };
    const checked = validateContact(form);
    if (checked.ok) return { trapped: false, message: checked.data };
    for (const field of CONTACT_FIELDS) {
      const message = checked.errors[field];
      if (message) ctx.addIssue({ code: "custom", path: [field], message });
    }
    return z.NEVER;
  });
