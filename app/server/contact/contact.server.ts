import type { ContactInput } from "~/domain/contact";
import { logError } from "~/log";
import { getDb } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";
import { sendMail } from "~/server/mail/mail.server";
import { contactMessageMail } from "~/server/mail/mail-templates.server";
import type { RateLimitRule } from "~/server/limits/rate-limit.server";

/** Five messages an hour from one address is plenty for a person and too few for a spammer. */
export const contactRateLimit: RateLimitRule = { name: "contact", limit: 5, windowSeconds: 60 * 60 };

/** Stores a contact message and e-mails it to the staff address. */
export async function createContactMessage(input: ContactInput, ipAddress: string): Promise<{ id: string }> {
  const [row] = await getDb()
    .insert(contactMessages)
    .values({ ...input, ipAddress })
    .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
  if (!row) throw new Error("contact message was not stored");
  const env = getEnv();
  try {
    await sendMail(contactMessageMail(env.staffEmail, input, row.createdAt));
  } catch (error) {
    // The message is stored and staff read it in the admin panel; a mail outage must not lose it.
    logError("contact", "staff e-mail failed", error);
  }
  return { id: row.id };
}
