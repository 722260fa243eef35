import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, keepScreenshot, test } from "./support";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { ENGAGEMENT_MESSAGES } from "~/domain/engagement";
import { currentFilingYear } from "~/domain/tax-year";
import type { SeedFile } from "../../scripts/lib/fixtures";
import { freshSecrets, runFixtureDb } from "../../scripts/lib/server-process";
import type { RunningServer } from "../../scripts/lib/server-process";
import { startServerOnFreePort } from "../helpers/server-port";

// The engagement letter in a real browser (docs/product/engagement.md), on a server of this
// file's own: an admin writes the 1040-NR template and sends the letter to three clients; at
// 1280 px one accepts it (and downloads the signed letter), one declines it with a reason; at
// 390 px the third is refused a name that is not the letter's, then accepts. Staff read where
// each letter stands, and the declined case is marked.

test.describe.configure({ mode: "serial" });

const Y = currentFilingYear();
const dataDir = path.resolve(`.tmp/e2e-engagement-${process.pid}`);
const MARK = "We look forward to working with you this season.";

let server: RunningServer;
let seeded: SeedFile;
let staffContext: BrowserContext;
let staff: Page;

async function contextOf(browser: Browser, cookie: string, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ timezoneId: "America/New_York", viewport: { width, height: 900 } });
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
    }),
  );
  return context;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const base = { dataDir, databaseUrl: "", secrets: freshSecrets(), logFile: path.join(dataDir, "server.log"), env: { RATE_LIMIT_SCALE: "20" } };
  const seedFile = path.join(dataDir, "seed.json");
  await runFixtureDb({ ...base, port: 1 }, ["seed", "--out", seedFile, "--signed-in", "3", "--admin"]);
  seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
  ({ server } = await startServerOnFreePort(base));
  staffContext = await contextOf(browser, seeded.admin!.cookie, 1280);
  staff = await staffContext.newPage();
});

test.afterAll(async () => {
  await staffContext?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const caseUrl = (i: number) => `${server.url}/admin/clients/${seeded.clients[i]!.id}/${Y}/engagement`;

test("an admin writes the 1040-NR template and sends the letter to three clients", async () => {
  await staff.goto(`${server.url}/admin/engagement`);
  await expect(staff.getByRole("heading", { level: 1, name: "Engagement letter" })).toBeVisible();
  const box = staff.getByRole("textbox", { name: "Template of Federal nonresident return (Form 1040-NR)" });
  await box.fill(`${await box.inputValue()}\n\n${MARK}`);
  await staff.getByRole("region", { name: "Federal nonresident return (Form 1040-NR)" }).getByRole("button", { name: "Save as a new version" }).click();
  await expect(staff.getByText("Saved: Federal nonresident return (Form 1040-NR), version 1.", { exact: false })).toBeVisible();
  // A template that lost the fee is refused, and the page keeps what was typed.
  await box.fill("Dear {{client_name}}, no fee.");
  await staff.getByRole("region", { name: "Federal nonresident return (Form 1040-NR)" }).getByRole("button", { name: "Save as a new version" }).click();
  await expect(staff.getByText(ENGAGEMENT_MESSAGES.needsFields)).toBeVisible();
  await expect(box).toHaveValue("Dear {{client_name}}, no fee.");

  for (const i of [0, 1, 2]) {
    await staff.goto(caseUrl(i));
    await expect(staff.getByText("Engagement letter: not sent yet", { exact: true })).toBeVisible();
    await staff.getByLabel("Service", { exact: true }).selectOption("1040-nr");
    await staff.getByRole("button", { name: "Send the letter" }).click();
    await expect(staff.getByText("The engagement letter was sent: the client has been e-mailed a link to it.")).toBeVisible();
    await expect(staff.getByText("Waiting for the client to accept or decline it.")).toBeVisible();
  }
  await keepScreenshot(staff, "engagement-staff-sent-1280");
});

/** The client's letter page, from their filing page's panel. */
async function openLetter(page: Page): Promise<string> {
  await page.goto(`${server.url}/my-tax-filing/${Y}`);
  await page.getByRole("link", { name: "Read and answer the letter" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Your ${Y} engagement letter` })).toBeVisible();
  const letter = page.getByRole("article", { name: "The engagement letter" });
  await expect(letter).toContainText(MARK);
  await expect(letter).toContainText("Our fee for this work is $299.00");
  return /Dear (.+),/.exec(await letter.innerText())![1]!;
}

test("at 1280 px one client accepts the letter and downloads it signed; another declines it", async ({ browser }) => {
  const first = await contextOf(browser, seeded.clients[0]!.cookie, 1280);
  const page = await first.newPage();
  const name = await openLetter(page);
  await page.getByLabel("I have read this engagement letter and agree to its terms.").check();
  await page.getByLabel("Your full legal name").fill(name);
  await page.getByRole("button", { name: "Accept the letter" }).click();
  await expect(page.getByText("Thank you: you accepted the engagement letter.")).toBeVisible();
  await expect(page.getByText(`Accepted by ${name} on`)).toBeVisible();
  const download = await page.request.get(await page.getByRole("link", { name: "Download the signed letter (PDF)" }).getAttribute("href").then((h) => `${server.url}${h}`));
  expect([download.status(), download.headers()["content-type"]]).toEqual([200, "application/pdf"]);
  expect((await download.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await keepScreenshot(page, "engagement-client-accepted-1280");
  // The signed letter is among the year's documents on the client's filing page.
  await page.goto(`${server.url}/my-tax-filing/${Y}#documents`);
  const mine = page.getByRole("list", { name: "Signed engagement letters" }).getByRole("link", { name: "Signed engagement letter (PDF)" });
  await expect(mine).toHaveAttribute("href", new URL(download.url()).pathname);
  await expect(page.getByText("No other documents for this tax year yet.")).toBeVisible();
  await mine.scrollIntoViewIfNeeded();
  await keepScreenshot(page, "engagement-client-documents-1280");
  await first.close();

  const second = await contextOf(browser, seeded.clients[1]!.cookie, 1280);
  const other = await second.newPage();
  await openLetter(other);
  await other.getByRole("button", { name: "Decline the letter" }).click();
  await expect(other.getByText(ENGAGEMENT_MESSAGES.reasonRequired)).toBeVisible();
  await other.getByLabel("Why do you decline it?").fill("I only need the ITIN this year.");
  await other.getByRole("button", { name: "Decline the letter" }).click();
  await expect(other.getByText("We have your answer: you declined the letter.")).toBeVisible();
  await second.close();

  await staff.goto(caseUrl(0));
  await expect(staff.getByText(`Accepted by ${name} on`)).toBeVisible();
  await expect(staff.getByText("Engagement letter:")).toHaveCount(0);
  // And among the case's documents for staff.
  await staff.goto(caseUrl(0).replace(/engagement$/, "documents"));
  const signed = staff.getByRole("list", { name: "Signed engagement letters" }).getByRole("link", { name: "Signed engagement letter (PDF)" });
  await expect(staff.getByText("The signed engagement letter; no other documents yet.")).toBeVisible();
  await keepScreenshot(staff, "engagement-staff-documents-1280");
  const staffCopy = await staff.request.get(`${server.url}${await signed.getAttribute("href")}`);
  expect([staffCopy.status(), staffCopy.headers()["content-type"]]).toEqual([200, "application/pdf"]);
  await staff.goto(caseUrl(1).replace(/engagement$/, "documents"));
  await expect(staff.getByRole("list", { name: "Signed engagement letters" })).toHaveCount(0);
  await staff.goto(caseUrl(1));
  await expect(staff.getByText("Reason: I only need the ITIN this year.")).toBeVisible();
  await expect(staff.getByText("Engagement letter: declined by the client", { exact: true })).toBeVisible();

  // The client list marks the cases whose draft waits for the letter: the declined one and the unanswered one, not the accepted one.
  const listed = async (i: number) => {
    await staff.goto(`${server.url}/admin/dashboard?q=${encodeURIComponent(seeded.clients[i]!.email)}`);
    await expect(staff.getByRole("row").filter({ hasText: seeded.clients[i]!.email })).toHaveCount(1);
    return staff.getByTitle(/^Engagement letter: /);
  };
  await expect(await listed(0)).toHaveCount(0);
  await expect(await listed(1)).toHaveAttribute("title", "Engagement letter: declined by the client");
  await expect(await listed(1)).toContainText("Letter declined");
  await expect(await listed(2)).toHaveAttribute("title", "Engagement letter: not accepted yet");
  await keepScreenshot(staff, "engagement-list-1280");
});

test("at 390 px a client is refused a name that is not the letter's, then accepts; nothing scrolls sideways", async ({ browser }) => {
  const third = await contextOf(browser, seeded.clients[2]!.cookie, 390);
  const page = await third.newPage();
  const name = await openLetter(page);
  await page.getByLabel("I have read this engagement letter and agree to its terms.").check();
  await page.getByLabel("Your full legal name").fill("Somebody Else");
  await page.getByRole("button", { name: "Accept the letter" }).click();
  await expect(page.getByText(ENGAGEMENT_MESSAGES.nameMismatch(name))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await keepScreenshot(page, "engagement-client-refused-390");
  await page.getByLabel("Your full legal name").fill(name);
  await page.getByRole("button", { name: "Accept the letter" }).click();
  await expect(page.getByText(`Accepted by ${name} on`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await third.close();

  // Staff on a phone: the declined case's card carries its badge, and nothing scrolls sideways.
  const phone = await contextOf(browser, seeded.admin!.cookie, 390);
  const list = await phone.newPage();
  await list.goto(`${server.url}/admin/dashboard?q=${encodeURIComponent(seeded.clients[1]!.email)}`);
  await expect(list.getByTitle("Engagement letter: declined by the client")).toBeVisible();
  expect(await list.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await keepScreenshot(list, "engagement-list-390");
  await phone.close();
});
