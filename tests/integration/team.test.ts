import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { NOT_FOR_YOUR_ROLE } from "~/domain/policy";
import { TEAM_MESSAGES } from "~/domain/team";
import { currentFilingYear } from "~/domain/tax-year";
import { action as loginAction } from "~/routes/auth/login";
import { action as resetAction } from "~/routes/auth/reset-password";
import { findCases } from "~/server/clients/list.server";
import { listStaff } from "~/server/team/active-staff.server";
import { saveWorkflow } from "~/server/cases/workflow.server";
import { ACCOUNT_DEACTIVATED } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, session, staffSecondFactor, user } from "~/server/db/schema";
import { secondFactorState, secondFactorStanding } from "~/server/auth/second-factor.server";
import { formRequest, routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, sentMail, signedInClient, withCookie } from "./helpers";

// The team page (docs/product/accounts.md#team): admins invite staff, deactivate and reactivate
// them and reset their second factor; everyone else is kept out by the admin panel's layout.

const team = await routeModule("routes/admin/team.tsx");
const portal = await routeModule("routes/portal/my-tax-filing.tsx");
const dataDir = () => process.env.DATA_DIR!;

type Answer = { ok: boolean; message: string; errors?: Record<string, string> };
type TeamData = {
  members: Array<{
    id: string;
    email: string;
    role: string;
    lastSignInAt: string | null;
    secondFactor: string;
    deactivatedAt: string | null;
    invitationPending: boolean;
  }>;
  meId: string;
};

async function outcome(
  call: () => Promise<unknown>,
): Promise<{ status: number; body: unknown; location: string | null }> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response)
    return {
      status: result.status,
      body: result.body ? await result.text() : null,
      location: result.headers.get("location"),
    };
  const { status, body } = unwrap(result);
  return { status, body, location: null };
}

const post = (cookie: string, fields: Record<string, string>) =>
  withCookie("/admin/team", cookie, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
const act = (cookie: string, fields: Record<string, string>) =>
  outcome(() => team.action(routeArgs(post(cookie, fields), { clientIp: "203.0.113.9" }) as never));
const view = (cookie: string) =>
  outcome(() => team.loader(routeArgs(withCookie("/admin/team", cookie)) as never));

async function login(email: string, password: string) {
  return outcome(() =>
    loginAction(routeArgs(formRequest("/login", { email, password }), { clientIp: "203.0.113.30" }) as never),
  );
}

async function actor(id: string): Promise<SessionUser> {
  const [row] = await getDb().select().from(user).where(eq(user.id, id));
  return {
    id: row!.id,
    email: row!.email,
    name: row!.name,
    role: row!.role,
    emailVerified: true,
    sessionId: "",
  };
}

let admin: { id: string; cookie: string };
let preparer: { id: string; cookie: string };
let client: { id: string; cookie: string };

beforeEach(async () => {
  admin = await signedInClient("team.admin@example.com");
  await makeStaff(admin, "admin");
  preparer = await signedInClient("team.preparer@example.com", "preparer password 1");
  await makeStaff(preparer, "preparer");
  client = await signedInClient("team.client@example.com");
});

describe("team page", () => {
  it("is for admins only: a visitor goes to /login, a client home, a preparer gets 403", async () => {
    const visitor = await outcome(() =>
      team.loader(routeArgs(new Request("http://localhost:3000/admin/team")) as never),
    );
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe("/login?redirectTo=%2Fadmin%2Fteam");
    const asClient = await view(client.cookie);
    expect(asClient.status).toBe(302);
    expect(asClient.location).toBe("/dashboard");
    const asPreparer = await view(preparer.cookie);
    expect(asPreparer.status).toBe(403);
    expect(asPreparer.body).toBe(NOT_FOR_YOUR_ROLE);
    const preparerPost = await act(preparer.cookie, {
      intent: "invite",
      fullName: "X",
      email: "x@example.com",
      role: "admin",
    });
    expect(preparerPost.status).toBe(403);
    expect(await getDb().select().from(user).where(eq(user.email, "x@example.com"))).toEqual([]);

    const asAdmin = await view(admin.cookie);
    expect(asAdmin.status).toBe(200);
    const body = asAdmin.body as TeamData;
    expect(body.meId).toBe(admin.id);
    expect(body.members.map((m) => m.email).sort()).toEqual([
      "team.admin@example.com",
      "team.preparer@example.com",
    ]);
    expect(body.members.find((m) => m.id === preparer.id)).toMatchObject({
      role: "preparer",
      secondFactor: "enrolled",
      deactivatedAt: null,
      invitationPending: false,
    });
    expect(body.members.find((m) => m.id === preparer.id)!.lastSignInAt).not.toBeNull();
  });

  it("invites a staff member: a verified account with the role, an e-mail with a link, an audit entry", async () => {
    const sent = await act(admin.cookie, {
      intent: "invite",
      fullName: "Nina Preparer",
      email: "Nina@Example.com",
      role: "preparer",
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.invited });
    const [nina] = await getDb().select().from(user).where(eq(user.email, "nina@example.com"));
    expect(nina).toMatchObject({
      name: "Nina Preparer",
      role: "preparer",
      emailVerified: true,
      deactivatedAt: null,
    });
    const mail = (await sentMail(dataDir())).find((m) => m.to.includes("nina@example.com"));
    expect(mail?.subject).toBe("Your TaxBridge staff account");
    expect(mail?.text).toContain("as preparer");
    const link = mail!.text.match(/https?:\/\/\S*\/reset-password\?token=\S+/)?.[0];
    expect(link).toBeTruthy();
    expect(
      (await getDb().select().from(auditLog).where(eq(auditLog.action, "staff-invited"))).map((e) => [
        e.actorId,
        e.detail,
      ]),
    ).toEqual([[admin.id, "nina@example.com as preparer"]]);
    const listed = (await view(admin.cookie)).body as TeamData;
    expect(listed.members.find((m) => m.email === "nina@example.com")).toMatchObject({
      invitationPending: true,
      secondFactor: "not-enrolled",
      lastSignInAt: null,
    });

    // The same address again (the invitation is pending and its link works), or any address in use: refused, nothing changes.
    for (const email of ["nina@example.com", "team.client@example.com", "team.preparer@example.com"]) {
      const again = await act(admin.cookie, { intent: "invite", fullName: "Someone", email, role: "admin" });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ ok: false, errors: { email: TEAM_MESSAGES.exists } });
    }
    expect(
      (await getDb().select().from(user).where(eq(user.email, "team.client@example.com")))[0]!.role,
    ).toBe("user");
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "staff-invited"))).toHaveLength(1);

    // Bad input: a clear message, nothing created.
    const bad = await act(admin.cookie, {
      intent: "invite",
      fullName: "",
      email: "not an address",
      role: "owner",
    });
    expect(bad.status).toBe(400);
    expect((bad.body as Answer).errors).toMatchObject({
      fullName: "Full name is required",
      email: "Please enter a valid email",
      role: "Choose a role: admin or preparer.",
    });

    // Choosing the password with the link; the new member signs in and must enrol the second factor.
    const token = new URL(link!).searchParams.get("token")!;
    const chosen = await outcome(() =>
      resetAction(
        routeArgs(
          formRequest("/reset-password", {
            token,
            password: "nina password 1",
            confirmPassword: "nina password 1",
          }),
        ) as never,
      ),
    );
    expect(chosen.location).toBe("/login?reset=1");
    const signedIn = await login("nina@example.com", "nina password 1");
    expect(signedIn.location).toBe("/admin/dashboard");
    expect(await secondFactorState(nina!.id)).toBe("none");
  });

  it("sends a staff invitation again when it never arrived", async () => {
    // An account made by an invitation whose link was never delivered (no link, no password).
    await act(admin.cookie, {
      intent: "invite",
      fullName: "Omar Admin",
      email: "omar@example.com",
      role: "admin",
    });
    const { verification } = await import("~/server/db/schema");
    const [omar] = await getDb().select().from(user).where(eq(user.email, "omar@example.com"));
    await getDb().delete(verification).where(eq(verification.value, omar!.id));
    const again = await act(admin.cookie, {
      intent: "invite",
      fullName: "Omar Admin",
      email: "omar@example.com",
      role: "preparer",
    });
    expect(again.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.invitedAgain });
    expect((await sentMail(dataDir())).filter((m) => m.to.includes("omar@example.com"))).toHaveLength(2);
    // The role it was invited with stays.
    expect((await getDb().select().from(user).where(eq(user.id, omar!.id)))[0]!.role).toBe("admin");
  });

  it("deactivates: sessions end, no sign-in, cases unassigned; reactivates", async () => {
    const year = currentFilingYear();
    await getDb()
      .update(clientCases)
      .set({ assigneeId: preparer.id })
      .where(eq(clientCases.userId, client.id));
    expect((await listStaff()).map((s) => s.id)).toContain(preparer.id);

    const done = await act(admin.cookie, { intent: "deactivate", userId: preparer.id });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.deactivated });
    expect(
      (await getDb().select().from(user).where(eq(user.id, preparer.id)))[0]!.deactivatedAt,
    ).toBeInstanceOf(Date);
    expect(await getDb().select().from(session).where(eq(session.userId, preparer.id))).toEqual([]);
    // The member's cookie no longer works.
    expect(await getSessionUser(withCookie("/admin/dashboard", preparer.cookie))).toBeNull();
    const page = await outcome(() =>
      portal.loader(routeArgs(withCookie("/my-tax-filing", preparer.cookie)) as never),
    );
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/login\?/);
    // Signing in is refused, with the right password too.
    const refused = await login("team.preparer@example.com", "preparer password 1");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: ACCOUNT_DEACTIVATED });
    expect(await getDb().select().from(session).where(eq(session.userId, preparer.id))).toEqual([]);
    expect((await login("team.preparer@example.com", "wrong password 1")).status).toBe(401);
    // Their cases show as unassigned and cannot be given to them.
    expect((await listStaff()).map((s) => s.id)).not.toContain(preparer.id);
    const { rows } = await findCases({ year, section: "home", q: "", stage: "all" });
    expect(rows.find((r) => r.id === client.id)!.assignee).toBeNull();
    const flags = {
      home: false,
      taxinfo: false,
      documents: false,
      preparation: false,
      draft: false,
      payment: false,
      efiling: false,
      finalcopies: false,
    };
    expect(
      await saveWorkflow(
        await actor(admin.id),
        { clientId: client.id, taxYear: year, flags, stage: "home", assigneeId: preparer.id },
        "203.0.113.9",
      ),
    ).toEqual({ outcome: "no-such-staff" });
    const listed = (await view(admin.cookie)).body as TeamData;
    expect(listed.members.find((m) => m.id === preparer.id)!.deactivatedAt).not.toBeNull();
    expect((await act(admin.cookie, { intent: "deactivate", userId: preparer.id })).status).toBe(409);

    const back = await act(admin.cookie, { intent: "reactivate", userId: preparer.id });
    expect(back.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.reactivated });
    expect((await login("team.preparer@example.com", "preparer password 1")).location).toBe(
      "/admin/dashboard",
    );
    expect((await listStaff()).map((s) => s.id)).toContain(preparer.id);

    const entries = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id)));
    expect(entries.map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ["staff-deactivated", "team.preparer@example.com (preparer)"],
        ["staff-reactivated", "team.preparer@example.com (preparer)"],
      ]),
    );
  });

  it("cannot deactivate yourself or the last active admin", async () => {
    const self = await act(admin.cookie, { intent: "deactivate", userId: admin.id });
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ ok: false, message: TEAM_MESSAGES.notYourself });
    // Another admin may not deactivate the only other admin once they are the last one.
    const second = await signedInClient("team.admin2@example.com");
    await makeStaff(second, "admin");
    expect((await act(second.cookie, { intent: "deactivate", userId: admin.id })).status).toBe(200);
    // Now `second` is the only active admin; a direct call (as if from the deactivated admin) is refused.
    const { deactivateStaff } = await import("~/server/team/team.server");
    expect(await deactivateStaff(await actor(preparer.id), second.id, "203.0.113.9")).toBe("last-admin");
    expect((await getDb().select().from(user).where(eq(user.id, second.id)))[0]!.deactivatedAt).toBeNull();
    // Unknown and client accounts are no staff member.
    expect((await act(second.cookie, { intent: "deactivate", userId: client.id })).status).toBe(404);
    expect((await act(second.cookie, { intent: "deactivate", userId: "nobody" })).status).toBe(404);
    expect((await act(second.cookie, { intent: "deactivate", userId: "" })).status).toBe(400);
    expect((await act(second.cookie, { intent: "promote", userId: preparer.id })).status).toBe(400);
    expect((await getDb().select().from(user).where(eq(user.id, client.id)))[0]!.deactivatedAt).toBeNull();
    expect(
      await getDb().select().from(auditLog).where(eq(auditLog.action, "staff-deactivated")),
    ).toHaveLength(1);
  });

  it("resets someone's second factor: the row goes, their sessions end, they enrol again", async () => {
    expect((await act(admin.cookie, { intent: "reset-second-factor", userId: admin.id })).body).toMatchObject(
      { ok: false, message: TEAM_MESSAGES.notYourself },
    );
    const reset = await act(admin.cookie, { intent: "reset-second-factor", userId: preparer.id });
    expect(reset.body).toMatchObject({ ok: true, message: TEAM_MESSAGES.secondFactorReset });
    expect(
      await getDb().select().from(staffSecondFactor).where(eq(staffSecondFactor.userId, preparer.id)),
    ).toEqual([]);
    expect(await getSessionUser(withCookie("/admin/dashboard", preparer.cookie))).toBeNull();
    const again = await login("team.preparer@example.com", "preparer password 1");
    expect(again.location).toBe("/admin/dashboard");
    const cookie = await (async () => {
      const r = await loginAction(
        routeArgs(
          formRequest("/login", { email: "team.preparer@example.com", password: "preparer password 1" }),
          { clientIp: "203.0.113.31" },
        ) as never,
      ).catch((e: unknown) => e);
      return (r as Response).headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    })();
    const me = await getSessionUser(withCookie("/admin/dashboard", cookie));
    expect(await secondFactorStanding(preparer.id, me!.sessionId)).toEqual({ state: "none", passed: false });
    const held = await outcome(() => team.loader(routeArgs(withCookie("/admin/dashboard", cookie)) as never));
    expect(held.status).toBe(302);
    expect(held.location).toBe("/admin/security/setup");
    expect((await act(admin.cookie, { intent: "reset-second-factor", userId: preparer.id })).status).toBe(
      409,
    );
    expect(
      (await getDb().select().from(auditLog).where(eq(auditLog.action, "second-factor-reset"))).map((e) => [
        e.actorId,
        e.detail,
      ]),
    ).toEqual([[admin.id, "team.preparer@example.com (preparer)"]]);
  });
});
