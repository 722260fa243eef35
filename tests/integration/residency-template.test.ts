import { beforeEach, describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { addTemplateItems, listCaseRequests } from "~/server/requests/requests.server";
import { saveHistory } from "~/server/residency/history.server";
import { feeCast } from "../helpers/fees";
import { IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { sinceInput, studentInput } from "../helpers/residency";

// "What we need" follows the case's residency (docs/product/residency.md#what-we-need): the papers
// of each exempt person's Form 8843, an ITIN's renewal and a FICA refund's employer letter, offered
// first and added like a template's items.

const Y = currentFilingYear();
const requestsRoute = await routeModule("routes/admin/case-requests.tsx");
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ preparer, a, b } = await feeCast());
});


const household = {
  people: [
    studentInput(Y - 1, { ficaWithheld: true, itin: { issuedYear: 2018, lastUsedYear: 2019 } }),
    sinceInput("F-2", Y - 1, { key: "spouse", role: "spouse", name: "Sam Aardvark", ownStays: false, stays: [] }),
  ],
};

async function templates(who: Account) {
  const request = new Request(`http://localhost:3000/admin/clients/${who.id}/${Y}/requests`, { headers: { cookie: preparer.cookie } });
  const page = await routeOutcome<{ templates: { suggested: Array<{ id: string; label: string; items: number }> } }>(() =>
    requestsRoute.loader({ ...routeArgs(request), params: { clientId: who.id, year: String(Y) } } as never),
  );
  expect(page.status).toBe(200);
  return page.body.templates.suggested;
}

describe("what the residency calls for", () => {
  it("is offered first and adds the 8843 papers of each exempt person, the ITIN renewal's and the FICA letter, once", async () => {
    expect((await templates(a)).map((t) => t.id)).not.toContain("residency");
    expect(await addTemplateItems(preparer.actor, { clientId: a.id, taxYear: Y }, "residency", IP)).toEqual({ outcome: "no-such-template" });

    expect(await saveHistory(a.actor, a.id, household, IP)).toEqual({ ok: true });
    const [first] = await templates(a);
    expect(first).toEqual({ id: "residency", label: `What the ${Y} residency calls for (Form 8843, ITIN renewal, FICA letter)`, items: 4 });
    expect(await addTemplateItems(preparer.actor, { clientId: a.id, taxYear: Y }, "residency", IP)).toEqual({ outcome: "added", count: 4 });
    const items = await listCaseRequests(preparer.actor, a.id, Y);
    expect(items.map((i) => [i.title, i.category])).toEqual([
      ["Form I-20 or DS-2019 for your Form 8843", "passport-visa"],
      ["Papers to renew your ITIN (Form W-7)", "passport-visa"],
      ["Your employer's letter on Social Security and Medicare tax", "other-documents"],
      ["Form I-20 or DS-2019 for Sam Aardvark's Form 8843", "passport-visa"],
    ]);
    expect(items[0]!.detail).toBe(
      `All pages of each I-20 (F-1, M-1) or DS-2019 (J-1) that covered any part of ${Y}, with the travel signatures: you file Form 8843 for the days that do not count.`,
    );
    expect(await addTemplateItems(preparer.actor, { clientId: a.id, taxYear: Y }, "residency", IP)).toEqual({ outcome: "nothing" });
    // Another client's case is made from their own residency: they have none.
    expect(await addTemplateItems(preparer.actor, { clientId: b.id, taxYear: Y }, "residency", IP)).toEqual({ outcome: "no-such-template" });
    expect(await listCaseRequests(preparer.actor, b.id, Y)).toEqual([]);
  });
});
