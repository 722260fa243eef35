import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { addDays } from "~/domain/business-days";
import { RESIDENCY_FORM_MESSAGES as M } from "~/domain/residency/forms";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { auditLog, clientCases, residencyFindings, residencyPeople, residencyPeriods } from "~/server/db/schema";
import { readHistory, saveFindings, saveHistory, setCaseFacts } from "~/server/residency/history.server";
import { caseResidency, confirmResidency } from "~/server/residency/outcome.server";
import { feeCast } from "../helpers/fees";
import { IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { studentInput } from "../helpers/residency";
import { caseRowOf, residencyRows } from "../helpers/residency-rows";

// The storage and server layer of a client's immigration history (app/server/residency): saving
// and reading it back, who may do either, a refused save changing nothing, the audit trail, and
// the residency stored on each case, computed again when the history, staff's findings or the
// case's facts change, and staff's confirmation of it.

const Y = currentFilingYear();
const daysIn = (year: number) => (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 366 : 365);

let admin: Account;
let preparer: Account;
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ admin, preparer, a, b } = await feeCast());
});

/** The client alone: an F-1 student from India since August 10 of `since`, in the US ever since. */
const student = studentInput;

/** Every row of the history's tables, the residency columns of every case and the audit trail: what a refused change must leave as it was. */
const everything = residencyRows;
const caseRow = (clientId: string, taxYear = Y) => caseRowOf(clientId, taxYear);

const summary = (row: typeof clientCases.$inferSelect) => ({
  status: row.residencyStatus,
  firstYearOpen: row.residencyFirstYearOpen,
  missing: row.residencyMissing,
  flagged: row.residencyFlagged,
});

const auditOf = (action: string) =>
  getDb()
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action as never))
    .orderBy(asc(auditLog.id));

describe("saving and reading a history", () => {
  it("shows a client with nothing saved as an empty client named after the account", async () => {
    const view = await readHistory(a.actor, a.id);
    expect(view).toEqual({
      clientId: a.id,
      savedAt: null,
      people: [
        {
          id: null,
          key: "client",
          role: "client",
          name: "Alice Aardvark",
          relation: null,
          dateOfBirth: null,
          citizenship: null,
          taxResidence: null,
          ownStays: true,
          greenCardSteps: false,
          itin: null,
          ficaWithheld: null,
          school: null,
          sponsor: null,
          periods: [],
          stays: [],
          findings: null,
        },
      ],
    });
    // Staff see the (empty) findings.
    expect((await readHistory(admin.actor, a.id))!.people[0]!.findings).toEqual({});
  });

  it("reads back what the owner saved, in order, and keeps a person's id while their key stays", async () => {
    const posted = {
      people: [
        student(Y - 1, {
          dateOfBirth: "1999-05-06",
          itin: { issuedYear: 2020, lastUsedYear: 2023 },
          stays: [
            { arrival: `${Y - 1}-08-10`, departure: `${Y - 1}-12-20`, transit: false, source: "i94" },
            { arrival: `${Y}-01-05`, departure: null, transit: false, source: "i94" },
            { arrival: `${Y - 2}-06-01`, departure: `${Y - 2}-06-01`, transit: true, source: "typed" },
          ],
        }),
        { key: "spouse", role: "spouse", name: "Bala", ownStays: false, periods: [{ status: "F-2", category: null, from: `${Y - 1}-08-10`, to: null }] },
        { key: "new-kid", role: "dependant", name: "Chitra", relation: "child", dateOfBirth: `${Y - 3}-02-01`, ownStays: false },
      ],
    };
    expect(await saveHistory(a.actor, a.id, JSON.stringify(posted), IP)).toEqual({ ok: true });

    const view = (await readHistory(a.actor, a.id))!;
    expect(view.clientId).toBe(a.id);
    expect(view.savedAt).not.toBeNull();
    const [me, spouse, kid] = view.people;
    expect(view.people).toHaveLength(3);
    expect(me).toEqual({
      id: expect.any(String),
      key: "client",
      role: "client",
      name: "Alice Aardvark",
      relation: null,
      dateOfBirth: "1999-05-06",
      citizenship: "India",
      taxResidence: "India",
      ownStays: true,
      greenCardSteps: false,
      itin: { issuedYear: 2020, lastUsedYear: 2023 },
      ficaWithheld: false,
      school: "State University",
      sponsor: null,
      periods: [{ status: "F-1", category: null, from: `${Y - 1}-08-10`, to: null }],
      // Oldest first.
      stays: [
        { arrival: `${Y - 2}-06-01`, departure: `${Y - 2}-06-01`, transit: true, source: "typed" },
        { arrival: `${Y - 1}-08-10`, departure: `${Y - 1}-12-20`, transit: false, source: "i94" },
        { arrival: `${Y}-01-05`, departure: null, transit: false, source: "i94" },
      ],
      findings: null,
    });
    expect(spouse).toMatchObject({ key: "spouse", role: "spouse", name: "Bala", ownStays: false, stays: [], periods: [{ status: "F-2", from: `${Y - 1}-08-10` }] });
    // A new dependant's key becomes their id.
    expect(kid).toMatchObject({ key: kid!.id, role: "dependant", name: "Chitra", relation: "child", dateOfBirth: `${Y - 3}-02-01` });

    const rows = await getDb().select().from(residencyPeople).where(eq(residencyPeople.clientId, a.id)).orderBy(asc(residencyPeople.position));
    expect(rows.map((r) => [r.role, r.position, r.ownStays])).toEqual([
      ["client", 0, true],
      ["spouse", 1, false],
      ["dependant", 2, false],
    ]);

    // Staff record a finding for the dependant; the client saves again, the dependant kept by key, the spouse left out.
    expect(await saveFindings(admin.actor, a.id, kid!.key, Y, { studentException: false, deMinimis: true, abroadAfterLeaving: false }, IP)).toEqual({ ok: true });
    const again = { people: [student(Y - 1), { ...posted.people[2], key: kid!.key, name: "Chitra R." }] };
    expect(await saveHistory(a.actor, a.id, again, IP)).toEqual({ ok: true });
    const after = (await readHistory(preparer.actor, a.id))!;
    expect(after.people.map((p) => [p.role, p.id, p.name])).toEqual([
      ["client", me!.id, "Alice Aardvark"],
      ["dependant", kid!.id, "Chitra R."],
    ]);
    expect(after.people[1]!.findings).toEqual({ [Y]: { studentException: false, deMinimis: true, abroadAfterLeaving: false } });
    // The spouse went, and their periods with them.
    expect(await getDb().select().from(residencyPeople).where(eq(residencyPeople.role, "spouse"))).toEqual([]);
    expect(await getDb().select().from(residencyPeriods)).toHaveLength(1);
  });

  it("records who changed the history and what, in counts only", async () => {
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);
    await saveHistory(
      admin.actor,
      a.id,
      {
        people: [
          student(Y - 1, {
            stays: [
              { arrival: `${Y - 1}-08-10`, departure: `${Y - 1}-12-20`, source: "i94" },
              { arrival: `${Y}-01-05`, departure: `${Y}-05-20`, source: "i94" },
              { arrival: `${Y}-08-15`, departure: null, source: "typed" },
            ],
          }),
          { key: "spouse", role: "spouse", name: "Bala", periods: [{ status: "F-2", from: `${Y - 1}-08-10`, to: null }] },
        ],
      },
      IP,
    );
    const entries = await auditOf("residency-history-changed");
    expect(entries.map((e) => ({ actorId: e.actorId, actorEmail: e.actorEmail, clientId: e.clientId, taxYear: e.taxYear, detail: e.detail, ip: e.ipAddress }))).toEqual([
      { actorId: a.id, actorEmail: "alice@example.com", clientId: a.id, taxYear: null, detail: "1 person, 1 period, 1 stay; was 0 people, 0 periods, 0 stays", ip: IP },
      {
        actorId: admin.id,
        actorEmail: "sam.admin@example.com",
        clientId: a.id,
        taxYear: null,
        detail: "2 people, 2 periods, 3 stays (2 from an I-94 paste); was 1 person, 1 period, 1 stay",
        ip: IP,
      },
    ]);
    // No name, no date.
    expect(entries.some((e) => /Alice|Bala|India|\d{4}-\d{2}/.test(e.detail ?? ""))).toBe(false);
  });
});

describe("who may read and change it", () => {
  it("refuses another client: nothing read, nothing changed", async () => {
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);
    const before = await everything();

    expect(await readHistory(b.actor, a.id)).toBeNull();
    expect(await caseResidency(b.actor, a.id, Y)).toBeNull();
    expect(await saveHistory(b.actor, a.id, { people: [student(Y - 5)] }, IP)).toEqual({ ok: false, errors: { form: M.notYours }, status: 403 });
    expect(await setCaseFacts(b.actor, a.id, Y, { foreignAccountsHighestCents: 5_000_000, filesJointly: true }, IP)).toEqual({
      ok: false,
      errors: { form: M.notYours },
      status: 403,
    });
    // Findings and confirmation are staff's: the client's own included.
    expect(await saveFindings(a.actor, a.id, "client", Y, { studentException: true, deMinimis: false, abroadAfterLeaving: false }, IP)).toEqual({
      ok: false,
      errors: { form: M.staffOnly },
      status: 403,
    });
    expect(await confirmResidency(a.actor, a.id, Y, "resident", "I say so", IP)).toEqual({ ok: false, errors: { form: M.staffOnly }, status: 403 });

    expect(await everything()).toEqual(before);
    // b's own history is still theirs to read.
    expect((await readHistory(b.actor, b.id))!.people[0]!.name).toBe("Bob Bobolink");
  });

  it("lets staff read and change any client's, and no one an account that is not a client's", async () => {
    expect(await saveHistory(preparer.actor, a.id, { people: [student(Y - 1)] }, IP)).toEqual({ ok: true });
    expect((await readHistory(admin.actor, a.id))!.people[0]!.periods).toEqual([{ status: "F-1", category: null, from: `${Y - 1}-08-10`, to: null }]);
    expect((await caseResidency(preparer.actor, a.id, Y))!.status).toBe("nonresident");
    expect(await readHistory(admin.actor, preparer.id)).toBeNull();
    expect(await saveHistory(admin.actor, preparer.id, { people: [student(Y - 1)] }, IP)).toEqual({ ok: false, errors: { form: M.noSuchClient }, status: 404 });
    expect(await saveHistory(admin.actor, "no-such-user", { people: [student(Y - 1)] }, IP)).toEqual({ ok: false, errors: { form: M.noSuchClient }, status: 404 });
    expect(await getDb().select().from(residencyPeople).where(eq(residencyPeople.clientId, preparer.id))).toEqual([]);
  });

  it("an invalid save changes nothing and says what is wrong at each field", async () => {
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);
    const before = await everything();
    const result = await saveHistory(
      a.actor,
      a.id,
      {
        people: [
          student(Y - 5, {
            periods: [{ status: "F-1", from: `${Y}-08-10`, to: `${Y}-08-01` }],
            stays: [
              { arrival: `${Y - 1}-08-10`, departure: `${Y - 1}-12-20` },
              { arrival: `${Y - 1}-12-20`, departure: null },
            ],
          }),
        ],
      },
      IP,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        "people.0.periods.0.to": "The last day in the status cannot be before its first day.",
        "people.0.stays.1.arrival": `This stay shares days with the stay from ${Y - 1}-08-10 to ${Y - 1}-12-20: a day can be in one stay only.`,
      },
    });
    expect(await everything()).toEqual(before);
  });
});

/** Runs `work` while the database refuses every new audit entry (as integrity.test.ts does). */
async function withAuditRefused<T>(work: () => Promise<T>): Promise<T> {
  const db = getDb();
  await db.execute(
    sql.raw(`create or replace function refuse_audit_entry() returns trigger as $$ begin raise exception 'audit trail unavailable'; end; $$ language plpgsql`),
  );
  await db.execute(sql.raw(`create trigger refuse_audit_entry before insert on audit_log for each row execute function refuse_audit_entry()`));
  try {
    return await work();
  } finally {
    await db.execute(sql.raw(`drop trigger refuse_audit_entry on audit_log`));
    await db.execute(sql.raw(`drop function refuse_audit_entry()`));
  }
}

describe("one transaction", () => {
  it("a save whose audit entry cannot be written changes nothing: not the people, not the cases' residency", async () => {
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);
    const before = await everything();
    await expect(
      withAuditRefused(() =>
        saveHistory(a.actor, a.id, { people: [student(Y - 5), { key: "spouse", role: "spouse", name: "Bala", periods: [{ status: "F-2", from: `${Y - 5}-08-10` }] }] }, IP),
      ),
    ).rejects.toThrow();
    await expect(
      withAuditRefused(() => saveFindings(admin.actor, a.id, "client", Y, { studentException: true, deMinimis: false, abroadAfterLeaving: false }, IP)),
    ).rejects.toThrow();
    expect(await everything()).toEqual(before);
  });
});

describe("the residency stored on each case", () => {
  it("keeps the first-year choice open for someone who came late in the year", async () => {
    await saveHistory(
      a.actor,
      a.id,
      {
        people: [
          student(Y, {
            periods: [{ status: "H-1B", from: `${Y}-10-01`, to: null }],
            stays: [{ arrival: `${Y}-10-01`, departure: null }],
          }),
        ],
      },
      IP,
    );
    const row = await caseRow(a.id);
    expect(summary(row)).toEqual({ status: "nonresident", firstYearOpen: true, missing: false, flagged: false });
    expect(row.residencyOutcome![0]!.choices[0]).toMatchObject({ kind: "first-year-choice", from: `${Y}-10-01`, share: "100.0%" });
  });

  it("an F-1 student in their 2nd calendar year is a nonresident; 5 years on, a resident", async () => {
    // A second case, of the year before.
    await getDb().insert(clientCases).values({ userId: a.id, taxYear: Y - 1 });
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);

    const row = await caseRow(a.id);
    expect(summary(row)).toEqual({ status: "nonresident", firstYearOpen: false, missing: false, flagged: true });
    expect(row.residencyComputedAt).not.toBeNull();
    const [outcome] = row.residencyOutcome!;
    expect(outcome).toMatchObject({
      person: "client",
      role: "client",
      taxYear: Y,
      status: "nonresident",
      rule: "not-met",
      residentFrom: null,
      residentUntil: null,
      exemptIndividual: true,
      meetsSubstantialPresence: false,
      forms: ["1040-NR", "8843"],
      flags: [{ kind: "india-treaty" }],
      missing: [],
      summary: `You were a nonresident alien for all of ${Y}: you were an F-1 student, and ${Y} was your 2nd year as one. You file Form 1040-NR and Form 8843.`,
    });
    expect(outcome!.table.map((r) => [r.year, r.present, r.exempt, r.counted])).toEqual([
      [Y, daysIn(Y), daysIn(Y), 0],
      [Y - 1, 144, 144, 0],
      [Y - 2, 0, 0, 0],
    ]);
    // The year before: the 1st year, nonresident too.
    expect(summary(await caseRow(a.id, Y - 1))).toEqual({ status: "nonresident", firstYearOpen: false, missing: false, flagged: true });

    // Arrived 5 years earlier: past 5 exempt calendar years, every day of the year counts.
    await saveHistory(a.actor, a.id, { people: [student(Y - 5)] }, IP);
    const resident = await caseRow(a.id);
    expect(summary(resident)).toEqual({ status: "resident", firstYearOpen: false, missing: false, flagged: false });
    expect(resident.residencyOutcome![0]).toMatchObject({
      status: "resident",
      rule: "substantial-presence-test",
      residentFrom: `${Y}-01-01`,
      residentUntil: `${Y}-12-31`,
      exemptIndividual: false,
      // The 183rd day counted: the years before count nothing.
      metOn: addDays(`${Y}-01-01`, 182),
      forms: ["1040"],
      flags: [],
    });
    // The year before was the 5th exempt one.
    expect(summary(await caseRow(a.id, Y - 1))).toEqual({ status: "nonresident", firstYearOpen: false, missing: false, flagged: true });

    // What the page reads: the stored outcome, never computed on the way.
    const view = (await caseResidency(a.actor, a.id, Y))!;
    expect(view).toMatchObject({ taxYear: Y, status: "resident", firstYearOpen: false, missing: false, flagged: false, foreignAccountsHighestCents: null, filesJointly: false, confirmation: null });
    expect(view.outcome).toEqual(resident.residencyOutcome);
    expect(view.computedAt).toBe(resident.residencyComputedAt!.toISOString());
    expect((await caseRow(a.id)).residencyComputedAt).toEqual(resident.residencyComputedAt);
    expect(await caseResidency(a.actor, a.id, Y - 7)).toBeNull();
  });

  it("names what the history lacks, and counts a spouse who travels with the client on the client's stays", async () => {
    await saveHistory(
      a.actor,
      a.id,
      {
        people: [
          student(Y - 1, { citizenship: null }),
          { key: "spouse", role: "spouse", name: "Bala", ownStays: false, periods: [{ status: "F-2", from: `${Y - 1}-08-10`, to: null }] },
        ],
      },
      IP,
    );
    const row = await caseRow(a.id);
    // Without the client's citizenship: missing, and no India flag.
    expect(summary(row)).toEqual({ status: "nonresident", firstYearOpen: false, missing: true, flagged: false });
    const [me, spouse] = row.residencyOutcome!;
    expect(me!.missing).toEqual(["Your country of citizenship."]);
    expect(spouse).toMatchObject({ person: "spouse", status: "nonresident", exemptIndividual: true, forms: ["1040-NR", "8843"], missing: [] });
    expect(spouse!.table[0]).toMatchObject({ present: daysIn(Y), exempt: daysIn(Y), counted: 0 });
  });

  it("computes again when staff record a finding, and when the case's facts change", async () => {
    await saveHistory(a.actor, a.id, { people: [student(Y - 5)] }, IP);
    expect((await caseRow(a.id)).residencyStatus).toBe("resident");

    // Staff find the student exception applies for the year: exempt again, a nonresident.
    expect(await saveFindings(preparer.actor, a.id, "client", Y, { studentException: true, deMinimis: false, abroadAfterLeaving: false }, IP)).toEqual({ ok: true });
    expect(summary(await caseRow(a.id))).toEqual({ status: "nonresident", firstYearOpen: false, missing: false, flagged: true });
    const [entry] = await auditOf("residency-findings-saved");
    expect(entry).toMatchObject({
      actorId: preparer.id,
      clientId: a.id,
      taxYear: Y,
      detail: `the client, ${Y}: student exception yes, de minimis no, abroad after leaving no`,
    });
    expect(await getDb().select({ by: residencyFindings.recordedBy, year: residencyFindings.taxYear }).from(residencyFindings)).toEqual([{ by: preparer.id, year: Y }]);

    // And taken back.
    await saveFindings(admin.actor, a.id, "client", Y, { studentException: false, deMinimis: false, abroadAfterLeaving: false }, IP);
    expect(summary(await caseRow(a.id))).toEqual({ status: "resident", firstYearOpen: false, missing: false, flagged: false });
    expect(await saveFindings(admin.actor, a.id, "spouse", Y, { studentException: true, deMinimis: false, abroadAfterLeaving: false }, IP)).toEqual({
      ok: false,
      errors: { form: M.noSuchPerson },
      status: 404,
    });

    // The client's foreign accounts: $20,000.01 at the highest, a resident files the FBAR.
    expect(await setCaseFacts(a.actor, a.id, Y, { foreignAccountsHighestCents: 2_000_001, filesJointly: false }, IP)).toEqual({ ok: true });
    const withAccounts = await caseRow(a.id);
    expect(withAccounts.foreignAccountsHighestCents).toBe(2_000_001);
    expect(summary(withAccounts)).toEqual({ status: "resident", firstYearOpen: false, missing: false, flagged: true });
    expect(withAccounts.residencyOutcome![0]!.flags.map((f) => f.kind)).toEqual(["fbar"]);
    expect(await auditOf("residency-facts-changed")).toMatchObject([
      { actorId: a.id, clientId: a.id, taxYear: Y, detail: "foreign accounts recorded, not filing jointly" },
    ]);
    expect(await setCaseFacts(a.actor, a.id, Y, { foreignAccountsHighestCents: -5, filesJointly: false }, IP)).toEqual({
      ok: false,
      errors: { foreignAccountsHighestCents: M.foreignAccountsInvalid },
    });
    expect(await setCaseFacts(a.actor, a.id, Y - 9, { foreignAccountsHighestCents: null, filesJointly: false }, IP)).toEqual({
      ok: false,
      errors: { form: M.noSuchCase },
      status: 404,
    });
  });
});

describe("staff confirm the residency status", () => {
  it("as computed without a reason, otherwise with one; a changed outcome clears it", async () => {
    expect(await confirmResidency(admin.actor, a.id, Y, "nonresident", null, IP)).toEqual({ ok: false, errors: { form: M.notComputed } });
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);

    expect(await confirmResidency(admin.actor, a.id, Y, "nonresident", null, IP)).toEqual({ ok: true });
    let row = await caseRow(a.id);
    expect([row.residencyConfirmedStatus, row.residencyConfirmedBy, row.residencyConfirmReason]).toEqual(["nonresident", admin.id, null]);
    expect(row.residencyConfirmedAt).not.toBeNull();

    // Another status than the computed one needs a reason.
    const before = await everything();
    expect(await confirmResidency(admin.actor, a.id, Y, "resident", null, IP)).toEqual({ ok: false, errors: { reason: M.reasonRequired } });
    expect(await confirmResidency(admin.actor, a.id, Y, "resident", "   ", IP)).toEqual({ ok: false, errors: { reason: M.reasonRequired } });
    expect(await confirmResidency(admin.actor, a.id, Y, "alien", "why not", IP)).toEqual({ ok: false, errors: { status: M.residencyStatusRequired } });
    expect(await everything()).toEqual(before);

    expect(await confirmResidency(preparer.actor, a.id, Y, "resident", "  Green card granted in March; the client will send the I-551.  ", IP)).toEqual({ ok: true });
    row = await caseRow(a.id);
    expect([row.residencyStatus, row.residencyConfirmedStatus, row.residencyConfirmedBy, row.residencyConfirmReason]).toEqual([
      "nonresident",
      "resident",
      preparer.id,
      "Green card granted in March; the client will send the I-551.",
    ]);
    expect((await auditOf("residency-confirmed")).map((e) => [e.actorId, e.clientId, e.taxYear, e.detail])).toEqual([
      [admin.id, a.id, Y, "nonresident, as computed"],
      [preparer.id, a.id, Y, "resident (computed: nonresident), with a reason"],
    ]);

    // Staff read who and why; the client the status alone.
    expect((await caseResidency(admin.actor, a.id, Y))!.confirmation).toEqual({
      status: "resident",
      at: row.residencyConfirmedAt!.toISOString(),
      by: "Pat Preparer",
      reason: "Green card granted in March; the client will send the I-551.",
    });
    expect((await caseResidency(a.actor, a.id, Y))!.confirmation).toEqual({ status: "resident", at: row.residencyConfirmedAt!.toISOString(), by: null, reason: null });

    // The same history saved again leaves the outcome, and the confirmation, as they were.
    await saveHistory(a.actor, a.id, { people: [student(Y - 1)] }, IP);
    expect((await caseRow(a.id)).residencyConfirmedStatus).toBe("resident");
    // Another history changes the outcome: the confirmation was of other facts.
    await saveHistory(a.actor, a.id, { people: [student(Y - 1, { citizenship: "Brazil" })] }, IP);
    row = await caseRow(a.id);
    expect([row.residencyConfirmedStatus, row.residencyConfirmedBy, row.residencyConfirmedAt, row.residencyConfirmReason]).toEqual([null, null, null, null]);
    expect(summary(row)).toEqual({ status: "nonresident", firstYearOpen: false, missing: false, flagged: false });

    expect(await confirmResidency(admin.actor, a.id, Y - 4, "resident", "x", IP)).toEqual({ ok: false, errors: { form: M.noSuchCase }, status: 404 });
  });
});
