// The staff panel's list, one tax year at a time: the list, its counters, search and sections,
// the CSV export, whether the year's taxpayer information came in, and the client's uploads new
// to each staff member (case_views). Two clients, each with a case in two tax years.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { dashboardHref, dashboardReturn, caseHref, documentsHref } from "~/domain/admin-links";
import { shortDate, taxInfoText } from "~/components/admin/table/cells";
import type { AdminClientRow, AdminDashboardData } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { shellPlace } from "~/routes/admin/layout";
import { markCaseViewed } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, caseViews, clientCases, documents, taxpayerRecords, user } from "~/server/db/schema";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, signedInClient, withCookie } from "./helpers";

const { loader: dashboardLoader, action: dashboardAction } = await routeModule("routes/admin/dashboard.tsx");
const { loader: csvLoader } = await routeModule("routes/admin/clients-csv.ts");
const { loader: documentsLoader } = await routeModule("routes/admin/client-documents.tsx");

const YEAR = currentFilingYear();
const EARLIER = YEAR - 1;

type Account = { id: string; cookie: string };
let staffA: Account;
let staffB: Account;
let maria: Account;
let zhang: Account;

/** A case of `clientId` for `taxYear` at `stage`, keeping the client's number (as openCase does). */
async function openYear(clientId: string, taxYear: number, stage: "home" | "documents" | "finalcopies") {
  const [first] = await getDb()
    .select({ number: clientCases.number })
    .from(clientCases)
    .where(eq(clientCases.userId, clientId));
  const done = { home: stage !== "home", taxinfo: stage !== "home", documents: stage === "finalcopies" };
  const all =
    stage === "finalcopies"
      ? { preparation: true, draft: true, payment: true, efiling: true, finalcopies: true }
      : {};
  await getDb()
    .insert(clientCases)
    .values({ userId: clientId, taxYear, number: first!.number, ...done, ...all, currentStage: stage })
    .onConflictDoUpdate({
      target: [clientCases.userId, clientCases.taxYear],
      set: { ...done, ...all, currentStage: stage },
    });
}

/** A document row of a case (the file itself does not matter to the list). */
async function addDocument(clientId: string, taxYear: number, fromClient: boolean, createdAt = new Date()) {
  await getDb()
    .insert(documents)
    .values({
      clientId,
      taxYear,
      category: "w-2",
      originalName: `${fromClient ? "client" : "staff"}-${randomUUID()}.pdf`,
      size: 100,
      contentType: "application/pdf",
      storageKey: randomUUID(),
      fromClient,
      createdAt,
    });
}

async function load(account: Account, search = ""): Promise<AdminDashboardData> {
  return unwrap<AdminDashboardData>(
    await dashboardLoader(routeArgs(withCookie(`/admin/dashboard${search}`, account.cookie))),
  ).body;
}

const byName = (rows: AdminClientRow[]) => Object.fromEntries(rows.map((r) => [r.name, r]));

async function csv(account: Account, search = ""): Promise<string[][]> {
  const res = (await csvLoader(
    routeArgs(withCookie(`/admin/clients.csv${search}`, account.cookie)),
  )) as Response;
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .trim()
    .split("\r\n")
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"')));
}

const SUBMITTED = new Date(`${YEAR + 1}-02-03T10:00:00Z`);
const CHANGED = new Date(`${YEAR + 1}-03-04T15:30:00Z`);

/** Two staff members; Maria and Zhang, each with a case this season and the year before. */
async function twoClientsTwoYears() {
  staffA = await signedInClient("asha.staff@example.com");
  await makeStaff(staffA);
  staffB = await signedInClient("bob.staff@example.com");
  await makeStaff(staffB);
  maria = await signedInClient("maria.gonzalez@example.com");
  zhang = await signedInClient("zhang.wei@example.com");
  await getDb().update(user).set({ name: "Maria Gonzalez" }).where(eq(user.id, maria.id));
  await getDb().update(user).set({ name: "Zhang Wei" }).where(eq(user.id, zhang.id));
  // This season: Maria at DOCUMENTS with her taxpayer information in; Zhang at HOME, none yet.
  await openYear(maria.id, YEAR, "documents");
  // The year before: Maria's filing is done; Zhang's waits for documents.
  await openYear(maria.id, EARLIER, "finalcopies");
  await openYear(zhang.id, EARLIER, "documents");
  expect(await saveTaxpayerRecord(maria.id, sampleTaxpayer, YEAR)).toBe("created");
  await getDb()
    .update(taxpayerRecords)
    .set({ createdAt: SUBMITTED, updatedAt: CHANGED })
    .where(and(eq(taxpayerRecords.userId, maria.id), eq(taxpayerRecords.taxYear, YEAR)));
}

describe("the client list follows the tax year", () => {
  beforeEach(twoClientsTwoYears);

  it("shows the filing season's year by default, and any year asked for, with its own counters", async () => {
    const now = await load(staffA);
    expect(now.query.year).toBe(YEAR);
    expect(now.years).toEqual([YEAR, EARLIER]);
    expect(now.rows.map((r) => [r.name, r.taxYear, r.stage])).toEqual([
      ["Zhang Wei", YEAR, "home"],
      ["Maria Gonzalez", YEAR, "documents"],
    ]);
    expect(now.counters).toEqual({ total: 2, active: 2, pendingDocuments: 1, completed: 0 });

    const before = await load(staffA, `?year=${EARLIER}`);
    expect(before.query.year).toBe(EARLIER);
    expect(before.rows.map((r) => [r.name, r.taxYear, r.stage])).toEqual([
      ["Zhang Wei", EARLIER, "documents"],
      ["Maria Gonzalez", EARLIER, "finalcopies"],
    ]);
    expect(before.counters).toEqual({ total: 2, active: 1, pendingDocuments: 1, completed: 1 });
    // The client's number is theirs in every year.
    expect(byName(before.rows)["Maria Gonzalez"]!.code).toBe(byName(now.rows)["Maria Gonzalez"]!.code);
  });

  it("sections, the stage filter, search and pages apply within the year", async () => {
    expect((await load(staffA, `?year=${EARLIER}&section=documents`)).rows.map((r) => r.name)).toEqual([
      "Zhang Wei",
    ]);
    expect((await load(staffA, "?section=documents")).rows.map((r) => r.name)).toEqual(["Maria Gonzalez"]);
    expect((await load(staffA, `?year=${EARLIER}&stage=finalcopies`)).rows.map((r) => r.name)).toEqual([
      "Maria Gonzalez",
    ]);
    expect((await load(staffA, "?stage=finalcopies")).rows).toEqual([]);
    const search = await load(staffA, `?year=${EARLIER}&q=zhang`);
    expect(search.rows.map((r) => [r.name, r.taxYear])).toEqual([["Zhang Wei", EARLIER]]);
    expect(search.matching).toBe(1);
    // A page past the end of the year's list shows its last page.
    const past = await load(staffA, `?year=${EARLIER}&page=5`);
    expect(past.query).toMatchObject({ year: EARLIER, page: 1 });
    expect(past.rows).toHaveLength(2);
  });

  it("a year with no case lists nobody; a year the product does not know reads as the season's", async () => {
    const empty = await load(staffA, `?year=${YEAR - 3}`);
    expect(empty.query.year).toBe(YEAR - 3);
    expect(empty.rows).toEqual([]);
    expect(empty.counters.total).toBe(0);
    for (const bad of ["1999", "abcd", `${YEAR + 5}`, "2024.5", ""]) {
      expect((await load(staffA, `?year=${encodeURIComponent(bad)}`)).query.year).toBe(YEAR);
    }
  });

  it("says whether the year's taxpayer information came in, and when it last changed", async () => {
    const now = byName((await load(staffA)).rows);
    expect(now["Maria Gonzalez"]!.taxInfo).toEqual({
      submittedAt: SUBMITTED.toISOString(),
      updatedAt: CHANGED.toISOString(),
    });
    expect(now["Zhang Wei"]!.taxInfo).toBeNull();
    // Maria sent nothing for the year before.
    expect(byName((await load(staffA, `?year=${EARLIER}`)).rows)["Maria Gonzalez"]!.taxInfo).toBeNull();
    expect(taxInfoText(now["Maria Gonzalez"]!.taxInfo, CHANGED)).toEqual({
      status: "Submitted",
      when: "changed Mar 4",
      title:
        "Submitted February 3, " +
        (YEAR + 1) +
        ", 10:00 AM UTC; last changed March 4, " +
        (YEAR + 1) +
        ", 3:30 PM UTC.",
    });
    expect(taxInfoText(null).status).toBe("Not yet");
    expect(shortDate(CHANGED.toISOString(), new Date(`${YEAR + 3}-01-01T00:00:00Z`))).toBe(
      `Mar 4, ${YEAR + 1}`,
    );
  });

  it("counts the client's uploads new to each staff member, per year, until that member opens the case", async () => {
    const old = new Date(Date.now() - 60 * 60_000);
    await addDocument(maria.id, YEAR, true, old);
    await addDocument(maria.id, YEAR, true, old);
    await addDocument(maria.id, YEAR, false, old); // staff's own upload: never "new"
    await addDocument(maria.id, EARLIER, true, old);

    const newFor = async (account: Account, search = "") =>
      byName((await load(account, search)).rows)["Maria Gonzalez"]!.newUploads;
    expect(await newFor(staffA)).toBe(2);
    expect(await newFor(staffB)).toBe(2);
    expect(await newFor(staffA, `?year=${EARLIER}`)).toBe(1);
    expect(byName((await load(staffA)).rows)["Maria Gonzalez"]!.documentCount).toBe(3);

    // Staff A opens this season's case: nothing is new to A there; B and the other year are unchanged.
    await markCaseViewed(staffA.id, maria.id, YEAR);
    expect(await newFor(staffA)).toBe(0);
    expect(await newFor(staffB)).toBe(2);
    expect(await newFor(staffA, `?year=${EARLIER}`)).toBe(1);

    // The client sends one more: new to A again (one), to B (three).
    await addDocument(maria.id, YEAR, true, new Date(Date.now() + 1_000));
    expect(await newFor(staffA)).toBe(1);
    expect(await newFor(staffB)).toBe(3);
    // Zhang's list row is untouched by Maria's papers.
    expect(byName((await load(staffA)).rows)["Zhang Wei"]!.newUploads).toBe(0);
    const views = await getDb().select().from(caseViews);
    expect(views.map((v) => [v.staffId, v.clientId, v.taxYear])).toEqual([[staffA.id, maria.id, YEAR]]);
  });

  it("saving a workflow and viewing a case name the year: the other year stays as it was", async () => {
    const save = unwrap<{ ok: boolean }>(
      await dashboardAction(
        routeArgs(
          withCookie(`/admin/dashboard?year=${EARLIER}`, staffA.cookie, {
            method: "POST",
            body: new URLSearchParams([
              ["intent", "save-workflow"],
              ["clientId", zhang.id],
              ["taxYear", String(EARLIER)],
              ["assigneeId", staffB.id],
              ["completed", "home"],
              ["completed", "taxinfo"],
              ["completed", "documents"],
            ]),
          }),
        ),
      ),
    );
    expect(save.body.ok).toBe(true);
    const before = byName((await load(staffA, `?year=${EARLIER}`)).rows)["Zhang Wei"]!;
    expect(before).toMatchObject({ stage: "preparation", assignee: { id: staffB.id } });
    expect(byName((await load(staffA)).rows)["Zhang Wei"]!).toMatchObject({ stage: "home", assignee: null });

    const viewed = unwrap<{ ok: boolean }>(
      await dashboardAction(
        routeArgs(
          withCookie("/admin/dashboard", staffA.cookie, {
            method: "POST",
            body: new URLSearchParams({ intent: "view-case", clientId: zhang.id, taxYear: String(EARLIER) }),
          }),
        ),
      ),
    );
    expect(viewed.body.ok).toBe(true);
    const [entry] = await getDb().select().from(auditLog).where(eq(auditLog.action, "case-viewed"));
    expect(entry).toMatchObject({ clientId: zhang.id, taxYear: EARLIER });
  });
});

describe("Export Data follows the tax year", () => {
  beforeEach(twoClientsTwoYears);

  const HEADER = [
    "No.",
    "Client ID",
    "Name",
    "Email",
    "Assigned To",
    "Status",
    "Documents",
    "HOME",
    "TAX INFO",
    "DOCUMENTS",
    "PREPARATION",
    "DRAFT",
    "PAYMENT",
    "E-FILING",
    "FINAL COPIES",
    "Created",
    "Tax Year",
    "Tax Info",
    "Tax Info Last Changed",
    "Residency",
  ];

  it("keeps the columns it had, first and in order, then the year, the taxpayer information and its last change, then the residency", async () => {
    const rows = await csv(staffA);
    expect(rows[0]).toEqual(HEADER);
    const maria = rows.find((r) => r[2] === "Maria Gonzalez")!;
    const zhang = rows.find((r) => r[2] === "Zhang Wei")!;
    expect(maria.slice(-4)).toEqual([
      String(YEAR),
      `Submitted on ${SUBMITTED.toISOString().slice(0, 10)}`,
      CHANGED.toISOString().slice(0, 10),
      "No history yet",
    ]);
    expect(zhang.slice(-4)).toEqual([String(YEAR), "Not submitted", "", "No history yet"]);
    expect(maria[5]).toBe("DOCUMENTS");
    expect(rows).toHaveLength(3);
  });

  it("exports the year on screen, with its section and search, and the audit trail says which year", async () => {
    const before = await csv(staffA, `?year=${EARLIER}`);
    expect(before.slice(1).map((r) => [r[2], r[5], r[16], r[17]])).toEqual([
      ["Zhang Wei", "DOCUMENTS", String(EARLIER), "Not submitted"],
      ["Maria Gonzalez", "FINAL COPIES", String(EARLIER), "Not submitted"],
    ]);
    expect((await csv(staffA, `?year=${EARLIER}&q=maria`)).slice(1).map((r) => r[2])).toEqual([
      "Maria Gonzalez",
    ]);
    expect((await csv(staffA, `?year=${EARLIER}&section=documents`)).slice(1).map((r) => r[2])).toEqual([
      "Zhang Wei",
    ]);
    expect((await csv(staffA, `?year=${YEAR - 3}`)).slice(1)).toEqual([]);

    const entries = await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"));
    expect(entries.map((e) => [e.detail, e.taxYear]).sort()).toEqual(
      [
        [`2 clients of tax year ${EARLIER}`, EARLIER],
        [`1 client of tax year ${EARLIER}`, EARLIER],
        [`1 client of tax year ${EARLIER}`, EARLIER],
        [`0 clients of tax year ${YEAR - 3}`, YEAR - 3],
      ].sort(),
    );
  });

  it("is for staff only, whatever the year", async () => {
    for (const cookie of [maria.cookie, ""]) {
      const refused = await csvLoader(
        routeArgs(withCookie(`/admin/clients.csv?year=${EARLIER}`, cookie)),
      ).catch((r: unknown) => r);
      expect(refused).toBeInstanceOf(Response);
      expect((refused as Response).headers.get("location")).toMatch(
        cookie ? /^\/dashboard$/ : /^\/login\?redirectTo=/,
      );
    }
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"))).toEqual([]);
  });
});

describe("the documents of one year's case", () => {
  beforeEach(twoClientsTwoYears);

  it("lists the documents of the year asked for, and answers 404 for a year with no case", async () => {
    await addDocument(maria.id, YEAR, true);
    await addDocument(maria.id, EARLIER, true);
    await addDocument(maria.id, EARLIER, false);
    type Listing = { client: { taxYear: number }; groups: Array<{ documents: unknown[] }> };
    const count = (body: Listing) => body.groups.reduce((n, g) => n + g.documents.length, 0);
    const call = (search: string) => {
      const args = routeArgs(withCookie(`/admin/clients/${maria.id}/documents${search}`, staffA.cookie));
      args.params = { clientId: maria.id };
      return documentsLoader(args);
    };
    expect(count(unwrap<Listing>(await call("")).body)).toBe(1);
    const before = unwrap<Listing>(
      await call(`?year=${EARLIER}&back=${encodeURIComponent("/admin/dashboard?q=maria")}`),
    ).body;
    expect(before.client.taxYear).toBe(EARLIER);
    expect(count(before)).toBe(2);
    const none = await call(`?year=${YEAR - 3}`).catch((r: unknown) => r);
    expect((none as { init?: { status?: number } }).init?.status).toBe(404);
  });
});

describe("links that leave the list and come back to it", () => {
  it("come back only to the client list", () => {
    expect(dashboardReturn("/admin/dashboard?year=2024&q=maria&stage=documents&page=2")).toBe(
      "/admin/dashboard?year=2024&q=maria&stage=documents&page=2",
    );
    expect(dashboardReturn("/admin/dashboard")).toBe("/admin/dashboard");
    for (const elsewhere of [
      null,
      "",
      "https://evil.example/admin/dashboard",
      "//evil.example",
      "/admin/dashboardx",
      "/admin/audit",
      "/admin/dashboard/../audit",
      "/admin/dashboard?\\evil",
      "/admin/dashboard?a=\n",
    ]) {
      expect(dashboardReturn(elsewhere)).toBe("/admin/dashboard");
    }
  });

  it("carry the year and the list's address", () => {
    const back = dashboardHref("?q=maria&page=2");
    expect(back).toBe("/admin/dashboard?q=maria&page=2");
    expect(dashboardHref("")).toBe("/admin/dashboard");
    expect(caseHref("c1", 2024, back)).toBe(`/admin/clients/c1/2024?back=${encodeURIComponent(back)}`);
    expect(documentsHref("c1", 2024, back)).toBe(
      `/admin/clients/c1/documents?year=2024&back=${encodeURIComponent(back)}`,
    );
  });

  it("a client's pages belong to the client list, in the case's year", () => {
    expect(shellPlace("/admin/clients/c1/2024", "?back=%2Fadmin%2Fdashboard")).toEqual({
      section: "home",
      active: "home",
      year: 2024,
    });
    expect(shellPlace("/admin/clients/c1/documents", "?year=2024")).toEqual({
      section: "home",
      active: "home",
      year: 2024,
    });
    expect(shellPlace("/admin/clients/c1/documents", "")).toEqual({ section: "home", active: "home" });
    expect(shellPlace("/admin/dashboard", "?year=2024&section=draft")).toEqual({
      section: "draft",
      active: "draft",
      year: 2024,
    });
    expect(shellPlace("/admin/messages", "?year=2024")).toEqual({ section: "home", active: "messages" });
  });
});
