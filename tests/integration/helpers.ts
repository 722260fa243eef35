import { createAccount } from "~/server/auth/accounts.server";
import { getAuth } from "~/server/auth/better-auth.server";
import { getDb } from "~/server/db/client.server";
import { user } from "~/server/db/schema";
import { outboxSettled } from "~/server/mail/outbox.server";
import { readOutbox } from "../helpers/outbox";
import type { OutboxMail } from "../helpers/outbox";

/**
 * The messages written to `dataDir`/outbox (the development transport), once every e-mail handed
 * to the outbox so far has been tried: e-mails go out after the call that queued them returns.
 */
export async function sentMail(dataDir = process.env.DATA_DIR!): Promise<OutboxMail[]> {
  await outboxSettled();
  return readOutbox(dataDir);
}

/**
 * A password's hash, made once per test file: accounts with the same password share it (each
 * hash costs a deliberately slow scrypt; signing in with it is checked as with any other).
 */
const hashes = new Map<string, Promise<string>>();
async function passwordHash(password: string): Promise<string> {
  const ctx = await getAuth().$context;
  if (!hashes.has(password)) hashes.set(password, ctx.password.hash(password));
  return hashes.get(password)!;
}

/** A verified client with a live session; returns the user id and the Cookie header. */
export async function signedInClient(email: string, password = "a good password 1"): Promise<{ id: string; cookie: string }> {
  const auth = getAuth();
  const ctx = await auth.$context;
  const id = await createAccount({ name: email.split("@")[0]!, email, role: "user", emailVerified: true });
  await ctx.internalAdapter.linkAccount({ userId: id, providerId: "credential", accountId: id, password: await passwordHash(password) });
  const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  const cookie = headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { id, cookie };
}

export function withCookie(url: string, cookie: string, init: RequestInit = {}): Request {
  return new Request(`http://localhost:3000${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } });
}

/** Makes a signed-in user staff with a confirmed second factor passed on this session. */
export async function makeStaff(member: { id: string }, role: "admin" | "preparer" = "admin"): Promise<{ secret: string }> {
  const { encryptSecret } = await import("~/server/platform/crypto.server");
  const { newTotpSecret } = await import("~/server/auth/totp.server");
  const { session, staffSecondFactor } = await import("~/server/db/schema");
  const { eq } = await import("drizzle-orm");
  const secret = newTotpSecret();
  await getDb().update(user).set({ role }).where(eq(user.id, member.id));
  await getDb()
    .insert(staffSecondFactor)
    .values({ userId: member.id, secret: encryptSecret(secret, member.id), backupCodes: encryptSecret("[]", member.id), confirmedAt: new Date() });
  await getDb().update(session).set({ secondFactorAt: new Date() }).where(eq(session.userId, member.id));
  return { secret };
}

/** A signed-in client (client@example.com) and a signed-in admin whose session has passed the second factor (staff@example.com). */
export async function clientAndStaff(): Promise<{ client: { id: string; cookie: string }; staff: { id: string; cookie: string } }> {
  const client = await signedInClient("client@example.com");
  const staff = await signedInClient("staff@example.com");
  await makeStaff(staff);
  return { client, staff };
}
