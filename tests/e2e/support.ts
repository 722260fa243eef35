import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect } from "@playwright/test";
import type { APIRequestContext, Browser, BrowserContext, BrowserContextOptions, Cookie, Locator, Page, Response } from "@playwright/test";
import { nameOfLetter } from "~/domain/engagement";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { wrongTotpCode } from "../helpers/forge";
import { readOutbox } from "../helpers/outbox";
import { signupFields } from "../helpers/signup";
import { thisWorkersServer } from "./servers";

// Every browser test imports `test` and `expect` from here. A page the test has just opened
// (goto, reload, back, forward) is waited for until it is interactive: React has hydrated it, or
// the public pages' enhancement module has run (both set html[data-hydrated]). A click before
// that lands on server-rendered HTML whose handlers are not bound yet, and does nothing.
export { expect };

/** Whether the running test's own pages run scripts (test.use({ javaScriptEnabled: false }) turns it off). */
let scriptsRun = true;
/** Contexts a test opened with browser.newContext({ javaScriptEnabled: false }). */
const scriptless = new WeakSet<BrowserContext>();

async function interactive(page: Page, response: Response | null): Promise<Response | null> {
  const html = /text\/html/.test(response?.headers()["content-type"] ?? "");
  if (scriptsRun && html && !scriptless.has(page.context())) await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  return response;
}

type NewContext = (this: Browser, options?: BrowserContextOptions) => Promise<BrowserContext>;

/** Makes the Browser class remember the contexts it opens without JavaScript (newPage opens one too). */
function rememberScriptlessContexts(browser: Browser): void {
  const browserClass = Object.getPrototypeOf(browser) as { newContext: NewContext; __remembersScriptless?: boolean };
  if (browserClass.__remembersScriptless) return;
  browserClass.__remembersScriptless = true;
  const newContext = browserClass.newContext;
  browserClass.newContext = async function (this: Browser, options?: BrowserContextOptions) {
    const context = await newContext.call(this, options);
    if (options?.javaScriptEnabled === false) scriptless.add(context);
    return context;
  };
}

type Opener = (this: Page, ...args: unknown[]) => Promise<Response | null>;

/**
 * Makes every page's goto, reload, goBack and goForward wait until the page is interactive. Done
 * on the Page class itself, once per worker, so pages a test opens in contexts of its own (a
 * second client, staff beside a client) wait too.
 */
function waitForInteractivePages(page: Page): void {
  const pageClass = Object.getPrototypeOf(page) as Record<string, Opener> & { __waitsForHydration?: boolean };
  if (pageClass.__waitsForHydration) return;
  pageClass.__waitsForHydration = true;
  for (const name of ["goto", "reload", "goBack", "goForward"]) {
    const open = pageClass[name]!;
    pageClass[name] = async function (this: Page, ...args: unknown[]) {
      return interactive(this, await open.apply(this, args));
    };
  }
}

export const test = base.extend<{ scriptsOnPages: void }, { interactivePages: void }>({
  interactivePages: [
    async ({ browser }, use) => {
      rememberScriptlessContexts(browser);
      const page = await browser.newPage();
      waitForInteractivePages(page);
      await page.close();
      await use();
    },
    { scope: "worker", auto: true },
  ],
  scriptsOnPages: [
    async ({ javaScriptEnabled }, use) => {
      scriptsRun = javaScriptEnabled ?? true;
      await use();
      scriptsRun = true;
    },
    { auto: true },
  ],
});

/**
 * A screenshot for a person to look at, in .tmp/shots (a page whole, a locator as it stands).
 * Taken only with E2E_SCREENSHOTS=1: no test reads them, and each costs the run CPU time.
 */
export async function keepScreenshot(target: Page | Locator, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  mkdirSync(".tmp/shots", { recursive: true });
  const file = `.tmp/shots/${name}.png`;
  if ("goto" in target) await target.screenshot({ path: file, fullPage: true });
  else await target.screenshot({ path: file });
}

/** The data folder of this worker's server (tests/e2e/servers.ts): its outbox, its staff session. */
export const e2eDataDir = thisWorkersServer().dataDir;
/** The mock Google (an OpenID provider) that scripts/e2e-server.js starts beside this worker's server. */
export const GOOGLE_MOCK_URL = thisWorkersServer().mockUrl;
export const PASSWORD = "Str0ng pass phrase";

let counter = 0;
/** A fresh address for each test. */
export function uniqueEmail(prefix = "client"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

/** The newest link to `path` e-mailed to `to`. */
export async function linkFromOutbox(to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const mails = readOutbox(e2eDataDir).filter((m) => m.to.includes(to));
      link = mails
        .map((m) => m.text.match(new RegExp(`https?://\\S*${path}\\S*`))?.[0])
        .filter(Boolean)
        .at(-1);
      return link;
    })
    .toBeTruthy();
  return link!;
}

/**
 * The id of the client with this e-mail, read from their own row of the staff's client list. Other
 * panels of the dashboard (rejected returns, failed e-mails) link to other clients' cases and come
 * first, so the id is never taken from the page's first client link.
 */
export async function clientIdOf(staff: APIRequestContext, email: string): Promise<string> {
  const html = await (await staff.get(`/admin/dashboard?q=${encodeURIComponent(email)}`)).text();
  const table = html.slice(html.indexOf("<table"));
  const rows = table.split("<tr").filter((row) => row.includes(`title="${email}"`));
  expect(rows, `one row of the client list for ${email}`).toHaveLength(1);
  const id = /href="\/admin\/clients\/([^/"?&]+)\//.exec(rows[0]!)?.[1] ?? "";
  expect(id, `the case link in ${email}'s row`).not.toBe("");
  return id;
}

/** Signs up through the form's action and verifies the address through the e-mailed link. */
export async function createVerifiedUser(request: APIRequestContext, email: string, password = PASSWORD, fullName = "Test Client"): Promise<void> {
  const response = await request.post("/signup", {
    form: signupFields(email, password, fullName),
  });
  expect(response.status()).toBe(200);
  const link = await linkFromOutbox(email, "/api/auth/verify-email");
  const verified = await request.get(new URL(link).pathname + new URL(link).search, { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  // The designated administrator's address (and a contested one) chooses its password after verifying.
  const choose = new URL(verified.headers()["location"] ?? "/", "http://localhost");
  if (choose.pathname === "/reset-password") {
    const chosen = await request.post("/reset-password", {
      form: { token: choose.searchParams.get("token") ?? "", password, confirmPassword: password },
      maxRedirects: 0,
    });
    expect(chosen.headers()["location"]).toBe("/login?reset=1");
  }
}

export async function signIn(page: Page, email: string, password = PASSWORD, remember = false): Promise<void> {
  await page.goto("/login");
  await page.getByRole("textbox", { name: "Email Address" }).fill(email);
  await page.locator('input[name="password"]').fill(password);
  if (remember) await page.getByLabel("Remember me").check();
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** The address that becomes staff once verified (ADMIN_EMAIL in playwright.config.ts). */
export const ADMIN = "admin@taxbridge.test";

// The staff authenticator: its secret (read from the enrolment page) and the last step used.
// Kept in a file of the server's data folder, which the server empties when it starts, so every
// spec file of one run shares it.
type Authenticator = { secret: string; lastStep: number };
const authenticatorFile = path.join(e2eDataDir, "e2e-staff-authenticator.json");

function readAuthenticator(): Authenticator {
  if (!existsSync(authenticatorFile)) return { secret: "", lastStep: 0 };
  return JSON.parse(readFileSync(authenticatorFile, "utf8")) as Authenticator;
}

function writeAuthenticator(value: Authenticator): void {
  writeFileSync(authenticatorFile, JSON.stringify(value));
}

/**
 * The first step after `lastStep` whose code the server takes now: codes are single-use and one
 * step of drift is accepted (the next step's code works already), so this waits for the clock
 * only when the next unused step is further ahead than that.
 */
export async function unusedStep(lastStep: number): Promise<number> {
  const step = Math.max(timeStep(), lastStep + 1);
  while (step > timeStep() + 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
  return step;
}

/** A code of the staff authenticator the server has not seen yet. */
export async function freshStaffCode(): Promise<string> {
  const state = readAuthenticator();
  const step = await unusedStep(state.lastStep);
  writeAuthenticator({ ...state, lastStep: step });
  return totpAt(state.secret, step);
}

/** A six-digit code that the staff authenticator does not show now (tests/helpers/forge.ts). */
export function wrongStaffCode(): string {
  return wrongTotpCode(readAuthenticator().secret);
}

/**
 * Signs the staff account in the way a person does: password, then an authenticator code
 * (enrolling on the run's first sign-in). Its session is kept for signInAsStaff.
 */
export async function signInAsStaffWithCode(page: Page): Promise<void> {
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/admin\/security\/(setup|verify)/);
  if (page.url().includes("/setup")) {
    writeAuthenticator({ secret: (await page.getByTestId("totp-secret").textContent())!.trim(), lastStep: 0 });
  }
  await page.getByLabel(/Authenticator code/).fill(await freshStaffCode());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  writeFileSync(staffSessionFile, JSON.stringify(await page.context().cookies()));
}

// The staff session of the run's last sign-in with a code, as the browser's cookies. Kept beside
// the authenticator file (emptied with the server's data folder when a run starts).
const staffSessionFile = path.join(e2eDataDir, "e2e-staff-session.json");

/**
 * The staff account signed in, on the dashboard: with the session of an earlier sign-in of this
 * run when it still works, so that spec files do not each wait for a fresh authenticator code
 * (codes are single-use, one per 30-second step); otherwise by signInAsStaffWithCode.
 */
export async function signInAsStaff(page: Page): Promise<void> {
  if (existsSync(staffSessionFile)) {
    const cookies = JSON.parse(readFileSync(staffSessionFile, "utf8")) as Cookie[];
    await page.context().addCookies(cookies);
    await page.goto("/admin/dashboard");
    if (new URL(page.url()).pathname === "/admin/dashboard") return;
    // Signed out or revoked since: sign in again.
    for (const { name } of cookies) await page.context().clearCookies({ name });
  }
  await signInAsStaffWithCode(page);
}

/**
 * The case's engagement letter sent by staff and accepted by the client, in their own pages, as a
 * firm does before it uploads a draft return (the draft waits for an accepted letter while the
 * firm requires one: docs/product/engagement.md). Staff send the letter for `service` from the
 * case's Engagement section; the client opens it from their filing page, ticks the agreement and
 * signs with the name the letter gives. Answers that name. Both pages are left on the letter.
 */
export async function letterAccepted(staff: Page, client: Page, clientId: string, year: number, service = "1040-nr"): Promise<string> {
  await staff.goto(`/admin/clients/${clientId}/${year}/engagement`);
  await staff.getByLabel("Service", { exact: true }).selectOption(service);
  await staff.getByRole("button", { name: "Send the letter" }).click();
  await expect(staff.getByText("The engagement letter was sent: the client has been e-mailed a link to it.")).toBeVisible();
  await expect(staff.getByText("Waiting for the client to accept or decline it.")).toBeVisible();

  await client.goto(`/my-tax-filing/${year}`);
  await client.getByRole("link", { name: "Read and answer the letter" }).click();
  await expect(client.getByRole("heading", { level: 1, name: `Your ${year} engagement letter` })).toBeVisible();
  const letter = client.getByRole("article", { name: "The engagement letter" });
  await expect(letter).toContainText("Dear ");
  const name = nameOfLetter(await letter.innerText()) ?? "";
  expect(name, "the name the letter gives").not.toBe("");
  await client.getByLabel("I have read this engagement letter and agree to its terms.").check();
  await client.getByLabel("Your full legal name").fill(name);
  await client.getByRole("button", { name: "Accept the letter" }).click();
  await expect(client.getByText("Thank you: you accepted the engagement letter.")).toBeVisible();
  await expect(client.getByText(`Accepted by ${name} on`)).toBeVisible();
  return name;
}
