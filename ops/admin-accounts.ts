import { eq } from "drizzle-orm";
import { localPart } from "~/domain/auth";
import type { StaffRole } from "~/domain/policy";
import { createAccount } from "~/server/auth/accounts.server";
import { recordAudit } from "~/server/audit/audit.server";
import { createPasswordLink, discardSignupPassword } from "~/server/auth/better-auth.server";
import { getDb } from "~/server/db/client.server";
import { user } from "~/server/db/schema";

/**
 * Creates a verified staff account for `email` (an admin unless `role` says preparer), or gives
 * the existing account that role, and returns a one-time link (valid 24 hours) to set its
 * password.
 */
export async function createOrPromoteAdmin(email: string, role: StaffRole = "admin"): Promise<{ created: boolean; link: string }> {
  const address = email.trim().toLowerCase();
  const db = getDb();
  const [existing] = await db.select().from(user).where(eq(user.email, address));
  // A password typed at a sign-up nobody verified may be anyone's: it goes, and the link sets one.
  if (existing && !existing.emailVerified) await discardSignupPassword(existing.id);
  // The change and its audit entry are stored together.
  const userId = await db.transaction(async (tx) => {
    let id: string;
    if (existing) {
      id = existing.id;
      await tx.update(user).set({ role, emailVerified: true, updatedAt: new Date() }).where(eq(user.id, id));
    } else {
      id = await createAccount({ name: localPart(address), email: address, role, emailVerified: true }, tx);
    }
    const detail = existing ? `${address}: ${existing.role} -> ${role} (admin:create)` : `${address}: ${role} created (admin:create)`;
    await recordAudit({ actor: null, action: "role-changed", detail }, tx);
    return id;
  });
  return { created: !existing, link: await createPasswordLink(userId, 24) };
}
