import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/server/db/client.server";
import { session, staffSecondFactor, user } from "~/server/db/schema";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { wrongTotpCode } from "../helpers/forge";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { signedInClient, withCookie } from "./helpers";

// Run behind the root's and the admin layouts' middleware, as the server runs them.
const { loader: adminLayoutLoader } = await routeModule("routes/admin/layout.tsx");
const { loader: dashboardLoader, action: dashboardAction } = await routeModule("routes/admin/dashboard.tsx");
const { action: setupAction, loader: setupLoader } = await routeModule("routes/admin/security/setup.tsx");
const { action: verifyAction, loader: verifyLoader } = await routeModule("routes/admin/security/verify.tsx");

let staff: { id: string; cookie: string };

beforeEach(async () => {
  staff = await signedInClient("officer@example.com");
  await getDb().update(user).set({ role: "admin" }).where(eq(user.id, staff.id));
});

async function redirectOf(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    const r = await fn();
    return r instanceof Response ? r.headers.get("location") : null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("location");
    throw thrown;
  }
}

const post = (url: string, fields: Record<string, string>) => withCookie(url, staff.cookie, { method: "POST", body: new URLSearchParams(fields) });

describe("staff second factor", () => {
  it("an admin without one is sent to enrol by every admin loader and action", async () => {
    expect(await redirectOf(() => adminLayoutLoader(routeArgs(withCookie("/admin/dashboard", staff.cookie)) as never))).toBe("/admin/security/setup");
    expect(await redirectOf(() => dashboardLoader(routeArgs(withCookie("/admin/dashboard", staff.cookie)) as never))).toBe("/admin/security/setup");
    expect(await redirectOf(() => dashboardAction(routeArgs(post("/admin/dashboard", { intent: "add-client", name: "X", email: "x@example.com", visaStatus: "F-1", phone: "" })) as never))).toBe(
      "/admin/security/setup",
    );
    expect(await getDb().select().from(user).where(eq(user.email, "x@example.com"))).toHaveLength(0);
  });

  it("enrols with a QR code and backup codes, then asks every new session for the code", async () => {
    const enrolment = unwrap<{ secret: string; qrSvg: string; backupCodes: string[] }>(await setupLoader(routeArgs(withCookie("/admin/security/setup", staff.cookie)) as never)).body;
    expect(enrolment.qrSvg).toContain("<svg");
    expect(enrolment.backupCodes).toHaveLength(10);
    const [stored] = await getDb().select().from(staffSecondFactor);
    expect(stored!.secret).not.toContain(enrolment.secret);
    expect(stored!.backupCodes).not.toContain(enrolment.backupCodes[0]!);

    const wrong = unwrap<{ error: string }>(await setupAction(routeArgs(post("/admin/security/setup", { code: wrongTotpCode(enrolment.secret) })) as never));
    expect(wrong.status).toBe(400);
    const code = totpAt(enrolment.secret, timeStep());
    expect(await redirectOf(() => setupAction(routeArgs(post("/admin/security/setup", { code })) as never))).toBe("/admin/dashboard");
    expect(await redirectOf(() => dashboardLoader(routeArgs(withCookie("/admin/dashboard", staff.cookie)) as never))).toBeNull();

    // A new session (sign in again) must give a code; the same code does not work twice.
    const again = await signedInAgain();
    expect(await redirectOf(() => dashboardLoader(routeArgs(withCookie("/admin/dashboard?section=draft", again)) as never))).toBe(
      "/admin/security/verify?redirectTo=%2Fadmin%2Fdashboard%3Fsection%3Ddraft",
    );
    const verifyPost = (c: string) => withCookie("/admin/security/verify", again, { method: "POST", body: new URLSearchParams({ code: c, redirectTo: "/admin/dashboard?section=draft" }) });
    expect(unwrap(await verifyAction(routeArgs(verifyPost(code)) as never)).status).toBe(400);
    expect(await redirectOf(() => verifyAction(routeArgs(verifyPost(enrolment.backupCodes[0]!)) as never))).toBe("/admin/dashboard?section=draft");
    expect(await redirectOf(() => verifyLoader(routeArgs(withCookie("/admin/security/verify", again)) as never))).toBe("/admin/dashboard");

    // A backup code works once.
    const third = await signedInAgain();
    const thirdPost = withCookie("/admin/security/verify", third, { method: "POST", body: new URLSearchParams({ code: enrolment.backupCodes[0]! }) });
    expect(unwrap(await verifyAction(routeArgs(thirdPost) as never)).status).toBe(400);
  });
});

async function signedInAgain(): Promise<string> {
  const { getAuth } = await import("~/server/auth/better-auth.server");
  const { headers } = await getAuth().api.signInEmail({ body: { email: "officer@example.com", password: "a good password 1" }, returnHeaders: true });
  const rows = await getDb().select().from(session).where(eq(session.userId, staff.id));
  expect(rows.length).toBeGreaterThan(1);
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
