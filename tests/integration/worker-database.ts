// On PostgreSQL (DATABASE_URL set), each Vitest worker of the integration project has a database
// of its own on the same server, so that test files may run in parallel the way they do on PGlite
// (where each file has its own data folder): DATABASE_URL's database name with "_w<worker>" added
// (e.g. test_w1, test_w2). The database named by DATABASE_URL itself is only used to connect and
// create them. setup.ts creates its worker's on first use, and the file's migrations fill it;
// global-setup.ts empties those an earlier run left before a run starts.
import pg from "pg";

const SUFFIX = "_w";

function nameOf(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\//, ""));
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The address of worker `poolId`'s database (VITEST_POOL_ID, 1 to the number of workers). */
export function workerDatabaseUrl(baseUrl: string, poolId: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${encodeURIComponent(`${nameOf(url)}${SUFFIX}${poolId}`)}`;
  return url.toString();
}

async function withAdmin<T>(baseUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** Creates worker `poolId`'s database when it does not exist yet; returns its address. */
export async function ensureWorkerDatabase(baseUrl: string, poolId: string): Promise<string> {
  const url = workerDatabaseUrl(baseUrl, poolId);
  const name = nameOf(new URL(url));
  await withAdmin(baseUrl, async (admin) => {
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount !== 0) return;
    try {
      await admin.query(`create database ${quoted(name)}`);
    } catch (error) {
      // 42P04: created meanwhile (by another run sharing DATABASE_URL): it is there, which is all we need.
      if ((error as { code?: string }).code !== "42P04") throw error;
    }
  });
  return url;
}

/**
 * Empties every worker database of DATABASE_URL's database left by an earlier run (no table, no
 * migration applied), so that this run migrates them afresh. Emptied rather than dropped: a
 * dropped database costs PostgreSQL a checkpoint, seconds on a busy server.
 */
export async function emptyWorkerDatabases(baseUrl: string): Promise<void> {
  const base = nameOf(new URL(baseUrl));
  const { rows } = await withAdmin(baseUrl, (admin) =>
    admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
      `${(base + SUFFIX).replace(/[\\%_]/g, "\\$&")}%`,
    ]),
  );
  for (const { datname } of rows) {
    const poolId = datname.slice(base.length + SUFFIX.length);
    if (!datname.startsWith(base + SUFFIX) || !/^\d+$/.test(poolId)) continue;
    await withAdmin(workerDatabaseUrl(baseUrl, poolId), (db) =>
      db.query("drop schema if exists drizzle cascade; drop schema public cascade; create schema public"),
    );
  }
}
