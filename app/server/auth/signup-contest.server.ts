import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "~/server/db/client.server";
import * as schema from "~/server/db/schema";
import { getEnv } from "~/server/platform/env.server";

// The sign-up contest: an address that nobody has verified yet may be signed up for more than
// once, by anyone. Such an account is marked contested, and verifying it keeps none of the
// passwords typed at sign-up (better-auth.server.ts has whoever opened the link choose one).

const contestedId = (userId: string) => `contested-signup:${userId}`;

/**
 * Records that an account not verified yet was signed up for again. The server cannot tell
 * which sign-up came from the owner of the address, so none of their passwords is kept.
 */
async function markContested(userId: string): Promise<void> {
  const db = getDb();
  const [known] = await db
    .select({ id: schema.verification.id })
    .from(schema.verification)
    .where(eq(schema.verification.identifier, contestedId(userId)));
  if (known) return;
  // The mark stays until the address is verified; any date far beyond a link's life will do.
  await db.insert(schema.verification).values({
    id: randomUUID(),
    identifier: contestedId(userId),
    value: userId,
    expiresAt: new Date(Date.now() + 10 * 365 * 24 * 60 * 60 * 1000),
  });
}

/**
 * Called before every sign-up: when the address already has an account that is not verified
 * yet, the account becomes contested. Its sign-up passwords then all stop counting at
 * verification (see mustChoosePassword).
 */
export async function noteSignUp(email: string): Promise<void> {
  const [existing] = await getDb()
    .select({ id: schema.user.id, emailVerified: schema.user.emailVerified })
    .from(schema.user)
    .where(eq(schema.user.email, email.toLowerCase()));
  if (existing && !existing.emailVerified) await markContested(existing.id);
}

/**
 * Whether verifying this account must discard the sign-up password and have whoever opened
 * the e-mailed link choose one: the account was signed up for more than once, or it is the
 * designated administrator's address (whose sign-up password may be anyone's).
 */
export async function mustChoosePassword(user: { id: string; email: string }): Promise<boolean> {
  const adminEmail = getEnv().adminEmail;
  if (adminEmail && user.email.toLowerCase() === adminEmail.toLowerCase()) return true;
  const [mark] = await getDb()
    .select({ id: schema.verification.id })
    .from(schema.verification)
    .where(eq(schema.verification.identifier, contestedId(user.id)));
  return Boolean(mark);
}

/** Ends the contest once the address is verified: the mark goes with it. */
export async function endContest(userId: string): Promise<void> {
  await getDb()
    .delete(schema.verification)
    .where(eq(schema.verification.identifier, contestedId(userId)));
}
