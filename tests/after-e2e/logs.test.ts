import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { E2E_STRIPE_KEYS, e2eServers } from "../e2e/servers";
import { PASSWORD } from "../e2e/support";
import { readOutbox } from "../helpers/outbox";
import type { OutboxMail } from "../helpers/outbox";

// Runs after the browser tests (scripts/test.js): everything the browser tests' servers printed
// (one log each, written by scripts/e2e-server.js; tests/e2e/servers.ts) must be free of
// passwords, SSNs, tokens, keys and e-mail bodies. What to look for comes from that run itself:
// the specs' passwords, the outboxes it wrote, and the servers' databases (opened here once the
// servers have stopped). A secret of one server is looked for in every log.

const servers = e2eServers.map((s) => ({ logFile: s.logFile, dataDir: path.resolve(s.dataDir) }));

type Secret = { kind: string; value: string };

/** A secret as a failure message may show it: its kind and its last three characters. */
const describeSecret = (s: Secret) => `${s.kind} (…${s.value.slice(-3)})`;

/**
 * Passwords the specs type or post: PASSWORD, and the literals given to password fields,
 * `password:` form values and signIn(). Shorter ones ("x", "short") are words a log may hold.
 */
function specPasswords(): string[] {
  const found = new Set<string>([PASSWORD]);
  const patterns = [
    /name="(?:password|confirmPassword)"[^;\n]*?\.fill\("([^"]+)"\)/g,
    /\b(?:password|confirmPassword):\s*"([^"]+)"/g,
    /\bsignIn\([^,\n]+,[^,\n]+,\s*"([^"]+)"/g,
  ];
  for (const file of readdirSync("tests/e2e").filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(path.join("tests/e2e", file), "utf8");
    for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.add(m[1]!);
  }
  return [...found].filter((p) => p.length >= 8);
}

/** Values of the links in a message that work as keys: long query values and path segments. */
function tokensIn(mail: OutboxMail): string[] {
  const tokens: string[] = [];
  for (const [link] of mail.text.matchAll(/https?:\/\/[^\s<>"')]+/g)) {
    const url = new URL(link);
    for (const value of url.searchParams.values())
      if (/^[A-Za-z0-9_.~-]{16,}$/.test(value)) tokens.push(value);
    for (const segment of url.pathname.split("/"))
      if (/^[A-Za-z0-9_.-]{24,}$/.test(segment)) tokens.push(segment);
  }
  return tokens;
}

/** The lines of a message's body long enough to be its own (the subject is logged on purpose). */
function bodyLines(mail: OutboxMail): string[] {
  return mail.text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length >= 30 && !mail.subject.includes(line));
}

/** Every secret a server's database holds: SSNs, session tokens, password hashes, staff TOTP secrets, Google tokens. */
async function databaseSecrets(dataDir: string): Promise<{ secrets: Secret[]; ssns: number }> {
  process.env.DATA_DIR = dataDir;
  process.env.DATABASE_URL = "";
  // The configuration and the database client are read once per module instance: fresh ones per folder.
  vi.resetModules();
  const { closeDatabase, getDb } = await import("~/server/db/client.server");
  const { decryptSecret } = await import("~/server/platform/crypto.server");
  const { account, session, staffSecondFactor, taxpayerRecords, verification } =
    await import("~/server/db/schema");
  const db = getDb();
  const secrets: Secret[] = [];
  try {
    const records = await db
      .select({ userId: taxpayerRecords.userId, ssn: taxpayerRecords.ssn_tin })
      .from(taxpayerRecords);
    for (const r of records) {
      const ssn = decryptSecret(r.ssn, r.userId);
      secrets.push(
        { kind: "an SSN a client saved", value: ssn },
        { kind: "an SSN a client saved", value: ssn.replace(/\D/g, "") },
      );
      secrets.push({ kind: "an encrypted SSN", value: r.ssn });
    }
    for (const s of await db.select({ token: session.token }).from(session))
      secrets.push({ kind: "a session token", value: s.token });
    for (const v of await db
      .select({ identifier: verification.identifier, value: verification.value })
      .from(verification)) {
      const token = v.identifier.split(":").at(-1)!;
      if (token.length >= 16) secrets.push({ kind: "a verification token", value: token });
    }
    for (const a of await db.select().from(account)) {
      for (const [kind, value] of [
        ["a password hash", a.password],
        ["an access token", a.accessToken],
        ["a refresh token", a.refreshToken],
        ["an ID token", a.idToken],
      ] as const) {
        if (value) secrets.push({ kind, value });
      }
    }
    for (const f of await db.select().from(staffSecondFactor)) {
      secrets.push({ kind: "a staff authenticator secret", value: decryptSecret(f.secret, f.userId) });
      const codes = JSON.parse(decryptSecret(f.backupCodes, f.userId)) as unknown;
      if (Array.isArray(codes))
        for (const code of codes)
          if (typeof code === "string") secrets.push({ kind: "a backup code", value: code });
    }
    return { secrets, ssns: records.length };
  } finally {
    await closeDatabase();
  }
}

let log = "";
const mails: OutboxMail[] = [];
const fromDatabase: { secrets: Secret[]; ssns: number } = { secrets: [], ssns: 0 };
/** The servers' key files (auth-secret, ssn-key), each as a secret. */
const keys: Secret[] = [];
/** The servers whose log shows that they started and served. */
let started = 0;

beforeAll(async () => {
  const logs: string[] = [];
  for (const server of servers) {
    const text = existsSync(server.logFile) ? readFileSync(server.logFile, "utf8") : "";
    if (/TaxBridge is listening on /.test(text)) started += 1;
    logs.push(text);
    mails.push(...readOutbox(server.dataDir));
    const found = await databaseSecrets(server.dataDir);
    fromDatabase.secrets.push(...found.secrets);
    fromDatabase.ssns += found.ssns;
    for (const name of ["auth-secret", "ssn-key"]) {
      const file = path.join(server.dataDir, name);
      if (existsSync(file)) keys.push({ kind: `the server's ${name}`, value: readFileSync(file, "utf8").trim() });
    }
  }
  log = logs.join("\n");
}, 120_000);

afterAll(() => {
  delete process.env.DATA_DIR;
});

/** Where each secret appears in the log, as "line N: kind (…abc)". */
function leaks(secrets: Secret[]): string[] {
  const lines = log.split("\n");
  const found: string[] = [];
  for (const secret of secrets) {
    const at = lines.findIndex((line) => line.includes(secret.value));
    if (at >= 0) found.push(`line ${at + 1}: ${describeSecret(secret)}`);
  }
  return [...new Set(found)];
}

describe("the browser tests' server log", () => {
  it("is this run's log: the server started and logged every e-mail it wrote to the outbox", () => {
    expect(
      started,
      `${servers.map((s) => s.logFile).join(", ")}: a log is empty or missing: were the servers started by scripts/e2e-server.js?`,
    ).toBe(servers.length);
    expect(
      mails.length,
      "the browser tests sent no e-mail, so the checks below would prove nothing",
    ).toBeGreaterThan(0);
    const unlogged = mails
      .filter((m) => !log.includes(path.basename(m.file)))
      .map((m) => path.basename(m.file));
    expect(unlogged).toEqual([]);
  });

  it("holds none of the passwords the browser tests used", () => {
    const passwords = specPasswords();
    expect(passwords).toContain(PASSWORD);
    expect(leaks(passwords.map((value) => ({ kind: "a password from the specs", value })))).toEqual([]);
  });

  it("holds no SSN: neither one a client saved nor anything shaped like one", () => {
    expect(
      fromDatabase.ssns,
      "no client saved an SSN in the browser tests, so this would prove nothing",
    ).toBeGreaterThan(0);
    expect(leaks(fromDatabase.secrets.filter((s) => s.kind.includes("SSN")))).toEqual([]);
    const shaped = log
      .split("\n")
      .flatMap((line, i) =>
        [...line.matchAll(/(?<![\w-])\d{3}-?\d{2}-?\d{4}(?![\w-])/g)].map(
          (m) => `line ${i + 1}: …${m[0].slice(-3)}`,
        ),
      );
    expect(shaped).toEqual([]);
  });

  it("holds no token: none from the e-mailed links, no session token, key or authenticator secret", () => {
    const fromMail = mails.flatMap((m) =>
      tokensIn(m).map((value) => ({ kind: `a token e-mailed as "${m.subject}"`, value })),
    );
    expect(fromMail.length, "no e-mail carried a token, so this would prove nothing").toBeGreaterThan(0);
    expect(keys).toHaveLength(2 * servers.length);
    const others = fromDatabase.secrets.filter((s) => !s.kind.includes("SSN"));
    const stripeKeys = [
      { kind: "the Stripe secret key", value: E2E_STRIPE_KEYS.secretKey },
      { kind: "the Stripe webhook signing secret", value: E2E_STRIPE_KEYS.webhookSecret },
    ];
    expect(leaks([...fromMail, ...keys, ...others, ...stripeKeys])).toEqual([]);
    expect(log).not.toMatch(/session_token=/);
  });

  it("holds no e-mail body", () => {
    const lines = mails.flatMap((m) =>
      bodyLines(m).map((value) => ({ kind: `a line of the e-mail "${m.subject}"`, value })),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(leaks(lines)).toEqual([]);
  });
});
