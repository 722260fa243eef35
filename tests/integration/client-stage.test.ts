import { rmSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { CASE_COMPLETE_TEXT, CASE_STAGE_TEXTS } from "~/content/case-stages";
import type { FilingEntry } from "~/domain/portal";
import { currentFilingYear } from "~/domain/tax-year";
import { noFlags } from "~/domain/workflow";
import type { StageKey, WorkflowFlags } from "~/domain/workflow";
import Filing from "~/routes/portal/filing";
import { caseState } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, invoices } from "~/server/db/schema";
import { recordAccepted, recordRejected, recordTransmission } from "~/server/returns/efile.server";
import { releaseFinalCopies } from "~/server/returns/final-copies.server";
import { approveReturnVersion } from "~/server/returns/reviews.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";
import { sentInvoice, feeCast } from "../helpers/fees";
import { letterAccepted } from "../helpers/engagement";
import { authorisedReturn, dayFromToday, IP, pdf, received, UA } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";

// The stage a client reads on /my-tax-filing/<year> and /my-tax-filing: never before the furthest
// one the case's records of the return and the fee reached, whatever flags staff ticked, and the
// page's words follow it (docs/product/workflow.md#the-stage-the-client-reads). Staff's own flags
// and stage are left as staff saved them.

const filingRoute = await routeModule("routes/portal/filing.tsx");
const listRoute = await routeModule("routes/portal/my-tax-filing.tsx");

const Y = currentFilingYear();
const req = (url: string, cookie: string) => new Request(`http://localhost:3000${url}`, { headers: { cookie } });
const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request), params }) as never;

type FilingBody = { stage: StageKey; flags: WorkflowFlags } & Record<string, unknown>;
const loadFiling = async (who: Account) => {
  const page = await routeOutcome<FilingBody>(() => filingRoute.loader(args(req(`/my-tax-filing/${Y}`, who.cookie), { year: String(Y) })));
  expect(page.status).toBe(200);
  return page.body;
};
const listStage = async (who: Account) => {
  const list = await routeOutcome<{ filings: FilingEntry[] }>(() => listRoute.loader(args(req("/my-tax-filing", who.cookie))));
  return list.body.filings.map((f) => [f.taxYear, f.stage, f.complete]);
};

/** The filing page as the server renders it from its loader's data. */
function render(data: FilingBody): string {
  const router = createMemoryRouter([{ id: "filing", path: "/my-tax-filing/:year", Component: Filing, loader: () => data }], {
    initialEntries: [`/my-tax-filing/${Y}`],
    hydrationData: { loaderData: { filing: data } },
  });
  return renderToStaticMarkup(createElement(RouterProvider, { router }));
}

/** The texts of an element of `html` (tags removed, spaces collapsed). */
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
/** The timeline's step marked current, as its text. */
const currentStep = (html: string) => text(/<li aria-current="step"[^>]*>([\s\S]*?)<\/li>/.exec(html)?.[1] ?? "");
/** The next step's card, as its text. */
const nextStep = (html: string) => text(/<section aria-labelledby="next-step-title"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "");
/** The stage badge beside the page's title, as its text. */
const badge = (html: string) => text(/<h1[^>]*>[\s\S]*?<\/h1>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  rmSync(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  ({ admin, preparer, a, b } = await feeCast());
  for (const who of [a, b]) await letterAccepted(admin, who, Y);
});

describe("a return approved, signed, filed and rejected while staff ticked no earlier flag", () => {
  it("reads E-filing everywhere, and the page's next step and texts follow it", async () => {
    await authorisedReturn(a, { preparer, admin }, Y);
    const sent = await recordTransmission(preparer.actor, { clientId: a.id, taxYear: Y }, { date: dayFromToday(-1), submissionId: "S1", jurisdiction: "federal" }, IP);
    if (!sent.ok) throw new Error(sent.error);
    expect((await recordRejected(preparer.actor, sent.transmissionId, { date: dayFromToday(0), codes: ["IND-031-04"] }, IP)).ok).toBe(true);
    // Staff ticked nothing; the approval ticked DRAFT. Their stage stays the flags' own.
    expect(await caseState(a.id, Y)).toMatchObject({ stage: "home", flags: { ...noFlags, draft: true } });

    const page = await loadFiling(a);
    expect(page.stage).toBe("efiling");
    expect(page.flags).toEqual({ ...noFlags, home: true, taxinfo: true, documents: true, preparation: true, draft: true, payment: true });
    const html = render(page);
    expect(badge(html)).toBe("Stage E-filing");
    expect(currentStep(html)).toBe("E-filing Current stage");
    expect(html).not.toContain("Getting started Current stage");
    // Documents are still open (staff did not close them) and none were uploaded: not a step now.
    expect(page.documentsOpen).toBe(true);
    expect(nextStep(html)).toBe("Your next step Nothing to do for now We are working on your filing, and we will e-mail you when we need something from you.");
    expect(text(html)).toContain(`What this stage means ${CASE_STAGE_TEXTS.efiling.means} What happens next ${CASE_STAGE_TEXTS.efiling.next}`);
    expect(await listStage(a)).toEqual([[Y, "efiling", false]]);

    // Another client's filing is their own: nothing of Alice's records moves Bob's stage.
    const bobs = await loadFiling(b);
    expect([bobs.stage, bobs.flags]).toEqual(["home", noFlags]);
    expect(currentStep(render(bobs))).toBe("Getting started Current stage");
    expect(await listStage(b)).toEqual([[Y, "home", false]]);
  });
});

describe("each record of the return and the fee", () => {
  it("moves the stage the client reads on; an approval counts for the current version only", async () => {
    const ref = { clientId: a.id, taxYear: Y };
    const stage = async () => (await loadFiling(a)).stage;
    expect(await stage()).toBe("home");

    const v1 = await uploadReturnVersion(preparer.actor, ref, { form: "1040-NR", note: "", file: await received("v1.pdf", pdf("v1")) }, IP);
    if (!v1.ok) throw new Error(v1.error);
    expect(await stage()).toBe("draft");
    expect((await approveReturnVersion(a.actor, v1.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
    expect(await stage()).toBe("payment");
    // Staff untick DRAFT (the approval ticked it): the approval of the current version still counts.
    await getDb().update(clientCases).set({ draft: false, currentStage: "home" }).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
    expect(await stage()).toBe("payment");
    // A new version waits for the client's review: the draft again.
    const v2 = await uploadReturnVersion(preparer.actor, ref, { form: "1040-NR", note: "", file: await received("v2.pdf", pdf("v2")) }, IP);
    if (!v2.ok) throw new Error(v2.error);
    expect(await stage()).toBe("draft");
    expect((await approveReturnVersion(a.actor, v2.versionId, { ip: IP, userAgent: UA, declarationVersion: "d1" })).ok).toBe(true);
    expect(await stage()).toBe("payment");

    // Paid in full (as the tests' invoices are written), but another invoice still owed: still PAYMENT.
    await sentInvoice(a.id, Y, 29_900, "paid");
    const owed = await sentInvoice(a.id, Y, 5_000, "sent");
    expect(await stage()).toBe("payment");
    await getDb().update(invoices).set({ status: "void" }).where(eq(invoices.id, owed.id));
    expect(await stage()).toBe("efiling");
  });

  it("reads Final copies once the IRS accepted, and the filing complete once they are released", async () => {
    const ref = { clientId: a.id, taxYear: Y };
    await authorisedReturn(a, { preparer, admin }, Y);
    // The state's acceptance is not the IRS's: still E-FILING.
    const state = await recordTransmission(preparer.actor, ref, { date: dayFromToday(0), submissionId: "ST1", jurisdiction: "state" }, IP);
    if (!state.ok) throw new Error(state.error);
    expect((await recordAccepted(preparer.actor, state.transmissionId, dayFromToday(0), IP)).ok).toBe(true);
    expect((await loadFiling(a)).stage).toBe("efiling");
    const sent = await recordTransmission(preparer.actor, ref, { date: dayFromToday(0), submissionId: "S1", jurisdiction: "federal" }, IP);
    if (!sent.ok) throw new Error(sent.error);
    expect((await recordAccepted(preparer.actor, sent.transmissionId, dayFromToday(0), IP)).ok).toBe(true);
    // The acceptance ticked E-FILING; staff ticked nothing else.
    expect((await caseState(a.id, Y))?.flags).toEqual({ ...noFlags, draft: true, efiling: true });
    const accepted = await loadFiling(a);
    expect(accepted.stage).toBe("finalcopies");
    expect(currentStep(render(accepted))).toBe("Final copies Current stage");
    expect(text(render(accepted))).toContain(CASE_STAGE_TEXTS.finalcopies.means);

    const released = await releaseFinalCopies(preparer.actor, ref, { filedReturn: { file: await received("filed.pdf", pdf("filed")) }, signedAuthorization: { file: await received("8879-signed.pdf", pdf("s")) } }, IP);
    if (!released.ok) throw new Error(released.error);
    const done = await loadFiling(a);
    expect([done.stage, Object.values(done.flags).every(Boolean)]).toEqual(["finalcopies", true]);
    expect(text(render(done))).toContain(`What this stage means ${CASE_COMPLETE_TEXT.means} What happens next ${CASE_COMPLETE_TEXT.next}`);
    expect(await listStage(a)).toEqual([[Y, "finalcopies", true]]);
    // Staff's flags are still the ones the events ticked.
    const [stored] = await getDb().select().from(clientCases).where(and(eq(clientCases.userId, a.id), eq(clientCases.taxYear, Y)));
    expect([stored?.currentStage, stored?.home, stored?.payment]).toEqual(["home", false, false]);
  });
});
