// The staff panel follows the return: the client list's return filter (waiting for approval, for
// a signature, rejected) with the year's counts, in the URL and the CSV export, and the rejected
// returns listed on the dashboard, most urgent first. Through the route loaders, as the server
// runs them.
import { rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { RejectedReturns } from "~/components/admin/rejected-returns";
import type { RejectedReturnsProps } from "~/components/admin/rejected-returns";
import type { AdminDashboardData } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { getDb } from "~/server/db/client.server";
import { auditLog } from "~/server/db/schema";
import { recordRejected, recordTransmission } from "~/server/returns/efile.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { requestSignature } from "~/server/returns/signature-requests.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { account, authorisedReturn, dayFromToday, IP, pdf, received, UA } from "../helpers/returns";
import { letterAccepted } from "../helpers/engagement";
import type { Account } from "../helpers/returns";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { withCookie } from "./helpers";

const { loader: dashboardLoader } = await routeModule("routes/admin/dashboard.tsx");
const { loader: csvLoader } = await routeModule("routes/admin/clients-csv.ts");

const Y = currentFilingYear();
type Dashboard = AdminDashboardData & { rejected: RejectedReturnsProps["rejected"] };

let admin: Account;
let preparer: Account;
/** Waiting for approval: a version uploaded, not reviewed. */
let ana: Account;
/** Waiting for a signature: approved, a signature requested. */
let ben: Account;
/** Rejected 7 days ago: past the period. */
let cleo: Account;
/** Rejected 5 days ago: the last day. */
let dev: Account;
/** Rejected today. */
let eva: Account;
/** No return yet. */
let fay: Account;

async function uploaded(who: Account) {
  const v = await uploadReturnVersion(preparer.actor, { clientId: who.id, taxYear: Y }, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
  if (!v.ok) throw new Error(v.error);
  return v.versionId;
}

async function rejected(who: Account, sentDaysAgo: number, rejectedDaysAgo: number, codes: string[]) {
  await authorisedReturn(who, { preparer, admin }, Y);
  const t = await recordTransmission(preparer.actor, { clientId: who.id, taxYear: Y }, { date: dayFromToday(-sentDaysAgo), submissionId: "0012342025123abc", jurisdiction: "federal" }, IP);
  if (!t.ok) throw new Error(t.error);
  const r = await recordRejected(admin.actor, t.transmissionId, { date: dayFromToday(-rejectedDaysAgo), codes }, IP);
  if (!r.ok) throw new Error(r.error);
}

beforeEach(async () => {
  rmSync(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  admin = await account("sam.admin@example.com", "Sam Admin", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  ana = await account("ana@example.com", "Ana Approval");
  ben = await account("ben@example.com", "Ben Signature");
  cleo = await account("cleo@example.com", "Cleo Late");
  dev = await account("dev@example.com", "Dev Lastday");
  eva = await account("eva@example.com", "Eva Today");
  fay = await account("fay@example.com", "Fay Nothing");
  for (const who of [ana, ben, cleo, dev, eva, fay]) {
    expect(await saveTaxpayerRecord(who.id, sampleTaxpayer, Y)).toBe("created");
    await letterAccepted(admin, who, Y);
  }
});

async function load(who: Account | null, search = ""): Promise<Dashboard> {
  return unwrap<Dashboard>(await dashboardLoader(routeArgs(withCookie(`/admin/dashboard${search}`, who?.cookie ?? "")))).body;
}

async function csvNames(who: Account, search: string): Promise<string[]> {
  const res = (await csvLoader(routeArgs(withCookie(`/admin/clients.csv${search}`, who.cookie)))) as Response;
  expect(res.status).toBe(200);
  const lines = (await res.text()).trim().split("\r\n");
  expect(lines[0]).toContain('"Client ID","Name"');
  return lines.slice(1).map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)][2]![1]!);
}

const names = (d: Dashboard) => d.rows.map((r) => r.name).sort();

describe("the client list's return filter", () => {
  beforeEach(async () => {
    await uploaded(ana);
    const v = await uploaded(ben);
    await approveReturnVersion(ben.actor, v, { ip: IP, userAgent: UA, declarationVersion: "d1" });
    const s = await requestSignature(preparer.actor, v, { formFile: await received("8879.pdf", pdf("8879")), jointReturn: false }, IP);
    if (!s.ok) throw new Error(s.error);
    await rejected(cleo, 10, 7, ["IND-031-04"]);
    await rejected(dev, 6, 5, ["IND-452", "R0000-500-01"]);
    await rejected(eva, 1, 0, ["IND-524"]);
  });

  it("keeps the cases of each filter, with the year's counts, for a preparer and an admin", async () => {
    for (const staff of [preparer, admin]) {
      const all = await load(staff);
      expect(all.query.returnFilter).toBe("all");
      expect(all.returnCounts).toEqual({ "awaiting-approval": 1, "awaiting-signature": 1, rejected: 3 });
      expect(all.matching).toBe(6);

      const approval = await load(staff, "?return=awaiting-approval");
      expect([approval.query.returnFilter, approval.matching, names(approval)]).toEqual(["awaiting-approval", 1, ["Ana Approval"]]);
      const signature = await load(staff, "?return=awaiting-signature");
      expect([signature.matching, names(signature)]).toEqual([1, ["Ben Signature"]]);
      const rejectedList = await load(staff, "?return=rejected");
      expect([rejectedList.matching, names(rejectedList)]).toEqual([3, ["Cleo Late", "Dev Lastday", "Eva Today"]]);
      // The counts are the year's, whatever the list shows.
      expect(rejectedList.returnCounts).toEqual(all.returnCounts);
    }
  });

  it("applies on top of the search and the stage filter, and in another year keeps nothing", async () => {
    const searched = await load(admin, "?return=rejected&q=dev");
    expect([searched.matching, names(searched)]).toEqual([1, ["Dev Lastday"]]);
    const none = await load(admin, "?return=awaiting-approval&q=cleo");
    expect([none.matching, none.rows]).toEqual([0, []]);
    const stage = (await load(admin, "?return=rejected")).rows[0]!.stage;
    const otherStage = stage === "home" ? "finalcopies" : "home";
    expect((await load(admin, `?return=rejected&stage=${stage}`)).matching).toBe(3);
    expect((await load(admin, `?return=rejected&stage=${otherStage}`)).matching).toBe(0);
    const earlier = await load(admin, `?return=rejected&year=${Y - 1}`);
    expect([earlier.matching, earlier.returnCounts]).toEqual([0, { "awaiting-approval": 0, "awaiting-signature": 0, rejected: 0 }]);
  });

  it("ignores a return filter it does not know, like the other filters", async () => {
    for (const bad of ["Rejected", "signed", "", "rejected%20", "all"]) {
      const d = await load(admin, `?return=${bad}`);
      expect([d.query.returnFilter, d.matching]).toEqual(["all", 6]);
    }
  });

  it("exports the filtered list only", async () => {
    expect((await csvNames(admin, "?return=rejected")).sort()).toEqual(["Cleo Late", "Dev Lastday", "Eva Today"]);
    expect(await csvNames(admin, "?return=awaiting-signature")).toEqual(["Ben Signature"]);
    expect((await csvNames(admin, "?return=bogus")).length).toBe(6);
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"));
    expect(entries.map((e) => e.detail).sort()).toEqual(
      [`3 clients of tax year ${Y}`, `1 client of tax year ${Y}`, `6 clients of tax year ${Y}`].sort(),
    );
  });

  it("lists the rejected returns most urgent first, with the days left, and links each to its case", async () => {
    for (const staff of [preparer, admin]) {
      const d = await load(staff);
      expect(d.rejected.map((r) => [r.clientLabel.replace(/^TB-\d{5} /, ""), r.taxYear, r.jurisdiction, r.rejectedOn, r.codes, r.daysLeft])).toEqual([
        ["Cleo Late", Y, "federal", dayFromToday(-7), ["IND-031-04"], -2],
        ["Dev Lastday", Y, "federal", dayFromToday(-5), ["IND-452", "R0000-500-01"], 0],
        ["Eva Today", Y, "federal", dayFromToday(0), ["IND-524"], 5],
      ]);
    }
    const html = render((await load(admin)).rejected);
    expect(html).toContain("Rejected returns");
    expect(html).toContain("3 returns to correct and send again, most urgent first.");
    const texts = [...html.matchAll(/(Past the 5-day period|Last day today|\d+ days? left to send again)/g)].map((m) => m[1]);
    expect(texts).toEqual(["Past the 5-day period", "Last day today", "5 days left to send again"]);
    expect(html).toContain(`href="/admin/clients/${cleo.id}/${Y}"`);
    expect(html).toContain(`Tax year ${Y} · Federal · rejected on `);
    expect(html).toContain("IND-452, R0000-500-01");
  });
});

/** The dashboard's panel as the browser shows it. */
function render(rejected: RejectedReturnsProps["rejected"]): string {
  const router = createMemoryRouter([{ path: "/admin/dashboard", element: createElement(RejectedReturns, { rejected }) }], {
    initialEntries: ["/admin/dashboard"],
  });
  return renderToStaticMarkup(createElement(RouterProvider, { router }));
}

describe("the rejected returns panel without rejections, and who may see it", () => {
  it("is not shown when no return is rejected", async () => {
    await uploaded(ana);
    const d = await load(admin);
    expect(d.rejected).toEqual([]);
    expect(render(d.rejected)).toBe("");
    expect(d.returnCounts).toEqual({ "awaiting-approval": 1, "awaiting-signature": 0, rejected: 0 });
  });

  it("refuses a client and a visitor, as the whole dashboard", async () => {
    for (const [who, to] of [
      [ana, /^\/dashboard$/],
      [null, /^\/login\?redirectTo=/],
    ] as const) {
      for (const search of ["?return=rejected", ""]) {
        const refused = await dashboardLoader(routeArgs(withCookie(`/admin/dashboard${search}`, who?.cookie ?? ""))).catch((r: unknown) => r);
        expect(refused).toBeInstanceOf(Response);
        expect((refused as Response).headers.get("location")).toMatch(to);
      }
      const csv = await csvLoader(routeArgs(withCookie("/admin/clients.csv?return=rejected", who?.cookie ?? ""))).catch((r: unknown) => r);
      expect((csv as Response).headers.get("location")).toMatch(to);
    }
    expect(await getDb().select().from(auditLog).where(eq(auditLog.action, "clients-exported"))).toEqual([]);
  });
});
