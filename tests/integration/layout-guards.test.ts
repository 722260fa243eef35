import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as auth from "~/server/auth/session-lookup.server";
import { getAuth } from "~/server/auth/better-auth.server";
import * as secondFactor from "~/server/auth/second-factor.server";
import { NOT_FOR_YOUR_ROLE } from "~/domain/policy";
import { pageView, placedUnder, routeArgs, unwrap } from "../helpers/route";
import { clientAndStaff, withCookie } from "./helpers";

// Access is decided by where app/routes.ts places a route: a route with no check of its own,
// placed under the admin panel's layout or the portal layout, is refused to whoever the layout
// refuses. One page view looks the session and the second factor up once, in one query.

const SECRET = { secret: "only for who the layout admits" };

/** A route's answer as the browser would see it: the redirect's target, or the data. */
async function answer(call: () => Promise<unknown>): Promise<{ redirect: string } | { body: unknown }> {
  try {
    const result = await call();
    if (result instanceof Response) return { redirect: result.headers.get("location") ?? "" };
    return { body: unwrap(result).body };
  } catch (thrown) {
    if (thrown instanceof Response) return { redirect: thrown.headers.get("location") ?? "" };
    throw thrown;
  }
}

/** A new session of a staff member, signed in with the password only (no code given yet). */
async function sessionWithoutCode(email: string): Promise<string> {
  const { headers } = await getAuth().api.signInEmail({
    body: { email, password: "a good password 1" },
    returnHeaders: true,
  });
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

let client: { id: string; cookie: string };
let staff: { id: string; cookie: string };

beforeEach(async () => {
  ({ client, staff } = await clientAndStaff());
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a route is protected by where it is placed", () => {
  it("under the admin panel's layout: only staff whose session has given its code", async () => {
    const route = await placedUnder("routes/admin/layout.tsx", "/admin/dashboard", () => SECRET);
    const ask = (cookie: string) =>
      answer(() => route(routeArgs(withCookie("/admin/new-report?year=2025", cookie))));
    const waiting = await sessionWithoutCode("staff@example.com");

    expect(await ask("")).toEqual({ redirect: "/login?redirectTo=%2Fadmin%2Fnew-report%3Fyear%3D2025" });
    expect(await ask(client.cookie)).toEqual({ redirect: "/dashboard" });
    expect(await ask(waiting)).toEqual({
      redirect: "/admin/security/verify?redirectTo=%2Fadmin%2Fnew-report%3Fyear%3D2025",
    });
    expect(await ask(staff.cookie)).toEqual({ body: SECRET });
  });

  it("under the admin panel's layout but not named in the policy table: refused to every role", async () => {
    const route = await placedUnder("routes/admin/layout.tsx", "/admin/new-report", () => SECRET);
    await expect(route(routeArgs(withCookie("/admin/new-report", staff.cookie)))).rejects.toMatchObject({
      data: NOT_FOR_YOUR_ROLE,
      init: { status: 403 },
    });
  });

  it("under the portal layout: a signed-in client, or staff whose session has given its code", async () => {
    const route = await placedUnder("routes/portal/layout.tsx", "/my-new-page", () => SECRET);
    const ask = (cookie: string) => answer(() => route(routeArgs(withCookie("/my-new-page", cookie))));
    const waiting = await sessionWithoutCode("staff@example.com");

    expect(await ask("")).toEqual({ redirect: "/login?redirectTo=%2Fmy-new-page" });
    expect(await ask(waiting)).toEqual({ redirect: "/admin/security/verify?redirectTo=%2Fmy-new-page" });
    expect(await ask(client.cookie)).toEqual({ body: SECRET });
    expect(await ask(staff.cookie)).toEqual({ body: SECRET });
  });
});

describe("one page view", () => {
  it("of the staff list looks up the session once, with the second factor", async () => {
    const lookups = vi.spyOn(auth, "lookUpSession");
    const sessions = vi.spyOn(getAuth().api, "getSession");
    const standings = vi.spyOn(secondFactor, "secondFactorStanding");
    const [root, staffOnly, shell, page] = await pageView(
      "routes/admin/dashboard.tsx",
      routeArgs(withCookie("/admin/dashboard", staff.cookie)),
    );

    expect(root).toMatchObject({ user: { email: "staff@example.com", role: "admin" } });
    expect(staffOnly).toBeUndefined();
    expect(shell).toEqual({
      totalClients: 1,
      unreadMessages: 0,
      areas: ["cases", "export", "contact-messages", "audit", "team", "mail", "payments", "engagement"],
    });
    expect(unwrap<{ counters: { total: number } }>(page).body.counters.total).toBe(1);
    expect(lookups).toHaveBeenCalledTimes(1);
    // One query answers both (session.server.ts): neither Better Auth nor a second query is asked.
    expect(sessions).not.toHaveBeenCalled();
    expect(standings).not.toHaveBeenCalled();
  });

  it("of a client's page looks up the session once and never asks about a second factor", async () => {
    const lookups = vi.spyOn(auth, "lookUpSession");
    const sessions = vi.spyOn(getAuth().api, "getSession");
    const standings = vi.spyOn(secondFactor, "secondFactorStanding");
    const [root, portal, page] = await pageView(
      "routes/portal/my-tax-filing.tsx",
      routeArgs(withCookie("/my-tax-filing", client.cookie)),
    );

    expect(root).toMatchObject({ user: { email: "client@example.com", role: "user" } });
    expect(portal).toBeUndefined();
    expect(unwrap<{ filings: unknown[] }>(page).body).toMatchObject({ filings: [] });
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(sessions).not.toHaveBeenCalled();
    expect(standings).not.toHaveBeenCalled();
  });
});
