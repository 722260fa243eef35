import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { currentFilingYear } from "~/domain/tax-year";
import { getDb } from "~/server/db/client.server";
import { clientCases } from "~/server/db/schema";
import { saveHistory } from "~/server/residency/history.server";
import { caseResidency } from "~/server/residency/outcome.server";
import { refreshResidency, staleResidencyClients } from "~/server/residency/refresh.server";
import { feeCast } from "../helpers/fees";
import { IP } from "../helpers/returns";
import type { Account } from "../helpers/returns";
import { personInput } from "../helpers/residency";

// The stored residency is computed again once a day when a stay is still open (it counts up to
// today), and once a new calendar year began (docs/product/residency.md).

const Y = currentFilingYear();
let a: Account;
let b: Account;

beforeEach(async () => {
  ({ a, b } = await feeCast());
});

const worker = (name: string, departure: string | null) => ({
  people: [
    personInput({
      name,
      periods: [{ status: "H-1B", category: null, from: `${Y}-10-01`, to: null }],
      stays: [{ arrival: `${Y}-10-01`, departure, transit: false, source: "typed" }],
    }),
  ],
});

/** Says the case was last computed at `at` (a New York time). */
async function computedAt(clientId: string, at: string) {
  await getDb()
    .update(clientCases)
    .set({ residencyComputedAt: sql`${at}::timestamptz` })
    .where(and(eq(clientCases.userId, clientId), eq(clientCases.taxYear, Y)));
}

const presentIn = async (who: Account) => (await caseResidency(who.actor, who.id, Y))?.outcome?.[0]?.table[0].present;

describe("the daily refresh of stored residency", () => {
  it("computes again a client with a stay still open, on a later day; not one whose stays are closed, until a new year", async () => {
    expect(await saveHistory(a.actor, a.id, worker("Ana Open", null), IP, `${Y}-12-15`)).toEqual({ ok: true });
    expect(await saveHistory(b.actor, b.id, worker("Bo Closed", `${Y}-11-30`), IP, `${Y}-12-15`)).toEqual({ ok: true });
    expect(await presentIn(a)).toBe(76);
    expect(await presentIn(b)).toBe(61);
    await computedAt(a.id, `${Y}-12-15 12:00 America/New_York`);
    await computedAt(b.id, `${Y}-12-15 12:00 America/New_York`);

    expect(await staleResidencyClients(`${Y}-12-15`)).toEqual([]);
    expect(await staleResidencyClients(`${Y}-12-20`)).toEqual([a.id]);
    expect(await refreshResidency(`${Y}-12-20`)).toBe(1);
    expect(await presentIn(a)).toBe(81);
    // Computed now: not again today.
    expect(await staleResidencyClients(`${Y}-12-20`)).not.toContain(a.id);

    // A new calendar year: every case computed before it is computed again.
    await computedAt(a.id, `${Y}-12-20 12:00 America/New_York`);
    expect((await staleResidencyClients(`${Y + 1}-01-02`)).sort()).toEqual([a.id, b.id].sort());
  });
});
