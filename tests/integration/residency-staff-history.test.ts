import { asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { staffHistoryTexts } from "~/components/portal/residency/history-edit";
import type { PageFailure, PageRead, PageSaved } from "~/components/portal/residency/history-edit";
import { RESIDENCY_FORM_MESSAGES as M } from "~/domain/residency/forms";
import type { ResidencyOutcome } from "~/domain/residency/rules";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, residencyPeople, residencyStays } from "~/server/db/schema";
import { saveHistory } from "~/server/residency/history.server";
import type { StaffHistoryData } from "~/routes/admin/case/residency-history";
import { feeCast } from "../helpers/fees";
import { caseRowOf, residencyRows } from "../helpers/residency-rows";
import { IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { residentHistory, studentInput } from "../helpers/residency";
import { routeArgs, routeModule, routeOutcome } from "../helpers/route";
import { withCookie } from "./helpers";

// Staff's page of a case where they edit the client's visa and travel history
// (/admin/clients/:clientId/:year/residency/history, docs/product/residency.md), its loader and
// action run as the server runs them (behind the admin panel's layout): a visitor signs in, a
// client goes home, staff of both roles edit the history of the address's client, audited with
// the staff member as the actor, and the case's stored outcome is computed again; a refused change
// names its field and changes nothing; client B's history never moves when A's case is edited.

const Y = currentFilingYear();
const historyRoute = routeModule("routes/admin/case/residency-history.tsx");
const sectionRoute = routeModule("routes/admin/case/residency.tsx");
const portalRoute = routeModule("routes/portal/residency.tsx");

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
});

const pageUrl = (clientId: string, year = Y) => `/admin/clients/${clientId}/${year}/residency/history`;
const args = (request: Request, clientId: string, year = Y) => ({ ...routeArgs(request), params: { clientId, year: String(year) } });

async function load(cookie: string, clientId = a.id, year = Y) {
  const { loader } = await historyRoute;
  return routeOutcome<StaffHistoryData>(() => loader(args(withCookie(pageUrl(clientId, year), cookie), clientId, year)));
}

function post<T = PageSaved | PageFailure>(cookie: string, fields: Record<string, string>, clientId = a.id) {
  return historyRoute.then(({ action }) =>
    routeOutcome<T>(() =>
      action(
        args(
          withCookie(pageUrl(clientId), cookie, {
            method: "POST",
            body: new URLSearchParams(fields),
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          }),
          clientId,
        ),
      ),
    ),
  );
}

type SectionData = { view: { outcome: ResidencyOutcome[] | null; status: string | null } };

/** The case's Residency section as staff read it: the stored outcome. */
async function section(clientId = a.id) {
  const { loader } = await sectionRoute;
  const got = await routeOutcome<SectionData>(() =>
    loader(args(withCookie(`/admin/clients/${clientId}/${Y}/residency`, admin.cookie), clientId)),
  );
  expect(got.status).toBe(200);
  return got.body.view;
}

/** Everything a refused form must leave as it was: the history, the findings, the cases' residency and the audit trail. */
const everything = residencyRows;
const caseRow = (clientId = a.id) => caseRowOf(clientId, Y);

const historyAudit = () =>
  getDb().select().from(auditLog).where(eq(auditLog.action, "residency-history-changed")).orderBy(asc(auditLog.id));

const period = { intent: "add-period", person: "client", status: "H-1B", category: "", from: `${Y - 1}-07-01`, to: "" };
const stay = { intent: "add-stay", person: "client", arrival: `${Y}-01-01`, departure: `${Y}-12-30`, transit: "" };

describe("who reaches the page", () => {
  it("sends a visitor to sign in and a client (the case's own or another) home; their posts change nothing", async () => {
    const before = await everything();
    for (const [who, cookie] of [
      ["visitor", ""],
      ["the client", a.cookie],
      ["another client", b.cookie],
    ] as const) {
      const got = await load(cookie);
      expect([who, got.status, got.location?.replace(/\?.*$/, "")]).toEqual([who, 302, who === "visitor" ? "/login" : "/dashboard"]);
      for (const fields of [period, stay, { intent: "add-spouse", name: "Someone", travelsWithMe: "on" }]) {
        const posted = await post(cookie, fields);
        expect([who, fields.intent, posted.status]).toEqual([who, fields.intent, 302]);
      }
    }
    expect(await everything()).toEqual(before);
  });

  it("answers staff of both roles on any case (preparers work every case: domain/policy.ts), and 404 where there is no case", async () => {
    for (const member of [preparer, admin]) {
      for (const client of [a, b]) {
        const got = await load(member.cookie, client.id);
        expect(got.status).toBe(200);
        expect(got.body.people.map((p) => [p.key, p.name])).toEqual([["client", client === a ? "Alice Aardvark" : "Bob Bobolink"]]);
        expect(got.body.years).toEqual([Y]);
        // Staff's findings and the rows' ids stay on the server.
        expect(got.body.people[0]).not.toHaveProperty("findings");
        expect(got.body.people[0]).not.toHaveProperty("id");
      }
    }
    expect((await load(admin.cookie, "no-such-client")).status).toBe(404);
    expect((await load(admin.cookie, a.id, Y - 2)).status).toBe(404);
    expect((await load(admin.cookie, admin.id)).status).toBe(404);
    const before = await everything();
    expect((await post(admin.cookie, period, "no-such-client")).status).toBe(404);
    expect(await everything()).toEqual(before);
  });
});

describe("staff edit the history", () => {
  it("add a status period and a stay: stored, audited with the staff member, the case's outcome computed again", async () => {
    expect((await caseRow()).residencyStatus).toBeNull();
    expect((await section()).outcome).toBeNull();

    const added = await post<PageSaved>(preparer.cookie, period);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ ok: true, intent: "add-period", area: "person:client" });
    expect(added.body.message).toBe(`Added the status period H-1B worker, July 1, ${Y - 1} to now, to Alice Aardvark's history.`);
    const nonresident = await section();
    expect(nonresident.status).toBe("nonresident");

    const stayed = await post<PageSaved>(admin.cookie, stay);
    expect(stayed.status).toBe(200);
    expect(stayed.body.message).toBe(`Added Alice Aardvark's stay from January 1, ${Y} to December 30, ${Y}.`);

    const got = await load(preparer.cookie);
    expect(got.body.savedAt).not.toBeNull();
    expect(got.body.people[0]).toMatchObject({
      periods: [{ status: "H-1B", category: null, from: `${Y - 1}-07-01`, to: null }],
      stays: [{ arrival: `${Y}-01-01`, departure: `${Y}-12-30`, transit: false, source: "typed" }],
    });
    // The client finds it on their own page: it is one history.
    const { loader: ownLoader } = await portalRoute;
    const own = await routeOutcome<StaffHistoryData>(() => ownLoader(routeArgs(withCookie("/my-residency", a.cookie))));
    expect(own.body.people).toEqual(got.body.people);

    // Each change audited with the staff member who made it and the client it is about, counts only.
    expect((await historyAudit()).map((e) => [e.actorId, e.clientId, e.detail])).toEqual([
      [preparer.id, a.id, "1 person, 1 period, 0 stays; was 0 people, 0 periods, 0 stays"],
      [admin.id, a.id, "1 person, 1 period, 1 stay; was 1 person, 1 period, 0 stays"],
    ]);
    expect(JSON.stringify(await historyAudit())).not.toContain(`${Y}-12-30`);

    // The case's stored outcome: present 364 days of the year, a resident all year.
    expect((await caseRow()).residencyStatus).toBe("resident");
    const resident = await section();
    expect(resident.status).toBe("resident");
    const [outcome] = resident.outcome!;
    expect(outcome).toMatchObject({ person: "client", status: "resident", residentFrom: `${Y}-01-01` });
    expect(outcome!.table.find((r) => r.year === Y)).toMatchObject({ present: 364, counted: 364 });
  });

  it("edits the household, the I-94 paste and About, answering in staff's words", async () => {
    const T = staffHistoryTexts({ id: a.id, name: "Alice Aardvark" });
    const spouse = await post<PageSaved>(admin.cookie, { intent: "add-spouse", name: "Ravi Aardvark", dateOfBirth: "1990-04-02", travelsWithMe: "on" });
    expect(spouse.body.message).toBe("Added Alice Aardvark's spouse, Ravi Aardvark. Add their status periods in their card.");
    expect((await post<PageFailure>(admin.cookie, { intent: "add-spouse", name: "Another", travelsWithMe: "on" })).body.formError).toBe(T.spouseExists);
    expect((await post<PageFailure>(admin.cookie, { intent: "remove-person", person: "client" })).body.formError).toBe(T.notYourself);

    const read = await post<PageRead>(admin.cookie, { intent: "read-i94", i94: `1\t${Y}-03-05\tArrival\tNYC\n2\t${Y}-06-01\tDeparture\tNYC` });
    expect(read.body.i94.stays).toEqual([{ arrival: `${Y}-03-05`, departure: `${Y}-06-01` }]);
    expect((await post<PageFailure>(admin.cookie, { intent: "read-i94", i94: " " })).body.errors).toEqual({ i94: T.i94Empty });
    const fromI94 = await post<PageSaved>(admin.cookie, { intent: "add-i94", stays: JSON.stringify(read.body.i94.stays) });
    expect(fromI94.body.message).toBe("Added 1 stay from the I-94 travel history to Alice Aardvark's stays.");

    const about = await post<PageSaved>(admin.cookie, { intent: "save-about", citizenship: "India", taxResidence: "India", fica: "no" });
    expect(about.body.message).toBe("Saved Alice Aardvark's citizenship, country of tax residence and answer on Social Security and Medicare tax.");

    const got = (await load(admin.cookie)).body;
    expect(got.people.map((p) => [p.role, p.name, p.ownStays])).toEqual([
      ["client", "Alice Aardvark", true],
      ["spouse", "Ravi Aardvark", false],
    ]);
    expect(got.people[0]).toMatchObject({ citizenship: "India", ficaWithheld: false, stays: [{ arrival: `${Y}-03-05`, departure: `${Y}-06-01`, source: "i94" }] });
  });

  it("refuses bad input with the field's message (400) and changes nothing", async () => {
    expect(await saveHistory(a.actor, a.id, residentHistory(Y), IP)).toEqual({ ok: true });
    const before = await everything();
    const cases: Array<[string, Record<string, string>, Record<string, string>]> = [
      ["departure before arrival", { ...stay, arrival: `${Y}-10-10`, departure: `${Y}-10-01` }, { departure: M.departureBeforeArrival }],
      // The seeded history holds a stay from March 1 to June 30 of the year.
      ["overlapping stays", { ...stay, arrival: `${Y}-06-15`, departure: `${Y}-07-15` }, { arrival: M.staysOverlap(`${Y}-03-01`, `${Y}-06-30`) }],
      ["a period ending before it starts", { ...period, from: `${Y}-05-10`, to: `${Y}-05-01` }, { to: M.periodEndsBeforeStart }],
      ["overlapping periods", { ...period, status: "F-1", from: `${Y - 1}-01-01`, to: `${Y - 1}-12-31` }, { from: M.periodsOverlap(`${Y - 2}-09-01`, `${Y - 1}-06-30`) }],
      ["no status", { ...period, status: "", from: `${Y - 5}-01-01`, to: `${Y - 5}-06-30` }, { status: M.statusRequired }],
    ];
    for (const [what, fields, errors] of cases) {
      const refused = await post<PageFailure>(admin.cookie, fields);
      expect([what, refused.status]).toEqual([what, 400]);
      expect([what, refused.body.errors]).toEqual([what, errors]);
      expect(refused.body.area).toBe("person:client");
      // What was typed comes back to be shown again.
      expect(refused.body.values).toMatchObject({ intent: fields.intent });
    }
    // Not a form of staff's page: each year's foreign balance is set on the Residency section.
    const foreign = await post<PageFailure>(admin.cookie, { intent: "save-foreign", year: String(Y), balance: "10" });
    expect(foreign.status).toBe(400);
    expect(foreign.body.formError).toBe(M.badForm);
    const unknown = await post<PageFailure>(admin.cookie, { intent: "delete-everything" });
    expect(unknown.status).toBe(400);
    expect(await everything()).toEqual(before);
  });
});

describe("one client's case changes that client's history only", () => {
  it("never changes client B's history from client A's case, whatever the form names", async () => {
    expect(await saveHistory(b.actor, b.id, { people: [studentInput(Y - 1, { name: "Bob Bobolink" })] }, IP)).toEqual({ ok: true });
    expect(await saveHistory(a.actor, a.id, residentHistory(Y), IP)).toEqual({ ok: true });
    await post(admin.cookie, { intent: "add-dependant", name: "Mia Bobolink", relation: "child", travelsWithMe: "on" }, b.id);
    const bBefore = (await load(admin.cookie, b.id)).body;
    const mia = bBefore.people.find((p) => p.role === "dependant")!;
    const bRows = async () => {
      const db = getDb();
      const people = await db.select().from(residencyPeople).where(eq(residencyPeople.clientId, b.id)).orderBy(asc(residencyPeople.id));
      return { people, stays: (await db.select().from(residencyStays).orderBy(asc(residencyStays.id))).filter((s) => people.some((p) => p.id === s.personId)) };
    };
    const bStored = await bRows();
    const bCase = await caseRow(b.id);

    // A's case, a form naming B's account and B's dependant: refused (no such person in A's history).
    const refused = await post<PageFailure>(admin.cookie, { ...period, person: mia.key, clientId: b.id, userId: b.id }, a.id);
    expect(refused.status).toBe(404);
    expect(refused.body.formError).toBe(staffHistoryTexts({ id: a.id, name: "Alice Aardvark" }).noPerson);
    // A change on A's case with B's id in the form: A's history changes, B's does not.
    const saved = await post<PageSaved>(preparer.cookie, { ...stay, arrival: `${Y}-11-01`, departure: `${Y}-11-20`, clientId: b.id }, a.id);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await load(admin.cookie, a.id)).body.people[0]!.stays.map((s) => s.arrival)).toContain(`${Y}-11-01`);

    expect((await load(admin.cookie, b.id)).body).toEqual(bBefore);
    expect(await bRows()).toEqual(bStored);
    expect(await caseRow(b.id)).toEqual(bCase);
    expect((await historyAudit()).filter((e) => e.actorId === preparer.id).map((e) => e.clientId)).toEqual([a.id]);
  });
});
