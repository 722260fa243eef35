import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const optionalUrl = (protocols: string[]) =>
  optionalText.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}` },
  );

const optionalEmail = optionalText.refine((v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), {
  message: "must be an e-mail address",
});

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: optionalText,
  DATA_DIR: optionalText.default("./data"),
  DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
  APP_URL: optionalUrl(["http:", "https:"]),
  SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
  MAIL_FROM: optionalText,
  STAFF_EMAIL: optionalEmail,
  ADMIN_EMAIL: optionalEmail,
  AUTH_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, {
    message: "must be at least 32 characters",
  }),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  SSN_ENCRYPTION_KEY: optionalText.refine((v) => v === undefined || Buffer.from(v, "base64").length === 32, {
    message: "must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)",
  }),
  SSN_ENCRYPTION_PREVIOUS_KEYS: optionalText.refine(
    (v) => v === undefined || v.split(",").every((k) => Buffer.from(k.trim(), "base64").length === 32),
    { message: "must be a comma-separated list of 32-byte base64 keys" },
  ),
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  secureCookies: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  staffEmail: string;
  adminEmail: string | undefined;
  authSecret: string;
  google: { clientId: string; clientSecret: string } | undefined;
  rateLimitScale: number;
  /** AES-256 key for SSNs/ITINs, and older keys still accepted for decryption. */
  ssnKey: Buffer;
  ssnPreviousKeys: Buffer[];
};

export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvError";
  }
}

/** Reads a secret kept in DATA_DIR, creating it (mode 0600) the first time. */
function keptSecret(dataDir: string, name: string, bytes = 32, encoding: BufferEncoding = "base64url"): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(bytes).toString(encoding);
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(file, "utf8").trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const isProduction = e.NODE_ENV === "production";
  if ((e.GOOGLE_CLIENT_ID === undefined) !== (e.GOOGLE_CLIENT_SECRET === undefined)) {
    throw new EnvError(
      "Invalid configuration:\n  GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both or neither",
    );
  }
  let authSecret = e.AUTH_SECRET;
  if (authSecret === undefined) {
    if (isProduction && e.DATABASE_URL !== undefined) {
      throw new EnvError(
        "Invalid configuration:\n  AUTH_SECRET: required in production with DATABASE_URL (at least 32 characters)",
      );
    }
    authSecret = keptSecret(dataDir, "auth-secret");
  }
  let ssnKey = e.SSN_ENCRYPTION_KEY;
  if (ssnKey === undefined) {
    if (isProduction && e.DATABASE_URL !== undefined) {
      throw new EnvError(
        "Invalid configuration:\n  SSN_ENCRYPTION_KEY: required in production with DATABASE_URL (32 bytes, base64)",
      );
    }
    ssnKey = keptSecret(dataDir, "ssn-key", 32, "base64");
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appUrl,
    secureCookies: appUrl.startsWith("https:"),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "TaxBridge <no-reply@taxbridge.example>",
    staffEmail: e.STAFF_EMAIL ?? "support@taxbridge.example",
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    authSecret,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    ssnKey: Buffer.from(ssnKey, "base64"),
    ssnPreviousKeys: (e.SSN_ENCRYPTION_PREVIOUS_KEYS ?? "")
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => Buffer.from(k, "base64")),
  };
}

let cached: Env | undefined;

/** The validated configuration, read once per process. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** For tests that change the environment between cases. */
export function resetEnvForTests(): void {
  cached = undefined;
}
