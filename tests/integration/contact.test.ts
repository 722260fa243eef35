import { describe, expect, it } from "vitest";
import { action, HONEYPOT_FIELD } from "~/routes/marketing/contact";
import { CONTACT_MESSAGES } from "~/domain/contact";
import { getDb } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema";
import { formRequest, routeArgs, unwrap } from "../helpers/route";
import { sentMail } from "./helpers";

type Answer = { ok: boolean; errors?: Record<string, string>; formError?: string };

const valid = {
  name: "Priya Raman",
  email: "priya@example.com",
  phone: "212 555 0199",
  subject: "ITIN for my spouse",
  description: "My wife is on an H-4 visa and needs an ITIN to file jointly with me.",
};

async function send(fields: Record<string, string>, ip = "203.0.113.10") {
  const result = await action(routeArgs(formRequest("/contact", fields), { clientIp: ip }) as never);
  return unwrap<Answer>(result);
}

describe("contact action", () => {
  it("stores a valid message and e-mails it to the staff address", async () => {
    const answer = await send(valid);
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);

    const rows = await getDb().select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Priya Raman",
      email: "priya@example.com",
      phone: "212 555 0199",
      subject: "ITIN for my spouse",
      description: valid.description,
      ipAddress: "203.0.113.10",
      handledAt: null,
    });

    const mails = (await sentMail());
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("staff@taxbridge.test");
    expect(mails[0]!.subject).toContain("ITIN for my spouse");
    expect(mails[0]!.text).toContain(valid.description);
    expect(mails[0]!.raw).toMatch(/^Reply-To: priya@example.com$/m);
  });

  it("answers each field's message for an invalid message and stores nothing", async () => {
    const answer = await send({ name: "   ", email: "", phone: "", subject: "", description: "" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Subject is required",
      description: "Message is required",
    });
    const short = await send({ ...valid, email: "priya@example", description: "Too short" });
    expect(short.body.errors).toEqual({
      email: "Please enter a valid email",
      description: "Message must be at least 10 characters",
    });
    const long = await send({ ...valid, description: "x".repeat(501) });
    expect(long.body.errors).toEqual({ description: CONTACT_MESSAGES.descriptionTooLong });

    expect(await getDb().select().from(contactMessages)).toHaveLength(0);
    expect((await sentMail())).toHaveLength(0);
  });

  it("pretends to accept a message whose honeypot is filled, and keeps nothing", async () => {
    const answer = await send({ ...valid, [HONEYPOT_FIELD]: "https://spam.example" });
    expect(answer.body.ok).toBe(true);
    expect(await getDb().select().from(contactMessages)).toHaveLength(0);
  });

  it("refuses the sixth message in an hour from one address with the rate-limit message", async () => {
    for (let i = 0; i < 5; i++) expect((await send(valid, "198.51.100.7")).status).toBe(200);
    const refused = await send(valid, "198.51.100.7");
    expect(refused.status).toBe(429);
    expect(refused.body.formError).toBe(CONTACT_MESSAGES.rateLimited);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(3500);
    // Another address is not affected.
    expect((await send(valid, "198.51.100.8")).status).toBe(200);
    expect(await getDb().select().from(contactMessages)).toHaveLength(6);
  });
});
