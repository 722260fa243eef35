import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { RESIDENCY_CLIENT_TEXTS as T } from "~/domain/residency/client";
import type { ClientResidency } from "~/domain/residency/client";
import { currentFilingYear } from "~/domain/tax-year";
import Filing from "~/routes/portal/filing";
import { saveHistory } from "~/server/residency/history.server";
import { caseResidency, confirmResidency } from "~/server/residency/outcome.server";
import { openCase } from "~/server/cases/cases.server";
import { feeCast } from "../helpers/fees";
import { IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { studentInput } from "../helpers/residency";

// "Your residency for <year>" on the client's filing page (docs/product/residency.md): nothing
// computed before the history is told, then each person's outcome in plain words, the choices and
// points to know, and whether the preparer confirmed it; never another client's.

const filingRoute = await routeModule("routes/portal/filing.tsx");
const Y = currentFilingYear();

type FilingBody = { residency: ClientResidency | null } & Record<string, unknown>;

async function filingOf(who: Account): Promise<FilingBody> {
  const request = new Request(`http://localhost:3000/my-tax-filing/${Y}`, { headers: { cookie: who.cookie } });
  const page = await routeOutcome<FilingBody>(() => filingRoute.loader({ ...routeArgs(request), params: { year: String(Y) } } as never));
  expect(page.status).toBe(200);
  return page.body;
}

/** The residency panel of the page as the server renders it, as text. */
function panelText(data: FilingBody): string {
  const router = createMemoryRouter([{ id: "filing", path: "/my-tax-filing/:year", Component: Filing, loader: () => data }], {
    initialEntries: [`/my-tax-filing/${Y}`],
    hydrationData: { loaderData: { filing: data } },
  });
  const html = renderToStaticMarkup(createElement(RouterProvider, { router }));
  const panel = /<section[^>]*id="residency"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
  return panel.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

let admin: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, a, b } = await feeCast());
});

/** A student from India on an F-1 since August of last year, still in the US. */
const secondYearStudent = { people: [studentInput(Y - 1)] };

describe("the filing page's residency", () => {
  it("asks for the history before there is one", async () => {
    const page = await filingOf(a);
    expect(page.residency).toBeNull();
    expect(panelText(page)).toBe(`${T.title(Y)} ${T.none(Y)} ${T.start}`);
  });

  it("says each person's outcome in plain words once the history is told, and whether the preparer confirmed it; another client's page is their own", async () => {
    expect(await saveHistory(a.actor, a.id, secondYearStudent, IP)).toEqual({ ok: true });
    const page = await filingOf(a);
    const summary = `You were a nonresident alien for all of ${Y}: you were an F-1 student, and ${Y} was your 2nd year as one. You file Form 1040-NR and Form 8843.`;
    expect(page.residency).toEqual({
      confirmed: false,
      people: [
        {
          key: "client",
          name: "Alice Aardvark",
          role: "client",
          summary,
          missing: [],
          choices: [],
          flags: ["A student or business apprentice from India: the standard deduction on Form 1040-NR under article 21(2) of the US-India treaty."],
        },
      ],
    });
    expect(panelText(page)).toBe(
      `${T.title(Y)} ${summary} ${T.unconfirmed} ${T.flags} A student or business apprentice from India: the standard deduction on Form 1040-NR under article 21(2) of the US-India treaty. ${T.edit}`,
    );
    expect((await filingOf(b)).residency).toBeNull();

    expect(await confirmResidency(admin.actor, a.id, Y, "nonresident", null, IP)).toEqual({ ok: true });
    expect((await filingOf(a)).residency?.confirmed).toBe(true);
    expect(panelText(await filingOf(a))).toContain(T.confirmed);
  });

  it("a year opened after the history was told has its residency at once; without a history, the whole of it is missing", async () => {
    expect(await openCase(a.actor, a.id, Y - 1, IP)).toBe("opened");
    expect(await caseResidency(a.actor, a.id, Y - 1)).toMatchObject({ outcome: null, status: null, missing: true });
    expect(await saveHistory(a.actor, a.id, secondYearStudent, IP)).toEqual({ ok: true });
    expect(await openCase(a.actor, a.id, Y - 2, IP)).toBe("opened");
    const earlier = await caseResidency(a.actor, a.id, Y - 2);
    expect(earlier).toMatchObject({ status: "nonresident", missing: false });
    expect(earlier?.outcome?.[0]?.summary).toBe(`You were a nonresident alien for all of ${Y - 2}. You file Form 1040-NR.`);
    expect((await caseResidency(a.actor, a.id, Y - 1))?.outcome?.[0]?.summary).toBe(
      `You were a nonresident alien for all of ${Y - 1}: you were an F-1 student, and ${Y - 1} was your 1st year as one. You file Form 1040-NR and Form 8843.`,
    );
  });
});
