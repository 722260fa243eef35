import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import express from "express";
import { describe, expect, it } from "vitest";
import { parseEnv, parseTrustProxy } from "~/server/platform/env.server";
import { tempDirs } from "../helpers/temp-dirs";

const dir = tempDirs("taxbridge-env-");

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

  it("stops in one line naming TRUST_PROXY when Express would refuse it", () => {
    expect(() => parseEnv({ DATA_DIR: dir(), TRUST_PROXY: "my-proxy" })).toThrow(
      'Invalid configuration: TRUST_PROXY: must be true, false, a number of hops, or comma-separated addresses, CIDR ranges and "loopback", "linklocal" or "uniquelocal".',
    );
    expect(() => parseEnv({ DATA_DIR: dir(), TRUST_PROXY: "my-proxy" })).not.toThrow(/\n/);
  });

  it("gives Express the parsed TRUST_PROXY, loopback by default", () => {
    expect(parseEnv({ DATA_DIR: dir() }).trustProxy).toEqual(["loopback"]);
    expect(parseEnv({ DATA_DIR: dir(), TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(parseEnv({ DATA_DIR: dir(), TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(parseEnv({ DATA_DIR: dir(), TRUST_PROXY: " 10.0.0.1 , uniquelocal" }).trustProxy).toEqual([
      "10.0.0.1",
      "uniquelocal",
    ]);
  });

  it("accepts for TRUST_PROXY exactly what Express accepts", () => {
    const accepted = [
      "loopback",
      "linklocal, uniquelocal",
      "127.0.0.1",
      "10.0.0.0/8",
      "10.0.0.0/255.0.0.0",
      "::1",
      "fd00::/8",
      "::ffff:10.0.0.1",
      "loopback,203.0.113.7/32",
      "0",
      "3",
      "true",
      "false",
    ];
    const refused = [
      "proxy.example.com",
      "Loopback",
      "10.0.0.0/0",
      "10.0.0.0/33",
      "fd00::/129",
      "10.0.0.0/255.0.255.0",
      "fd00::/ffff::",
      "10.0.0.1,",
      "10.0.0.256",
      "yes",
      "-1",
    ];
    // What Express itself does with the value parseTrustProxy hands it (it throws on a bad one).
    const expressTakes = (value: string) => {
      const parsed = parseTrustProxy(value);
      if (parsed === null) return false;
      express().set("trust proxy", parsed);
      return true;
    };
    const expressTakesRaw = (value: string) => {
      try {
        express().set("trust proxy", value);
        return true;
      } catch {
        return false;
      }
    };
    for (const value of accepted) expect(expressTakes(value), value).toBe(true);
    for (const value of refused) {
      expect(parseTrustProxy(value), value).toBeNull();
      expect(expressTakesRaw(value), value).toBe(false);
    }
  });
});
