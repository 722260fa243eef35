import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { NOT_FOR_YOUR_ROLE, staffAreaOfRoute, STAFF_POLICY, STAFF_ROUTES } from "~/domain/policy";
import routeConfig from "~/routes";
import { listStaff } from "~/server/team/active-staff.server";
import { getDb } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema";
import { pageView, routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, signedInClient, withCookie } from "./helpers";

// Staff roles (docs/product/accounts.md#who-may-open-what): the policy table (domain/policy.ts)
// decides which parts of the panel each role may use, and the admin panel's layout consults it for
// every URL it holds. This walks every route placed under that layout, its loader and its action,
// as an admin and as a preparer: a preparer is refused (403, before the route's own code runs)
// exactly the parts the table keeps for admins, and an admin nothing.

type RouteModule = { loader?: unknown; action?: unknown };
const modules = import.meta.glob<RouteModule>("/app/routes/**/*.{ts,tsx}");

/** The routes under the admin panel's layout, with their full paths. */
function panelRoutes(entries: readonly RouteConfigEntry[] = routeConfig, parent = "", inPanel = false): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    const here = inPanel && (entry.index || entry.path !== undefined) ? [{ path: own, file: entry.file }] : [];
    const under = inPanel || entry.file === "routes/admin/layout.tsx";
    return [...here, ...panelRoutes(entry.children ?? [], own, under)];
  });
}

async function statusOf(call: () => Promise<unknown> | unknown): Promise<{ status: number; text: string }> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, text: result.body ? await result.text() : "" };
  if (result instanceof Error) return { status: 500, text: result.message };
  const { status, body } = unwrap(result);
  return { status, text: typeof body === "string" ? body : JSON.stringify(body ?? null) };
}

let client: { id: string; cookie: string };
let admin: { id: string; cookie: string };
let preparer: { id: string; cookie: string };

beforeEach(async () => {
  client = await signedInClient("roles.client@example.com");
  admin = await signedInClient("roles.admin@example.com");
  await makeStaff(admin, "admin");
  preparer = await signedInClient("roles.preparer@example.com");
  await makeStaff(preparer, "preparer");
});

describe("staff roles", () => {
  it("names every route of the panel in the policy table, and nothing else", () => {
    // A layout with a path and its index route share one pattern (the case and its overview).
    expect([...new Set(panelRoutes().map((r) => r.path))].sort()).toEqual(Object.keys(STAFF_ROUTES).sort());
  });

  it("refuses a preparer exactly the parts of the panel the policy keeps for admins, on every route and action", async () => {
    const routes = panelRoutes();
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/admin/dashboard", "/admin/messages", "/admin/audit", "/admin/clients.csv", "/admin/team", "/admin/payments", "/admin/payments.csv", "/admin/clients/:clientId/:year/fee"]),
    );
    const refused: { admin: string[]; preparer: string[] } = { admin: [], preparer: [] };
    for (const route of routes) {
      const module = await modules[`/app/${route.file}`]!();
      const { loader, action } = await routeModule(route.file);
      const url = route.path.replace(":clientId", client.id).replace(":year", "2025");
      const params = { clientId: client.id, year: "2025" };
      for (const [role, who] of [["admin", admin], ["preparer", preparer]] as const) {
        const calls: Array<[string, () => Promise<unknown> | unknown]> = [];
        if (module.loader) calls.push([`GET ${route.path}`, () => loader({ ...routeArgs(withCookie(url, who.cookie)), params })]);
        if (module.action)
          calls.push([
            `POST ${route.path}`,
            () => action({ ...routeArgs(withCookie(url, who.cookie, { method: "POST", body: new URLSearchParams({ intent: "view-case", clientId: client.id }) })), params }),
          ]);
        for (const [label, call] of calls) {
          const { status, text } = await statusOf(call);
          if (status === 403) {
            expect(text).toContain(NOT_FOR_YOUR_ROLE);
            refused[role].push(label);
          }
        }
      }
    }
    expect(refused.admin).toEqual([]);
    const adminOnly = routes.filter((r) => !STAFF_POLICY[staffAreaOfRoute(r.path)!].includes("preparer")).map((r) => r.path);
    expect(adminOnly.sort()).toEqual(["/admin/audit", "/admin/clients.csv", "/admin/engagement", "/admin/messages", "/admin/notices", "/admin/payments", "/admin/payments.csv", "/admin/season", "/admin/team"]);
    expect([...new Set(refused.preparer.map((label) => label.split(" ")[1]))].sort()).toEqual(adminOnly.sort());
  });

  it("lets a preparer work on cases, and never reach the contact messages, even by an action", async () => {
    const [message] = await getDb()
      .insert(contactMessages)
      .values({ name: "Visitor", email: "v@example.com", subject: "Question", description: "Hello" })
      .returning({ id: contactMessages.id });
    const { action } = await routeModule("routes/admin/messages.tsx");
    const post = withCookie("/admin/messages", preparer.cookie, {
      method: "POST",
      body: new URLSearchParams({ intent: "mark-handled", messageId: message!.id }),
    });
    expect((await statusOf(() => action(routeArgs(post)))).status).toBe(403);
    const [stored] = await getDb().select().from(contactMessages).where(eq(contactMessages.id, message!.id));
    expect(stored!.handledAt).toBeNull();

    const { loader } = await routeModule("routes/admin/dashboard.tsx");
    const list = unwrap<{ rows: Array<{ id: string }>; staff: Array<{ id: string }> }>(
      await loader(routeArgs(withCookie("/admin/dashboard", preparer.cookie))),
    ).body;
    expect(list.rows.map((r) => r.id)).toContain(client.id);
    // Preparers can be assigned cases.
    expect((await listStaff()).map((s) => s.id).sort()).toEqual([admin.id, preparer.id].sort());
  });

  it("shows each role only its own parts of the panel", async () => {
    const areasOf = async (cookie: string) => {
      const [, , panel] = await pageView("routes/admin/dashboard.tsx", routeArgs(withCookie("/admin/dashboard", cookie)));
      return (panel as { areas: string[] }).areas;
    };
    expect(await areasOf(admin.cookie)).toEqual(["cases", "export", "contact-messages", "audit", "team", "mail", "payments", "engagement"]);
    expect(await areasOf(preparer.cookie)).toEqual(["cases"]);
  });
});
