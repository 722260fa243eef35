import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ASSIGN_MESSAGES, MAX_ASSIGN_AT_ONCE, UNASSIGNED } from "~/domain/admin";
import type { AdminClientRow, AdminDashboardData } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { findCase } from "~/server/clients/list.server";
import { caseActivity } from "~/server/cases/case-page.server";
import { openCase } from "~/server/cases/cases.server";
import { getDb } from "~/server/db/client.server";
import { auditLog, caseMessages, clientCases, documentRequests, user } from "~/server/db/schema";
import { getSessionUser } from "~/server/auth/session-lookup.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { makeStaff, signedInClient, withCookie } from "./helpers";

// Assigning from the staff panel's client list: one row's "Assigned To", and "Assign selected"
// for the rows ticked, in one transaction with one audit entry per case; what is refused changes
// nothing. And the badges of a row: the items the client still owes and their unread messages.

const dashboard = routeModule("routes/admin/dashboard.tsx");
const YEAR = currentFilingYear();
const EARLIER = YEAR - 1;

type Account = { id: string; cookie: string; actor: SessionUser };
type Answer = { intent: string; ok: boolean; message: string; clientId?: string };

let admin: Account;
let preparer: Account;
let retired: Account;
let alice: Account;
let bob: Account;
let carol: Account;
let dave: Account;

async function account(email: string, name: string, role?: "admin" | "preparer"): Promise<Account> {
  const signedIn = await signedInClient(email);
  await getDb().update(user).set({ name }).where(eq(user.id, signedIn.id));
  if (role) await makeStaff(signedIn, role);
  const actor = await getSessionUser(withCookie("/", signedIn.cookie));
  if (!actor) throw new Error("no session");
  return { ...signedIn, actor };
}

beforeEach(async () => {
  admin = await account("sam.staff@example.com", "Sam Staff", "admin");
  preparer = await account("pat.preparer@example.com", "Pat Preparer", "preparer");
  retired = await account("rita.retired@example.com", "Rita Retired", "preparer");
  await getDb().update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, retired.id));
  alice = await account("alice@example.com", "Alice Aardvark");
  bob = await account("bob@example.com", "Bob Bobolink");
  carol = await account("carol@example.com", "Carol Crane");
  dave = await account("dave@example.com", "Dave Dunlin");
  // Alice also has the year before; Dave has only the year before.
  expect(await openCase(admin.actor, alice.id, EARLIER, "203.0.113.1")).toBe("opened");
  expect(await openCase(admin.actor, dave.id, EARLIER, "203.0.113.1")).toBe("opened");
  await getDb()
    .delete(clientCases)
    .where(and(eq(clientCases.userId, dave.id), eq(clientCases.taxYear, YEAR)));
});

/** The audit trail's assignments (the trail cannot be emptied: PostgreSQL refuses it). */
const assignments = () =>
  getDb().select().from(auditLog).where(eq(auditLog.action, "case-assigned")).orderBy(auditLog.id);

async function post(who: Account, fields: Record<string, string | string[]>, search = "") {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
  const request = withCookie(`/admin/dashboard${search}`, who.cookie, {
    method: "POST",
    body: form,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  let result: unknown;
  try {
    result = await (await dashboard).action(routeArgs(request));
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("location"), body: null };
  const answered = unwrap<Answer>(result);
  return { status: answered.status, location: null, body: answered.body };
}

async function list(who: Account, search = ""): Promise<AdminDashboardData> {
  return unwrap<AdminDashboardData>(
    await (await dashboard).loader(routeArgs(withCookie(`/admin/dashboard${search}`, who.cookie))),
  ).body;
}

const rowOf = (data: AdminDashboardData, id: string): AdminClientRow => {
  const row = data.rows.find((r) => r.id === id);
  if (!row) throw new Error(`no row for ${id}`);
  return row;
};

async function assigneeOf(clientId: string, taxYear = YEAR): Promise<string | null> {
  const [row] = await getDb()
    .select({ assigneeId: clientCases.assigneeId })
    .from(clientCases)
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, taxYear)));
  return row!.assigneeId;
}

const label = async (who: Account) =>
  `${(await findCase(who.id, YEAR))!.name} (${(await findCase(who.id, YEAR))!.code})`;

async function snapshot() {
  return {
    cases: await getDb().select().from(clientCases).orderBy(clientCases.number),
    audit: await getDb().select().from(auditLog),
  };
}

describe("assigning one row from the list", () => {
  it("assigns the case to the staff member chosen, with an audit entry, and unassigns it with Unassigned", async () => {
    const assigned = await post(admin, {
      intent: "assign",
      clientId: alice.id,
      taxYear: String(YEAR),
      assigneeId: preparer.id,
    });
    expect(assigned).toEqual({
      status: 200,
      location: null,
      body: {
        intent: "assign",
        ok: true,
        clientId: alice.id,
        message: `${await label(alice)} is now assigned to Pat Preparer.`,
      },
    });
    expect(await assigneeOf(alice.id)).toBe(preparer.id);
    // Only that case: Alice's other year and the other clients stay as they were.
    expect(await assigneeOf(alice.id, EARLIER)).toBeNull();
    expect(await assigneeOf(bob.id)).toBeNull();
    const [saved] = await getDb()
      .select()
      .from(clientCases)
      .where(and(eq(clientCases.userId, alice.id), eq(clientCases.taxYear, YEAR)));
    expect(saved!.updatedBy).toBe(admin.id);
    expect(rowOf(await list(admin), alice.id).assignee).toEqual({
      id: preparer.id,
      name: "Pat Preparer",
      email: "pat.preparer@example.com",
    });

    const entries = await assignments();
    expect(
      entries.map((e) => ({
        action: e.action,
        actor: e.actorId,
        client: e.clientId,
        year: e.taxYear,
        detail: e.detail,
      })),
    ).toEqual([
      {
        action: "case-assigned",
        actor: admin.id,
        client: alice.id,
        year: YEAR,
        detail: `assignee: ${preparer.id}`,
      },
    ]);

    const unassigned = await post(admin, {
      intent: "assign",
      clientId: alice.id,
      taxYear: String(YEAR),
      assigneeId: "",
    });
    expect(unassigned.body).toEqual({
      intent: "assign",
      ok: true,
      clientId: alice.id,
      message: `${await label(alice)} is now unassigned.`,
    });
    expect(await assigneeOf(alice.id)).toBeNull();

    // The case page's activity says it in words.
    const activity = (await caseActivity(alice.id, YEAR)).filter((a) => /assigned/i.test(a.text));
    expect(activity.map((a) => [a.actor, a.text])).toEqual([
      ["Sam Staff", "Unassigned the case"],
      ["Sam Staff", "Assigned the case to Pat Preparer"],
    ]);
  });

  it("lets a preparer assign (cases are theirs to work on)", async () => {
    const assigned = await post(preparer, {
      intent: "assign",
      clientId: bob.id,
      taxYear: String(YEAR),
      assigneeId: admin.id,
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body!.message).toBe(`${await label(bob)} is now assigned to Sam Staff.`);
    expect(await assigneeOf(bob.id)).toBe(admin.id);
    const [entry] = await assignments();
    expect(entry).toMatchObject({
      action: "case-assigned",
      actorId: preparer.id,
      clientId: bob.id,
      taxYear: YEAR,
    });
  });

  it("refuses a deactivated, unknown or non-staff assignee and a case not of that year, changing nothing", async () => {
    await post(admin, { intent: "assign", clientId: bob.id, taxYear: String(YEAR), assigneeId: preparer.id });
    const before = await snapshot();
    const attempts: Array<[Record<string, string>, number, string]> = [
      [{ assigneeId: retired.id }, 400, ASSIGN_MESSAGES.noSuchStaff],
      [{ assigneeId: carol.id }, 400, ASSIGN_MESSAGES.noSuchStaff],
      [{ assigneeId: "no-such-person" }, 400, ASSIGN_MESSAGES.noSuchStaff],
      [{ assigneeId: "bad\u0000id" }, 400, ASSIGN_MESSAGES.noSuchStaff],
      [{ clientId: dave.id }, 404, ASSIGN_MESSAGES.noSuchCase(YEAR)],
      [{ clientId: admin.id }, 404, ASSIGN_MESSAGES.noSuchCase(YEAR)],
      [{ clientId: "nobody" }, 404, ASSIGN_MESSAGES.noSuchCase(YEAR)],
      [{ taxYear: "1999" }, 404, ASSIGN_MESSAGES.noSuchCase(YEAR)],
    ];
    for (const [fields, status, message] of attempts) {
      const got = await post(admin, {
        intent: "assign",
        clientId: bob.id,
        taxYear: String(YEAR),
        assigneeId: admin.id,
        ...fields,
      });
      expect({ fields, status: got.status, message: got.body?.message, ok: got.body?.ok }).toEqual({
        fields,
        status,
        message,
        ok: false,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers a client or a visitor with the way out, and changes nothing", async () => {
    const before = await snapshot();
    for (const who of [alice, { ...alice, cookie: "" }]) {
      const single = await post(who, {
        intent: "assign",
        clientId: bob.id,
        taxYear: String(YEAR),
        assigneeId: admin.id,
      });
      const bulk = await post(who, {
        intent: "assign-selected",
        taxYear: String(YEAR),
        assigneeId: admin.id,
        selected: [bob.id],
      });
      for (const got of [single, bulk]) {
        expect(got.status).toBe(302);
        expect(got.location).toMatch(who.cookie ? /^\/dashboard$/ : /^\/login\?redirectTo=/);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("assigning the rows ticked", () => {
  it("assigns every selected case of the year shown at once, one audit entry per case", async () => {
    const got = await post(preparer, {
      intent: "assign-selected",
      taxYear: String(YEAR),
      assigneeId: admin.id,
      selected: [alice.id, bob.id, carol.id, bob.id],
    });
    expect(got).toEqual({
      status: 200,
      location: null,
      body: { intent: "assign-selected", ok: true, message: "3 clients assigned to Sam Staff." },
    });
    for (const c of [alice, bob, carol]) expect(await assigneeOf(c.id)).toBe(admin.id);
    expect(await assigneeOf(alice.id, EARLIER)).toBeNull();
    expect(await assigneeOf(dave.id, EARLIER)).toBeNull();

    const entries = await assignments();
    expect(entries.map((e) => [e.action, e.actorId, e.clientId, e.taxYear, e.detail]).sort()).toEqual(
      [alice, bob, carol]
        .map((c) => ["case-assigned", preparer.id, c.id, YEAR, `assignee: ${admin.id} (3 cases at once)`])
        .sort(),
    );
    const data = await list(admin);
    for (const c of [alice, bob, carol]) expect(rowOf(data, c.id).assignee?.name).toBe("Sam Staff");

    // Unassigned, for one of them.
    const one = await post(admin, {
      intent: "assign-selected",
      taxYear: String(YEAR),
      assigneeId: UNASSIGNED,
      selected: carol.id,
    });
    expect(one.body).toEqual({ intent: "assign-selected", ok: true, message: "1 client now unassigned." });
    expect(await assigneeOf(carol.id)).toBeNull();
    expect(await assigneeOf(bob.id)).toBe(admin.id);
  });

  it("assigns the cases of the year the form names (the year before, here)", async () => {
    const got = await post(admin, {
      intent: "assign-selected",
      taxYear: String(EARLIER),
      assigneeId: preparer.id,
      selected: [alice.id, dave.id],
    });
    expect(got.body).toEqual({
      intent: "assign-selected",
      ok: true,
      message: "2 clients assigned to Pat Preparer.",
    });
    expect(await assigneeOf(alice.id, EARLIER)).toBe(preparer.id);
    expect(await assigneeOf(dave.id, EARLIER)).toBe(preparer.id);
    expect(await assigneeOf(alice.id)).toBeNull();
  });

  it("refuses, with a clear message and no change at all, what cannot be done", async () => {
    await post(admin, {
      intent: "assign-selected",
      taxYear: String(YEAR),
      assigneeId: preparer.id,
      selected: [bob.id],
    });
    const before = await snapshot();
    const base = { intent: "assign-selected", taxYear: String(YEAR), assigneeId: admin.id };
    const tooMany = Array.from({ length: MAX_ASSIGN_AT_ONCE }, (_, i) => `someone-${i}`);
    const attempts: Array<[Record<string, string | string[]>, string]> = [
      [{ selected: [] }, ASSIGN_MESSAGES.nothingSelected],
      [{ assigneeId: "", selected: [alice.id] }, ASSIGN_MESSAGES.chooseAssignee],
      [{ assigneeId: retired.id, selected: [alice.id, bob.id] }, ASSIGN_MESSAGES.noSuchStaff],
      [{ assigneeId: carol.id, selected: [alice.id, bob.id] }, ASSIGN_MESSAGES.noSuchStaff],
      [{ assigneeId: "no-such-person", selected: [alice.id] }, ASSIGN_MESSAGES.noSuchStaff],
      // Dave has no case this year: Alice and Carol are not assigned either.
      [{ selected: [alice.id, dave.id, carol.id] }, ASSIGN_MESSAGES.otherYear(YEAR)],
      [{ selected: [alice.id, preparer.id] }, ASSIGN_MESSAGES.otherYear(YEAR)],
      [{ selected: [alice.id, "nobody"] }, ASSIGN_MESSAGES.otherYear(YEAR)],
      [{ selected: [alice.id, "bad\u0000id"] }, ASSIGN_MESSAGES.otherYear(YEAR)],
      [{ taxYear: String(EARLIER), selected: [alice.id, bob.id] }, ASSIGN_MESSAGES.otherYear(EARLIER)],
      [{ taxYear: "1999", selected: [alice.id] }, ASSIGN_MESSAGES.otherYear(YEAR)],
      [{ selected: [alice.id, ...tooMany] }, ASSIGN_MESSAGES.tooMany],
    ];
    for (const [fields, message] of attempts) {
      const got = await post(admin, { ...base, ...fields });
      expect({ fields: JSON.stringify(fields).slice(0, 80), status: got.status, body: got.body }).toEqual({
        fields: JSON.stringify(fields).slice(0, 80),
        status: 400,
        body: { intent: "assign-selected", ok: false, message },
      });
    }
    expect(await snapshot()).toEqual(before);
    expect(await assigneeOf(bob.id)).toBe(preparer.id);
  });
});

describe("a row's badges", () => {
  it("count the items the client still owes and their messages no staff member has read, per case", async () => {
    let position = 0;
    const items = (
      clientId: string,
      taxYear: number,
      states: Array<(typeof documentRequests.$inferInsert)["state"]>,
    ) =>
      getDb()
        .insert(documentRequests)
        .values(
          states.map((state) => ({
            clientId,
            taxYear,
            position: ++position,
            title: `Item ${position}`,
            state,
          })),
        );
    await items(alice.id, YEAR, [
      "requested",
      "requested",
      "returned",
      "received",
      "uploaded",
      "not-applicable",
      "unavailable",
    ]);
    await items(alice.id, EARLIER, ["requested"]);
    await items(bob.id, YEAR, ["received"]);
    const message = (
      clientId: string,
      taxYear: number,
      fromClient: boolean,
      extra: Partial<typeof caseMessages.$inferInsert> = {},
    ) =>
      getDb()
        .insert(caseMessages)
        .values({
          clientId,
          taxYear,
          fromClient,
          body: "Private words",
          authorId: fromClient ? clientId : admin.id,
          ...extra,
        });
    await message(alice.id, YEAR, true);
    await message(alice.id, YEAR, true);
    await message(alice.id, YEAR, true, { readAt: new Date() });
    await message(alice.id, YEAR, true, { hiddenAt: new Date(), hiddenBy: admin.id });
    await message(alice.id, YEAR, false);
    await message(alice.id, EARLIER, true);
    await message(carol.id, YEAR, true);

    const counts = (row: AdminClientRow) => ({
      outstanding: row.outstandingRequests,
      unread: row.unreadMessages,
    });
    const data = await list(admin);
    expect(counts(rowOf(data, alice.id))).toEqual({ outstanding: 3, unread: 2 });
    expect(counts(rowOf(data, bob.id))).toEqual({ outstanding: 0, unread: 0 });
    expect(counts(rowOf(data, carol.id))).toEqual({ outstanding: 0, unread: 1 });
    const earlier = await list(admin, `?year=${EARLIER}`);
    expect(counts(rowOf(earlier, alice.id))).toEqual({ outstanding: 1, unread: 1 });
    expect(counts(rowOf(earlier, dave.id))).toEqual({ outstanding: 0, unread: 0 });
    // One client's own row (the case page's) counts the same.
    expect(counts((await findCase(alice.id, YEAR))!)).toEqual({ outstanding: 3, unread: 2 });
    expect(counts((await findCase(alice.id, EARLIER))!)).toEqual({ outstanding: 1, unread: 1 });
  });
});
