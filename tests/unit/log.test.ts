import { DrizzleQueryError } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleError } from "~/entry.server";
import { authLogger, describeError, logError, plainWords, queryName, routeOf } from "~/log";

// What a failed query, a full disk or a lost connection looks like by the time it is caught.
const SECRET_TOKEN = "R18HGEtUmzZb6Mjuemxpnkc10nnBceFh";
const SSN = "219-09-9999";
const pgError = (code: string, message: string) =>
  Object.assign(new Error(message), { name: "error", code, severity: "FATAL" });
const failedQuery = (query: string, params: unknown[], cause: Error) =>
  new DrizzleQueryError(query, params, cause);

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  for (const method of ["error", "warn", "info", "log"] as const)
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
    );
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("describeError", () => {
  it("gives a failed query's SQLSTATE, verb and table, never its text or parameters", () => {
    const error = failedQuery(
      `select "id", "token" from "session" where "session"."token" = $1`,
      [SECRET_TOKEN],
      pgError("57P01", "terminating connection due to administrator command"),
    );
    expect(error.message).toContain(SECRET_TOKEN);
    expect(describeError(error)).toBe('code 57P01, query select from "session"');
  });

  it("names inserts, updates and deletes by their table, quoted or not", () => {
    const cause = pgError("53100", "could not extend file: No space left on device");
    expect(
      queryName(
        failedQuery(
          `insert into "contact_messages" ("name", "description") values ($1, $2)`,
          ["Ana", "My income"],
          cause,
        ),
      ),
    ).toBe('insert into "contact_messages"');
    expect(
      queryName(
        failedQuery(
          "\n    insert into rate_limits (key, count, reset_at)\n    values ($1, 1, now())",
          ["sign-in:ana@example.com"],
          cause,
        ),
      ),
    ).toBe('insert into "rate_limits"');
    expect(
      queryName(
        failedQuery(`update "taxpayer_records" set "ssn_tin" = $1 where "user_id" = $2`, [SSN, "u1"], cause),
      ),
    ).toBe('update "taxpayer_records"');
    expect(
      queryName(failedQuery(`delete from "public"."session" where "token" = $1`, [SECRET_TOKEN], cause)),
    ).toBe('delete from "public"."session"');
    expect(queryName(failedQuery("vacuum analyze", [], cause))).toBe("vacuum");
    expect(queryName(failedQuery(`'${SSN}'`, [], cause))).toBe("query");
    expect(queryName(new Error("no query"))).toBeNull();
  });

  it("gives Node's errno name for system errors, walking causes and an AggregateError's errors", () => {
    const full = Object.assign(
      new Error(`ENOSPC: no space left on device, write '/data/uploads/${SSN}.pdf'`),
      { code: "ENOSPC", errno: -28 },
    );
    expect(describeError(full)).toBe("code ENOSPC");
    expect(describeError(new Error("wrapped", { cause: full }))).toBe("code ENOSPC");
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: "ECONNREFUSED" });
    expect(describeError(new AggregateError([refused("::1"), refused("127.0.0.1")], "connect failed"))).toBe(
      "AggregateError, code ECONNREFUSED",
    );
  });

  it("says only the class of an error without a code, and nothing of a value that is not an error", () => {
    expect(describeError(new TypeError(`Cannot read properties of undefined (reading '${SSN}')`))).toBe(
      "TypeError",
    );
    expect(describeError(`password was ${SECRET_TOKEN}`)).toBe("unknown error");
    expect(describeError(Object.assign(new Error("x"), { code: "ana@example.com" }))).toBe("unknown error");
  });
});

describe("logError", () => {
  it("writes one line: scope, what failed, and what describeError tells", () => {
    logError(
      "contact",
      "could not store message",
      failedQuery(
        `insert into "contact_messages" ("description") values ($1)`,
        ["My secret"],
        pgError("53100", "disk full"),
      ),
    );
    expect(lines).toEqual([
      '[contact] could not store message (code 53100, query insert into "contact_messages")',
    ]);
  });
});

describe("routeOf", () => {
  it("keeps a path's words and hides ids, tokens and the query string", () => {
    expect(
      routeOf(`http://localhost:3000/api/auth/reset-password/${SECRET_TOKEN}?callbackURL=%2Freset`),
    ).toBe("/api/auth/reset-password/:value");
    // The spouse's signing link: its token is the key to the page.
    expect(routeOf(`http://localhost:3000/sign/${SECRET_TOKEN}`)).toBe("/sign/:value");
    expect(routeOf(`http://localhost:3000/sign/${SECRET_TOKEN}/form`)).toBe("/sign/:value/form");
    expect(
      routeOf("http://localhost:3000/admin/clients/0b7c6a1e-6f0e-4a43-9c1f-2b1d3c4e5f60/documents"),
    ).toBe("/admin/clients/:value/documents");
    expect(routeOf("http://localhost:3000/login?email=ana%40example.com")).toBe("/login");
    expect(routeOf("http://localhost:3000/admin/clients.csv?q=Ana")).toBe("/admin/clients.csv");
    expect(routeOf("http://localhost:3000/")).toBe("/");
  });
});

describe("plainWords", () => {
  it("keeps a message's leading words and drops a word a value cuts short", () => {
    expect(plainWords("Better auth was unable to query your database.\nError: ")).toBe(
      "Better auth was unable to query your database",
    );
    expect(plainWords("Invalid origin: https://evil.example")).toBe("Invalid origin");
    expect(plainWords("ana@example.com could not sign in")).toBe("");
    expect(plainWords("User ana.smith not found")).toBe("User");
    expect(plainWords(`Provider ${"x".repeat(100)}`)).toBe("Provider");
    expect(plainWords("y".repeat(100))).toBe("");
  });
});

describe("the auth library's logger", () => {
  it("logs the level, the message's plain words and each error's codes, never the error's text", () => {
    const error = failedQuery(
      `insert into "session" ("token") values ($1)`,
      [SECRET_TOKEN],
      pgError("42P01", 'relation "session" does not exist'),
    );
    authLogger.log("error", "Failed to create session", error);
    authLogger.log("error", `Invalid redirect URL: https://evil.example/?token=${SECRET_TOKEN}`);
    authLogger.log("warn", "OAuth issuer mismatch", {
      expected: "https://accounts.google.com",
      received: SECRET_TOKEN,
    });
    authLogger.log("error", "account_not_linked");
    authLogger.log("error", `Google sign-in rejected: id token hosted domain (hd) "${SECRET_TOKEN}"`);
    authLogger.log("error", `${SECRET_TOKEN} was refused`);
    expect(lines).toEqual([
      '[auth] error: Failed to create session (code 42P01, query insert into "session")',
      "[auth] error: Invalid redirect URL",
      "[auth] warn: OAuth issuer mismatch",
      "[auth] error: account_not_linked",
      "[auth] error: Google sign-in rejected",
      "[auth] error: auth library message",
    ]);
  });
});

describe("handleError (errors of loaders, actions and rendering)", () => {
  it("logs the method, the path's words and the error's codes, nothing the request carried", () => {
    const request = new Request(
      `http://localhost:3000/api/auth/reset-password/${SECRET_TOKEN}?email=ana%40example.com`,
      { method: "POST" },
    );
    const error = failedQuery(
      `update "taxpayer_records" set "ssn_tin" = $1`,
      [SSN],
      pgError("57P01", "terminating connection"),
    );
    handleError(error, { request, params: {}, context: {} } as never);
    expect(lines).toEqual([
      '[server] POST /api/auth/reset-password/:value failed (code 57P01, query update "taxpayer_records")',
    ]);
  });

  it("says nothing of a request the visitor abandoned", () => {
    const controller = new AbortController();
    controller.abort();
    handleError(new Error("aborted"), {
      request: new Request("http://localhost:3000/", { signal: controller.signal }),
      params: {},
      context: {},
    } as never);
    expect(lines).toEqual([]);
  });
});
