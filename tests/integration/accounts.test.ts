import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { action as loginAction } from "~/routes/auth/login";
import { action as resetAction } from "~/routes/auth/reset-password";
import { action as signupAction } from "~/routes/auth/signup";
import { loader as authApi, action as authApiAction } from "~/routes/api/auth";
import { accountMailSent } from "~/server/auth/better-auth.server";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, profiles, session, user } from "~/server/db/schema";
import { formRequest, routeArgs, routeModule, unwrap } from "../helpers/route";
import { sentMail } from "./helpers";

// Run behind the root's and their layouts' middleware, as the server runs them.
const { loader: loginLoader } = await routeModule("routes/auth/login.tsx");
const { loader: portalLoader } = await routeModule("routes/portal/my-tax-filing.tsx");
const { loader: adminLoader } = await routeModule("routes/admin/dashboard.tsx");

type Answer = { ok?: boolean; error?: string; field?: string; info?: string; unverified?: boolean };
const dataDir = () => process.env.DATA_DIR!;

const person = {
  fullName: "Ana Souza",
  email: "ana@example.com",
  phone: "+1 212 555 0100",
  visaStatus: "H-1B",
  password: "correct horse 42",
  confirmPassword: "correct horse 42",
  acceptTerms: "on",
};

async function signup(fields: Record<string, string>, ip = "203.0.113.20") {
  return unwrap<Answer>(await signupAction(routeArgs(formRequest("/signup", fields), { clientIp: ip }) as never));
}

async function login(fields: Record<string, string>, ip = "203.0.113.20") {
  try {
    const result = await loginAction(routeArgs(formRequest("/login", fields), { clientIp: ip }) as never);
    if (result instanceof Response) return { status: result.status, body: {} as Answer, response: result };
    return { ...unwrap<Answer>(result), response: undefined };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: {} as Answer, response: thrown };
    throw thrown;
  }
}

function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function linkIn(text: string, path: string): string {
  const link = text.match(new RegExp(`https?://[^\\s]*${path}[^\\s]*`))?.[0];
  if (!link) throw new Error(`no ${path} link in mail`);
  return link;
}

async function verify(email: string) {
  await accountMailSent();
  const mail = (await sentMail(dataDir())).filter((m) => m.to.includes(email) && m.subject.startsWith("Verify")).at(-1);
  const link = new URL(linkIn(mail!.text, "/api/auth/verify-email"));
  const response = (await authApi(routeArgs(new Request(`http://localhost:3000${link.pathname}${link.search}`)) as never)) as Response;
  return response;
}

async function thrownBy(fn: () => Promise<unknown>): Promise<Response> {
  try {
    await fn();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("expected a thrown response");
}

describe("accounts", () => {
  it("sign-up creates the user with role user, the profile row, and sends a verification e-mail", async () => {
    const answer = await signup(person);
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    const [row] = await getDb().select().from(user).where(eq(user.email, "ana@example.com"));
    expect(row).toMatchObject({ name: "Ana Souza", role: "user", emailVerified: false });
    const [profile] = await getDb().select().from(profiles).where(eq(profiles.id, row!.id));
    expect(profile).toMatchObject({ email: "ana@example.com", fullName: "Ana Souza", phone: "+1 212 555 0100", visaStatus: "H-1B" });
    await accountMailSent();
    const mails = (await sentMail(dataDir()));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("ana@example.com");
    expect(linkIn(mails[0]!.text, "/api/auth/verify-email")).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);
  });

  it("runs the sign-up checks on the server in their documented order", async () => {
    expect((await signup({ ...person, fullName: " ", email: "" })).body).toEqual({ ok: false, field: "fullName", error: "Full name is required" });
    expect((await signup({ ...person, email: "ana.example.com" })).body.error).toBe("Please enter a valid email");
    expect((await signup({ ...person, visaStatus: "" })).body.error).toBe("Please select your visa status");
    expect((await signup({ ...person, password: "short", confirmPassword: "short" })).body.error).toBe("Password must be at least 8 characters");
    expect((await signup({ ...person, confirmPassword: "different 42" })).body.error).toBe("Passwords do not match");
    expect((await signup({ ...person, acceptTerms: "" })).body.error).toBe("You must accept the terms and conditions");
    expect(await getDb().select().from(user)).toHaveLength(0);
  });

  it("answers a duplicate sign-up exactly like a new one and e-mails the owner instead", async () => {
    const first = await signup(person);
    await verify(person.email);
    const second = await signup({ ...person, fullName: "Someone Else", password: "another pass 1", confirmPassword: "another pass 1" });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(await getDb().select().from(user)).toHaveLength(1);
    await accountMailSent();
    const mails = (await sentMail(dataDir()));
    expect(mails.map((m) => m.subject)).toEqual([
      "Verify your e-mail for TaxBridge",
      "Someone tried to create a TaxBridge account with your e-mail",
    ]);
  });

  it("ignores a role sent by the browser", async () => {
    await signup({ ...person, role: "admin" });
    const [row] = await getDb().select().from(user);
    expect(row!.role).toBe("user");
    // Better Auth's own sign-up endpoint is not reachable from outside.
    const direct = (await authApiAction(
      routeArgs(
        new Request("http://localhost:3000/api/auth/sign-up/email", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: "x@example.com", password: "password123", name: "X", role: "admin" }),
        }),
      ) as never,
    )) as Response;
    expect(direct.status).toBe(404);
  });

  it("refuses sign-in before verification, then signs in once verified", async () => {
    await signup(person);
    const refused = await login({ email: person.email, password: person.password });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: AUTH_MESSAGES.emailNotVerified, unverified: true });

    const verified = await verify(person.email);
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/login?verified=1");

    const wrong = await login({ email: person.email, password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("Invalid email or password");

    const ok = await login({ email: person.email, password: person.password });
    expect(ok.status).toBe(302);
    expect(ok.response!.headers.get("location")).toBe("/dashboard");
    const cookie = cookieFrom(ok.response!);
    const me = await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }));
    expect(me).toMatchObject({ email: person.email, role: "user" });

    // A signed-in user asking for /login is sent on.
    const onward = await thrownBy(() => loginLoader(routeArgs(new Request("http://localhost:3000/login", { headers: { cookie } })) as never));
    expect(onward.headers.get("location")).toBe("/dashboard");
  });

  it("sends the user back to the protected page they asked for, same-origin paths only", async () => {
    await signup(person);
    await verify(person.email);
    const back = await login({ email: person.email, password: person.password, redirectTo: "/my-tax-filing" });
    expect(back.response!.headers.get("location")).toBe("/my-tax-filing");
    const evil = await login({ email: person.email, password: person.password, redirectTo: "//evil.example/x" });
    expect(evil.response!.headers.get("location")).toBe("/dashboard");
  });

  it("guards: no user goes to /login remembering the page; a client cannot open /admin", async () => {
    const anonymous = await thrownBy(() => portalLoader(routeArgs(new Request("http://localhost:3000/my-tax-filing")) as never));
    expect(anonymous.headers.get("location")).toBe("/login?redirectTo=%2Fmy-tax-filing");

    await signup(person);
    await verify(person.email);
    const cookie = cookieFrom((await login({ email: person.email, password: person.password })).response!);
    const client = await thrownBy(() => adminLoader(routeArgs(new Request("http://localhost:3000/admin/dashboard", { headers: { cookie } })) as never));
    expect(client.headers.get("location")).toBe("/dashboard");
  });

  it("makes ADMIN_EMAIL an admin only once it is verified and signed in with a password chosen after verification", async () => {
    await signup({ ...person, email: "boss@taxbridge.test" });
    const [before] = await getDb().select().from(user).where(eq(user.email, "boss@taxbridge.test"));
    expect(before!.role).toBe("user");
    // The link leads on to choosing the password: the one typed at sign-up may be anyone's.
    const verified = await verify("boss@taxbridge.test");
    expect(verified.status).toBe(302);
    const choose = new URL(verified.headers.get("location")!);
    expect(`${choose.origin}${choose.pathname}`).toBe("http://localhost:3000/reset-password");
    expect(choose.searchParams.get("verified")).toBe("1");
    const [after] = await getDb().select().from(user).where(eq(user.email, "boss@taxbridge.test"));
    expect(after).toMatchObject({ emailVerified: true, role: "user" });
    expect((await login({ email: "boss@taxbridge.test", password: person.password })).status).toBe(401);
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "role-changed"))).toEqual([]);

    const chosen = (await resetAction(
      routeArgs(formRequest("/reset-password", { token: choose.searchParams.get("token")!, password: "boss password 1", confirmPassword: "boss password 1" })) as never,
    ).catch((r: unknown) => r)) as Response;
    expect(chosen.headers.get("location")).toBe("/login?reset=1");
    const signedIn = await login({ email: "boss@taxbridge.test", password: "boss password 1" });
    expect(signedIn.response!.headers.get("location")).toBe("/admin/dashboard");
    const [promoted] = await getDb().select().from(user).where(eq(user.email, "boss@taxbridge.test"));
    expect(promoted!.role).toBe("admin");
    const changes = await getDb().select().from(auditLog).where(eq(auditLog.action, "role-changed"));
    expect(changes.map((c) => c.detail)).toEqual(["boss@taxbridge.test: user -> admin (ADMIN_EMAIL, verified)"]);
    // Staff then enrol a second factor before any admin page answers.
    const cookie = cookieFrom(signedIn.response!);
    const enrol = await thrownBy(() => adminLoader(routeArgs(new Request("http://localhost:3000/admin/dashboard", { headers: { cookie } })) as never));
    expect(enrol.headers.get("location")).toBe("/admin/security/setup");
  });

  it("reset: the link works once and ends every session", async () => {
    await signup(person);
    await verify(person.email);
    const cookie = cookieFrom((await login({ email: person.email, password: person.password })).response!);
    expect(await getDb().select().from(session)).toHaveLength(1);

    expect((await login({ intent: "forgot", email: "" })).body.error).toBe("Please enter your email address first.");
    const requested = await login({ intent: "forgot", email: person.email });
    expect(requested.body.info).toBe("Password reset email sent! Check your inbox.");
    // Unknown addresses get the same answer.
    expect((await login({ intent: "forgot", email: "nobody@example.com" })).body.info).toBe("Password reset email sent! Check your inbox.");

    await accountMailSent();
    const mail = (await sentMail(dataDir())).find((m) => m.subject.startsWith("Reset"));
    const token = new URL(linkIn(mail!.text, "/reset-password")).searchParams.get("token")!;
    const reset = (fields: Record<string, string>) =>
      resetAction(routeArgs(formRequest("/reset-password", { token, ...fields })) as never).catch((r: unknown) => r);

    const mismatch = unwrap<Answer>(await reset({ password: "new password 1", confirmPassword: "new password 2" }));
    expect(mismatch.body).toMatchObject({ field: "confirmPassword", error: "Passwords do not match" });

    const done = (await reset({ password: "new password 1", confirmPassword: "new password 1" })) as Response;
    expect(done.headers.get("location")).toBe("/login?reset=1");
    expect(await getDb().select().from(session)).toHaveLength(0);
    expect(await getSessionUser(new Request("http://localhost:3000/", { headers: { cookie } }))).toBeNull();

    const again = unwrap<Answer>(await reset({ password: "third password 1", confirmPassword: "third password 1" }));
    expect(again.body).toMatchObject({ linkInvalid: true, error: AUTH_MESSAGES.resetLinkInvalid });
    expect((await login({ email: person.email, password: "new password 1" })).status).toBe(302);
    expect((await login({ email: person.email, password: person.password })).status).toBe(401);
  });

  it("rate-limits sign-in per e-mail and IP and per IP with a clear message, and the limit holds", async () => {
    // Per address from anywhere, sign-in is only slowed down (tests/integration/sign-in-limits.test.ts).
    for (let i = 0; i < 8; i++) expect((await login({ email: "target@example.com", password: "guess" + i }, "198.51.100.1")).status).toBe(401);
    const blocked = await login({ email: "target@example.com", password: "guess" }, "198.51.100.1");
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe(AUTH_MESSAGES.rateLimited);
    expect((await login({ email: "target@example.com", password: "guess" }, "198.51.100.1")).status).toBe(429);

    for (let i = 0; i < 20; i++) await login({ email: `user${i}@example.com`, password: "guess" }, "192.0.2.1");
    expect((await login({ email: "fresh@example.com", password: "guess" }, "192.0.2.1")).status).toBe(429);
  });

  it("rate-limits sign-up and reset requests", async () => {
    for (let i = 0; i < 10; i++) await signup({ ...person, email: `p${i}@example.com` }, "192.0.2.50");
    expect((await signup({ ...person, email: "p10@example.com" }, "192.0.2.50")).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await login({ intent: "forgot", email: "r@example.com" }, `192.0.2.${60 + i}`)).status).toBe(200);
    expect((await login({ intent: "forgot", email: "r@example.com" }, "192.0.2.70")).status).toBe(429);
  });
});

describe("admin:create", () => {
  it("creates a verified admin whose one-time link sets the password", async () => {
    const { createOrPromoteAdmin } = await import("../../ops/admin-accounts");
    const { created, link } = await createOrPromoteAdmin("Staff@TaxBridge.test");
    expect(created).toBe(true);
    const token = new URL(link).searchParams.get("token")!;
    const done = (await resetAction(
      routeArgs(formRequest("/reset-password", { token, password: "staff password 1", confirmPassword: "staff password 1" })) as never,
    ).catch((r: unknown) => r)) as Response;
    expect(done.headers.get("location")).toBe("/login?reset=1");
    const signedIn = await login({ email: "staff@taxbridge.test", password: "staff password 1" });
    expect(signedIn.response!.headers.get("location")).toBe("/admin/dashboard");

    // Run again on an existing client: promoted, not duplicated.
    await signup({ ...person, email: "clerk@example.com" });
    expect((await createOrPromoteAdmin("clerk@example.com")).created).toBe(false);
    const rows = await getDb().select().from(user).where(eq(user.email, "clerk@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ role: "admin", emailVerified: true });
  });
});

describe("Google sign-in without credentials", () => {
  it("says plainly that it is not configured on this server", async () => {
    const answer = await login({ intent: "google" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Google sign-in is not configured on this server.");
    const viaSignup = unwrap<Answer>(await signupAction(routeArgs(formRequest("/signup", { intent: "google" })) as never));
    expect(viaSignup.body.error).toBe("Google sign-in is not configured on this server.");
  });
});
