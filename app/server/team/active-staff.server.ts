import { and, inArray, isNull } from "drizzle-orm";
import type { StaffMember } from "~/domain/admin";
import { STAFF_ROLES } from "~/domain/policy";
import { getDb } from "~/server/db/client.server";
import { user } from "~/server/db/schema";

/**
 * The active staff, by name: who a case can be assigned to, and whose names the panel shows.
 * A deactivated member's cases show as unassigned and cannot be given to them.
 */
export async function listStaff(): Promise<StaffMember[]> {
  return getDb()
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(and(inArray(user.role, [...STAFF_ROLES]), isNull(user.deactivatedAt)))
    .orderBy(user.name);
}
