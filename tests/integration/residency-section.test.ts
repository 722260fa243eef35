import { asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { RESIDENCY_DONE, RESIDENCY_SECTION_MESSAGES } from "~/components/admin/case/residency/words";
import type { ResidencyActionResult } from "~/components/admin/case/residency/words";
import { RESIDENCY_FORM_MESSAGES as M } from "~/domain/residency/forms";
import type { ResidencyOutcome } from "~/domain/residency/rules";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, residencyFindings, residencyPeople } from "~/server/db/schema";
import { saveHistory } from "~/server/residency/history.server";
import { feeCast } from "../helpers/fees";
import { IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { residentHistory } from "../helpers/residency";
import { caseRowOf, residencyRows } from "../helpers/residency-rows";
import { withCookie } from "./helpers";

// The staff's Residency section of a case (/admin/clients/:clientId/:year/residency,
// docs/product/residency.md), its loader and action run as the server runs them (behind the
// admin panel's layout), and its line on the case's overview. A visitor, two clients, a preparer
// and an admin.

const Y = currentFilingYear();
const sectionRoute = routeModule("routes/admin/case/residency.tsx");
const overviewRoute = routeModule("routes/admin/case/overview.tsx");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

/**
 * Alice: an F-1 student from September 1 two years before the tax year to June 30 of the year
 * before, then an H-1B worker; in the US from September 1 to December 31 two years before, from
 * March 1 to December 31 the year before, from March 1 to June 30 of the tax year, and a day in
 * transit in September. 122 + 184/3 + 0/6 = 183.33 days: a resident for all of the year.
 */
const history = residentHistory(Y);

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
});

const sectionUrl = (clientId: string, search = "") => `/admin/clients/${clientId}/${Y}/residency${search}`;
const args = (request: Request, clientId: string) => ({ ...routeArgs(request), params: { clientId, year: String(Y) } });

type Answer<T> = { status: number; location: string | null; body: T | null };

async function answerOf<T>(call: () => Promise<unknown>): Promise<Answer<T>> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), body: null };
  const { status, body } = unwrap<T>(result);
  return { status, location: null, body };
}

type Loaded = {
  view: {
    outcome: ResidencyOutcome[] | null;
    status: string | null;
    foreignAccountsHighestCents: number | null;
    filesJointly: boolean;
    confirmation: { status: string; at: string; by: string | null; reason: string | null } | null;
  };
  people: Array<{ key: string; id: string | null; findings: Record<number, unknown> | null }>;
  savedAt: string | null;
  done: string | null;
};

async function load(cookie: string, clientId = a.id, search = "") {
  const { loader } = await sectionRoute;
  return answerOf<Loaded>(() => loader(args(withCookie(sectionUrl(clientId, search), cookie), clientId)));
}

async function post(cookie: string, fields: Array<[string, string]> | Record<string, string>, clientId = a.id) {
  const { action } = await sectionRoute;
  const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
  return answerOf<ResidencyActionResult>(() => action(args(withCookie(sectionUrl(clientId), cookie, { method: "POST", body }), clientId)));
}

const doneAt = (key: keyof typeof RESIDENCY_DONE, clientId = a.id) => ({ status: 302, location: sectionUrl(clientId, `?done=${key}`), body: null });

/** Everything a refused form must leave as it was: the history, the findings, the cases' residency and the audit trail. */
const everything = residencyRows;
const caseRow = (clientId = a.id) => caseRowOf(clientId, Y);

const auditOf = (action: string) =>
  getDb()
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action as never))
    .orderBy(asc(auditLog.id));

async function withHistory() {
  expect(await saveHistory(a.actor, a.id, history, IP)).toEqual({ ok: true });
}

describe("who may use the section", () => {
  it("answers staff of both roles only: a visitor signs in, a client (the case's own or another) goes home, and their posts change nothing", async () => {
    await withHistory();
    const before = await everything();
    const forms: Array<Record<string, string>> = [
      { intent: "save-findings", person: "client", abroadAfterLeaving: "on" },
      { intent: "save-facts", foreignAccounts: "20,000.00" },
      { intent: "confirm", status: "resident" },
      { intent: "confirm-other", status: "nonresident", reason: "Because I say so" },
    ];
    for (const [who, cookie] of [
      ["visitor", ""],
      ["the client", a.cookie],
      ["another client", b.cookie],
    ] as const) {
      const got = await load(cookie);
      expect([who, got.status, got.location?.replace(/\?.*$/, "")]).toEqual([who, 302, who === "visitor" ? "/login" : "/dashboard"]);
      for (const fields of forms) {
        const posted = await post(cookie, fields);
        expect([who, fields.intent, posted.status]).toEqual([who, fields.intent, 302]);
      }
    }
    expect(await everything()).toEqual(before);
    for (const staff of [preparer, admin]) {
      const got = await load(staff.cookie);
      expect(got.status).toBe(200);
      expect(got.body!.view.status).toBe("resident");
    }
  });

  it("answers 404 for a client or a year with no case, and takes the client and year from the address only", async () => {
    await withHistory();
    expect((await load(admin.cookie, "no-such-client")).status).toBe(404);
    const { loader } = await sectionRoute;
    const noYear = await answerOf(() => loader({ ...routeArgs(withCookie(`/admin/clients/${a.id}/${Y - 2}/residency`, admin.cookie)), params: { clientId: a.id, year: String(Y - 2) } }));
    expect(noYear.status).toBe(404);
    // A form naming another client and year: the route's case is changed, not theirs.
    expect(await post(admin.cookie, { intent: "save-facts", foreignAccounts: "1.00", clientId: b.id, taxYear: String(Y - 1) })).toEqual(doneAt("facts-saved"));
    expect((await caseRow(a.id)).foreignAccountsHighestCents).toBe(100);
    expect((await caseRow(b.id)).foreignAccountsHighestCents).toBeNull();
  });
});

describe("what the section shows", () => {
  it("a case with no history yet: nothing computed, the client alone and empty, nothing to confirm", async () => {
    const got = (await load(preparer.cookie)).body!;
    expect(got.savedAt).toBeNull();
    expect(got.view.outcome).toBeNull();
    expect(got.view.status).toBeNull();
    expect(got.view.confirmation).toBeNull();
    expect(got.people.map((p) => [p.key, p.id])).toEqual([["client", null]]);
    // Confirming is refused: there is nothing computed.
    expect(await post(admin.cookie, { intent: "confirm", status: "resident" })).toEqual({
      status: 400,
      location: null,
      body: { intent: "confirm", ok: false, errors: { form: M.notComputed }, values: { status: "resident", reason: "" } },
    });
  });

  it("the table of the substantial presence test, the reasons, choices and forms of each person", async () => {
    await withHistory();
    const got = (await load(preparer.cookie)).body!;
    expect(got.savedAt).not.toBeNull();
    const [client] = got.view.outcome!;
    expect(client).toMatchObject({
      person: "client",
      status: "resident",
      rule: "substantial-presence-test",
      residentFrom: `${Y}-01-01`,
      residentUntil: `${Y}-12-31`,
      total: "183.33",
      metOn: `${Y}-06-30`,
      forms: ["1040"],
      missing: [],
    });
    expect(client!.table.map((r) => [r.year, r.present, r.transit, r.exempt, r.counted, r.divisor, (r.termSixths / 6).toFixed(2)])).toEqual([
      [Y, 122, 1, 0, 122, 1, "122.00"],
      [Y - 1, 306, 0, 122, 184, 3, "61.33"],
      [Y - 2, 122, 0, 122, 0, 6, "0.00"],
    ]);
    expect(client!.table[1].exemptWhy).toMatch(/^student: 2nd calendar year/);
    expect(client!.choices.map((c) => c.kind)).toEqual(["possible-termination", "closer-connection"]);
    expect(got.people.map((p) => [p.key, p.findings])).toEqual([["client", {}]]);
  });
});

describe("staff's findings", () => {
  it("saved per person for the case's year, audited, and the residency computed again (the confirmation cleared)", async () => {
    await withHistory();
    expect(await post(preparer.cookie, { intent: "confirm", status: "resident" })).toEqual(doneAt("confirmed"));
    expect((await caseRow()).residencyConfirmedStatus).toBe("resident");

    expect(await post(preparer.cookie, { intent: "save-findings", person: "client", abroadAfterLeaving: "on" })).toEqual(doneAt("findings-saved"));
    const [person] = await getDb().select().from(residencyPeople).where(eq(residencyPeople.clientId, a.id));
    const stored = await getDb().select().from(residencyFindings).where(eq(residencyFindings.personId, person!.id));
    expect(stored.map((f) => [f.taxYear, f.studentException, f.deMinimis, f.abroadAfterLeaving, f.recordedBy])).toEqual([[Y, false, false, true, preparer.id]]);
    expect((await auditOf("residency-findings-saved")).map((e) => [e.actorId, e.clientId, e.taxYear, e.detail])).toEqual([
      [preparer.id, a.id, Y, `the client, ${Y}: student exception no, de minimis no, abroad after leaving yes`],
    ]);
    const row = await caseRow();
    expect(row.residencyStatus).toBe("dual-status");
    expect(row.residencyOutcome![0]).toMatchObject({ residentFrom: `${Y}-01-01`, residentUntil: `${Y}-06-30`, forms: ["dual-status-1040-NR", "residency-statement"] });
    // The outcome changed: the confirmation of the old one is gone.
    expect(row.residencyConfirmedStatus).toBeNull();
    const loaded = (await load(admin.cookie, a.id, "?done=findings-saved")).body!;
    expect(loaded.done).toBe(RESIDENCY_DONE["findings-saved"]);
    expect(loaded.view.confirmation).toBeNull();
    expect(loaded.people[0]!.findings).toEqual({ [Y]: { studentException: false, deMinimis: false, abroadAfterLeaving: true } });

    // Unticking them all saves them as no.
    expect(await post(admin.cookie, { intent: "save-findings", person: "client" })).toEqual(doneAt("findings-saved"));
    expect((await caseRow()).residencyStatus).toBe("resident");
  });

  it("refuses bad input with the message of each field and changes nothing", async () => {
    await withHistory();
    const before = await everything();
    const cases: Array<[Array<[string, string]>, Record<string, string>]> = [
      [[["intent", "save-findings"], ["person", "client"], ["studentException", "yes"]], { studentException: M.yesNo }],
      [[["intent", "save-findings"], ["person", "client"], ["deMinimis", "on"], ["deMinimis", "on"], ["abroadAfterLeaving", "1"]], { deMinimis: M.yesNo, abroadAfterLeaving: M.yesNo }],
      [[["intent", "save-findings"], ["person", "spouse"], ["deMinimis", "on"]], { form: M.noSuchPerson }],
      [[["intent", "save-findings"], ["deMinimis", "on"]], { person: M.noSuchPerson }],
      [[["intent", "save-findings"], ["person", "cli\u0000ent"]], { person: RESIDENCY_SECTION_MESSAGES.controlCharacters }],
    ];
    for (const [fields, errors] of cases) {
      const got = await post(preparer.cookie, fields);
      expect([fields, got.status, got.body?.errors]).toEqual([fields, 400, errors]);
    }
    expect(await everything()).toEqual(before);
  });
});

describe("the case's facts", () => {
  it("stores the foreign balance typed in dollars and cents as integer cents, and joint filing; audited without the amount", async () => {
    await withHistory();
    expect(await post(admin.cookie, { intent: "save-facts", foreignAccounts: "$12,345.67", filesJointly: "on" })).toEqual(doneAt("facts-saved"));
    let row = await caseRow();
    expect([row.foreignAccountsHighestCents, row.filesJointly]).toEqual([1234567, true]);
    // Above $10,000 for a resident: the FBAR flag.
    expect(row.residencyOutcome![0]!.flags.map((f) => f.kind)).toEqual(["fbar"]);
    expect((await auditOf("residency-facts-changed")).map((e) => e.detail)).toEqual(["foreign accounts recorded, filing jointly"]);
    expect(JSON.stringify(await auditOf("residency-facts-changed"))).not.toContain("12345");

    expect(await post(admin.cookie, { intent: "save-facts", foreignAccounts: "80000.5" })).toEqual(doneAt("facts-saved"));
    row = await caseRow();
    expect([row.foreignAccountsHighestCents, row.filesJointly]).toEqual([8000050, false]);
    expect(row.residencyOutcome![0]!.flags.map((f) => f.kind)).toEqual(["fbar", "form-8938"]);

    // Empty: no foreign accounts.
    expect(await post(admin.cookie, { intent: "save-facts", foreignAccounts: "  " })).toEqual(doneAt("facts-saved"));
    expect((await caseRow()).foreignAccountsHighestCents).toBeNull();
    expect((await load(preparer.cookie)).body!.view.foreignAccountsHighestCents).toBeNull();
  });

  it("refuses an amount that is not dollars and cents, or a tick that is not one, and changes nothing", async () => {
    await withHistory();
    const before = await everything();
    for (const [fields, errors] of [
      [{ foreignAccounts: "12.345" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsInvalid }],
      [{ foreignAccounts: "-5" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsInvalid }],
      [{ foreignAccounts: "1e6" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsInvalid }],
      [{ foreignAccounts: "12,34.00" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsInvalid }],
      [{ foreignAccounts: "ten thousand" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsInvalid }],
      [{ foreignAccounts: "99999999999999" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsTooLarge }],
      [{ foreignAccounts: "100", filesJointly: "true" }, { filesJointly: M.yesNo }],
      [{ foreignAccounts: "abc", filesJointly: "yes" }, { foreignAccounts: RESIDENCY_SECTION_MESSAGES.dollarsInvalid, filesJointly: M.yesNo }],
    ] as const) {
      const got = await post(admin.cookie, { intent: "save-facts", ...fields });
      expect([fields, got.status, got.body?.errors, got.body?.values?.foreignAccounts]).toEqual([fields, 400, errors, fields.foreignAccounts]);
    }
    expect(await everything()).toEqual(before);
  });
});

describe("the confirmation", () => {
  it("confirms the computed status; another status needs a reason; who confirmed it and when is shown", async () => {
    await withHistory();
    const before = await everything();
    for (const [fields, errors] of [
      [{ intent: "confirm-other", status: "nonresident", reason: "   " }, { reason: M.reasonRequired }],
      [{ intent: "confirm-other", status: "nonresident" }, { reason: M.reasonRequired }],
      [{ intent: "confirm-other", status: "alien", reason: "A reason" }, { status: M.residencyStatusRequired }],
      [{ intent: "confirm-other", status: "nonresident", reason: "x".repeat(501) }, { reason: M.reasonTooLong }],
      [{ intent: "confirm-other", status: "nonresident", reason: "bad\u0007bell" }, { reason: RESIDENCY_SECTION_MESSAGES.controlCharacters }],
      // The computed status's button sent with another status (a page out of date): a reason is needed.
      [{ intent: "confirm", status: "nonresident" }, { reason: M.reasonRequired }],
      [{ intent: "confirm", status: "" }, { status: M.residencyStatusRequired }],
      [{ intent: "nonsense" }, { form: RESIDENCY_SECTION_MESSAGES.unknown }],
    ] as const) {
      const got = await post(preparer.cookie, fields);
      expect([fields, got.status, got.body?.errors]).toEqual([fields, 400, errors]);
    }
    expect(await everything()).toEqual(before);

    expect(await post(preparer.cookie, { intent: "confirm", status: "resident" })).toEqual(doneAt("confirmed"));
    let loaded = (await load(admin.cookie)).body!;
    expect(loaded.view.confirmation).toMatchObject({ status: "resident", by: "Pat Preparer", reason: null });
    expect(Number.isNaN(Date.parse(loaded.view.confirmation!.at))).toBe(false);

    expect(await post(admin.cookie, { intent: "confirm-other", status: "nonresident", reason: "Closer connection to India: Form 8840 filed." })).toEqual(doneAt("confirmed"));
    loaded = (await load(preparer.cookie)).body!;
    expect(loaded.view.confirmation).toMatchObject({ status: "nonresident", by: "Sam Admin", reason: "Closer connection to India: Form 8840 filed." });
    expect(loaded.view.status).toBe("resident");
    expect((await auditOf("residency-confirmed")).map((e) => [e.actorId, e.detail])).toEqual([
      [preparer.id, "resident, as computed"],
      [admin.id, "nonresident (computed: resident), with a reason"],
    ]);
  });

  it("keeps the list to return to after a change", async () => {
    await withHistory();
    const { action } = await sectionRoute;
    const back = "/admin/dashboard?q=alice";
    const request = withCookie(sectionUrl(a.id, `?back=${encodeURIComponent(back)}`), admin.cookie, {
      method: "POST",
      body: new URLSearchParams({ intent: "confirm", status: "resident" }),
    });
    const got = await answerOf(() => action(args(request, a.id)));
    expect(got.location).toBe(sectionUrl(a.id, `?back=${encodeURIComponent(back)}&done=confirmed`));
  });
});

describe("the overview's line", () => {
  it("no history yet, then the computed status not confirmed, then confirmed", async () => {
    const { loader } = await overviewRoute;
    const residency = async () => {
      const got = await answerOf<{ overview: { residency: unknown } }>(() =>
        loader(args(withCookie(`/admin/clients/${a.id}/${Y}`, preparer.cookie), a.id)),
      );
      return got.body!.overview.residency;
    };
    expect(await residency()).toEqual({ status: null, confirmed: null });
    await withHistory();
    expect(await residency()).toEqual({ status: "resident", confirmed: null });
    expect(await post(admin.cookie, { intent: "confirm-other", status: "nonresident", reason: "Treaty" })).toEqual(doneAt("confirmed"));
    expect(await residency()).toEqual({ status: "resident", confirmed: "nonresident" });
  });
});
