import type { ContactInput } from "~/domain/contact";
import { getDb } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";
import { deliverMail, enqueueMail } from "~/server/mail/outbox.server";
import type { RateLimitRule } from "~/server/limits/rate-limit.server";

/** Five messages an hour from one address is plenty for a person and too few for a spammer. */
export const contactRateLimit: RateLimitRule = { name: "contact", limit: 5, windowSeconds: 60 * 60 };

/**
 * Stores a contact message and e-mails it to the staff address. The message and its e-mail (an
 * outbox row naming the stored message, never a copy of its text: ADR 0023) are stored together;
 * the e-mail is sent once the answer has gone, and one the mail server does not take stays
 * queued for another try.
 * Staff also read the message in the admin panel, so a mail outage never loses it.
 */
export async function createContactMessage(input: ContactInput, ipAddress: string): Promise<{ id: string }> {
  const { id, mailId } = await getDb().transaction(async (tx) => {
    const [row] = await tx.insert(contactMessages).values({ ...input, ipAddress }).returning({ id: contactMessages.id });
    if (!row) throw new Error("contact message was not stored");
    const queued = await enqueueMail(
      { kind: "contact-message", to: getEnv().staffEmail, payload: { contactMessageId: row.id } },
      tx,
    );
    return { id: row.id, mailId: queued };
  });
  deliverMail(mailId);
  return { id };
}
