import { describe, expect, it } from "vitest";
import { CONTACT_MESSAGES, HONEYPOT_FIELD, validateContact } from "~/domain/contact";
import { ContactFormSchema } from "~/domain/contact-schema";
import { fieldErrors } from "~/domain/validation";

const valid = {
  name: "Arjun Mehta",
  email: "arjun@example.com",
  phone: "",
  subject: "FBAR question",
  description: "I have three bank accounts in India. Do I need to file an FBAR?",
};

function errorsOf(input: Record<string, unknown>) {
  const result = validateContact(input);
  return result.ok ? {} : result.errors;
}

describe("contact form rules (docs/product/public-site.md#contact-form)", () => {
  it("accepts a complete message, phone optional, and trims text", () => {
    const result = validateContact({ ...valid, name: "  Arjun Mehta  " });
    expect(result).toEqual({ ok: true, data: { ...valid, name: "Arjun Mehta", phone: null } });
  });

  it("requires a name after trimming: Name is required", () => {
    expect(errorsOf({ ...valid, name: "" }).name).toBe("Name is required");
    expect(errorsOf({ ...valid, name: "   " }).name).toBe("Name is required");
  });

  it("requires an e-mail: Email is required", () => {
    expect(errorsOf({ ...valid, email: "" }).email).toBe("Email is required");
  });

  it("wants the shape something@something.something: Please enter a valid email", () => {
    for (const email of ["arjun", "arjun@", "arjun@example", "@example.com", "a b@example.com"]) {
      expect(errorsOf({ ...valid, email }).email).toBe("Please enter a valid email");
    }
    expect(errorsOf({ ...valid, email: "a@b.co" }).email).toBeUndefined();
  });

  it("requires a subject: Subject is required", () => {
    expect(errorsOf({ ...valid, subject: "" }).subject).toBe("Subject is required");
  });

  it("requires a message, and one of at least 10 characters replaces the required message", () => {
    expect(errorsOf({ ...valid, description: "" }).description).toBe("Message is required");
    expect(errorsOf({ ...valid, description: "123456789" }).description).toBe("Message must be at least 10 characters");
    expect(errorsOf({ ...valid, description: "1234567890" }).description).toBeUndefined();
  });

  it("enforces the 500-character counter", () => {
    expect(errorsOf({ ...valid, description: "x".repeat(500) }).description).toBeUndefined();
    expect(errorsOf({ ...valid, description: "x".repeat(501) }).description).toBe(CONTACT_MESSAGES.descriptionTooLong);
  });

  it("treats the phone as optional but refuses letters", () => {
    expect(errorsOf({ ...valid, phone: "(212) 555-0199" }).phone).toBeUndefined();
    expect(errorsOf({ ...valid, phone: "call me" }).phone).toBe(CONTACT_MESSAGES.phoneInvalid);
  });

  it("reports every failing field at once, and treats missing or non-text fields as empty", () => {
    expect(errorsOf({ name: 42, email: null })).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Subject is required",
      description: "Message is required",
    });
  });

  it("keeps the documented texts for the banner, the busy label and the success modal", () => {
    expect(CONTACT_MESSAGES.banner).toBe("Please fix the errors above.");
    expect(CONTACT_MESSAGES.submitting).toBe("Sending your message...");
    expect(CONTACT_MESSAGES.successTitle).toBe("Message Sent!");
    expect(CONTACT_MESSAGES.successBody).toBe("We'll get back to you within 24 hours");
    expect(CONTACT_MESSAGES.sendFailed).toBe("Failed to send message. Please try again or contact us directly.");
  });
});

describe("the contact form as the server reads it", () => {
  it("gives the same messages as the rules, each under its field", () => {
    const parsed = ContactFormSchema.safeParse({ ...valid, name: " ", email: "not-an-address" });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(fieldErrors(parsed.error)).toEqual(errorsOf({ ...valid, name: " ", email: "not-an-address" }));
  });

  it("reads a field sent twice as its first value, and a filled hidden field as a bot's form", () => {
    expect(ContactFormSchema.parse({ ...valid, name: ["Arjun Mehta", ""] })).toEqual({
      trapped: false,
      message: { ...valid, phone: null },
    });
    expect(ContactFormSchema.parse({ name: "", [HONEYPOT_FIELD]: "https://spam.example" })).toEqual({ trapped: true });
    expect(ContactFormSchema.parse({ ...valid, [HONEYPOT_FIELD]: "  " }).trapped).toBe(false);
  });
});
