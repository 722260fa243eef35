import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { RESIDENCY_PAGE_TEXTS as T } from "~/components/portal/residency/history-edit";
import type { PageFailure, PageRead, PageResult, PageSaved, ResidencyPageData } from "~/components/portal/residency/history-edit";
import { RESIDENCY_FORM_MESSAGES as M } from "~/domain/residency/forms";
import { I94_MESSAGES } from "~/domain/residency/i94";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, residencyPeople, residencyPeriods, residencyStays } from "~/server/db/schema";
import { feeCast } from "../helpers/fees";
import type { Account } from "../helpers/returns";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { withCookie } from "./helpers";

// The client's visa and travel history page (/my-residency) through its loader and action as the
// server runs them (behind the portal layout's middleware): a visitor is sent to sign in, staff
// find no such page, a client reads and changes only their own history, and a refused change
// shows each message by its field and stores nothing.

const page = await routeModule("routes/portal/residency.tsx");
const Y = currentFilingYear();

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
});

const load = (cookie: string) => routeOutcome<ResidencyPageData>(() => page.loader(routeArgs(withCookie("/my-residency", cookie)) as never));

function post<T extends PageResult = PageResult>(cookie: string, fields: Record<string, string>) {
  const request = withCookie("/my-residency", cookie, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  return routeOutcome<T>(() => page.action(routeArgs(request) as never));
}

/** Every row of the history's tables and the audit trail: what a refused change must leave as it was. */
async function stored() {
  const db = getDb();
  return {
    people: await db.select().from(residencyPeople).orderBy(asc(residencyPeople.id)),
    periods: await db.select().from(residencyPeriods).orderBy(asc(residencyPeriods.id)),
    stays: await db.select().from(residencyStays).orderBy(asc(residencyStays.id)),
    audit: await db.select().from(auditLog).orderBy(asc(auditLog.id)),
  };
}

async function historyOf(who: Account) {
  const loaded = await load(who.cookie);
  expect(loaded.status).toBe(200);
  return loaded.body;
}

const f1 = { intent: "add-period", person: "client", status: "F-1", category: "", from: "2022-08-10", to: "" };

describe("who reaches /my-residency", () => {
  it("sends a visitor to sign in, for the page and for its forms", async () => {
    const visitor = await routeOutcome(() => page.loader(routeArgs(new Request("http://localhost:3000/my-residency")) as never));
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe("/login?redirectTo=%2Fmy-residency");
    const before = await stored();
    const posted = await routeOutcome(() =>
      page.action(
        routeArgs(
          new Request("http://localhost:3000/my-residency", {
            method: "POST",
            body: new URLSearchParams(f1),
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          }),
        ) as never,
      ),
    );
    expect([302, 303]).toContain(posted.status);
    expect(posted.location).toMatch(/^\/login/);
    expect(await stored()).toEqual(before);
  });

  it("is no page for staff (404), who change a client's history from the case page", async () => {
    for (const member of [admin, preparer]) {
      expect((await load(member.cookie)).status).toBe(404);
      const before = await stored();
      expect((await post(member.cookie, f1)).status).toBe(404);
      expect(await stored()).toEqual(before);
    }
  });
});

describe("the client's own history", () => {
  it("starts with the client alone, named after the account, and the filing years", async () => {
    const data = await historyOf(a);
    expect(data.savedAt).toBeNull();
    expect(data.years).toEqual([Y]);
    expect(data.people).toHaveLength(1);
    expect(data.people[0]).toMatchObject({ key: "client", role: "client", name: "Alice Aardvark", periods: [], stays: [] });
    // Nothing of staff's (findings) and no row ids reach the page.
    expect(data.people[0]).not.toHaveProperty("findings");
    expect(data.people[0]).not.toHaveProperty("id");
  });

  it("adds and removes status periods and stays, saying what changed", async () => {
    const added = await post<PageSaved>(a.cookie, f1);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ ok: true, intent: "add-period", area: "person:client" });
    expect(added.body.message).toBe("Added the status period F-1 student, August 10, 2022 to now, to your history.");

    const j1 = await post<PageSaved>(a.cookie, { intent: "add-period", person: "client", status: "J-1", category: "scholar", from: "2019-01-01", to: "2019-12-31" });
    expect(j1.body.message).toBe("Added the status period J-1 exchange visitor (scholar), January 1, 2019 to December 31, 2019, to your history.");
    // A category sent with a status that has none is not kept.
    expect((await post(a.cookie, { intent: "add-period", person: "client", status: "H-1B", category: "scholar", from: "2020-01-01", to: "2020-06-30" })).status).toBe(200);

    const stay = await post<PageSaved>(a.cookie, { intent: "add-stay", person: "client", arrival: "2022-08-05", departure: "", transit: "" });
    expect(stay.body.message).toBe("Added your stay from August 5, 2022 to still here.");
    await post(a.cookie, { intent: "add-stay", person: "client", arrival: "2021-03-01", departure: "2021-03-01", transit: "on" });

    let data = await historyOf(a);
    expect(data.savedAt).not.toBeNull();
    expect(data.people[0]!.periods).toEqual([
      { status: "J-1", category: "scholar", from: "2019-01-01", to: "2019-12-31" },
      { status: "H-1B", category: null, from: "2020-01-01", to: "2020-06-30" },
      { status: "F-1", category: null, from: "2022-08-10", to: null },
    ]);
    expect(data.people[0]!.stays).toEqual([
      { arrival: "2021-03-01", departure: "2021-03-01", transit: true, source: "typed" },
      { arrival: "2022-08-05", departure: null, transit: false, source: "typed" },
    ]);

    const removed = await post<PageSaved>(a.cookie, { intent: "remove-period", person: "client", from: "2020-01-01" });
    expect(removed.body.message).toBe("Removed the status period H-1B worker, January 1, 2020 to June 30, 2020, from your history.");
    await post(a.cookie, { intent: "remove-stay", person: "client", arrival: "2021-03-01" });
    data = await historyOf(a);
    expect(data.people[0]!.periods.map((p) => p.status)).toEqual(["J-1", "F-1"]);
    expect(data.people[0]!.stays.map((s) => s.arrival)).toEqual(["2022-08-05"]);

    // One that is not there any more is named, and nothing changes.
    const before = await stored();
    const gone = await post<PageFailure>(a.cookie, { intent: "remove-period", person: "client", from: "2020-01-01" });
    expect(gone.status).toBe(404);
    expect(gone.body.formError).toBe(T.noPeriod);
    expect(await stored()).toEqual(before);
  });

  it("refuses bad input with each message by its field, and stores nothing", async () => {
    await post(a.cookie, f1);
    const before = await stored();
    const cases: Array<[Record<string, string>, Record<string, string>]> = [
      [{ ...f1, from: "2023-05-10", to: "2023-05-01" }, { to: M.periodEndsBeforeStart }],
      [{ ...f1, status: "J-1", from: "2018-01-01", to: "2018-06-30" }, { category: M.categoryRequired }],
      [{ ...f1, status: "", from: "2018-02-30", to: "" }, { status: M.statusRequired, from: M.dateInvalid }],
      [{ ...f1, status: "B-1/B-2", from: "1949-12-31", to: "1950-06-01" }, { from: M.dateTooEarly }],
      // Overlapping the F-1 period (from 2022-08-10, open), whichever starts first.
      [{ ...f1, status: "H-1B", from: "2024-01-01", to: "" }, { from: M.periodsOverlap("2022-08-10", null) }],
      [{ ...f1, status: "H-1B", from: "2021-01-01", to: "2023-01-01" }, { from: M.periodsOverlap("2022-08-10", null) }],
    ];
    for (const [fields, errors] of cases) {
      const refused = await post<PageFailure>(a.cookie, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.body.errors).toEqual(errors);
      expect(refused.body.area).toBe("person:client");
      // What was typed comes back to be shown again.
      expect(refused.body.values.from).toBe(fields.from);
    }
    const stay = await post<PageFailure>(a.cookie, { intent: "add-stay", person: "client", arrival: "2023-01-10", departure: "2023-01-01" });
    expect(stay.body.errors).toEqual({ departure: M.departureBeforeArrival });
    const person = await post<PageFailure>(a.cookie, { intent: "add-dependant", name: "", relation: "", dateOfBirth: "2999-01-01", travelsWithMe: "on" });
    expect(person.body.errors).toEqual({ name: M.nameRequired, relation: M.relationRequired, dateOfBirth: M.birthInFuture });
    const about = await post<PageFailure>(a.cookie, { intent: "save-about", citizenship: "India", itinIssued: "2020", itinLastUsed: "2019", fica: "maybe" });
    expect(about.body.errors).toEqual({ itinLastUsed: M.lastUsedBeforeIssued, fica: M.yesNoUnknown });
    const noIssued = await post<PageFailure>(a.cookie, { intent: "save-about", itinIssued: "", itinLastUsed: "2021", fica: "no" });
    expect(noIssued.body.errors).toEqual({ itinIssued: M.itinIssuedRequired });
    const bad = await post<PageFailure>(a.cookie, { intent: "delete-everything" });
    expect(bad.status).toBe(400);
    expect(bad.body.formError).toBe(M.badForm);
    expect(await stored()).toEqual(before);
  });

  it("keeps a household: a spouse on H-4, a child on F-2, travelling with the client or on their own stays", async () => {
    const spouse = await post<PageSaved>(a.cookie, { intent: "add-spouse", name: "Ravi Aardvark", dateOfBirth: "1990-04-02", travelsWithMe: "on" });
    expect(spouse.body).toMatchObject({ ok: true, area: "household", message: "Added your spouse, Ravi Aardvark. Add their status periods in their card." });
    expect((await post<PageFailure>(a.cookie, { intent: "add-spouse", name: "Another", travelsWithMe: "on" })).body.formError).toBe(T.spouseExists);
    await post(a.cookie, { intent: "add-dependant", name: "Mia Aardvark", relation: "child", dateOfBirth: "2018-09-09" });
    let data = await historyOf(a);
    expect(data.people.map((p) => [p.role, p.name, p.ownStays])).toEqual([
      ["client", "Alice Aardvark", true],
      ["spouse", "Ravi Aardvark", false],
      ["dependant", "Mia Aardvark", true],
    ]);
    const child = data.people[2]!;
    expect((await post(a.cookie, { intent: "add-period", person: "spouse", status: "H-4", from: "2022-08-10", to: "" })).status).toBe(200);
    expect((await post(a.cookie, { intent: "add-period", person: child.key, status: "F-2", from: "2022-08-10", to: "" })).status).toBe(200);
    const childStay = await post<PageSaved>(a.cookie, { intent: "add-stay", person: child.key, arrival: "2022-08-10", departure: "2022-12-20" });
    expect(childStay.body.message).toBe("Added Mia Aardvark's stay from August 10, 2022 to December 20, 2022.");
    // Back to the client's stays: the child's own go.
    expect((await post<PageSaved>(a.cookie, { intent: "own-stays", person: child.key, own: "0" })).body.message).toBe(
      "Mia Aardvark now travels with you and uses your stays.",
    );
    data = await historyOf(a);
    expect(data.people[1]!.periods).toEqual([{ status: "H-4", category: null, from: "2022-08-10", to: null }]);
    expect(data.people[2]).toMatchObject({ ownStays: false, stays: [], periods: [{ status: "F-2", category: null, from: "2022-08-10", to: null }] });

    // The client cannot be removed; a dependant goes with their periods.
    expect((await post<PageFailure>(a.cookie, { intent: "remove-person", person: "client" })).body.formError).toBe(T.notYourself);
    const removed = await post<PageSaved>(a.cookie, { intent: "remove-person", person: child.key });
    expect(removed.body.message).toBe("Removed Mia Aardvark from your household, with their status periods and stays.");
    data = await historyOf(a);
    expect(data.people.map((p) => p.name)).toEqual(["Alice Aardvark", "Ravi Aardvark"]);
    expect(await getDb().select().from(residencyPeriods)).toHaveLength(1);
  });

  it("saves About you and names what changed", async () => {
    await post(a.cookie, { ...f1 });
    const saved = await post<PageSaved>(a.cookie, {
      intent: "save-about",
      citizenship: " India ",
      taxResidence: "India",
      itinIssued: "2019",
      itinLastUsed: "2022",
      fica: "yes",
      "has-school": "1",
      school: "State University",
      greenCardSteps: "on",
    });
    expect(saved.body).toMatchObject({ ok: true, area: "about" });
    expect(saved.body.message).toBe(
      "Saved your citizenship, country of tax residence, ITIN years, answer on Social Security and Medicare tax, school and answer on a green card.",
    );
    const client = (await historyOf(a)).people[0]!;
    expect(client).toMatchObject({
      citizenship: "India",
      taxResidence: "India",
      itin: { issuedYear: 2019, lastUsedYear: 2022 },
      ficaWithheld: true,
      school: "State University",
      sponsor: null,
      greenCardSteps: true,
    });
    // A field the form did not show (no J-1: no sponsor) keeps what is stored; "not sure" is no answer.
    const again = await post<PageSaved>(a.cookie, { intent: "save-about", citizenship: "India", taxResidence: "India", itinIssued: "2019", itinLastUsed: "2022", fica: "unknown", greenCardSteps: "on" });
    expect(again.body.message).toBe("Saved your answer on Social Security and Medicare tax.");
    expect((await historyOf(a)).people[0]).toMatchObject({ school: "State University", ficaWithheld: null });
  });
});

describe("the I-94 paste", () => {
  const paste = ["Row\tDate\tType\tLocation", "1\t2024-01-05\tArrival\tNYC", "2\t2023-12-20\tDeparture\tNYC", "3\t2023-02-30\tArrival\tSFR", "4\t2022-08-05\tArrival\tNYC"].join("\n");

  it("reads a paste without saving anything, naming each line it could not read", async () => {
    const before = await stored();
    const read = await post<PageRead>(a.cookie, { intent: "read-i94", i94: paste });
    expect(read.status).toBe(200);
    expect(read.body.i94.stays).toEqual([
      { arrival: "2022-08-05", departure: "2023-12-20" },
      { arrival: "2024-01-05", departure: null },
    ]);
    expect(read.body.i94.unread).toEqual([{ line: 4, text: "3\t2023-02-30\tArrival\tSFR", message: I94_MESSAGES.notRealDate(4, "2023-02-30") }]);
    expect(read.body.i94.text).toBe(paste);
    expect(await stored()).toEqual(before);
    const empty = await post<PageFailure>(a.cookie, { intent: "read-i94", i94: "  " });
    expect(empty.body.errors).toEqual({ i94: T.i94Empty });
  });

  it("adds the stays read to the client's own, joining a day trip, and checks them again", async () => {
    await post(a.cookie, { intent: "add-stay", person: "client", arrival: "2020-01-01", departure: "2020-02-01" });
    const stays = [
      { arrival: "2022-08-05", departure: "2023-06-01" },
      { arrival: "2023-06-01", departure: "2023-12-20" },
      { arrival: "2024-01-05", departure: null },
    ];
    const added = await post<PageSaved>(a.cookie, { intent: "add-i94", stays: JSON.stringify(stays), i94: "…" });
    expect(added.body).toMatchObject({ ok: true, area: "i94", message: "Added 3 stays from your I-94 travel history to your stays." });
    expect((await historyOf(a)).people[0]!.stays).toEqual([
      { arrival: "2020-01-01", departure: "2020-02-01", transit: false, source: "typed" },
      { arrival: "2022-08-05", departure: "2023-12-20", transit: false, source: "i94" },
      { arrival: "2024-01-05", departure: null, transit: false, source: "i94" },
    ]);
    // The same again adds nothing.
    const before = await stored();
    expect((await post<PageSaved>(a.cookie, { intent: "add-i94", stays: JSON.stringify([stays[2]]) })).body.message).toBe(T.allKnown);
    // Stays that are not stays, or that share days with one already there, are refused and nothing changes.
    for (const bad of ["not json", "[]", JSON.stringify([{ arrival: "2024-02-30", departure: null }]), JSON.stringify([{ arrival: "2021-05-01", departure: "2021-04-01" }])]) {
      const refused = await post<PageFailure>(a.cookie, { intent: "add-i94", stays: bad, i94: paste });
      expect(refused.status).toBe(400);
      expect(refused.body.formError).toBe(T.i94Bad);
      // The paste is read again to be shown beside the message.
      expect(refused.body.i94?.stays).toHaveLength(2);
    }
    const overlapping = await post<PageFailure>(a.cookie, { intent: "add-i94", stays: JSON.stringify([{ arrival: "2020-01-15", departure: "2020-03-01" }]) });
    expect(overlapping.status).toBe(400);
    expect(overlapping.body.formError).toBe(`The stay from 2020-01-15 to 2020-03-01: ${M.staysOverlap("2020-01-01", "2020-02-01")}`);
    expect(await stored()).toEqual(before);
  });
});

describe("each client sees and changes only their own history", () => {
  it("never shows or changes another client's history, whatever the form names", async () => {
    await post(a.cookie, f1);
    await post(a.cookie, { intent: "add-dependant", name: "Mia Aardvark", relation: "child", travelsWithMe: "on" });
    const aData = await historyOf(a);
    const mia = aData.people.find((p) => p.role === "dependant")!;

    const bData = await historyOf(b);
    expect(bData.people).toHaveLength(1);
    expect(bData.people[0]).toMatchObject({ name: "Bob Bobolink", periods: [] });
    expect(JSON.stringify(bData)).not.toContain("Aardvark");
    expect(JSON.stringify(bData)).not.toContain(mia.key);

    const before = await stored();
    // Bob names Alice's dependant, and Alice's id: neither is his.
    const refused = await post<PageFailure>(b.cookie, { ...f1, person: mia.key, clientId: a.id, userId: a.id });
    expect(refused.status).toBe(404);
    expect(refused.body.formError).toBe(T.noPerson);
    expect((await post(b.cookie, { intent: "remove-person", person: mia.key, clientId: a.id })).status).toBe(404);
    expect(await stored()).toEqual(before);

    // What Bob saves is his own, with Alice's id in the form or not.
    expect((await post(b.cookie, { ...f1, status: "J-1", category: "student", clientId: a.id })).status).toBe(200);
    const [bClient] = await getDb().select().from(residencyPeople).where(eq(residencyPeople.clientId, b.id));
    expect(bClient?.name).toBe("Bob Bobolink");
    expect((await historyOf(a)).people[0]!.periods).toEqual([{ status: "F-1", category: null, from: "2022-08-10", to: null }]);
    expect((await historyOf(b)).people[0]!.periods).toEqual([{ status: "J-1", category: "student", from: "2022-08-10", to: null }]);
  });
});

describe("accounts outside the US, by filing year", () => {
  const balanceOf = async (who: Account, year = Y) =>
    (await getDb().select({ cents: clientCases.foreignAccountsHighestCents }).from(clientCases).where(and(eq(clientCases.userId, who.id), eq(clientCases.taxYear, year))))[0]
      ?.cents;

  it("stores each year's highest balance in cents for the client's own case, and nothing for a bad amount or another year", async () => {
    expect((await historyOf(a)).foreign).toEqual([{ year: Y, highestCents: null }]);
    const saved = await post<PageSaved>(a.cookie, { intent: "save-foreign", year: String(Y), balance: "$12,345.67" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ok: true, area: "foreign", message: T.foreignSaved(Y, 1_234_567) });
    expect(await balanceOf(a)).toBe(1_234_567);
    expect((await historyOf(a)).foreign).toEqual([{ year: Y, highestCents: 1_234_567 }]);
    const [audit] = await getDb().select({ detail: auditLog.detail, actor: auditLog.actorId }).from(auditLog).where(eq(auditLog.action, "residency-facts-changed"));
    expect(audit).toEqual({ detail: "foreign accounts recorded, not filing jointly", actor: a.id });

    const before = await stored();
    const bad = await post<PageFailure>(a.cookie, { intent: "save-foreign", year: String(Y), balance: "lots" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ balance: M.balanceInvalid });
    const negative = await post<PageFailure>(a.cookie, { intent: "save-foreign", year: String(Y), balance: "-5" });
    expect(negative.body.errors).toEqual({ balance: M.balanceInvalid });
    const otherYear = await post<PageFailure>(a.cookie, { intent: "save-foreign", year: String(Y - 5), balance: "10" });
    expect(otherYear.status).toBe(404);
    expect(otherYear.body.formError).toBe(M.noSuchCase);
    expect(await stored()).toEqual(before);
    expect(await balanceOf(a)).toBe(1_234_567);
    // Another client's case of the same year is theirs: untouched.
    expect(await balanceOf(b)).toBeNull();

    const none = await post<PageSaved>(a.cookie, { intent: "save-foreign", year: String(Y), balance: "" });
    expect(none.body).toMatchObject({ ok: true, message: T.foreignSaved(Y, null) });
    expect(await balanceOf(a)).toBeNull();
  });
});
