import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { localPart } from "~/domain/auth";
import { recordAudit } from "./audit.server";
import { createPasswordLink, discardSignupPassword } from "./auth.server";
import { getDb } from "./db/client.server";
import { profiles, user } from "./db/schema";

/**
 * Creates a verified admin for `email`, or promotes the existing account, and returns a
 * one-time link (valid 24 hours) to set its password.
 */
export async function createOrPromoteAdmin(email: string): Promise<{ created: boolean; link: string }> {
  const address = email.trim().toLowerCase();
  const db = getDb();
  const [existing] = await db.select().from(user).where(eq(user.email, address));
  let userId: string;
  if (existing) {
    userId = existing.id;
    // A password typed at a sign-up nobody verified may be anyone's: it goes, and the link sets one.
    if (!existing.emailVerified) await discardSignupPassword(userId);
    await db.update(user).set({ role: "admin", emailVerified: true, updatedAt: new Date() }).where(eq(user.id, userId));
  } else {
    userId = randomUUID();
    await db.transaction(async (tx) => {
      await tx.insert(user).values({ id: userId, name: localPart(address), email: address, emailVerified: true, role: "admin" });
      await tx.insert(profiles).values({ id: userId, email: address, fullName: localPart(address) });
    });
  }
  await recordAudit({
    actor: null,
    action: "role-changed",
    detail: existing ? `${address}: ${existing.role} -> admin (admin:create)` : `${address}: admin created (admin:create)`,
  });
  return { created: !existing, link: await createPasswordLink(userId, 24) };
}
