// The client list's residency filter (`?residency=`, docs/product/workflow.md#client-list): the
// cases each filter keeps, read from the residency each case stores (client_cases.residency_*,
// seeded here directly), the year's counts beside each choice, the URL, and the CSV export with
// its Residency column. Through the route loaders, as the server runs them.
import { and, eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { ClientFilters } from "~/components/admin/client-filters";
import { adminQueryString, parseAdminQuery } from "~/domain/admin";
import type { AdminDashboardData } from "~/domain/admin";
import { RESIDENCY_FILTERS } from "~/domain/residency/filters";
import type { ResidencyFilter } from "~/domain/residency/filters";
import type { ResidencyStatus } from "~/domain/residency/rules";
import { currentFilingYear } from "~/domain/tax-year";
import { findCases } from "~/server/clients/list.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases } from "~/server/db/schema";
import { compactTallies } from "~/server/limits/tallies.server";
import { residencyFilterCounts } from "~/server/residency/counts.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { account } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { withCookie } from "./helpers";

const { loader: dashboardLoader } = await routeModule("routes/admin/dashboard.tsx");
const { loader: csvLoader } = await routeModule("routes/admin/clients-csv.ts");

const Y = currentFilingYear();

let admin: Account;
let preparer: Account;
let ana: Account;
let ben: Account;
let cleo: Account;
let dev: Account;
let eva: Account;
let finn: Account;

type Stored = {
  status: ResidencyStatus | null;
  firstYearOpen?: boolean;
  missing?: boolean;
  flagged?: boolean;
  confirmed?: ResidencyStatus | null;
};

/** Writes the residency a case stores, as app/server/residency/outcome.server.ts would have. */
async function stored(who: Account, taxYear: number, s: Stored) {
  await getDb()
    .update(clientCases)
    .set({
      residencyStatus: s.status,
      residencyFirstYearOpen: s.firstYearOpen ?? false,
      residencyMissing: s.missing ?? false,
      residencyFlagged: s.flagged ?? false,
      residencyConfirmedStatus: s.confirmed ?? null,
      residencyConfirmedAt: s.confirmed ? new Date() : null,
    })
    .where(and(eq(clientCases.userId, who.id), eq(clientCases.taxYear, taxYear)));
}

async function load(who: Account | null, search = ""): Promise<AdminDashboardData> {
  return unwrap<AdminDashboardData>(await dashboardLoader(routeArgs(withCookie(`/admin/dashboard${search}`, who?.cookie ?? "")))).body;
}

async function csv(who: Account, search = ""): Promise<string[][]> {
  const res = (await csvLoader(routeArgs(withCookie(`/admin/clients.csv${search}`, who.cookie)))) as Response;
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split("\r\n")
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"')));
}

const names = (d: AdminDashboardData) => d.rows.map((r) => r.name).sort();

/** What each filter keeps of the year's cases below. */
const KEPT: Record<ResidencyFilter, string[]> = {
  resident: ["Ana Resident"],
  nonresident: ["Ben Nonresident", "Cleo Nonresident"],
  "dual-status": ["Dev Dual"],
  "first-year-choice": ["Cleo Nonresident"],
  "history-missing": ["Dev Dual", "Finn Nohistory"],
  flagged: ["Ben Nonresident"],
};
const COUNTS: Record<ResidencyFilter, number> = {
  resident: 1,
  nonresident: 2,
  "dual-status": 1,
  "first-year-choice": 1,
  "history-missing": 2,
  flagged: 1,
};
const EVERYONE = ["Ana Resident", "Ben Nonresident", "Cleo Nonresident", "Dev Dual", "Eva Citizen", "Finn Nohistory"];

beforeEach(async () => {
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  ana = await account("ana@example.com", "Ana Resident");
  ben = await account("ben@example.com", "Ben Nonresident");
  cleo = await account("cleo@example.com", "Cleo Nonresident");
  dev = await account("dev@example.com", "Dev Dual");
  eva = await account("eva@example.com", "Eva Citizen");
  finn = await account("finn@example.com", "Finn Nohistory");
  await stored(ana, Y, { status: "resident" });
  await stored(ben, Y, { status: "nonresident", flagged: true });
  await stored(cleo, Y, { status: "nonresident", firstYearOpen: true, confirmed: "nonresident" });
  // Computed dual-status with something missing; staff confirmed another status, with a reason.
  await stored(dev, Y, { status: "dual-status", missing: true, confirmed: "resident" });
  await stored(eva, Y, { status: "citizen", confirmed: "citizen" });
  // Finn's case keeps what a case without history stores: no status, the history missing.
  const [none] = await getDb()
    .select({ status: clientCases.residencyStatus, missing: clientCases.residencyMissing, flagged: clientCases.residencyFlagged })
    .from(clientCases)
    .where(and(eq(clientCases.userId, finn.id), eq(clientCases.taxYear, Y)));
  expect(none).toEqual({ status: null, missing: true, flagged: false });
  // The year before, Ana was a nonresident with everything flagged: not this year's counts.
  await getDb().insert(clientCases).values({ userId: ana.id, taxYear: Y - 1 });
  await stored(ana, Y - 1, { status: "nonresident", firstYearOpen: true, missing: true, flagged: true });
});

describe("the client list's residency filter", () => {
  it("keeps exactly the cases of each filter, with the year's counts, for a preparer and an admin", async () => {
    for (const staff of [preparer, admin]) {
      const all = await load(staff);
      expect(all.query.residencyFilter).toBe("all");
      expect(all.residencyCounts).toEqual(COUNTS);
      expect([all.matching, names(all)]).toEqual([6, EVERYONE]);
      for (const filter of RESIDENCY_FILTERS) {
        const d = await load(staff, `?residency=${filter}`);
        expect([d.query.residencyFilter, d.matching, names(d)]).toEqual([filter, KEPT[filter].length, KEPT[filter]]);
        // The counts are the year's, whatever the list shows.
        expect(d.residencyCounts).toEqual(COUNTS);
      }
    }
  });

  it("counts from the tallies the database keeps what the list keeps, the year's cases only, after a merge and a recount too", async () => {
    expect(await residencyFilterCounts(admin.actor, Y)).toEqual(COUNTS);
    // Merged into one row per key, and counted again from the cases: the same counts.
    await compactTallies();
    expect(await residencyFilterCounts(admin.actor, Y)).toEqual(COUNTS);
    await getDb().execute(sql`select recount_tallies()`);
    expect(await residencyFilterCounts(admin.actor, Y)).toEqual(COUNTS);
    const keys = await getDb().execute(sql`select tax_year, residency_status, first_year_open, missing, flagged from residency_tallies`);
    const rows = (keys as unknown as { rows: unknown[] }).rows;
    expect(new Set(rows.map((r) => JSON.stringify(r))).size).toBe(rows.length);
    expect(await residencyFilterCounts(admin.actor, Y - 1)).toEqual({
      resident: 0,
      nonresident: 1,
      "dual-status": 0,
      "first-year-choice": 1,
      "history-missing": 1,
      flagged: 1,
    });
    expect(await residencyFilterCounts(admin.actor, Y - 2)).toEqual(Object.fromEntries(RESIDENCY_FILTERS.map((f) => [f, 0])));
    for (const filter of RESIDENCY_FILTERS) {
      const listed = await findCases({ year: Y, section: "home", q: "", stage: "all", residencyFilter: filter });
      expect(listed.matching).toBe(COUNTS[filter]);
    }
    await expect(residencyFilterCounts(ana.actor, Y)).rejects.toThrow("Only staff may see the case list.");
  });

  it("applies on top of the search, the stage, the return filter and the year, and pages", async () => {
    const searched = await load(admin, "?residency=nonresident&q=cleo");
    expect([searched.matching, names(searched)]).toEqual([1, ["Cleo Nonresident"]]);
    expect((await load(admin, "?residency=resident&q=ben")).matching).toBe(0);
    expect((await load(admin, "?residency=nonresident&stage=home")).matching).toBe(2);
    expect((await load(admin, "?residency=nonresident&stage=documents")).matching).toBe(0);
    expect((await load(admin, "?residency=nonresident&return=rejected")).matching).toBe(0);
    const earlier = await load(admin, `?residency=nonresident&year=${Y - 1}`);
    expect([earlier.matching, names(earlier)]).toEqual([1, ["Ana Resident"]]);
    // Pages of the filtered list, counted as the filter keeps them (not the year's total).
    const page = await findCases(
      { year: Y, section: "home", q: "", stage: "all", residencyFilter: "history-missing" },
      { number: 1, size: 1 },
      { total: 6 },
    );
    expect([page.matching, page.rows.length]).toEqual([2, 1]);
  });

  it("keeps everyone with `all`, and reads a value it does not know as all", async () => {
    for (const value of ["all", "", "Nonresident", "citizen", "nonresident%20", "flagged,resident", "bogus"]) {
      const d = await load(admin, `?residency=${value}`);
      expect([d.query.residencyFilter, d.matching, names(d)]).toEqual(["all", 6, EVERYONE]);
    }
  });

  it("stays in the URL as ?residency= beside the other filters, left out when all", () => {
    const now = new Date();
    const q = parseAdminQuery(new URLSearchParams("residency=first-year-choice&return=rejected&stage=home"), now);
    expect(q).toMatchObject({ residencyFilter: "first-year-choice", returnFilter: "rejected", stage: "home" });
    expect(adminQueryString(q, {}, now)).toBe("?stage=home&return=rejected&residency=first-year-choice");
    expect(adminQueryString(q, { residencyFilter: "all" }, now)).toBe("?stage=home&return=rejected");
  });

  it("offers each choice with its count, and Clear filters drops it", async () => {
    const d = await load(admin, "?residency=nonresident&q=ben");
    const router = createMemoryRouter(
      [{ path: "/admin/dashboard", element: createElement(ClientFilters, { query: d.query, years: d.years, returnCounts: d.returnCounts, residencyCounts: d.residencyCounts }) }],
      { initialEntries: ["/admin/dashboard?residency=nonresident&q=ben"] },
    );
    const html = renderToStaticMarkup(createElement(RouterProvider, { router }));
    expect(html).toContain('<label for="client-residency"');
    expect(html).toContain(">Residency</label>");
    expect(html).toMatch(/<select[^>]*id="client-residency"[^>]*name="residency"|<select[^>]*name="residency"[^>]*id="client-residency"/);
    const options = [...html.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options.filter(([value]) => value === "all" || RESIDENCY_FILTERS.includes(value as ResidencyFilter))).toEqual(
      expect.arrayContaining([
        ["all", "All Residencies"],
        ["resident", "Resident (1)"],
        ["nonresident", "Nonresident (2)"],
        ["dual-status", "Dual-status (1)"],
        ["first-year-choice", "First-year choice open (1)"],
        ["history-missing", "History missing (2)"],
        ["flagged", "Flagged (1)"],
      ]),
    );
    expect(html).toContain('href="/admin/dashboard"');
    expect(html).toContain(">Clear filters</a>");
    // The filter alone makes the list filtered: Clear filters is offered, and drops it.
    const only = parseAdminQuery(new URLSearchParams("residency=flagged"));
    expect(adminQueryString(only, { q: "", stage: "all", returnFilter: "all", residencyFilter: "all", page: 1 })).toBe("");
  });
});

describe("the CSV export and the residency filter", () => {
  it("exports the filtered list only, with the Residency column last", async () => {
    const rows = await csv(admin);
    expect(rows[0]!.at(-1)).toBe("Residency");
    const residency = Object.fromEntries(rows.slice(1).map((r) => [r[2], r.at(-1)]));
    expect(residency).toEqual({
      "Ana Resident": "Resident",
      "Ben Nonresident": "Nonresident",
      "Cleo Nonresident": "Nonresident (confirmed)",
      "Dev Dual": "Resident (confirmed; computed: Dual-status)",
      "Eva Citizen": "US citizen (confirmed)",
      "Finn Nohistory": "No history yet",
    });
    for (const filter of RESIDENCY_FILTERS)
      expect((await csv(admin, `?residency=${filter}`)).slice(1).map((r) => r[2]).sort()).toEqual(KEPT[filter]);
    expect((await csv(admin, "?residency=nonresident&q=ben")).slice(1).map((r) => [r[2], r.at(-1)])).toEqual([["Ben Nonresident", "Nonresident"]]);
    expect((await csv(admin, "?residency=bogus")).length).toBe(7);
    expect((await csv(admin, `?residency=nonresident&year=${Y - 1}`)).slice(1).map((r) => [r[2], r.at(-1)])).toEqual([["Ana Resident", "Nonresident"]]);
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"));
    expect(entries.filter((e) => e.taxYear === Y).map((e) => e.detail)).toEqual(
      expect.arrayContaining([`6 clients of tax year ${Y}`, `2 clients of tax year ${Y}`, `1 client of tax year ${Y}`]),
    );
  });
});

describe("who may use the residency filter", () => {
  it("refuses a client and a visitor, as the whole dashboard, and they get no export", async () => {
    for (const [who, to] of [
      [ana, /^\/dashboard$/],
      [null, /^\/login\?redirectTo=/],
    ] as const) {
      for (const search of ["?residency=nonresident", "?residency=history-missing", ""]) {
        const refused = await dashboardLoader(routeArgs(withCookie(`/admin/dashboard${search}`, who?.cookie ?? ""))).catch((r: unknown) => r);
        expect(refused).toBeInstanceOf(Response);
        expect((refused as Response).headers.get("location")).toMatch(to);
      }
      const refused = await csvLoader(routeArgs(withCookie("/admin/clients.csv?residency=nonresident", who?.cookie ?? ""))).catch((r: unknown) => r);
      expect(refused).toBeInstanceOf(Response);
      expect((refused as Response).status).toBe(302);
      expect((refused as Response).headers.get("location")).toMatch(to);
    }
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"))).toEqual([]);
  });
});
