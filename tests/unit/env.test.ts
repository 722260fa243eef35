import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/env.server";

const dir = () => mkdtempSync(path.join(tmpdir(), "taxbridge-env-"));

describe("configuration", () => {
  it("uses the documented defaults", () => {
    const dataDir = dir();
    const env = parseEnv({ DATA_DIR: dataDir });
    expect(env.port).toBe(3000);
    expect(env.appUrl).toBe("http://localhost:3000");
    expect(env.databaseUrl).toBeUndefined();
    expect(env.secureCookies).toBe(false);
  });

  it("generates the auth secret once and keeps it in DATA_DIR with mode 0600", () => {
    const dataDir = dir();
    const first = parseEnv({ DATA_DIR: dataDir }).authSecret;
    const second = parseEnv({ DATA_DIR: dataDir }).authSecret;
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("stops with a message naming the variable when a value is wrong", () => {
    expect(() => parseEnv({ DATA_DIR: dir(), PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATA_DIR: dir(), DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ DATA_DIR: dir(), APP_URL: "localhost" })).toThrow(/APP_URL/);
    expect(() => parseEnv({ DATA_DIR: dir(), SMTP_URL: "http://mail" })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ DATA_DIR: dir(), STAFF_EMAIL: "staff" })).toThrow(/STAFF_EMAIL/);
    expect(() => parseEnv({ DATA_DIR: dir(), GOOGLE_CLIENT_ID: "id" })).toThrow(/GOOGLE_CLIENT_SECRET/);
  });

  it("requires AUTH_SECRET in production on PostgreSQL", () => {
    expect(() =>
      parseEnv({ DATA_DIR: dir(), NODE_ENV: "production", DATABASE_URL: "postgres://db/app" }),
    ).toThrow(/AUTH_SECRET/);
  });

  it("marks cookies secure when APP_URL is https", () => {
    expect(parseEnv({ DATA_DIR: dir(), APP_URL: "https://tax.example/" })).toMatchObject({
      appUrl: "https://tax.example",
      secureCookies: true,
    });
  });
});
