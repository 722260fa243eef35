import { format } from "node:util";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONTACT_MESSAGES } from "~/domain/contact";
import { AUTH_MESSAGES } from "~/domain/auth";
import { TAXPAYER_MESSAGES } from "~/domain/taxpayer";
import { action as loginAction } from "~/routes/auth/login";
import { action as logoutAction } from "~/routes/auth/logout";
import { action as contactAction } from "~/routes/marketing/contact";
import pg from "pg";
import { databaseKind, getDb } from "~/server/db/client.server";
import { formRequest, routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { signedInClient, withCookie } from "./helpers";

// Run behind the root's and the portal layout's middleware, as the server runs it.
const { action: dashboardAction } = await routeModule("routes/portal/taxpayer-information.tsx");

// When the database fails mid-request, the server log says where and why (a code), and never
// what the request carried: no session token, password, SSN, message text or e-mail address.

let captured: string[] = [];

beforeEach(() => {
  captured = [];
  const keep = (...args: unknown[]) => void captured.push(format(...args));
  for (const method of ["error", "warn", "info", "log", "debug"] as const)
    vi.spyOn(console, method).mockImplementation(keep);
  for (const stream of [process.stdout, process.stderr])
    vi.spyOn(stream, "write").mockImplementation((chunk: unknown) => {
      captured.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
      return true;
    });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `fn` while `table` is renamed away, so every query on it fails; the name is put back after. */
async function withTableMissing<T>(table: string, fn: () => Promise<T>): Promise<T> {
  await getDb().execute(sql.raw(`alter table "${table}" rename to "${table}_away"`));
  try {
    return await fn();
  } finally {
    await getDb().execute(sql.raw(`alter table "${table}_away" rename to "${table}"`));
  }
}

/** The secrets found in what was written to the console, by name. */
function leaked(secrets: Record<string, string>): string[] {
  const text = captured.join("\n");
  return Object.entries(secrets)
    .filter(([, value]) => text.includes(value))
    .map(([name]) => name);
}

/** Records every row Better Auth inserts, to learn the session token it made up. */
function watchInserts(): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  const db = getDb();
  const insert = db.insert.bind(db);
  vi.spyOn(db, "insert").mockImplementation(((table: Parameters<typeof insert>[0]) => {
    const builder = insert(table);
    const values = builder.values.bind(builder);
    builder.values = ((value: Record<string, unknown>) => {
      rows.push(value);
      return values(value as never);
    }) as typeof builder.values;
    return builder;
  }) as typeof db.insert);
  return rows;
}

async function signIn(email: string, password: string) {
  const result = await loginAction(
    routeArgs(formRequest("/login", { email, password }), { clientIp: "198.51.100.7" }) as never,
  );
  return result instanceof Response
    ? { status: result.status, body: {} }
    : unwrap<{ error?: string }>(result);
}

describe("server log when the database fails", () => {
  it("sign-in: logs the scope and a code, never the new session token, the password or the address", async () => {
    const email = "leak-check@example.com";
    const password = "Sup3r secret passphrase";
    await signedInClient(email, password);
    const inserted = watchInserts();
    const answer = await withTableMissing("session", () => signIn(email, password));
    expect(answer).toMatchObject({ status: 500, body: { error: AUTH_MESSAGES.loginFailed } });
    const token = inserted.map((row) => row.token).find((t): t is string => typeof t === "string");
    expect(token, "the sign-in never tried to store a session").toBeDefined();
    expect(leaked({ token: token!, password, email })).toEqual([]);
    expect(captured.join("\n")).toMatch(/\[auth\].*42P01/);
  });

  it("sign-out: logs the scope and a code, never the session token of the cookie", async () => {
    const client = await signedInClient("leaving@example.com");
    const token = decodeURIComponent(client.cookie.split("=")[1]!).split(".")[0]!;
    expect(token.length).toBeGreaterThanOrEqual(32);
    const response = await withTableMissing("session", () =>
      logoutAction(routeArgs(withCookie("/logout", client.cookie, { method: "POST" })) as never),
    );
    expect(response.status).toBe(302);
    expect(leaked({ token, email: "leaving@example.com" })).toEqual([]);
    expect(captured.join("\n")).toMatch(/\[auth\].*42P01/);
  });

  it("contact: logs the scope, the code and the query's table, never the message, name or address", async () => {
    const message = {
      name: "Wilhelmina Quarterstone",
      email: "wilhelmina@example.com",
      phone: "212 555 0123",
      subject: "Private question",
      description: "My confidential income from the Zurich account is 48,213 francs a year.",
    };
    const answer = unwrap<{ formError?: string }>(
      await withTableMissing("contact_messages", async () =>
        contactAction(routeArgs(formRequest("/contact", message)) as never),
      ),
    );
    expect(answer.status).toBe(500);
    expect(answer.body.formError).toBe(CONTACT_MESSAGES.sendFailed);
    expect(
      leaked({
        description: message.description,
        name: message.name,
        email: message.email,
        phone: message.phone,
      }),
    ).toEqual([]);
    expect(captured.join("\n")).toMatch(/\[contact\].*42P01.*insert into "contact_messages"/);
  });

  it("taxpayer save: logs the scope and a code, never the SSN or any other answer", async () => {
    const client = await signedInClient("ssn-owner@example.com");
    const record = {
      ...sampleTaxpayer,
      ssn_tin: "219-09-9999",
      current_mailing_address: "77 Quiet Lane, Apt 4",
    };
    const answer = unwrap<{ formError?: string }>(
      await withTableMissing("taxpayer_records", async () =>
        dashboardAction(
          routeArgs(
            withCookie("/dashboard", client.cookie, { method: "POST", body: new URLSearchParams(record) }),
          ) as never,
        ),
      ),
    );
    expect(answer.status).toBe(500);
    expect(answer.body.formError).toBe(TAXPAYER_MESSAGES.saveFailed);
    expect(
      leaked({
        ssn: record.ssn_tin,
        ssnDigits: "219099999",
        address: record.current_mailing_address,
        email: "ssn-owner@example.com",
      }),
    ).toEqual([]);
    // Nor the number as stored (encrypted), nor its last four digits.
    expect(captured.join("\n")).not.toMatch(/v1\.[\w-]+\.[\w-]+\./);
    expect(captured.join("\n")).not.toMatch(/\b9999\b/);
    expect(captured.join("\n")).toMatch(
      /\[portal\] could not save taxpayer record \(code 42P01, query insert into "taxpayer_records"\)/,
    );
  });

  it.runIf(process.env.DATABASE_URL && databaseKind() === "postgres")(
    "PostgreSQL ending idle connections (a restart): one line per connection, by code",
    async () => {
      await getDb().execute(sql`select 1`);
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        );
      } finally {
        await admin.end();
      }
      await expect.poll(() => captured.length).toBeGreaterThan(0);
      expect(new Set(captured)).toEqual(new Set(["[db] idle client error (code 57P01)"]));
      await getDb().execute(sql`select 1`);
    },
  );
});
