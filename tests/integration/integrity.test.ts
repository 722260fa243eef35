import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import Dashboard from "~/routes/portal/taxpayer-information";
import { TAXPAYER_MESSAGES } from "~/domain/taxpayer";
import { createAccount } from "~/server/auth/accounts.server";
import { createClient } from "~/server/clients/invitations.server";
import { markContactMessageHandled } from "~/server/contact/contact-messages.server";
import { saveWorkflow } from "~/server/cases/workflow.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, contactMessages, mailOutbox, profiles, taxpayerRecords, user } from "~/server/db/schema";
import { outboxSettled, sweepOutbox } from "~/server/mail/outbox.server";
import { currentFilingYear } from "~/domain/tax-year";
import { noFlags } from "~/domain/workflow";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, signedInClient, withCookie } from "./helpers";

const adminDashboard = await routeModule("routes/admin/dashboard.tsx");
const portalDashboard = await routeModule("routes/portal/taxpayer-information.tsx");

const outbox = () => path.join(process.env.DATA_DIR!, "outbox");
const sentMail = (): string[] => {
  try {
    return readdirSync(outbox()).map((f) => readFileSync(path.join(outbox(), f), "utf8"));
  } catch {
    return [];
  }
};

/** Runs `work` while the database refuses every new audit entry. */
async function withAuditRefused<T>(work: () => Promise<T>): Promise<T> {
  const db = getDb();
  await db.execute(
    sql.raw(`create or replace function refuse_audit_entry() returns trigger as $$ begin raise exception 'audit trail unavailable'; end; $$ language plpgsql`),
  );
  await db.execute(sql.raw(`create trigger refuse_audit_entry before insert on audit_log for each row execute function refuse_audit_entry()`));
  try {
    return await work();
  } finally {
    await db.execute(sql.raw(`drop trigger refuse_audit_entry on audit_log`));
    await db.execute(sql.raw(`drop function refuse_audit_entry()`));
  }
}

let staff: SessionUser;

beforeEach(async () => {
  const id = await createAccount({ name: "Sam Staff", email: "sam@taxbridge.test", role: "admin", emailVerified: true });
  staff = { id, email: "sam@taxbridge.test", name: "Sam Staff", role: "admin", emailVerified: true, sessionId: "s" };
});

describe("a change and its audit entry are stored together", () => {
  it("a workflow save whose audit entry cannot be written changes nothing", async () => {
    const clientId = await createAccount({ name: "Ana Client", email: "ana@example.com", role: "user", emailVerified: true });
    const input = { clientId, taxYear: currentFilingYear(), flags: { ...noFlags, home: true, taxinfo: true }, stage: "documents" as const, assigneeId: staff.id };
    const [before] = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientId));

    await expect(withAuditRefused(() => saveWorkflow(staff, input, "203.0.113.9"))).rejects.toThrow();
    const [after] = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientId));
    expect(after).toEqual(before);
    expect(await getDb().select().from(auditLog)).toEqual([]);

    expect(await saveWorkflow(staff, input, "203.0.113.9")).toEqual({ outcome: "saved", from: "home", to: "documents" });
    const [saved] = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientId));
    expect({ stage: saved!.currentStage, taxinfo: saved!.taxinfo, assignee: saved!.assigneeId }).toEqual({
      stage: "documents",
      taxinfo: true,
      assignee: staff.id,
    });
    const entries = await getDb().select().from(auditLog);
    expect(entries.map((e) => [e.action, e.clientId])).toEqual([["workflow-saved", clientId]]);
  });

  it("Add New Client whose audit entry cannot be written creates no account and sends nothing", async () => {
    const input = { name: "New Person", email: "new.person@example.com", phone: null, visaStatus: "F-1" as const };
    await expect(withAuditRefused(() => createClient(staff, input, "203.0.113.9"))).rejects.toThrow();
    expect(await getDb().select().from(user).where(eq(user.email, "new.person@example.com"))).toEqual([]);
    expect(await getDb().select().from(profiles).where(eq(profiles.email, "new.person@example.com"))).toEqual([]);
    await outboxSettled();
    expect(sentMail()).toEqual([]);
  });

  it("a contact message stays unhandled when its audit entry cannot be written", async () => {
    const [message] = await getDb()
      .insert(contactMessages)
      .values({ name: "Vi", email: "vi@example.com", subject: "ITIN", description: "Hello" })
      .returning({ id: contactMessages.id });
    await expect(withAuditRefused(() => markContactMessageHandled(staff, message!.id, "203.0.113.9"))).rejects.toThrow();
    const [after] = await getDb().select().from(contactMessages).where(eq(contactMessages.id, message!.id));
    expect(after!.handledAt).toBeNull();
    expect(await markContactMessageHandled(staff, message!.id, "203.0.113.9")).toBe(true);
    expect((await getDb().select().from(auditLog)).map((e) => e.action)).toEqual(["message-handled"]);
  });
});

describe("Add New Client when the invitation cannot be sent yet", () => {
  type AddResult = { intent: "add-client"; ok: boolean; email?: string; again?: boolean; error?: string; field?: string };
  const add = async (cookie: string, email: string) => {
    const request = withCookie("/admin/dashboard", cookie, {
      method: "POST",
      body: new URLSearchParams({ intent: "add-client", name: "Lee Invitee", email, phone: "", visaStatus: "H-1B" }),
    });
    return unwrap<AddResult>(await adminDashboard.action(routeArgs(request)));
  };

  it("the answer does not wait for it; the invitation waits in the outbox and goes once mail works, and the address is taken meanwhile", async () => {
    const member = await signedInClient("member@taxbridge.test");
    await makeStaff(member);
    vi.spyOn(console, "error").mockImplementation(() => {});

    // The mail outbox folder cannot be written: the invitation cannot go yet.
    writeFileSync(outbox(), "not a folder");
    const added = await add(member.cookie, "lee@example.com");
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ intent: "add-client", ok: true, email: "lee@example.com" });
    await outboxSettled();
    const [account] = await getDb().select().from(user).where(eq(user.email, "lee@example.com"));
    expect(account).toMatchObject({ role: "user", emailVerified: true, name: "Lee Invitee" });
    const [queued] = await getDb().select().from(mailOutbox);
    expect(queued).toMatchObject({ kind: "client-invitation", recipient: "lee@example.com", status: "pending", attempts: 1 });

    // Its link is stored with it: adding the address again is refused, as for any invitation on its way.
    rmSync(outbox());
    expect((await add(member.cookie, "lee@example.com")).status).toBe(409);
    await outboxSettled();
    await outboxSettled();
    expect(sentMail()).toEqual([]);

    // Mail works again and the next try comes due: the invitation goes, once.
    await getDb().update(mailOutbox).set({ nextAttemptAt: new Date(0) });
    expect(await sweepOutbox()).toEqual({ sent: 1, retry: 0, failed: 0 });
    const mails = sentMail();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Subject: Your TaxBridge client account");
    expect(mails[0]).toContain("To: lee@example.com");
    expect(mails[0]).toContain("/reset-password?token=");
    expect(await getDb().select().from(user).where(eq(user.email, "lee@example.com"))).toHaveLength(1);
    const trail = await getDb().select().from(auditLog).where(eq(auditLog.clientId, account!.id)).orderBy(asc(auditLog.id));
    expect(trail.map((e) => [e.action, e.detail])).toEqual([
      ["client-created", "account for lee@example.com"],
      ["invitation-sent", "invited lee@example.com"],
    ]);
    vi.restoreAllMocks();
  });

  it("an address whose account is in use is still refused", async () => {
    const member = await signedInClient("member@taxbridge.test");
    await makeStaff(member);
    await signedInClient("busy@example.com");
    const refused = await add(member.cookie, "busy@example.com");
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ intent: "add-client", ok: false, error: "An account with this e-mail already exists.", field: "email" });
    await outboxSettled();
    await outboxSettled();
    expect(sentMail()).toEqual([]);
  });
});

describe("the taxpayer form when the stored record cannot be read", () => {
  it("shows an error and no form, and the stored record stays as it was", async () => {
    const client = await signedInClient("rec@example.com");
    const saved = await portalDashboard.action(
      routeArgs(withCookie("/dashboard", client.cookie, { method: "POST", body: new URLSearchParams(sampleTaxpayer) })),
    );
    expect(unwrap<{ ok: boolean }>(saved).body.ok).toBe(true);
    // A ciphertext this server cannot read (e.g. written under a key it no longer has).
    await getDb().update(taxpayerRecords).set({ ssn_tin: "v1:unreadable" }).where(eq(taxpayerRecords.userId, client.id));
    const [stored] = await getDb().select().from(taxpayerRecords).where(eq(taxpayerRecords.userId, client.id));

    const loaded = unwrap<Record<string, unknown>>(await portalDashboard.loader(routeArgs(withCookie("/dashboard", client.cookie))));
    expect(loaded.body).toEqual({ email: "rec@example.com", loadFailed: true });

    const router = createMemoryRouter([{ id: "dashboard", path: "/dashboard", Component: Dashboard }], {
      initialEntries: ["/dashboard"],
      hydrationData: { loaderData: { dashboard: loaded.body } },
    });
    const html = renderToString(createElement(RouterProvider, { router }));
    expect(html).toContain(TAXPAYER_MESSAGES.loadFailed);
    expect(html).toContain('role="alert"');
    expect(html).not.toContain("<form");
    expect(html).not.toContain('name="name_as_per_ssn"');

    // What the empty form of the old page would have posted is refused and changes nothing.
    const empty = Object.fromEntries(Object.keys(sampleTaxpayer).map((k) => [k, ""]));
    const posted = unwrap(
      await portalDashboard.action(routeArgs(withCookie("/dashboard", client.cookie, { method: "POST", body: new URLSearchParams(empty) }))),
    );
    expect(posted.status).toBe(400);
    expect(await getDb().select().from(taxpayerRecords)).toEqual([stored]);
  });
});
