import { and, eq, inArray, not, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { newYorkDay } from "~/domain/business-days";
import { STAFF_ROLES } from "~/domain/policy";
import { recordAudit } from "~/server/audit/audit.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { getDb } from "~/server/db/client.server";
import { clientCases, user } from "~/server/db/schema";
import { consentInForceSql } from "./consents.server";

// Staff who work outside the United States (docs/product/engagement.md#staff-outside-the-united-states):
// they reach a client's data only while the client's consent to disclose is in force, and never
// a full SSN or ITIN. Every check reads the database: an admin's change, a withdrawal or the end
// of a consent counts from the next request.

/** What such a staff member is told where a client's consent is missing. */
export const OUTSIDE_US_MESSAGES = Object.freeze({
  noConsent: "This client has not consented to disclose their tax return information to staff who work outside the United States.",
  noReveal: "Staff who work outside the United States never see a full SSN or ITIN.",
  notForOutsideUs: "This part of the panel is not open to staff who work outside the United States.",
  cannotAssign: (name: string) =>
    `${name} works outside the United States, and this client has not consented to disclose their tax return information to them.`,
  marked: (name: string) => `${name} is marked as working outside the United States. They now see only the cases of clients who consented to disclosure.`,
  unmarked: (name: string) => `${name} is marked as working in the United States.`,
});

/**
 * The condition "staff member `staffId` may see the client `clientId` (a column or value)": they
 * do not work outside the United States, or the client's consent to disclose is in force today.
 * The first part names no row of the query, so the database reads it once per query.
 */
export function staffSeesClientSql(staffId: string, clientId: SQL | AnyPgColumn | string, today: string = newYorkDay()): SQL {
  return sql`(not exists (select 1 from "user" os where os.id = ${staffId} and os.works_outside_us) or ${consentInForceSql(clientId, "disclose", today)})`;
}

/** Whether a staff member is marked as working outside the United States. */
export async function worksOutsideUs(staffId: string): Promise<boolean> {
  const [row] = await getDb().select({ outside: user.worksOutsideUs }).from(user).where(eq(user.id, staffId));
  return row?.outside ?? false;
}

/** Whether staff member `staffId` may see client `clientId`'s data now (staffSeesClientSql). */
export async function staffMaySeeClient(staffId: string, clientId: string, now: Date = new Date()): Promise<boolean> {
  const result = (await getDb().execute(sql`select ${staffSeesClientSql(staffId, clientId, newYorkDay(now))} as ok`)) as unknown as {
    rows: Array<{ ok: boolean }>;
  };
  return result.rows[0]?.ok === true;
}

export type OutsideUsOutcome = { outcome: "done"; name: string } | { outcome: "yourself" | "not-found" | "already" };

/**
 * Marks a staff member as working outside the United States, or not (admins only, never their own
 * account), audited in the same transaction. Marked, they are taken off every case whose client's
 * consent to disclose is not in force (each unassignment audited as an assignment change is).
 */
export async function setWorksOutsideUs(admin: SessionUser, staffId: string, outside: boolean, ip: string): Promise<OutsideUsOutcome> {
  if (staffId === admin.id) return { outcome: "yourself" };
  return getDb().transaction(async (tx) => {
    const [target] = await tx
      .select({ id: user.id, name: user.name, email: user.email, role: user.role, outside: user.worksOutsideUs })
      .from(user)
      .where(and(eq(user.id, staffId), inArray(user.role, [...STAFF_ROLES])))
      .for("update");
    if (!target) return { outcome: "not-found" as const };
    if (target.outside === outside) return { outcome: "already" as const };
    await tx.update(user).set({ worksOutsideUs: outside, updatedAt: new Date() }).where(eq(user.id, staffId));
    await recordAudit(
      { actor: admin, action: "staff-location-changed", detail: `${target.email}: ${outside ? "works outside the United States" : "works in the United States"}`, ip },
      tx,
    );
    if (outside) {
      const taken = await tx
        .update(clientCases)
        .set({ assigneeId: null, updatedBy: admin.id, updatedAt: new Date() })
        .where(and(eq(clientCases.assigneeId, staffId), not(consentInForceSql(clientCases.userId, "disclose"))))
        .returning({ clientId: clientCases.userId, taxYear: clientCases.taxYear });
      for (const c of taken)
        await recordAudit(
          { actor: admin, action: "case-assigned", clientId: c.clientId, taxYear: c.taxYear, detail: `assignee: none (${target.email} works outside the United States; no consent to disclose)`, ip },
          tx,
        );
    }
    return { outcome: "done" as const, name: target.name };
  });
}

/**
 * Of `clientIds`, those the active staff member `assigneeId` may not be given: they work outside
 * the United States and the client's consent to disclose is not in force. Read in `db` (the
 * assignment's transaction).
 */
export async function clientsHiddenFrom(
  db: Pick<ReturnType<typeof getDb>, "select">,
  assigneeId: string,
  clientIds: readonly string[],
): Promise<string[]> {
  if (clientIds.length === 0) return [];
  const rows = await db
    .select({ id: user.id })
    .from(user)
    .where(and(inArray(user.id, [...clientIds]), not(staffSeesClientSql(assigneeId, user.id))));
  return rows.map((r) => r.id);
}
