import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { loader as authApi } from "~/routes/api/auth";
import { action as loginAction } from "~/routes/auth/login";
import { action as resetAction } from "~/routes/auth/reset-password";
import { action as signupAction } from "~/routes/auth/signup";
import { accountMailSent, getAuth } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, session, user } from "~/server/db/schema";
import { formRequest, routeArgs, unwrap } from "../helpers/route";
import { signupFields } from "../helpers/signup";
import { sentMail } from "./helpers";

// Someone signs up first with another person's address and their own password, and the owner
// of the address signs up too (before or after them) and opens an e-mailed verification link.
// The owner must end up with the only working password, and the other party with no session.

type Answer = { ok?: boolean; error?: string };
const ATTACKER_IP = "198.51.100.66";
const OWNER_IP = "203.0.113.77";
const ATTACKER_PASSWORD = "attacker pass 1";
const OWNER_SIGNUP_PASSWORD = "owner signup 1";
const OWNER_CHOSEN_PASSWORD = "owner chosen 1";

async function signup(email: string, password: string, ip: string) {
  const fields = signupFields(email, password, "Some Name");
  return unwrap<Answer>(
    await signupAction(routeArgs(formRequest("/signup", fields), { clientIp: ip }) as never),
  );
}

/** Signs in through the sign-in page's action: the status, and the session cookie when it worked. */
async function login(
  email: string,
  password: string,
  ip: string,
): Promise<{ status: number; cookie?: string; location?: string | null }> {
  const result = await loginAction(
    routeArgs(formRequest("/login", { email, password }), { clientIp: ip }) as never,
  );
  if (result instanceof Response) {
    const cookie = result.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { status: result.status, cookie, location: result.headers.get("location") };
  }
  return { status: unwrap<Answer>(result).status };
}

/** The verification links e-mailed to `email`, oldest first. */
async function verificationLinks(email: string): Promise<string[]> {
  await accountMailSent();
  return (await sentMail())
    .filter((m) => m.to === email && m.subject === "Verify your e-mail for TaxBridge")
    .map((m) => m.text.match(/https?:\/\/\S*\/api\/auth\/verify-email\S*/)![0]);
}

/** Opens a link through the real /api/auth/* handler, as a browser would. */
async function open(link: string): Promise<Response> {
  const url = new URL(link);
  return (await authApi(
    routeArgs(new Request(`http://localhost:3000${url.pathname}${url.search}`), {
      clientIp: OWNER_IP,
    }) as never,
  )) as Response;
}

async function accountOf(email: string) {
  const [row] = await getDb().select().from(user).where(eq(user.email, email));
  return row!;
}

async function sessionsOf(userId: string) {
  return getDb().select().from(session).where(eq(session.userId, userId));
}

for (const who of [
  { label: "a client", email: "victim@example.com", home: "/dashboard", role: "user" },
  { label: "the ADMIN_EMAIL address", email: "boss@taxbridge.test", home: "/admin/dashboard", role: "admin" },
] as const) {
  for (const order of ["attacker first", "owner first"] as const) {
    describe(`pre-registration of ${who.label}, ${order}`, () => {
      it("verifying keeps neither sign-up password: the link's opener chooses the only one, and the other party has no session", async () => {
        const attack = () => signup(who.email, ATTACKER_PASSWORD, ATTACKER_IP);
        const owner = () => signup(who.email, OWNER_SIGNUP_PASSWORD, OWNER_IP);
        const first = order === "attacker first" ? await attack() : await owner();
        const second = order === "attacker first" ? await owner() : await attack();
        // Both sign-ups get the same answer: nothing tells either party about the other.
        expect(first).toEqual({ status: 200, body: { ok: true }, headers: new Headers() });
        expect(second).toEqual(first);
        expect(await getDb().select().from(user)).toHaveLength(1);
        const account = await accountOf(who.email);

        // Neither sign-up password opens the account before it is verified; a session made any
        // other way before verification does not survive it.
        expect((await login(who.email, ATTACKER_PASSWORD, ATTACKER_IP)).cookie).toBeUndefined();
        const context = await getAuth().$context;
        const earlier = await context.internalAdapter.createSession(account.id);
        expect(await sessionsOf(account.id)).toHaveLength(1);

        // Every sign-up e-mailed a link; the owner opens the first one.
        const links = await verificationLinks(who.email);
        expect(links).toHaveLength(2);
        const opened = await open(links[0]!);
        expect(opened.status).toBe(302);
        const choose = new URL(opened.headers.get("location")!);
        expect(choose.pathname).toBe("/reset-password");
        expect(choose.searchParams.get("verified")).toBe("1");
        expect(opened.headers.getSetCookie()).toEqual([]);

        expect(await accountOf(who.email)).toMatchObject({ emailVerified: true, role: "user" });
        expect(await sessionsOf(account.id)).toEqual([]);
        expect(await context.internalAdapter.findSession(earlier.token)).toBeNull();
        for (const password of [ATTACKER_PASSWORD, OWNER_SIGNUP_PASSWORD])
          expect(await login(who.email, password, ATTACKER_IP)).toEqual({ status: 401 });
        expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "role-changed"))).toEqual([]);

        // The second link now only says the address is verified: no second chance to choose.
        const again = await open(links[1]!);
        expect(again.headers.get("location")).toBe("/login?verified=1");

        const chosen = (await resetAction(
          routeArgs(
            formRequest("/reset-password", {
              token: choose.searchParams.get("token")!,
              password: OWNER_CHOSEN_PASSWORD,
              confirmPassword: OWNER_CHOSEN_PASSWORD,
            }),
            { clientIp: OWNER_IP },
          ) as never,
        ).catch((r: unknown) => r)) as Response;
        expect(chosen.headers.get("location")).toBe("/login?reset=1");

        const signedIn = await login(who.email, OWNER_CHOSEN_PASSWORD, OWNER_IP);
        expect(signedIn).toMatchObject({ status: 302, location: who.home });
        expect(
          await getSessionUser(
            new Request("http://localhost:3000/", { headers: { cookie: signedIn.cookie! } }),
          ),
        ).toMatchObject({
          email: who.email,
          role: who.role,
        });
        expect((await accountOf(who.email)).role).toBe(who.role);

        // The other party's password still opens nothing, and the owner's is the only session.
        const refused = unwrap<Answer>(
          await loginAction(
            routeArgs(formRequest("/login", { email: who.email, password: ATTACKER_PASSWORD }), {
              clientIp: ATTACKER_IP,
            }) as never,
          ),
        );
        expect(refused).toMatchObject({ status: 401, body: { error: AUTH_MESSAGES.invalidCredentials } });
        expect(await sessionsOf(account.id)).toHaveLength(1);
      });
    });
  }
}

describe("a single sign-up", () => {
  it("for a client verifies as before: the sign-up password signs in, no password to choose", async () => {
    await signup("solo@example.com", OWNER_SIGNUP_PASSWORD, OWNER_IP);
    const [link] = await verificationLinks("solo@example.com");
    const opened = await open(link!);
    expect(opened.headers.get("location")).toBe("/login?verified=1");
    expect(await login("solo@example.com", OWNER_SIGNUP_PASSWORD, OWNER_IP)).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
  });

  it("for an already verified address changes nothing and e-mails the owner", async () => {
    await signup("owner@example.com", OWNER_SIGNUP_PASSWORD, OWNER_IP);
    await open((await verificationLinks("owner@example.com"))[0]!);
    const late = await signup("owner@example.com", ATTACKER_PASSWORD, ATTACKER_IP);
    expect(late).toEqual({ status: 200, body: { ok: true }, headers: new Headers() });
    await accountMailSent();
    expect((await sentMail()).map((m) => m.subject)).toEqual([
      "Verify your e-mail for TaxBridge",
      "Someone tried to create a TaxBridge account with your e-mail",
    ]);
    expect(await login("owner@example.com", ATTACKER_PASSWORD, ATTACKER_IP)).toEqual({ status: 401 });
    expect(await login("owner@example.com", OWNER_SIGNUP_PASSWORD, OWNER_IP)).toMatchObject({ status: 302 });
  });
});

describe("admin:create on an address someone signed up for without verifying it", () => {
  it("keeps no sign-up password: only the printed link sets one", async () => {
    await signup("clerk@example.com", ATTACKER_PASSWORD, ATTACKER_IP);
    const { createOrPromoteAdmin } = await import("../../ops/admin-accounts");
    const { created, link } = await createOrPromoteAdmin("clerk@example.com");
    expect(created).toBe(false);
    expect(await login("clerk@example.com", ATTACKER_PASSWORD, ATTACKER_IP)).toEqual({ status: 401 });
    const token = new URL(link).searchParams.get("token")!;
    await resetAction(
      routeArgs(
        formRequest("/reset-password", {
          token,
          password: OWNER_CHOSEN_PASSWORD,
          confirmPassword: OWNER_CHOSEN_PASSWORD,
        }),
      ) as never,
    ).catch((r: unknown) => r);
    expect(await login("clerk@example.com", OWNER_CHOSEN_PASSWORD, OWNER_IP)).toMatchObject({
      status: 302,
      location: "/admin/dashboard",
    });
  });
});
