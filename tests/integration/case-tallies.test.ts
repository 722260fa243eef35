import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AdminCounters } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { STAGE_KEYS } from "~/domain/workflow";
import { clientCounters, countClients } from "~/server/cases/counters.server";
import { databaseKind, getDb } from "~/server/db/client.server";
import { compactTallies } from "~/server/limits/tallies.server";
import { clientCases, user } from "~/server/db/schema";

// The panel's counters and the sidebar's total read tallies the database keeps by triggers
// (migration 0010). Whatever happens to cases and accounts, they must equal counting the rows.

const YEAR = currentFilingYear();
const EARLIER = YEAR - 1;

type Row = Record<string, unknown>;
const rows = async <T extends Row>(query: ReturnType<typeof sql>) =>
  ((await getDb().execute(query)) as unknown as { rows: T[] }).rows;

async function countedCounters(year: number): Promise<AdminCounters> {
  const [row] = await rows<AdminCounters>(sql`
    select count(*)::int as total,
      (count(*) filter (where not (current_stage = 'finalcopies' and finalcopies)))::int as active,
      (count(*) filter (where current_stage = 'documents'))::int as "pendingDocuments",
      (count(*) filter (where finalcopies))::int as completed
    from client_cases where tax_year = ${year}`);
  return row!;
}

async function countedClients(): Promise<number> {
  const [row] = await rows<{ n: number }>(sql`select count(*)::int as n from "user" where role = 'user'`);
  return row!.n;
}

/** The tallies agree with the rows, for both years, and say what the test expects. */
async function expectTallies(expected: { clients: number; year: Partial<AdminCounters>; earlier?: Partial<AdminCounters> }) {
  expect(await countClients()).toBe(await countedClients());
  expect(await countClients()).toBe(expected.clients);
  expect(await clientCounters(YEAR)).toEqual(await countedCounters(YEAR));
  expect(await clientCounters(YEAR)).toMatchObject(expected.year);
  expect(await clientCounters(EARLIER)).toEqual(await countedCounters(EARLIER));
  if (expected.earlier) expect(await clientCounters(EARLIER)).toMatchObject(expected.earlier);
}

async function addClients(from: number, to: number): Promise<void> {
  await getDb().execute(sql`
    insert into "user" (id, name, email, email_verified, role)
    select 'tally-' || g, 'Client ' || g, 'tally' || g || '@example.com', true, 'user' from generate_series(${from}::int, ${to}::int) g`);
}

describe("the panel's tallies (migration 0010)", () => {
  it("follow accounts and cases made, moved, completed, re-roled and removed", async () => {
    await expectTallies({ clients: 0, year: { total: 0, active: 0, pendingDocuments: 0, completed: 0 } });

    // One statement making 30 clients: each gets the season's case at HOME.
    await addClients(1, 30);
    await getDb().insert(user).values({ id: "staff-1", name: "Asha Patel", email: "asha@taxbridge.example", emailVerified: true, role: "admin" });
    await expectTallies({ clients: 30, year: { total: 30, active: 30, pendingDocuments: 0, completed: 0 } });

    // Moved one at a time, and many in one statement.
    await getDb().update(clientCases).set({ currentStage: "documents", home: true, taxinfo: true }).where(eq(clientCases.userId, "tally-1"));
    await getDb().execute(sql`update client_cases set current_stage = 'documents' where user_id in ('tally-2', 'tally-3', 'tally-4')`);
    await getDb().execute(
      sql`update client_cases set current_stage = 'finalcopies', finalcopies = true where user_id in ('tally-5', 'tally-6')`,
    );
    // Final Copies reached but not ticked: still active.
    await getDb().execute(sql`update client_cases set current_stage = 'finalcopies' where user_id = 'tally-7'`);
    // A change that moves no stage (the assignee) leaves the tallies as they were.
    await getDb().execute(sql`update client_cases set assignee_id = 'staff-1' where user_id = 'tally-8'`);
    await expectTallies({ clients: 30, year: { total: 30, active: 28, pendingDocuments: 4, completed: 2 } });

    // An earlier tax year opened for some clients.
    await getDb().execute(sql`insert into client_cases (user_id, tax_year, current_stage) select id, ${EARLIER}, 'documents' from "user" where id in ('tally-1', 'tally-9')`);
    await expectTallies({ clients: 30, year: { total: 30 }, earlier: { total: 2, active: 2, pendingDocuments: 2, completed: 0 } });

    // A client made staff loses their cases (migration 0006); made a client again, gets the season's.
    await getDb().update(user).set({ role: "preparer" }).where(eq(user.id, "tally-1"));
    await expectTallies({ clients: 29, year: { total: 29, pendingDocuments: 3 }, earlier: { total: 1 } });
    await getDb().update(user).set({ role: "user" }).where(eq(user.id, "tally-1"));
    await expectTallies({ clients: 30, year: { total: 30, pendingDocuments: 3 }, earlier: { total: 1 } });

    // Removing accounts removes their cases in every year.
    await getDb().execute(sql`delete from "user" where id in ('tally-5', 'tally-9')`);
    await expectTallies({ clients: 28, year: { total: 28, completed: 1 }, earlier: { total: 0 } });

    // Staff accounts are never counted; a name change moves nothing.
    await getDb().update(user).set({ name: "Asha P." }).where(eq(user.id, "staff-1"));
    await getDb().update(user).set({ name: "Renamed Client" }).where(eq(user.id, "tally-2"));
    await expectTallies({ clients: 28, year: { total: 28 } });

    // Merged, each key has one row (none for keys that add up to nothing) and the counts stay.
    const counters = await clientCounters(YEAR);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from case_tallies`))[0]!.n).toBeGreaterThan(12);
    await compactTallies();
    const keys = await rows<{ rows: number; cases: number }>(
      sql`select count(*)::int as rows, sum(cases)::int as cases from case_tallies group by tax_year, current_stage, finalcopies`,
    );
    expect(keys.every((k) => k.rows === 1 && k.cases !== 0)).toBe(true);
    expect(await rows<{ clients: number }>(sql`select clients::int from client_tally`)).toEqual([{ clients: 28 }]);
    expect(await clientCounters(YEAR)).toEqual(counters);
    await expectTallies({ clients: 28, year: { total: 28, completed: 1 }, earlier: { total: 0 } });
    await compactTallies();
    await expectTallies({ clients: 28, year: { total: 28, completed: 1 }, earlier: { total: 0 } });
  });

  it("are counted again from the rows by recount_tallies(), and emptied with their tables", async () => {
    await addClients(1, 12);
    await getDb().execute(sql`update client_cases set current_stage = 'documents' where user_id like 'tally-1%'`);
    const before = await clientCounters(YEAR);
    expect(before.pendingDocuments).toBe(4);
    // Tallies thrown off by hand (as a load without triggers would leave them) are made right.
    await getDb().execute(sql`update case_tallies set cases = cases + 100`);
    await getDb().execute(sql`update client_tally set clients = 0`);
    expect(await countClients()).toBe(0);
    await getDb().execute(sql`select recount_tallies()`);
    expect(await clientCounters(YEAR)).toEqual(before);
    expect(await countClients()).toBe(12);
    await getDb().execute(sql`truncate client_cases cascade`);
    expect(await clientCounters(YEAR)).toEqual({ total: 0, active: 0, pendingDocuments: 0, completed: 0 });
    await getDb().execute(sql`truncate "user" cascade`);
    expect(await countClients()).toBe(0);
    await addClients(1, 3);
    await expectTallies({ clients: 3, year: { total: 3, active: 3 } });
  });

  // Several connections moving cases between the same stages at once, while the tallies are
  // merged: nobody waits for a tally, none deadlocks, nothing is lost or counted twice.
  it.runIf(databaseKind() === "postgres")("stay exact when many transactions move cases at once", async () => {
    await addClients(1, 40);
    const moves = Array.from({ length: 40 }, (_, i) =>
      getDb().transaction(async (tx) => {
        const id = `tally-${i + 1}`;
        await tx.execute(sql`update client_cases set current_stage = ${STAGE_KEYS[i % STAGE_KEYS.length]!} where user_id = ${id}`);
        await tx.execute(sql`update client_cases set current_stage = ${STAGE_KEYS[(i + 3) % STAGE_KEYS.length]!}, finalcopies = ${i % 5 === 0} where user_id = ${id}`);
      }),
    );
    const signups = Array.from({ length: 10 }, (_, i) => addClients(100 + i, 100 + i));
    const merges = Array.from({ length: 4 }, () => compactTallies());
    await Promise.all([...moves, ...signups, ...merges]);
    await expectTallies({ clients: 50, year: { total: 50, pendingDocuments: 5, completed: 8 } });
    await compactTallies();
    await expectTallies({ clients: 50, year: { total: 50, pendingDocuments: 5, completed: 8 } });
  });
});
