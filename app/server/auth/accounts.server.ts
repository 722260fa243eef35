import { randomUUID } from "node:crypto";
import type { Role, VisaStatus } from "~/domain/auth";
import { getDb } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { profiles, user } from "~/server/db/schema";

/** What every new account holds besides its sign-in: its profile (docs/product/accounts.md#sign-up). */
export type AccountDetails = {
  id: string;
  email: string;
  name: string;
  phone?: string | null;
  visaStatus?: VisaStatus | null;
};

export type NewAccount = Omit<AccountDetails, "id"> & {
  /** Given when the caller needs the id before the account exists; a new UUID otherwise. */
  id?: string;
  role: Role;
  /** Whether the address is known to be its holder's (an invitation or a link goes there). */
  emailVerified: boolean;
};

type Executor = Pick<Database, "insert">;

/**
 * The rows every new account gets next to its user row: its profile. (Its workflow case comes
 * from the database itself, for every client account: migration 0006.) Sign-up, where Better
 * Auth writes the user row, calls this for the account it has just created.
 */
export async function createAccountDetails(accounts: readonly AccountDetails[], db: Executor = getDb()): Promise<void> {
  if (accounts.length === 0) return;
  await db
    .insert(profiles)
    .values(
      accounts.map((a) => ({
        id: a.id,
        email: a.email,
        fullName: a.name,
        phone: a.phone ?? null,
        visaStatus: a.visaStatus ?? null,
      })),
    )
    .onConflictDoNothing();
}

/**
 * Creates accounts with no way to sign in yet (a password comes through a one-time link, or a
 * caller links one): the user rows and their profiles, all or none. Pass a transaction as `db`
 * to make them part of a larger change. E-mail addresses are stored in lower case.
 */
export async function createAccounts(accounts: readonly NewAccount[], db: Pick<Database, "transaction"> = getDb()): Promise<string[]> {
  if (accounts.length === 0) return [];
  const rows = accounts.map((a) => ({ ...a, id: a.id ?? randomUUID(), email: a.email.trim().toLowerCase() }));
  await db.transaction(async (tx) => {
    await tx
      .insert(user)
      .values(rows.map((r) => ({ id: r.id, name: r.name, email: r.email, emailVerified: r.emailVerified, role: r.role })));
    await createAccountDetails(rows, tx);
  });
  return rows.map((r) => r.id);
}

/** One account (see createAccounts); returns its id. */
export async function createAccount(account: NewAccount, db: Pick<Database, "transaction"> = getDb()): Promise<string> {
  const [id] = await createAccounts([account], db);
  return id!;
}
