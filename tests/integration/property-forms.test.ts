// Property-based tests of every form's server action: random and hostile input (very long
// strings, control characters, HTML and script, SQL fragments, numbers and JSON as text,
// missing, extra and repeated fields, bodies that are not forms at all) never ends in a 500 or
// an exception, is refused with field messages when invalid without storing anything, and is
// stored exactly as the validation rules say when accepted.
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { checkClientDetails, checkNewPassword, checkSignup, safeRedirect, VISA_STATUSES } from "~/domain/auth";
import { CONTACT_FIELDS, validateContact } from "~/domain/contact";
import { cleanFileName, DOCUMENT_CATEGORIES } from "~/domain/documents";
import { currentFilingYear } from "~/domain/tax-year";
import { checkUpload } from "~/server/documents/upload-check.server";
import { emptyResidencyValues, RESIDENCY_FIELDS, validateResidency, VISA_CATEGORIES } from "~/domain/residency";
import type { ResidencyValues } from "~/domain/residency";
import { FILING_STATUSES, TAXPAYER_FIELDS, TIME_ZONES, VISA_TYPES, validateTaxpayer } from "~/domain/taxpayer";
import { STAGE_KEYS } from "~/domain/workflow";
import { action as authApiAction } from "~/routes/api/auth";
import { action as loginAction } from "~/routes/auth/login";
import { action as logoutAction } from "~/routes/auth/logout";
import { action as resetAction } from "~/routes/auth/reset-password";
import { action as signupAction } from "~/routes/auth/signup";
import { action as residencyAction } from "~/routes/tools/residency-calculator";
import { action as contactAction, HONEYPOT_FIELD } from "~/routes/marketing/contact";
import { createPasswordLink, getAuth } from "~/server/auth/better-auth.server";
import { decryptSecret } from "~/server/platform/crypto.server";
import { getDb } from "~/server/db/client.server";
import {
  account,
  clientCases,
  contactMessages,
  documents,
  profiles,
  session,
  staffSecondFactor,
  taxpayerRecords,
  user,
  verification,
} from "~/server/db/schema";
import { saveUploads } from "~/server/documents/upload.server";
import { resetEnvForTests } from "~/server/platform/env.server";
import { getOwnTaxpayerValues, saveTaxpayerRecord } from "~/server/cases/taxpayer.server";
import { matchTotp, timeStep, totpAt } from "~/server/auth/totp.server";
import { routeArgs, routeModule, unwrap } from "../helpers/route";
import { sampleTaxpayer } from "../helpers/taxpayer";
import { makeStaff, signedInClient } from "./helpers";

// The signed-in routes run behind the root's and their layouts' middleware, as the server runs them.
const { action: dashboardAction } = await routeModule("routes/admin/dashboard.tsx");
const { action: documentsAction } = await routeModule("routes/admin/client-documents.tsx");
const { action: uploadAction } = await routeModule("routes/admin/document-upload.ts");
const { action: messagesAction } = await routeModule("routes/admin/messages.tsx");
const { action: setupAction, loader: setupLoader } = await routeModule("routes/admin/security/setup.tsx");
const { action: verifyAction } = await routeModule("routes/admin/security/verify.tsx");
const { action: taxpayerAction } = await routeModule("routes/portal/taxpayer-information.tsx");

const RUNS = 60;
// Each property makes hundreds of calls; the default 30 s is for single examples. A failure's
// shrinking is cut short after two minutes (the smallest example found so far is reported).
vi.setConfig({ testTimeout: 240_000 });
fc.configureGlobal({ interruptAfterTimeLimit: 120_000 });

// The per-address limits are not what is tested here: a 429 must not pass for a validation answer.
beforeAll(() => {
  process.env.RATE_LIMIT_SCALE = "100000";
  resetEnvForTests();
});
afterAll(() => {
  process.env.RATE_LIMIT_SCALE = "1";
  resetEnvForTests();
});

let ipCounter = 0;
/** A new documentation-range address for each call. */
function nextIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

// ---------------------------------------------------------------------------------------------
// Input

const HOSTILE = [
  "<script>alert(1)</script>",
  `"><img src=x onerror=alert(1)>`,
  "</textarea><svg onload=alert(1)>",
  `'; DROP TABLE "user";--`,
  "' OR '1'='1' --",
  "1); SELECT pg_sleep(10);--",
  "\u0000",
  "a\u0000b",
  "\u0007\u0008\u001b[31m\u007f",
  "\r\n\r\nX-Injected: 1",
  "\t",
  "   ",
  "",
  "null",
  "undefined",
  "true",
  "false",
  "0",
  "-1",
  "1e309",
  "NaN",
  "[]",
  "{}",
  `{"__proto__":{"role":"admin"}}`,
  "../../../etc/passwd",
  "%00%0d%0a",
  "\u202e\u200b\ufeff",
  "😀👍🏽",
  "ß ü é ñ 中文 العربية",
  "\ud800",
  "${7*7}{{7*7}}",
  "------------------------------------",
  "/\u2028",
  "/😀",
  "//evil.example",
];

/** 10,000 to 100,000 characters of one hostile seed. */
const longText = fc
  .tuple(fc.constantFrom(...HOSTILE.filter((s) => s.length > 0), "x"), fc.integer({ min: 10_000, max: 100_000 }))
  .map(([seed, n]) => seed.repeat(Math.ceil(n / seed.length)).slice(0, n));

/** Text that does not compress: too long for an index entry once stored. */
const longIncompressible = fc
  .array(fc.integer({ min: 0x21, max: 0xd7ff }), { minLength: 3_000, maxLength: 6_000 })
  .map((codes) => String.fromCharCode(...codes));

const controlChars = fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 12 });

/** Anything a browser (or a script) could put in a form field. */
const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 120 }) },
  { weight: 1, arbitrary: controlChars },
  { weight: 1, arbitrary: longText },
  { weight: 1, arbitrary: longIncompressible },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? "null") },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean()).map(String) },
);

/** The longest start of `s` of at most `max` UTF-16 units that does not cut a character in two. */
function clip(s: string, max: number): string {
  let out = "";
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** Printable text with HTML, SQL and non-Latin script mixed in, trimmed and free of control characters. */
function plainText(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }),
        fc.constantFrom("<script>alert(1)</script>", `"><img src=x>`, `'; DROP TABLE "user";--`, "Zoë", "中文", "😀", " & ", "%00"),
      ),
      { minLength: 1, maxLength: 12 },
    )
    .map((parts) => clip(parts.join(" ").replace(/\p{Cc}/gu, "").trim(), max).trim())
    .filter((s) => s.length >= min);
}

type Pairs = Array<[string, string]>;

const EXTRA_NAMES = ["id", "userId", "user_id", "role", "emailVerified", "__proto__", "constructor", "ssn_last4", "createdAt", "admin"];

/**
 * A form built from `fields`: each one plausible, hostile, missing or sent twice; then a few
 * extra fields the form does not have.
 */
function formOf(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Pairs> {
  const one = ([name, plausible]: [string, fc.Arbitrary<string>]): fc.Arbitrary<Pairs> =>
    fc.oneof(
      { weight: 5, arbitrary: plausible.map((v): Pairs => [[name, v]]) },
      { weight: 3, arbitrary: hostile.map((v): Pairs => [[name, v]]) },
      { weight: 1, arbitrary: fc.constant<Pairs>([]) },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.oneof(plausible, hostile), fc.oneof(plausible, hostile)).map(([a, b]): Pairs => [
          [name, a],
          [name, b],
        ]),
      },
    );
  const extras = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_NAMES), fc.string({ maxLength: 12 })), hostile), { maxLength: 3 });
  return fc.tuple(fc.tuple(...Object.entries(fields).map(one)), extras).map(([parts, extra]) => [...parts.flat(), ...extra]);
}

const encoding = fc.constantFrom("urlencoded", "multipart") as fc.Arbitrary<"urlencoded" | "multipart">;

function formPost(url: string, pairs: Pairs, how: "urlencoded" | "multipart", cookie = ""): Request {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  let body: URLSearchParams | FormData;
  if (how === "urlencoded") body = new URLSearchParams(pairs);
  else {
    body = new FormData();
    for (const [k, v] of pairs) body.append(k, v);
  }
  return new Request(`http://localhost:3000${url}`, { method: "POST", body, headers });
}

/** What the action itself will read: the request's form, parsed the same way. */
async function formSeen(request: Request): Promise<{ get(name: string): string; getAll(name: string): string[] }> {
  const form = await request.clone().formData();
  return {
    get: (name) => {
      const v = form.get(name);
      return typeof v === "string" ? v : "";
    },
    getAll: (name) => form.getAll(name).filter((v): v is string => typeof v === "string"),
  };
}

// ---------------------------------------------------------------------------------------------
// Outcome of one call

type Outcome = { status: number; body: Record<string, unknown>; location: string | null };

function isDataWithInit(value: unknown): boolean {
  return Boolean(value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit");
}

async function responseBody(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Calls an action as the server would. A thrown Response (redirect or 4xx) is an answer; any
 * other exception escapes and fails the property.
 */
async function outcome(call: () => Promise<unknown>): Promise<Outcome> {
  let result: unknown;
  try {
    result = await call();
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: await responseBody(thrown), location: thrown.headers.get("location") };
    if (isDataWithInit(thrown)) {
      const u = unwrap<Record<string, unknown>>(thrown);
      return { status: u.status, body: u.body ?? {}, location: null };
    }
    throw thrown;
  }
  if (result instanceof Response) return { status: result.status, body: await responseBody(result), location: result.headers.get("location") };
  const u = unwrap<Record<string, unknown>>(result);
  return { status: u.status, body: u.body ?? {}, location: u.headers.get("location") };
}

async function rows(table: PgTable): Promise<number> {
  const [row] = await getDb().select({ n: count() }).from(table);
  return row?.n ?? 0;
}

const COUNTED = { user, account, session, verification, profiles, contactMessages, taxpayerRecords, clientCases, documents, staffSecondFactor };

/** Row counts of every table a form can write to (the audit trail and rate counters aside), in one query. */
async function snapshot(): Promise<Record<keyof typeof COUNTED, number>> {
  const parts = Object.entries(COUNTED).map(([name, table]) => sql`(select count(*) from ${table})::int as ${sql.identifier(name)}`);
  const result = await getDb().execute(sql`select ${sql.join(parts, sql`, `)}`);
  return (result as unknown as { rows: Array<Record<keyof typeof COUNTED, number>> }).rows[0]!;
}

function expectNoServerError(o: Outcome): void {
  expect(o.status, JSON.stringify(o.body).slice(0, 300)).toBeLessThan(500);
}

/** A redirect target a browser can follow that stays on this site. */
function expectSafeLocation(location: string | null): void {
  expect(location).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
}

const args = (request: Request, params: Record<string, string> = {}) => ({ ...routeArgs(request, { clientIp: nextIp() }), params }) as never;

// ---------------------------------------------------------------------------------------------

describe("contact form", () => {
  const fields = {
    name: plainText(1, 100),
    email: fc.emailAddress(),
    phone: fc.constantFrom("", "212 555 0199", "+1 (212) 555-0199", "+91 98765 43210"),
    subject: plainText(1, 150),
    description: plainText(10, 500),
  };

  it("answers every submission without a server error; refusals carry field messages and store nothing", async () => {
    const honeypot = fc.option(fc.oneof(fc.constant(""), hostile), { freq: 6 });
    await fc.assert(
      fc.asyncProperty(formOf(fields), honeypot, encoding, async (pairs, trap, how) => {
        const all: Pairs = trap === null ? pairs : [...pairs, [HONEYPOT_FIELD, trap]];
        const request = formPost("/contact", all, how);
        const seen = await formSeen(request);
        const before = await snapshot();
        const o = await outcome(() => contactAction(args(request)));
        expectNoServerError(o);
        const after = await snapshot();
        if (seen.get(HONEYPOT_FIELD).trim() !== "") {
          expect(o.status).toBe(200);
          expect(after).toEqual(before);
          return;
        }
        const checked = validateContact(Object.fromEntries(CONTACT_FIELDS.map((f) => [f, seen.get(f)])));
        if (!checked.ok) {
          expect(o.status).toBe(400);
          expect(o.body.errors).toEqual(checked.errors);
          expect(Object.keys(checked.errors).length).toBeGreaterThan(0);
          expect(after).toEqual(before);
          return;
        }
        expect(o.status).toBe(200);
        expect(after).toEqual({ ...before, contactMessages: before.contactMessages + 1 });
        const [stored] = await getDb().select().from(contactMessages).where(eq(contactMessages.email, checked.data.email)).orderBy(contactMessages.createdAt);
        expect({ name: stored?.name, email: stored?.email, phone: stored?.phone, subject: stored?.subject, description: stored?.description }).toEqual(
          checked.data,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("stores a valid message with HTML, SQL and any script in it exactly as sent", async () => {
    await fc.assert(
      fc.asyncProperty(fields.name, fields.subject, fields.description, fc.uuid(), async (name, subject, description, id) => {
        const email = `c${id.slice(0, 8)}@example.com`;
        const sent = { name, email, phone: "", subject, description };
        const o = await outcome(() => contactAction(args(formPost("/contact", Object.entries(sent), "urlencoded"))));
        expect(o.status).toBe(200);
        const found = await getDb().select().from(contactMessages).where(eq(contactMessages.email, email));
        expect(found.map((r) => ({ name: r.name, email: r.email, phone: r.phone ?? "", subject: r.subject, description: r.description }))).toContainEqual(sent);
      }),
      { numRuns: 30 },
    );
  });
});

describe("sign-up form", () => {
  let unique = 0;
  const fields = {
    intent: fc.constantFrom("signup"),
    fullName: plainText(1, 100),
    email: fc.constantFrom("(new address)"),
    phone: fc.constantFrom("", "+1 212 555 0100", "(212) 555-0100"),
    visaStatus: fc.constantFrom(...VISA_STATUSES),
    password: fc.string({ unit: "grapheme", minLength: 8, maxLength: 40 }),
    acceptTerms: fc.constantFrom("on"),
  };

  it("creates an account only for a valid form, exactly as entered, and nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(formOf(fields), fc.boolean(), encoding, async (pairs, confirmSame, how) => {
        // The plausible address is made unique for each run, so an account is really created.
        unique += 1;
        const withEmail = pairs.map(([k, v]): [string, string] => [k, v === "(new address)" ? `new${unique}@example.com` : v]);
        const password = withEmail.find(([k]) => k === "password")?.[1] ?? "";
        const all: Pairs = [...withEmail, ["confirmPassword", confirmSame ? password : `${password}!`]];
        const request = formPost("/signup", all, how);
        const seen = await formSeen(request);
        const before = await snapshot();
        const o = await outcome(() => signupAction(args(request)));
        expectNoServerError(o);
        const after = await snapshot();
        const checked = checkSignup({
          fullName: seen.get("fullName"),
          email: seen.get("email"),
          phone: seen.get("phone"),
          visaStatus: seen.get("visaStatus"),
          password: seen.get("password"),
          confirmPassword: seen.get("confirmPassword"),
          acceptTerms: seen.get("acceptTerms") === "on",
        });
        if (seen.get("intent") === "google" || !checked.ok) {
          expect(o.status).toBe(400);
          expect(o.body.error).toEqual(expect.any(String));
          if (!checked.ok && seen.get("intent") !== "google") expect(o.body).toMatchObject({ field: checked.field, error: checked.message });
          expect(after).toEqual(before);
          return;
        }
        const [existing] = await getDb().select().from(user).where(eq(user.email, checked.data.email));
        if (o.status !== 200) {
          // Only the auth library's stricter e-mail rule may still refuse a valid-looking form.
          expect(o.body).toMatchObject({ field: "email" });
          expect(after).toEqual(before);
          return;
        }
        expect(existing).toBeDefined();
        if (after.user === before.user) return; // the address already had an account: nothing new
        expect(after).toMatchObject({ user: before.user + 1, account: before.account + 1, profiles: before.profiles + 1 });
        const [profile] = await getDb().select().from(profiles).where(eq(profiles.id, existing!.id));
        expect({ name: existing!.name, role: existing!.role, verified: existing!.emailVerified }).toEqual({ name: checked.data.fullName, role: "user", verified: false });
        expect({ fullName: profile?.fullName, phone: profile?.phone ?? null, visaStatus: profile?.visaStatus }).toEqual({
          fullName: checked.data.fullName,
          phone: checked.data.phone,
          visaStatus: checked.data.visaStatus,
        });
      }),
      { numRuns: 40 },
    );
  });
});

describe("sign-in, forgotten password and resend", () => {
  it("signs in only with the right password, never errors, and redirects only within the site", async () => {
    const person = await signedInClient("person@example.com", "right password 1");
    const fields = {
      intent: fc.constantFrom("signin", "forgot", "resend"),
      email: fc.oneof(fc.constantFrom("person@example.com", "  PERSON@example.com ", "nobody@example.com", "zoë@example.com"), fc.emailAddress()),
      password: fc.constantFrom("right password 1", "wrong password 1"),
      remember: fc.constantFrom("on", ""),
      redirectTo: fc.oneof(fc.constantFrom("/my-tax-filing", "/dashboard?x=1", "", "/"), fc.string({ unit: "binary", maxLength: 20 }).map((s) => `/${s}`)),
    };
    await fc.assert(
      fc.asyncProperty(formOf(fields), encoding, async (pairs, how) => {
        const request = formPost("/login", pairs, how);
        const seen = await formSeen(request);
        const before = await snapshot();
        const o = await outcome(() => loginAction(args(request)));
        expectNoServerError(o);
        const after = await snapshot();
        const intent = seen.get("intent") || "signin";
        const rightPerson = seen.get("email").trim().toLowerCase() === "person@example.com" && seen.get("password") === "right password 1";
        if (!["google", "forgot", "resend"].includes(intent) && rightPerson) {
          expect(o.status).toBe(302);
          expectSafeLocation(o.location);
          expect(o.location).toBe(safeRedirect(seen.get("redirectTo"), "/dashboard"));
          expect(after.session).toBe(before.session + 1);
          return;
        }
        expect(after.session).toBe(before.session);
        expect(after.user).toBe(before.user);
        expect(after.account).toBe(before.account);
        if (o.status >= 400) expect(o.body.error).toEqual(expect.any(String));
        else expect(o.body.info).toEqual(expect.any(String));
      }),
      { numRuns: RUNS },
    );
    const [stored] = await getDb().select().from(user).where(eq(user.id, person.id));
    expect(stored?.email).toBe("person@example.com");
  });
});

describe("reset-password form", () => {
  it("changes the password only with a valid link and a valid new password", async () => {
    const person = await signedInClient("reset@example.com", "old password 1");
    const passwordOf = async () => (await getDb().select({ p: account.password }).from(account).where(eq(account.userId, person.id)))[0]?.p;
    const fields = {
      intent: fc.constantFrom("", "request"),
      email: fc.oneof(fc.constantFrom("reset@example.com", "nobody@example.com", "zoë@example.com"), fc.emailAddress()),
      token: fc.constantFrom("(fresh link)", "expired-or-made-up"),
      password: fc.string({ unit: "grapheme", minLength: 8, maxLength: 40 }),
    };
    await fc.assert(
      fc.asyncProperty(formOf(fields), fc.boolean(), encoding, async (pairs, confirmSame, how) => {
        let withToken: Pairs = pairs;
        if (pairs.some(([, v]) => v === "(fresh link)")) {
          const link = new URL(await createPasswordLink(person.id, 1));
          const token = link.searchParams.get("token")!;
          withToken = pairs.map(([k, v]): [string, string] => [k, v === "(fresh link)" ? token : v]);
        }
        const password = withToken.find(([k]) => k === "password")?.[1] ?? "";
        const request = formPost("/reset-password", [...withToken, ["confirmPassword", confirmSame ? password : `${password}?`]], how);
        const seen = await formSeen(request);
        const hashBefore = await passwordOf();
        const before = await snapshot();
        const o = await outcome(() => resetAction(args(request)));
        expectNoServerError(o);
        const after = await snapshot();
        if (seen.get("intent") === "request") {
          expect(await passwordOf()).toBe(hashBefore);
          expect(after.user).toBe(before.user);
          return;
        }
        const problem = checkNewPassword(seen.get("password"), seen.get("confirmPassword"));
        if (problem) {
          expect(o.status).toBe(400);
          expect(o.body).toMatchObject({ field: problem.field, error: problem.message });
          expect(await passwordOf()).toBe(hashBefore);
          return;
        }
        if (o.status === 302) {
          expect(o.location).toBe("/login?reset=1");
          // The new password is the one typed, byte for byte.
          const signedIn = await getAuth().api.signInEmail({ body: { email: "reset@example.com", password: seen.get("password") } });
          expect(signedIn.user.id).toBe(person.id);
          return;
        }
        expect(o.status).toBe(400);
        expect(o.body.linkInvalid).toBe(true);
        expect(await passwordOf()).toBe(hashBefore);
      }),
      { numRuns: 40 },
    );
  });
});

describe("residency calculator", () => {
  it("answers every input with a result or field messages", async () => {
    const year = new Date().getFullYear();
    const fields: Record<string, fc.Arbitrary<string>> = Object.fromEntries(
      RESIDENCY_FIELDS.map((f) => [
        f,
        f === "taxYear"
          ? fc.integer({ min: year - 12, max: year + 1 }).map(String)
          : f === "category"
            ? fc.constantFrom(...VISA_CATEGORIES)
            : f === "studentYears" || f === "teacherYears"
              ? fc.constantFrom("", `${year - 3}`, `${year - 4}, ${year - 3}`)
              : fc.integer({ min: 0, max: 366 }).map(String),
      ]),
    );
    await fc.assert(
      fc.asyncProperty(formOf(fields), encoding, async (pairs, how) => {
        const request = formPost("/tools/residency-calculator", pairs, how);
        const seen = await request.clone().formData();
        const before = await snapshot();
        const o = await outcome(() => residencyAction(args(request)));
        expectNoServerError(o);
        expect(await snapshot()).toEqual(before);
        const checked = validateResidency(residencyValuesFrom(seen), year);
        expect(o.status).toBe(checked.ok ? 200 : 400);
        if (!checked.ok) expect(o.body.errors).toEqual(checked.errors);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------

const isoDate = (from: string, to: string) =>
  fc.date({ min: new Date(`${from}T12:00:00Z`), max: new Date(`${to}T12:00:00Z`), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(""));

const taxpayerFields: Record<(typeof TAXPAYER_FIELDS)[number], fc.Arbitrary<string>> = {
  name_as_per_ssn: plainText(1, 50),
  middle_name: fc.oneof(fc.constant(""), plainText(1, 50)),
  last_name: plainText(1, 50),
  ssn_tin: fc.tuple(digits(3), digits(2), digits(4)).map(([a, b, c]) => `${a}-${b}-${c}`),
  date_of_birth: isoDate("1900-01-02", "1995-12-31"),
  occupation: plainText(1, 100),
  time_zone: fc.constantFrom(...TIME_ZONES),
  filing_status: fc.constantFrom(...FILING_STATUSES),
  first_entry_date_usa: isoDate("1996-01-01", "2024-12-31"),
  visa_type: fc.constantFrom(...VISA_TYPES),
  primary_country_code: fc.constantFrom("+91", "+1"),
  primary_contact: fc.constantFrom("212 555 0147", "(212) 555-0147", "9876543210"),
  secondary_country_code: fc.constantFrom("+91", "+1"),
  secondary_contact: fc.constantFrom("", "98765 43210"),
  alternate_email: fc.oneof(fc.constant(""), fc.emailAddress()),
  city: plainText(1, 100),
  state: plainText(1, 100),
  zipcode: fc.constantFrom("07302", "560001", "SW1A 1AA", "K1A-0B1"),
  current_mailing_address: plainText(1, 300),
};

describe("taxpayer information form", () => {
  it("saves only a valid record, round-trips it exactly, and leaves the saved one untouched otherwise", async () => {
    const client = await signedInClient("taxpayer@example.com");
    const seed = validateTaxpayer(sampleTaxpayer);
    if (!seed.ok) throw new Error("the seed record is not valid");
    await saveTaxpayerRecord(client.id, seed.data);

    await fc.assert(
      fc.asyncProperty(formOf(taxpayerFields), encoding, async (pairs, how) => {
        const request = formPost("/dashboard", pairs, how, client.cookie);
        const seen = await formSeen(request);
        const [rowBefore] = await getDb().select().from(taxpayerRecords);
        const before = await snapshot();
        const o = await outcome(() => taxpayerAction(args(request)));
        expectNoServerError(o);
        const after = await snapshot();
        expect(after).toEqual(before);
        const checked = validateTaxpayer(Object.fromEntries(TAXPAYER_FIELDS.map((f) => [f, seen.get(f)])));
        const [rowAfter] = await getDb().select().from(taxpayerRecords);
        if (!checked.ok) {
          expect(o.status).toBe(400);
          expect(o.body.errors).toEqual(checked.errors);
          expect(Object.keys(checked.errors).length).toBeGreaterThan(0);
          expect(rowAfter).toEqual(rowBefore);
          return;
        }
        expect(o.status).toBe(200);
        expect(rowAfter?.userId).toBe(client.id);
        expect(rowAfter?.ssn_last4).toBe(checked.data.ssn_tin.slice(-4));
        expect(await getOwnTaxpayerValues(client.id)).toEqual(checked.data);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe("staff forms", () => {
  let admin: { id: string; cookie: string };
  let clientA: { id: string; cookie: string };

  beforeEach(async () => {
    admin = await signedInClient("staff@example.com");
    await makeStaff(admin);
    clientA = await signedInClient("client-a@example.com");
    rmSync(path.join(process.env.DATA_DIR!, "uploads"), { recursive: true, force: true });
  });

  it("the admin dashboard's three forms answer every input and change only what a valid one asks", async () => {
    let unique = 0;
    const fields = {
      intent: fc.constantFrom("view-case", "save-workflow", "add-client"),
      clientId: fc.constantFrom("(client)", "(staff)", "no-such-client"),
      assigneeId: fc.constantFrom("", "(staff)", "(client)"),
      completed: fc.constantFrom(...STAGE_KEYS),
      name: plainText(1, 100),
      email: fc.constantFrom("(new address)", "client-a@example.com"),
      phone: fc.constantFrom("", "+1 212 555 0100"),
      visaStatus: fc.constantFrom(...VISA_STATUSES),
    };
    const moreCompleted = fc.array(fc.oneof(fc.constantFrom(...STAGE_KEYS), hostile), { maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(formOf(fields), moreCompleted, encoding, async (pairs, extra, how) => {
        unique += 1;
        const ids: Record<string, string> = { "(client)": clientA.id, "(staff)": admin.id, "(new address)": `invited${unique}@example.com` };
        const all: Pairs = [...pairs.map(([k, v]): [string, string] => [k, ids[v] ?? v]), ...extra.map((v): [string, string] => ["completed", v])];
        const request = formPost("/admin/dashboard", all, how, admin.cookie);
        const seen = await formSeen(request);
        const [caseBefore] = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientA.id));
        const before = await snapshot();
        const o = await outcome(() => dashboardAction(args(request)));
        expectNoServerError(o);
        const after = await snapshot();
        const [caseAfter] = await getDb().select().from(clientCases).where(eq(clientCases.userId, clientA.id));
        const intent = seen.get("intent");

        if (intent === "save-workflow") {
          const assignee = seen.get("assigneeId");
          const valid = seen.get("clientId") === clientA.id && (assignee === "" || assignee === admin.id);
          expect(o.status).toBe(valid ? 200 : 400);
          expect(after.user).toBe(before.user);
          if (!valid) {
            if (caseBefore) expect(caseAfter).toEqual(caseBefore);
            return;
          }
          const done = new Set(seen.getAll("completed"));
          expect(Object.fromEntries(STAGE_KEYS.map((k) => [k, caseAfter?.[k]]))).toEqual(Object.fromEntries(STAGE_KEYS.map((k) => [k, done.has(k)])));
          expect(caseAfter?.assigneeId ?? "").toBe(assignee);
          return;
        }
        if (caseBefore) expect(caseAfter).toEqual(caseBefore);
        if (intent === "view-case") {
          expect(o.status).toBe(seen.get("clientId") === clientA.id ? 200 : 404);
          expect(after).toEqual(before);
          return;
        }
        if (intent !== "add-client") {
          expect(o.status).toBe(400);
          expect(after).toEqual(before);
          return;
        }
        const checked = checkClientDetails({
          fullName: seen.get("name"),
          email: seen.get("email"),
          phone: seen.get("phone"),
          visaStatus: seen.get("visaStatus"),
        });
        if (!checked.ok) {
          expect(o.status).toBe(400);
          expect(o.body.error).toBe(checked.message);
          expect(after).toEqual(before);
          return;
        }
        if (checked.data.email === "client-a@example.com") {
          expect(o.status).toBe(409);
          expect(after).toEqual(before);
          return;
        }
        expect(o.status).toBe(200);
        expect(after).toMatchObject({ user: before.user + 1, profiles: before.profiles + 1 });
        const [created] = await getDb().select().from(user).where(eq(user.email, checked.data.email));
        const [profile] = await getDb().select().from(profiles).where(eq(profiles.email, checked.data.email));
        expect({ name: created?.name, role: created?.role }).toEqual({ name: checked.data.fullName, role: "user" });
        expect({ fullName: profile?.fullName, phone: profile?.phone ?? null, visaStatus: profile?.visaStatus }).toEqual({
          fullName: checked.data.fullName,
          phone: checked.data.phone,
          visaStatus: checked.data.visaStatus,
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("marking a contact message handled takes only a real message id", async () => {
    const [message] = await getDb()
      .insert(contactMessages)
      .values({ name: "V", email: "v@example.com", subject: "S", description: "A question about ITIN." })
      .returning();
    const idLike = fc.stringMatching(/^[0-9a-f-]{36}$/);
    const fields = {
      intent: fc.constantFrom("mark-handled"),
      messageId: fc.oneof(fc.constant("(message)"), fc.uuid(), idLike, fc.constant(message!.id.toUpperCase())),
    };
    await fc.assert(
      fc.asyncProperty(formOf(fields), encoding, async (pairs, how) => {
        await getDb().update(contactMessages).set({ handledAt: null });
        const all = pairs.map(([k, v]): [string, string] => [k, v === "(message)" ? message!.id : v]);
        const request = formPost("/admin/messages", all, how, admin.cookie);
        const seen = await formSeen(request);
        const before = await snapshot();
        const o = await outcome(() => messagesAction(args(request)));
        expectNoServerError(o);
        expect(await snapshot()).toEqual(before);
        const [row] = await getDb().select().from(contactMessages);
        const hit = seen.get("intent") === "mark-handled" && seen.get("messageId").toLowerCase() === message!.id;
        expect(row?.handledAt !== null).toBe(hit);
        expect(o.body.ok ?? false).toBe(hit);
      }),
      { numRuns: RUNS },
    );
  });

  it("removing documents takes only the ids of that client's documents", async () => {
    const clientB = await signedInClient("client-b@example.com");
    const pdf = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");
    const actor = { ...admin, email: "staff@example.com", name: "Staff", role: "admin" as const, emailVerified: true, sessionId: "" };
    const ensureDocs = async (clientId: string) => {
      const have = await getDb().select().from(documents).where(eq(documents.clientId, clientId));
      if (have.length < 2) await saveUploads(actor, { clientId, taxYear: currentFilingYear(), category: "form-16", files: [{ name: "a.pdf", bytes: pdf }, { name: "b.pdf", bytes: pdf }] }, "127.0.0.1");
    };
    const fields = {
      intent: fc.constantFrom("remove"),
      documentIds: fc.constantFrom("(mine)", "(other client's)"),
    };
    const clientParam = fc.constantFrom("(client)", "(client)", "(staff)", "nobody", "");
    await fc.assert(
      fc.asyncProperty(formOf(fields), fc.array(fc.oneof(fc.constant("(mine)"), fc.uuid(), hostile), { maxLength: 3 }), clientParam, encoding, async (pairs, moreIds, param, how) => {
        await ensureDocs(clientA.id);
        await ensureDocs(clientB.id);
        const mine = (await getDb().select().from(documents).where(eq(documents.clientId, clientA.id))).map((d) => d.id);
        const theirs = (await getDb().select().from(documents).where(eq(documents.clientId, clientB.id))).map((d) => d.id);
        const swap = (v: string) => (v === "(mine)" ? mine[0]! : v === "(other client's)" ? theirs[0]! : v);
        const all: Pairs = [...pairs.map(([k, v]): [string, string] => [k, swap(v)]), ...moreIds.map((v): [string, string] => ["documentIds", swap(v)])];
        const clientId = param === "(client)" ? clientA.id : param === "(staff)" ? admin.id : param;
        const request = formPost(`/admin/clients/${clientId}/documents`, all, how, admin.cookie);
        const seen = await formSeen(request);
        const o = await outcome(() => documentsAction(args(request, { clientId })));
        expectNoServerError(o);
        const remainingMine = (await getDb().select().from(documents).where(eq(documents.clientId, clientA.id))).map((d) => d.id);
        const remainingTheirs = (await getDb().select().from(documents).where(eq(documents.clientId, clientB.id))).map((d) => d.id);
        expect(remainingTheirs.sort()).toEqual([...theirs].sort());
        const asked = new Set(seen.getAll("documentIds").map((v) => v.toLowerCase()));
        const removing = clientId === clientA.id && seen.get("intent") === "remove" && seen.getAll("documentIds").length > 0;
        expect(remainingMine.sort()).toEqual(mine.filter((id) => !(removing && asked.has(id))).sort());
        expect(storedFileCount()).toBe(await rows(documents));
      }),
      { numRuns: RUNS },
    );
  });

  it("an upload stores exactly the acceptable files, under their cleaned names, and never a half record", async () => {
    const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n");
    const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    // Control characters and backslashes in a part's file name, or a part header over 16 KB, make
    // it malformed to the streaming parser (a browser never sends them: no file system names
    // files so, nor longer than 255 bytes); such uploads are refused whole, as the test below the
    // property shows.
    const fileName = fc
      .oneof(
        fc.tuple(fc.oneof(plainText(1, 30), hostile), fc.constantFrom(".pdf", ".png", ".PDF", ".pdf.html", ".exe", "", ".docx")).map(([a, b]) => `${a}${b}`),
        hostile,
      )
      .map((name) => name.replace(/[\p{Cc}\\]/gu, "_").slice(0, 1_000));
    const fileBytes = fc.oneof(
      fc.constant(PDF),
      fc.constant(PNG),
      fc.constant(new Uint8Array(0)),
      fc.uint8Array({ maxLength: 2_000 }),
      fc.constant(new TextEncoder().encode("<html><script>alert(1)</script></html>")),
    );
    const upload = fc.record({
      category: fc.oneof(fc.constantFrom(...DOCUMENT_CATEGORIES.map((c) => c.key)), hostile),
      files: fc.array(fc.record({ name: fileName, bytes: fileBytes }), { maxLength: 3 }),
      strings: fc.array(fc.tuple(fc.constantFrom("files", "category", "other"), hostile), { maxLength: 2 }),
      clientParam: fc.constantFrom("(client)", "(client)", "(client)", "(staff)", "nobody"),
    });
    await fc.assert(
      fc.asyncProperty(upload, async ({ category, files, strings, clientParam }) => {
        const clientId = clientParam === "(client)" ? clientA.id : clientParam === "(staff)" ? admin.id : clientParam;
        const form = new FormData();
        form.append("category", category);
        for (const [k, v] of strings) form.append(k, v);
        for (const f of files) form.append("files", new Blob([f.bytes.slice()]), f.name);
        const request = new Request(`http://localhost:3000/admin/clients/${clientId}/documents/upload`, {
          method: "POST",
          body: form,
          headers: { cookie: admin.cookie },
        });
        const seen = await request.clone().formData();
        const sentFiles = seen.getAll("files").filter((v): v is File => typeof v !== "string");
        const before = await snapshot();
        const o = await outcome(() => uploadAction(args(request, { clientId })));
        expectNoServerError(o);
        const after = await snapshot();
        const uploaded = (o.body.uploaded ?? []) as Array<{ id: string; name: string }>;
        expect(after).toEqual({ ...before, documents: before.documents + uploaded.length });
        expect(storedFileCount()).toBe(after.documents);
        const validCategory = DOCUMENT_CATEGORIES.some((c) => c.key === seen.get("category"));
        if (clientId !== clientA.id || !validCategory) {
          expect(uploaded).toEqual([]);
          expect(o.status).toBeGreaterThanOrEqual(400);
          return;
        }
        const expected: Array<{ name: string }> = [];
        for (const f of sentFiles) {
          if ((await checkUpload(f.name, new Uint8Array(await f.arrayBuffer()))).ok) expected.push({ name: cleanFileName(f.name) });
        }
        expect(uploaded.map((u) => ({ name: u.name }))).toEqual(expected);
        expect(o.status).toBe(expected.length > 0 ? 200 : 400);
        for (const u of uploaded) {
          const [doc] = await getDb().select().from(documents).where(and(eq(documents.id, u.id), eq(documents.clientId, clientA.id)));
          expect(doc?.originalName).toBe(u.name);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("an upload whose file name holds control characters, or is longer than a part header may be, is refused whole, with nothing stored", async () => {
    const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n");
    for (const name of ["\u0007\b\u001b[31m", "x\u0000y.pdf", "é\u0001.pdf", `${"n".repeat(20_000)}.pdf`]) {
      const form = new FormData();
      form.append("category", DOCUMENT_CATEGORIES[0]!.key);
      form.append("files", new Blob([PDF]), name);
      form.append("files", new Blob([PDF]), "fine.pdf");
      const request = new Request(`http://localhost:3000/admin/clients/${clientA.id}/documents/upload`, {
        method: "POST",
        body: form,
        headers: { cookie: admin.cookie },
      });
      const before = await snapshot();
      const o = await outcome(() => uploadAction(args(request, { clientId: clientA.id })));
      expect(o.status).toBe(400);
      expect(o.body.error).toBe("The upload could not be read. Please try again.");
      expect(await snapshot()).toEqual(before);
      expect(storedFileCount()).toBe(before.documents);
    }
  });
});

/** What the residency form sent, as the page reads it: each field's first text, "" when missing. */
function residencyValuesFrom(form: FormData): ResidencyValues {
  const values = { ...emptyResidencyValues };
  for (const field of RESIDENCY_FIELDS) {
    const v = form.get(field);
    values[field] = typeof v === "string" ? v : "";
  }
  return values;
}

function storedFileCount(): number {
  const dir = path.join(process.env.DATA_DIR!, "uploads");
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith(".")).length : 0;
}

describe("staff second factor forms", () => {
  it("enrolment confirms only with the code the app shows", async () => {
    const staff = await signedInClient("enrol@example.com");
    await getDb().update(user).set({ role: "admin" }).where(eq(user.id, staff.id));
    const setup = unwrap<{ secret: string }>(await setupLoader(args(new Request("http://localhost:3000/admin/security/setup", { headers: { cookie: staff.cookie } }))));
    const secret = setup.body.secret;
    const code = fc.oneof(fc.constant("(right code)"), digits(6), hostile, fc.constant(" (right code) "));
    await fc.assert(
      fc.asyncProperty(code, encoding, async (typed, how) => {
        await getDb().update(staffSecondFactor).set({ confirmedAt: null, lastStep: 0 });
        await getDb().update(session).set({ secondFactorAt: null });
        const sent = typed.replace("(right code)", totpAt(secret, timeStep()));
        const request = formPost("/admin/security/setup", [["code", sent]], how, staff.cookie);
        const right = matchTotp(secret, sent, 0) !== null;
        const before = await snapshot();
        const o = await outcome(() => setupAction(args(request)));
        expectNoServerError(o);
        expect(await snapshot()).toEqual(before);
        const [factor] = await getDb().select().from(staffSecondFactor);
        const [own] = await getDb().select().from(session).where(eq(session.userId, staff.id));
        expect(factor?.confirmedAt !== null).toBe(right);
        expect(own?.secondFactorAt !== null).toBe(right);
        if (right) expect(o.location).toBe("/admin/dashboard");
        else expect(o.status).toBe(400);
      }),
      { numRuns: RUNS },
    );
  });

  it("the code page accepts a right code or an unused backup code, and sends staff only to staff pages", async () => {
    const staff = await signedInClient("verify@example.com");
    const { secret } = await makeStaff(staff);
    await getDb().update(session).set({ secondFactorAt: null });
    const fields = {
      code: fc.constantFrom("(right code)", "(backup code)", "000000"),
      redirectTo: fc.oneof(fc.constantFrom("/admin/messages", "/admin/audit?client=x", "/dashboard", "//evil.example"), fc.string({ unit: "binary", maxLength: 12 }).map((s) => `/admin/${s}`)),
    };
    await fc.assert(
      fc.asyncProperty(formOf(fields), encoding, async (pairs, how) => {
        await getDb().update(staffSecondFactor).set({ lastStep: 0 });
        await getDb().update(session).set({ secondFactorAt: null });
        const [factor] = await getDb().select().from(staffSecondFactor);
        const backups = JSON.parse(decryptSecret(factor!.backupCodes, staff.id)) as string[];
        const all = pairs.map(([k, v]): [string, string] => [k, v.replace("(right code)", totpAt(secret, timeStep())).replace("(backup code)", backups[0] ?? "none")]);
        const request = formPost("/admin/security/verify", all, how, staff.cookie);
        const seen = await formSeen(request);
        const typed = seen.get("code");
        const right = matchTotp(secret, typed, 0) !== null || backups.includes(typed.trim().toLowerCase());
        const o = await outcome(() => verifyAction(args(request)));
        expectNoServerError(o);
        const [own] = await getDb().select().from(session).where(eq(session.userId, staff.id));
        expect(own?.secondFactorAt !== null).toBe(right);
        if (!right) {
          expect(o.status).toBe(400);
          return;
        }
        expectSafeLocation(o.location);
        const wanted = safeRedirect(seen.get("redirectTo"), "/admin/dashboard");
        expect(o.location).toBe(wanted.startsWith("/admin/") ? wanted : "/admin/dashboard");
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe("bodies that are not forms", () => {
  /** JSON, plain text, broken multipart, broken URL encoding, or nothing at all. */
  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => ({ type: "application/json", bytes: JSON.stringify(v) ?? "null" })),
    hostile.map((s) => ({ type: "text/plain", bytes: s })),
    fc.tuple(fc.string({ maxLength: 20 }), hostile).map(([boundary, s]) => ({ type: `multipart/form-data; boundary=${boundary}`, bytes: s })),
    hostile.map((s) => ({ type: "multipart/form-data", bytes: `--x\r\n${s}` })),
    fc.constantFrom("%", "%E0%A4%A", "a=%zz&b", "=&=&&==", "name=%00%FF").map((s) => ({ type: "application/x-www-form-urlencoded", bytes: s })),
    fc.constant({ type: "", bytes: "" }),
  );

  it("every form action answers 4xx (or its normal answer) and stores nothing", async () => {
    const admin = await signedInClient("staff@example.com");
    await makeStaff(admin);
    const client = await signedInClient("client@example.com");
    const targets: Array<{ name: string; url: string; cookie: string; call: (request: Request) => Promise<unknown> }> = [
      { name: "contact", url: "/contact", cookie: "", call: (r) => contactAction(args(r)) },
      { name: "signup", url: "/signup", cookie: "", call: (r) => signupAction(args(r)) },
      { name: "login", url: "/login", cookie: "", call: (r) => loginAction(args(r)) },
      { name: "reset-password", url: "/reset-password", cookie: "", call: (r) => resetAction(args(r)) },
      { name: "taxpayer", url: "/dashboard", cookie: client.cookie, call: (r) => taxpayerAction(args(r)) },
      { name: "admin dashboard", url: "/admin/dashboard", cookie: admin.cookie, call: (r) => dashboardAction(args(r)) },
      { name: "admin messages", url: "/admin/messages", cookie: admin.cookie, call: (r) => messagesAction(args(r)) },
      { name: "documents", url: `/admin/clients/${client.id}/documents`, cookie: admin.cookie, call: (r) => documentsAction(args(r, { clientId: client.id })) },
      { name: "upload", url: `/admin/clients/${client.id}/documents/upload`, cookie: admin.cookie, call: (r) => uploadAction(args(r, { clientId: client.id })) },
      { name: "security setup", url: "/admin/security/setup", cookie: admin.cookie, call: (r) => setupAction(args(r)) },
      { name: "security verify", url: "/admin/security/verify", cookie: admin.cookie, call: (r) => verifyAction(args(r)) },
      { name: "auth api", url: "/api/auth/callback/google", cookie: "", call: (r) => authApiAction(args(r)) },
      { name: "residency calculator", url: "/tools/residency-calculator", cookie: "", call: (r) => residencyAction(args(r)) },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, fc.constantFrom("POST", "PUT", "PATCH", "DELETE"), async (target, sent, method) => {
        const headers: Record<string, string> = target.cookie ? { cookie: target.cookie } : {};
        if (sent.type) headers["content-type"] = sent.type;
        const request = new Request(`http://localhost:3000${target.url}`, { method, body: sent.bytes === "" ? undefined : sent.bytes, headers });
        const before = await snapshot();
        const o = await outcome(() => target.call(request));
        expect(o.status, `${target.name} answered ${o.status}`).toBeLessThan(500);
        expect(await snapshot()).toEqual(before);
      }),
      { numRuns: 150 },
    );
  });

  it("sign-out signs out and goes home whatever the body", async () => {
    await signedInClient("leaving@example.com", "leaving password 1");
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom("POST", "PUT", "DELETE"), async (sent, method) => {
        const { headers: answer } = await getAuth().api.signInEmail({ body: { email: "leaving@example.com", password: "leaving password 1" }, returnHeaders: true });
        const cookie = answer.getSetCookie().map((c) => c.split(";")[0]).join("; ");
        const headers: Record<string, string> = { cookie };
        if (sent.type) headers["content-type"] = sent.type;
        const request = new Request("http://localhost:3000/logout", { method, body: sent.bytes === "" ? undefined : sent.bytes, headers });
        const before = await rows(session);
        const o = await outcome(() => logoutAction(args(request)));
        expect(o.status).toBe(302);
        expect(o.location).toBe("/");
        expect(await rows(session)).toBe(before - 1);
      }),
      { numRuns: 10 },
    );
  });
});
