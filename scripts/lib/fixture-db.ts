// Seeds the database for the load benchmark and the crash test, or reads the seeded clients'
// records back. Runs with the server stopped (PGlite admits one process at a time) and with
// the server's own configuration (DATA_DIR, DATABASE_URL, AUTH_SECRET, SSN_ENCRYPTION_KEY).
//
//   tsx scripts/lib/fixture-db.ts seed --out FILE [--signed-in N] [--records all|even|none]
//                                      [--list-clients N] [--admin] [--preparer] [--preparers N]
//                                      [--case-years Y[,Y...]] [--filing]
//     (--filing: the first signed-in client's case gets the return and the fee, filing-seed.ts;
//     it needs --admin and a record for that client)
//     (--preparers N: N preparers, the first one also the file's `preparer`; --preparer is --preparers 1)
//     (--case-years: the tax year of each signed-in client's case and record, in order, instead
//     of the filing season's; one year applies to every client. Such a client has no case of
//     the filing season's year: what a client of an earlier season looks like before the
//     season's start opens the new year for them)
//   tsx scripts/lib/fixture-db.ts dump --seed FILE --out FILE
//   tsx scripts/lib/fixture-db.ts bulk --out FILE --from N --to M --tag TAG
//     (clients N+1..M made in SQL, see bulk-seed.ts; then VACUUM ANALYZE, the counters' database
//     time, and the sample clients and searches the benchmark uses: BulkFile in fixtures.ts)
import "./scrypt-memo";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { and, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import { clientCode } from "~/domain/admin";
import { currentFilingYear } from "~/domain/tax-year";
import { currentStage, noFlags, STAGE_KEYS } from "~/domain/workflow";
import type { WorkflowFlags } from "~/domain/workflow";
import { validateTaxpayer } from "~/domain/taxpayer";
import type { TaxpayerValues } from "~/domain/taxpayer";
import { createAccount, createAccounts } from "~/server/auth/accounts.server";
import { caseYears, countClientsMatching } from "~/server/clients/list.server";
import { clientCounters, countClients } from "~/server/cases/counters.server";
import { getAuth } from "~/server/auth/better-auth.server";
import { encryptSecret } from "~/server/platform/crypto.server";
import { closeDatabase, databaseKind, getDb, migrateDatabase } from "~/server/db/client.server";
import type { Database } from "~/server/db/client.server";
import { clientCases, session, staffSecondFactor, taxpayerRecords, user } from "~/server/db/schema";
import { staffUnreadTotal } from "~/server/messages/unread.server";
import { getOwnTaxpayerValues, saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { newTotpSecret } from "~/server/auth/totp.server";
import { bulkClientId, bulkSeed, bulkSsn, bulkStagesDone } from "./bulk-seed";
import { seedFiling } from "./filing-seed";
import { FIXTURE_PASSWORD, listClientName, SEARCH_TERM, taxpayerValuesFor } from "./fixtures";
import type { BulkFile, DumpFile, SeedFile } from "./fixtures";

const { positionals, values: options } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    seed: { type: "string" },
    "signed-in": { type: "string", default: "0" },
    records: { type: "string", default: "all" },
    "list-clients": { type: "string", default: "0" },
    admin: { type: "boolean", default: false },
    preparer: { type: "boolean", default: false },
    preparers: { type: "string", default: "0" },
    "case-years": { type: "string" },
    filing: { type: "boolean", default: false },
    from: { type: "string", default: "0" },
    to: { type: "string" },
    tag: { type: "string" },
  },
});

function count(name: "signed-in" | "list-clients" | "preparers" | "from" | "to"): number {
  const n = Number(options[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
}

/**
 * The tax year of each of `clients` signed-in clients' cases (--case-years): the filing
 * season's unless told; one year given applies to all.
 */
function seededCaseYears(clients: number): number[] {
  const season = currentFilingYear();
  const raw = options["case-years"];
  if (raw === undefined) return Array.from({ length: clients }, () => season);
  const years = raw.split(",").map((y) => Number(y.trim()));
  if (years.some((y) => !Number.isInteger(y) || y < 2000 || y > season))
    throw new Error(`--case-years must be tax years from 2000 to ${season}, separated by commas`);
  if (years.length !== 1 && years.length !== clients) throw new Error(`--case-years must give one year, or one per signed-in client (${clients})`);
  return Array.from({ length: clients }, (_, i) => years[years.length === 1 ? 0 : i]!);
}

/** The form's own rules, so that every seeded record is one the app would have accepted. */
function checked(values: TaxpayerValues) {
  const result = validateTaxpayer(values);
  if (!result.ok) throw new Error(`fixture record refused: ${Object.keys(result.errors).join(", ")}`);
  return result.data;
}

/** A verified account with a password, signed in once through Better Auth: its Cookie header. */
async function accountWithSession(
  id: string,
  email: string,
  name: string,
  role: "user" | "admin" | "preparer",
  passwordHash: string,
) {
  const auth = getAuth();
  const ctx = await auth.$context;
  await createAccount({ id, name, email, role, emailVerified: true, visaStatus: role === "user" ? "F-1" : null });
  await ctx.internalAdapter.linkAccount({
    userId: id,
    providerId: "credential",
    accountId: id,
    password: passwordHash,
  });
  const { headers } = await auth.api.signInEmail({
    body: { email, password: FIXTURE_PASSWORD },
    returnHeaders: true,
  });
  const cookie = headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`no session cookie for ${email}`);
  return cookie;
}

/**
 * Gives these clients their case with the given flags (the stage follows from them). The
 * case row may already exist: the database can create it with the account.
 */
async function setCases(
  ids: string[],
  flags: WorkflowFlags,
  assigneeId: string | null,
  tx: Pick<Database, "insert" | "update"> = getDb(),
  taxYear: number = currentFilingYear(),
) {
  if (ids.length === 0) return;
  await tx
    .insert(clientCases)
    .values(ids.map((userId) => ({ userId, taxYear })))
    .onConflictDoNothing();
  await tx
    .update(clientCases)
    .set({ ...flags, currentStage: currentStage(flags), assigneeId })
    .where(and(inArray(clientCases.userId, ids), eq(clientCases.taxYear, taxYear)));
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) {
    results.push(
      ...(await Promise.all(items.slice(start, start + width).map((item, k) => work(item, start + k)))),
    );
  }
  return results;
}

async function seed(out: string): Promise<void> {
  const tag = randomBytes(4).toString("hex");
  const db = getDb();
  const ctx = await getAuth().$context;
  const passwordHash = await ctx.password.hash(FIXTURE_PASSWORD);
  const recordsFor = options.records;
  if (!["all", "even", "none"].includes(recordsFor ?? ""))
    throw new Error("--records must be all, even or none");

  /** A staff account of `role`, enrolled in the second factor, whose session has passed it. */
  const staffWithSession = async (role: "admin" | "preparer", n = 1) => {
    const id = randomUUID();
    // The first of a role keeps its plain address and name; the next ones carry their number.
    const email = `${role}${n > 1 ? n : ""}.${tag}@fixture.taxbridge.test`;
    const name = `${role === "admin" ? "Admin" : "Preparer"}${n > 1 ? ` ${n}` : ""} ${tag}`;
    const cookie = await accountWithSession(id, email, name, role, passwordHash);
    // What enrolment and a passed code leave behind (second-factor.server.ts).
    await db
      .insert(staffSecondFactor)
      .values({
        userId: id,
        secret: encryptSecret(newTotpSecret(), id),
        backupCodes: encryptSecret("[]", id),
        confirmedAt: new Date(),
      });
    await db.update(session).set({ secondFactorAt: new Date() }).where(eq(session.userId, id));
    return { id, email, cookie };
  };
  const admin: SeedFile["admin"] = options.admin ? await staffWithSession("admin") : null;
  const preparers: SeedFile["preparers"] = [];
  for (let n = 1; n <= Math.max(count("preparers"), options.preparer ? 1 : 0); n++) preparers.push(await staffWithSession("preparer", n));
  const preparer: SeedFile["preparer"] = preparers[0] ?? null;

  // Signed-in clients: a session each, and (as asked) record version 0 saved by the app's own function.
  const signedIn = Array.from({ length: count("signed-in") }, (_, i) => i);
  const years = seededCaseYears(signedIn.length);
  const season = currentFilingYear();
  const clients = await inBatches(signedIn, 8, async (i) => {
    const id = randomUUID();
    const email = `client${i}.${tag}@fixture.taxbridge.test`;
    const taxYear = years[i]!;
    // The account comes with the filing season's case (migration 0006); an earlier year's client's
    // case is that one moved to their year, so that they have no case of the filing season.
    const cookie = await accountWithSession(id, email, `Client${i} Fixture`, "user", passwordHash);
    if (taxYear !== season)
      await db
        .update(clientCases)
        .set({ taxYear })
        .where(and(eq(clientCases.userId, id), eq(clientCases.taxYear, season)));
    const withRecord = recordsFor === "all" || (recordsFor === "even" && i % 2 === 0);
    const record = withRecord ? taxpayerValuesFor(i, 0) : null;
    if (record && (await saveTaxpayerRecord(id, checked(record), taxYear)) === "no-case") throw new Error(`client ${i} has no ${taxYear} case for the record`);
    await setCases([id], { ...noFlags, home: true, taxinfo: withRecord }, null, db, taxYear);
    return { id, email, cookie, record, taxYear };
  });

  // The first client's filing with the return and the fee, made as staff and the client would.
  let filing: SeedFile["filing"] = null;
  if (options.filing) {
    const first = clients[0];
    if (!admin || !first?.record) throw new Error("--filing needs --admin and a signed-in client with a record");
    const asUser = (who: { id: string; email: string }, name: string, role: "user" | "admin") => ({ id: who.id, email: who.email, name, role, emailVerified: true, sessionId: "" });
    const year = first.taxYear;
    filing = { clientIndex: 0, taxYear: year, ...(await seedFiling(asUser(first, "Client0 Fixture", "user"), asUser(admin, `Admin ${tag}`, "admin"), year)) };
  }

  // Clients for the admin list: no password, every workflow stage, a record once past TAX INFO.
  const listClientIds: string[] = [];
  const listed = count("list-clients");
  for (let start = 0; start < listed; start += 500) {
    const batch = Array.from({ length: Math.min(500, listed - start) }, (_, k) => start + k);
    const rows = batch.map((i) => {
      const name = listClientName(i);
      const done = i % (STAGE_KEYS.length + 1);
      return {
        i,
        id: randomUUID(),
        name,
        email: `${name.toLowerCase().replace(" ", ".")}.${tag}.${i}@fixture.taxbridge.test`,
        done,
      };
    });
    await db.transaction(async (tx) => {
      await createAccounts(
        rows.map((r) => ({ id: r.id, name: r.name, email: r.email, visaStatus: "H-1B", role: "user", emailVerified: true })),
        tx,
      );
      for (let done = 0; done <= STAGE_KEYS.length; done += 1) {
        for (const assigned of [false, true]) {
          const ids = rows.filter((r) => r.done === done && (r.i % 3 !== 0) === assigned).map((r) => r.id);
          const flags = Object.fromEntries(STAGE_KEYS.map((k, n) => [k, n < done])) as WorkflowFlags;
          await setCases(ids, flags, assigned ? (admin?.id ?? null) : null, tx);
        }
      }
      const withRecord = rows.filter((r) => r.done >= 2);
      if (withRecord.length > 0) {
        await tx.insert(taxpayerRecords).values(
          withRecord.map((r) => {
            const input = checked(taxpayerValuesFor(r.i, 1));
            // The same shape saveTaxpayerRecord stores: the SSN encrypted for its owner.
            return {
              userId: r.id,
              taxYear: currentFilingYear(),
              ...input,
              ssn_tin: encryptSecret(input.ssn_tin, r.id),
              ssn_last4: input.ssn_tin.slice(-4),
            };
          }),
        );
      }
    });
    listClientIds.push(...rows.map((r) => r.id));
  }

  // In service, PostgreSQL's autovacuum analyzes new rows within a minute or so; analyze now so
  // that a run does not depend on when it wakes. The embedded database has no autovacuum: it
  // plans with whatever statistics the app itself leaves.
  if (databaseKind() === "postgres") await db.execute(sql`analyze`);

  const [total] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(user)
    .where(eq(user.role, "user"));
  const needle = `%${SEARCH_TERM}%`;
  const [matches] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(user)
    .where(and(eq(user.role, "user"), or(ilike(user.name, needle), ilike(user.email, needle))));
  const file: SeedFile = {
    clients,
    admin,
    preparer,
    preparers,
    listClientIds,
    filing,
    totalClients: total?.n ?? 0,
    searchMatches: matches?.n ?? 0,
  };
  writeFileSync(out, JSON.stringify(file), { mode: 0o600 });
  console.info(
    `Seeded ${clients.length} signed-in clients, ${listed} listed clients${admin ? ", one admin" : ""}; the list holds ${file.totalClients}.`,
  );
}

async function dump(seedPath: string, out: string): Promise<void> {
  const seeded = JSON.parse(readFileSync(seedPath, "utf8")) as SeedFile;
  const db = getDb();
  const clients: DumpFile["clients"] = [];
  for (const c of seeded.clients) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(taxpayerRecords)
      .where(eq(taxpayerRecords.userId, c.id));
    clients.push({ email: c.email, rows: row?.n ?? 0, values: await getOwnTaxpayerValues(c.id) });
  }
  const file: DumpFile = { clients };
  writeFileSync(out, JSON.stringify(file), { mode: 0o600 });
}

/** The staff the bulk clients' cases are assigned to: three preparers (made once) and every admin. */
async function bulkStaff(tag: string): Promise<string[]> {
  const db = getDb();
  const names = ["Grace Okoro", "Martin Alvarado", "Shalini Rao"];
  // Made by the run's first step; the later steps find them.
  const [made] = await db.select({ id: user.id }).from(user).where(eq(user.id, bulkClientId(`${tag}-staff`, 0)));
  if (!made)
    await createAccounts(
      names.map((name, k) => ({
        id: bulkClientId(`${tag}-staff`, k),
        name,
        email: `${name.toLowerCase().replace(" ", ".")}.${tag}@staff.example.com`,
        role: "preparer" as const,
        emailVerified: true,
      })),
    );
  const rows = await db
    .select({ id: user.id })
    .from(user)
    .where(and(inArray(user.role, ["admin", "preparer"]), isNull(user.deactivatedAt)))
    .orderBy(user.createdAt, user.id);
  return rows.map((r) => r.id);
}

/** `runs` timings of `work` after 3 unmeasured ones: the median and the slowest, in ms. */
async function timed(work: () => Promise<unknown>, runs = 30): Promise<{ p50: number; max: number; runs: number }> {
  for (let k = 0; k < 3; k++) await work();
  const ms: number[] = [];
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    await work();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor((runs - 1) / 2)]!, max: ms[runs - 1]!, runs };
}

async function bulk(out: string, from: number, to: number, tag: string): Promise<void> {
  if (to <= from) throw new Error("--to must be more than --from");
  const db = getDb();
  const taxYear = currentFilingYear();
  const staffIds = await bulkStaff(tag);
  const started = performance.now();
  let lastReport = started;
  const rows = await bulkSeed(db, {
    from,
    to,
    tag,
    taxYear,
    staffIds,
    // PostgreSQL builds the trigram index twice as fast with room for it; the embedded database keeps its own.
    maintenanceMemory: databaseKind() === "postgres" ? "256MB" : undefined,
    onProgress: (done) => {
      if (performance.now() - lastReport < 10_000) return;
      lastReport = performance.now();
      console.info(`  ${done} clients after ${((lastReport - started) / 1000).toFixed(0)} s`);
    },
  });
  const insertSeconds = (performance.now() - started) / 1000;
  // What autovacuum does on its own within a minute or so (PostgreSQL), and what the embedded
  // database's server does at start: statistics for the planner, pages marked all-visible.
  const vacuumStarted = performance.now();
  await db.execute(sql`vacuum analyze`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;

  // Every record made is one the form would have accepted, read back as the app reads it.
  for (const i of [from + 1, Math.floor((from + to) / 2), to]) {
    const values = bulkStagesDone(i) >= 2 ? await getOwnTaxpayerValues(bulkClientId(tag, i), taxYear) : null;
    if (values && values.ssn_tin !== bulkSsn(i)) throw new Error(`client ${i}'s SSN does not read back`);
    if (values) checked(values);
  }

  // The samples the benchmark opens and searches for, with how many clients each search finds.
  const caseIndex = sampleWith(Math.min(to, 10_000), (i) => i % 20 === 0 && bulkStagesDone(i) >= 2 && bulkStagesDone(i) <= 4);
  const client = async (i: number) => {
    const [row] = await db
      .select({ id: user.id, name: user.name, email: user.email, number: clientCases.number })
      .from(user)
      .innerJoin(clientCases, and(eq(clientCases.userId, user.id), eq(clientCases.taxYear, taxYear)))
      .where(eq(user.id, bulkClientId(tag, i)));
    if (!row) throw new Error(`bulk client ${i} is missing`);
    return row;
  };
  const caseClient = await client(caseIndex);
  const uploadClient = await client(1);
  const emailClient = await client(Math.floor(to / 2));
  const codeClient = await client(Math.floor(to / 3));
  const search = async (term: string) => ({ term, matches: await countClientsMatching(term) });
  const lastName = "Tanaka";
  const file: BulkFile = {
    from,
    to,
    taxYear,
    rows,
    insertSeconds,
    vacuumSeconds,
    totalClients: await countClients(),
    counters: {
      clientCounters: await timed(() => clientCounters(taxYear)),
      countClients: await timed(() => countClients()),
      caseYears: await timed(() => caseYears()),
      staffUnreadTotal: await timed(() => staffUnreadTotal()),
    },
    caseClient: { ...caseClient, index: caseIndex },
    uploadClient: { id: uploadClient.id },
    searches: {
      name: await search(lastName),
      email: await search(emailClient.email),
      code: await search(clientCode(codeClient.number)),
    },
    residency: { filter: "nonresident", matches: await countResidency(taxYear, "nonresident") },
  };
  writeFileSync(out, JSON.stringify(file, null, 2), { mode: 0o600 });
  console.info(
    `Made clients ${from + 1} to ${to} in ${insertSeconds.toFixed(1)} s (vacuum analyze ${vacuumSeconds.toFixed(1)} s): ${Object.entries(rows)
      .map(([table, n]) => `${n} ${table}`)
      .join(", ")}.`,
  );
}

/** How many of the year's cases store `status` as their residency (what the list's residency filter keeps). */
async function countResidency(taxYear: number, status: "nonresident"): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(clientCases)
    .where(and(eq(clientCases.taxYear, taxYear), eq(clientCases.residencyStatus, status)));
  return row?.n ?? 0;
}

/** The largest client number up to `max` that `fits`. */
function sampleWith(max: number, fits: (i: number) => boolean): number {
  for (let i = max; i > 0; i--) if (fits(i)) return i;
  throw new Error(`no client up to ${max} fits`);
}

const command = positionals[0];
try {
  if (
    !options.out ||
    (command !== "seed" && command !== "dump" && command !== "bulk") ||
    (command === "dump" && !options.seed) ||
    (command === "bulk" && (!options.to || !options.tag))
  ) {
    console.error(
      "Usage: fixture-db.ts seed --out FILE [options] | dump --seed FILE --out FILE | bulk --out FILE --from N --to M --tag TAG",
    );
    process.exitCode = 2;
  } else {
    await migrateDatabase();
    if (command === "seed") await seed(options.out);
    else if (command === "bulk") await bulk(options.out, count("from"), count("to"), options.tag!);
    else await dump(options.seed!, options.out);
  }
} catch (error) {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  console.error(`fixture-db ${command}:`, error instanceof Error ? error.message : error, cause);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
