import { describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, signedInClient, withCookie } from "./helpers";

// A contact-form message whose e-mail belongs to a client links to that client
// (docs/product/public-site.md#contact-form).

describe("contact messages from clients", () => {
  it("link to the client whose account has the message's address, in any letter case, and to nobody else", async () => {
    const client = await signedInClient("known.client@example.com");
    const staff = await signedInClient("staff.reader@example.com");
    await makeStaff(staff);
    await getDb()
      .insert(contactMessages)
      .values([
        { name: "Known", email: "Known.Client@Example.com", subject: "From a client", description: "Hello" },
        { name: "Stranger", email: "stranger@example.com", subject: "From a visitor", description: "Hello" },
        // Staff addresses are not clients.
        { name: "Staff", email: "staff.reader@example.com", subject: "From staff", description: "Hello" },
      ]);
    const { loader } = await routeModule("routes/admin/messages.tsx");
    const { messages } = unwrap<{ messages: Array<{ subject: string; client: { id: string; code: string; taxYear: number } | null }> }>(
      await loader(routeArgs(withCookie("/admin/messages", staff.cookie))),
    ).body;
    const bySubject = Object.fromEntries(messages.map((m) => [m.subject, m.client]));
    expect(bySubject["From a client"]).toMatchObject({ id: client.id, code: expect.stringMatching(/^TB-\d{5}$/), taxYear: currentFilingYear() });
    expect(bySubject["From a visitor"]).toBeNull();
    expect(bySubject["From staff"]).toBeNull();
  });
});
