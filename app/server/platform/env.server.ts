import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { isIP, isIPv4 } from "node:net";
import path from "node:path";
import { z } from "zod";
import { ensureDataDir } from "./data-dir.server";

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

/** Express's `trust proxy` setting: all or no proxies, a number of hops, or addresses and ranges. */
export type TrustProxy = boolean | number | string[];

const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** Ones from the left, then zeros only (255.255.0.0), and at least one. */
function isNetmask(mask: string): boolean {
  if (!isIPv4(mask)) return false;
  const bits = mask.split(".").map((octet) => Number(octet).toString(2).padStart(8, "0")).join("");
  return /^1+0*$/.test(bits);
}

/** An address, a CIDR range (10.0.0.0/8, fd00::/8, 10.0.0.0/255.0.0.0) or a named range. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const slash = entry.lastIndexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  if (/^[0-9]+$/.test(range)) return Number(range) >= 1 && Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isNetmask(range);
}

/** TRUST_PROXY as Express takes it, or null when Express would refuse it. */
export function parseTrustProxy(text: string): TrustProxy | null {
  const value = text.trim();
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^[0-9]+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : null;
}

/** S3's rule for bucket names (the ones every S3-compatible store accepts). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

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
  TRUST_PROXY: optionalText.refine((v) => v === undefined || parseTrustProxy(v) !== null, {
    message:
      'must be true, false, a number of hops, or comma-separated addresses, CIDR ranges and "loopback", "linklocal" or "uniquelocal"',
  }),
  // Object storage for documents (README, "Object storage"); unset: DATA_DIR/uploads.
  S3_BUCKET: optionalText.refine((v) => v === undefined || BUCKET_NAME.test(v), {
    message: "must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit",
  }),
  S3_ENDPOINT: optionalUrl(["http:", "https:"]),
  S3_REGION: optionalText.refine((v) => v === undefined || /^[a-z0-9-]{1,64}$/.test(v), {
    message: "must be a region name such as us-east-1 (lowercase letters, digits and hyphens)",
  }),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: optionalText.refine((v) => v === undefined || v === "true" || v === "false", {
    message: "must be true or false",
  }),
  // Card payments through Stripe (README, "Payments"); unset: wire and Zelle only.
  STRIPE_SECRET_KEY: optionalText.refine((v) => v === undefined || /^(sk|rk)_(test|live)_\S+$/.test(v), {
    message: "must be a Stripe secret key (sk_test_..., sk_live_... or a restricted rk_... key)",
  }),
  STRIPE_WEBHOOK_SECRET: optionalText.refine((v) => v === undefined || /^whsec_\S+$/.test(v), {
    message: "must be the webhook endpoint's signing secret (whsec_...)",
  }),
  // Another address for Stripe's API: a local stand-in for tests; never set in production.
  STRIPE_API_URL: optionalUrl(["http:", "https:"]),
});

/** Where documents live when they are kept in an S3-compatible bucket (S3_* variables). */
export type S3Settings = {
  bucket: string;
  region: string;
  /** The store's address; unset: AWS S3 itself for the region. */
  endpoint: string | undefined;
  /** Bucket in the path (`https://host/bucket/key`) rather than in the host name. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (AWS_* variables, a shared profile, an instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
};

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
  /** Which proxies may say who the client is (X-Forwarded-For). */
  trustProxy: TrustProxy;
  /** AES-256 key for SSNs/ITINs, and older keys still accepted for decryption. */
  ssnKey: Buffer;
  ssnPreviousKeys: Buffer[];
  /** The bucket documents are kept in; undefined: DATA_DIR/uploads. */
  s3: S3Settings | undefined;
  /** Card payments through Stripe, when both keys are set; undefined: wire and Zelle only. */
  stripe: StripeSettings | undefined;
};

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API elsewhere (STRIPE_API_URL): a local stand-in in tests. */
  apiUrl: URL | undefined;
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
  ensureDataDir(dataDir);
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
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid configuration: ${problems.join("; ")}.`);
  }
  const e = result.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const isProduction = e.NODE_ENV === "production";
  if ((e.GOOGLE_CLIENT_ID === undefined) !== (e.GOOGLE_CLIENT_SECRET === undefined)) {
    throw new EnvError(
      "Invalid configuration: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither.",
    );
  }
  let authSecret = e.AUTH_SECRET;
  if (authSecret === undefined) {
    if (isProduction && e.DATABASE_URL !== undefined) {
      throw new EnvError(
        "Invalid configuration: AUTH_SECRET is required in production with DATABASE_URL (at least 32 characters).",
      );
    }
    authSecret = keptSecret(dataDir, "auth-secret");
  }
  let ssnKey = e.SSN_ENCRYPTION_KEY;
  if (ssnKey === undefined) {
    if (isProduction && e.DATABASE_URL !== undefined) {
      throw new EnvError(
        "Invalid configuration: SSN_ENCRYPTION_KEY is required in production with DATABASE_URL (32 bytes, base64).",
      );
    }
    ssnKey = keptSecret(dataDir, "ssn-key", 32, "base64");
  }
  const s3 = s3Settings(e);
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
    trustProxy: parseTrustProxy(e.TRUST_PROXY ?? "loopback")!,
    ssnKey: Buffer.from(ssnKey, "base64"),
    ssnPreviousKeys: (e.SSN_ENCRYPTION_PREVIOUS_KEYS ?? "")
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => Buffer.from(k, "base64")),
    s3,
    stripe: stripeSettings(e),
  };
}

/** Stripe's settings: both keys or neither (one alone would take payments it cannot confirm). */
function stripeSettings(e: z.infer<typeof EnvSchema>): StripeSettings | undefined {
  if (e.STRIPE_SECRET_KEY === undefined && e.STRIPE_WEBHOOK_SECRET === undefined) {
    if (e.STRIPE_API_URL !== undefined) throw new EnvError("Invalid configuration: STRIPE_API_URL is set without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.");
    return undefined;
  }
  if (e.STRIPE_SECRET_KEY === undefined || e.STRIPE_WEBHOOK_SECRET === undefined) {
    const missing = e.STRIPE_SECRET_KEY === undefined ? "STRIPE_SECRET_KEY" : "STRIPE_WEBHOOK_SECRET";
    throw new EnvError(
      `Invalid configuration: ${missing} is missing: card payments need both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (the payment is recorded only from the signed webhook); unset both to take wire and Zelle payments only.`,
    );
  }
  return { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : undefined };
}

/**
 * The S3 settings when S3_BUCKET is set. Any other S3_* variable without it stops the start
 * (documents would otherwise go to the local folder while the bucket was meant), and so does a
 * bucket without its region, or one credential without the other.
 */
function s3Settings(e: z.infer<typeof EnvSchema>): S3Settings | undefined {
  const others = (
    ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const
  ).filter((name) => e[name] !== undefined);
  if (e.S3_BUCKET === undefined) {
    if (others.length === 0) return undefined;
    throw new EnvError(
      `Invalid configuration: S3_BUCKET is required with ${others.join(", ")} (the bucket to keep documents in; unset them all to keep documents in DATA_DIR/uploads).`,
    );
  }
  if (e.S3_REGION === undefined) {
    throw new EnvError(
      "Invalid configuration: S3_REGION is required with S3_BUCKET (the bucket's region, e.g. us-east-1; the one your S3-compatible store documents otherwise).",
    );
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    const missing = e.S3_ACCESS_KEY_ID === undefined ? "S3_ACCESS_KEY_ID" : "S3_SECRET_ACCESS_KEY";
    throw new EnvError(
      `Invalid configuration: ${missing} is missing: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY both, or neither to use the AWS SDK's own credentials (an instance or task role).`,
    );
  }
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
    credentials:
      e.S3_ACCESS_KEY_ID !== undefined && e.S3_SECRET_ACCESS_KEY !== undefined
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
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
