import { eq } from "drizzle-orm";
import { localPart } from "~/domain/auth";
import { createAccount } from "~/server/accounts.server";
import { recordAudit } from "~/server/audit.server";
import { createPasswordLink, discardSignupPassword } from "~/server/auth.server";
import { getDb } from "~/server/db/client.server";
import { user } from "~/server/db/schema";

/**
 * Creates a verified admin for `email`, or promotes the existing account, and returns a
 * one-time link (valid 24 hours) to set its password.
 */
export async function createOrPromoteAdmin(email: string): Promise<{ created: boolean; link: string }> {
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
      await tx.update(user).set({ role: "admin", emailVerified: true, updatedAt: new Date() }).where(eq(user.id, id));
    } else {
      id = await createAccount({ name: localPart(address), email: address, role: "admin", emailVerified: true }, tx);
    }
    const detail = existing ? `${address}: ${existing.role} -> admin (admin:create)` : `${address}: admin created (admin:create)`;
    await recordAudit({ actor: null, action: "role-changed", detail }, tx);
    return id;
  });
  return { created: !existing, link: await createPasswordLink(userId, 24) };
}
