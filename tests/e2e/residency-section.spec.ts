import AxeBuilder from "@axe-core/playwright";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, keepScreenshot, test } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { RESIDENCY_DONE } from "~/components/admin/case/residency/words";
import { RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
import { currentFilingYear } from "~/domain/tax-year";
import type { SeedFile } from "../../scripts/lib/fixtures";
import { freshSecrets, runFixtureDb, serverEnv } from "../../scripts/lib/server-process";
import type { RunningServer, ServerConfig } from "../../scripts/lib/server-process";
import { startServerOnFreePort } from "../helpers/server-port";

// The staff's Residency section of a case in a real browser, at 1280 and 390 px
// (docs/product/residency.md): a client with a visa and travel history, seeded on a server of this
// file's own (the fixture script makes an admin whose second factor is passed and a client, then
// tests/e2e/residency-seed.ts saves the history with the app's own function, with the server
// stopped); staff open the section, read the substantial presence test's table, confirm the
// outcome and see who confirmed it; a finding changes the outcome and clears the confirmation;
// another status needs a reason. Then staff open "Edit the history", add a stay (a refused one
// first, at 390 px) and find the outcome's table changed. No horizontal overflow at 390 px.

test.describe.configure({ mode: "serial" });

const Y = currentFilingYear();
const dataDir = path.resolve(`.tmp/e2e-residency-${process.pid}`);

let server: RunningServer;
let seeded: SeedFile;
let staffContext: BrowserContext;
let staff: Page;

const sectionUrl = () => `${server.url}/admin/clients/${seeded.clients[0]!.id}/${Y}/residency`;

/** Runs tests/e2e/residency-seed.ts with the server's configuration. */
async function seedHistory(config: ServerConfig, seedFile: string): Promise<void> {
  const child = spawn(path.resolve("node_modules", ".bin", "tsx"), [path.resolve("tests", "e2e", "residency-seed.ts"), seedFile], {
    env: serverEnv(config),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  if (code !== 0) throw new Error(`residency-seed failed (exit ${code}):\n${output}`);
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const base = { dataDir, databaseUrl: "", secrets: freshSecrets(), logFile: path.join(dataDir, "server.log"), env: { RATE_LIMIT_SCALE: "20" } };
  const seedFile = path.join(dataDir, "seed.json");
  // Seeded with the server stopped: the port is chosen when it starts.
  await runFixtureDb({ ...base, port: 1 }, ["seed", "--out", seedFile, "--signed-in", "1", "--admin"]);
  await seedHistory({ ...base, port: 1 }, seedFile);
  seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
  ({ server } = await startServerOnFreePort(base));

  staffContext = await browser.newContext({ timezoneId: "America/New_York" });
  const cookies = seeded.admin!.cookie.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
  });
  await staffContext.addCookies(cookies);
  staff = await staffContext.newPage();
});

test.afterAll(async () => {
  await staffContext?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The cells of each row of a person's table, as shown. */
async function tableRows(page: Page): Promise<string[][]> {
  const table = page.getByRole("table", { name: "Priya Raman: substantial presence test" });
  await expect(table).toBeVisible();
  return table.locator("tbody tr").evaluateAll((rows) =>
    rows.map((row) =>
      Array.from(row.querySelectorAll("th, td")).map((cell) => (cell.firstChild?.textContent ?? "").trim()),
    ),
  );
}

async function noHorizontalOverflow(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test("at 1280 px: the table with its exact numbers, the reasons and forms, the history; staff confirm the outcome", async () => {
  await staff.setViewportSize({ width: 1280, height: 900 });
  await staff.goto(sectionUrl());
  await expect(staff.getByRole("heading", { level: 2, name: "Residency" })).toBeVisible();
  await expect(staff.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Residency" })).toHaveAttribute("aria-current", "page");

  const person = staff.getByRole("region", { name: "Priya Raman (Client)" });
  await expect(person).toContainText(`You were a resident alien for all of ${Y}: you were an H-1B worker. You file Form 1040.`);
  await expect(person).toContainText("Substantial presence test");
  await expect(person).toContainText(`January 1, ${Y} to December 31, ${Y}`);
  expect(await tableRows(staff)).toEqual([
    [String(Y), "122", "1", "0", "122", "All", "122.00"],
    [String(Y - 1), "306", "0", "122", "184", "A third", "61.33"],
    [String(Y - 2), "122", "0", "122", "0", "A sixth", "0.00"],
  ]);
  await expect(staff.getByTestId("spt-total")).toHaveText("183.33");
  await expect(person).toContainText(`183.33 days: at least 183. The test was met on June 30, ${Y}.`);
  // Why the student's days did not count, beside them.
  await expect(person.getByRole("table")).toContainText("student: 2nd calendar year as an exempt student");
  // The choices, the forms, the history read only.
  await expect(person).toContainText("Possible termination of residency");
  await expect(person).toContainText(`Residency may end on June 30, ${Y}.`);
  await expect(person).toContainText("Closer connection exception");
  await expect(person.getByRole("listitem").filter({ hasText: /^Form 1040$/ })).toHaveCount(1);
  await expect(person).toContainText(`F-1 student, from September 1, ${Y - 2} to June 30, ${Y - 1}`);
  await expect(person).toContainText(`March 1, ${Y - 1} to December 31, ${Y - 1} (from the I-94)`);
  await expect(person).toContainText(`September 10, ${Y} to September 10, ${Y} (in transit)`);
  await expect(staff.getByText("No history yet")).toHaveCount(0);

  // Not confirmed yet; confirm the computed status.
  const confirmation = staff.getByRole("region", { name: "Confirmation" });
  await expect(confirmation.getByTestId("residency-confirmation")).toHaveText("Not confirmed yet");
  await confirmation.getByRole("button", { name: "Confirm: Resident alien" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RESIDENCY_DONE.confirmed })).toBeVisible();
  await expect(confirmation.getByTestId("residency-confirmation")).toContainText(/Confirmed by Admin [0-9a-f]{8} on .+: Resident alien\./);
  await noHorizontalOverflow(staff, 1280);
  await keepScreenshot(staff, "residency-section-1280");

  // The overview's line links to the section.
  await staff.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Overview" }).click();
  const facts = staff.getByRole("definition").filter({ hasText: "Resident alien (confirmed)" });
  await expect(facts).toBeVisible();
  await facts.getByRole("link", { name: /Residency/ }).click();
  await expect(staff).toHaveURL(/\/residency$/);

  // The client list finds the case under its residency, with the count beside the choice.
  const client = seeded.clients[0]!;
  await staff.goto(`${server.url}/admin/dashboard?residency=resident`);
  await expect(staff.getByRole("combobox", { name: "Residency" })).toHaveValue("resident");
  await expect(staff.getByRole("option", { name: "Resident (1)" })).toBeAttached();
  await expect(staff.getByRole("link", { name: client.email }).or(staff.getByText(client.email))).toBeVisible();
  await staff.goto(`${server.url}/admin/dashboard?residency=nonresident`);
  await expect(staff.getByText(client.email)).toHaveCount(0);
});

test("at 390 px: a finding changes the outcome and clears the confirmation; another status needs a reason; the foreign balance is kept", async () => {
  await staff.setViewportSize({ width: 390, height: 844 });
  await staff.goto(sectionUrl());
  await noHorizontalOverflow(staff, 390);
  const person = staff.getByRole("region", { name: "Priya Raman (Client)" });

  const findings = person.getByRole("form", { name: `Staff's findings for Priya Raman, ${Y}` });
  await findings.getByLabel("Tax home and closer connection abroad after leaving").check();
  await findings.getByRole("button", { name: "Save the findings for Priya Raman" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RESIDENCY_DONE["findings-saved"] })).toBeVisible();
  await expect(person).toContainText(`You were a dual-status alien in ${Y}: a resident from January 1, ${Y} to June 30, ${Y}`);
  await expect(findings.getByLabel("Tax home and closer connection abroad after leaving")).toBeChecked();
  const confirmation = staff.getByRole("region", { name: "Confirmation" });
  await expect(confirmation.getByTestId("residency-confirmation")).toHaveText("Not confirmed yet");
  await noHorizontalOverflow(staff, 390);

  // Another status without a reason: refused beside the reason, nothing confirmed.
  await confirmation.getByText("Set another status").click();
  const other = confirmation.getByRole("form", { name: "Set another status" });
  await other.getByLabel("Status").selectOption("resident");
  await other.getByRole("button", { name: "Set this status" }).click();
  await expect(other.getByText(RESIDENCY_FORM_MESSAGES.reasonRequired)).toBeVisible();
  await expect(other.getByLabel(/Reason/)).toHaveAttribute("aria-invalid", "true");
  await expect(confirmation.getByTestId("residency-confirmation")).toHaveText("Not confirmed yet");
  await other.getByLabel(/Reason/).fill("Present in the US again from December: resident all year.");
  await other.getByRole("button", { name: "Set this status" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RESIDENCY_DONE.confirmed })).toBeVisible();
  await expect(confirmation.getByTestId("residency-confirmation")).toContainText(/Confirmed by Admin [0-9a-f]{8} on .+: Resident alien \(not the computed status\)\./);
  await expect(confirmation).toContainText("Reason: Present in the US again from December: resident all year.");

  // The foreign balance: a bad amount refused beside its box, a good one kept in dollars and cents.
  const factsForm = staff.getByRole("form", { name: "The case's facts" });
  await factsForm.getByLabel(/Highest combined balance/).fill("12.345");
  await factsForm.getByRole("button", { name: "Save the facts" }).click();
  await expect(factsForm.getByText(/Enter the highest balance in dollars and cents/)).toBeVisible();
  await factsForm.getByLabel(/Highest combined balance/).fill("$12,345.6");
  await factsForm.getByRole("button", { name: "Save the facts" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RESIDENCY_DONE["facts-saved"] })).toBeVisible();
  await expect(factsForm.getByLabel(/Highest combined balance/)).toHaveValue("12,345.60");
  await noHorizontalOverflow(staff, 390);
  await keepScreenshot(staff, "residency-section-390");
});

/** Staff's page of the history from the section's "Edit the history"; adds a stay there and comes back by `back`. */
async function addStayFromSection(width: number, arrival: string, departure: string, back: (page: Page) => Promise<void>): Promise<void> {
  await staff.goto(sectionUrl());
  await staff.getByRole("region", { name: "Residency" }).getByRole("link", { name: "Edit the history" }).click();
  await expect(staff).toHaveURL(/\/residency\/history$/);
  // Named after the client's account, as the case's header is; the history's people by their own names.
  await expect(staff.getByRole("heading", { level: 2, name: "Client0 Fixture's visa and travel history" })).toBeVisible();
  await expect(staff.getByText("The client edits the same history at My residency (/my-residency).", { exact: false })).toBeVisible();
  // No form of the foreign balances here: staff set that on the section.
  await expect(staff.getByRole("region", { name: "Accounts outside the US" })).toHaveCount(0);
  const card = staff.getByRole("region", { name: "Priya Raman" });
  await expect(card.getByText("Client", { exact: true })).toBeVisible();
  const form = card.getByRole("form", { name: "Add a stay" });
  await form.getByLabel("Arrived").fill(arrival);
  await form.getByLabel("Left").fill(departure);
  await form.getByRole("button", { name: "Add stay" }).click();
  await expect(card.getByRole("status")).toContainText(`Added Priya Raman's stay from ${dayWords(arrival)} to ${dayWords(departure)}.`);
  await expect(card.getByRole("list", { name: "Priya Raman: stays" })).toContainText(`Arrived ${dayWords(arrival)} · Left ${dayWords(departure)}`);
  await noHorizontalOverflow(staff, width);
  const axe = await new AxeBuilder({ page: staff }).include("main").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
  await keepScreenshot(staff, `residency-history-staff-${width}`);
  await back(staff);
  await expect(staff).toHaveURL(/\/residency$/);
  await expect(staff.getByRole("heading", { level: 2, name: "Residency" })).toBeVisible();
}

/** "October 1, 2025". */
function dayWords(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
}

test("at 1280 px: staff edit the history from the case, and the outcome's table counts the stay they added", async () => {
  await staff.setViewportSize({ width: 1280, height: 900 });
  await addStayFromSection(1280, `${Y}-10-01`, `${Y}-10-10`, (page) => page.getByRole("link", { name: "Back to the Residency section" }).click());
  expect((await tableRows(staff))[0]).toEqual([String(Y), "132", "1", "0", "132", "All", "132.00"]);
  await expect(staff.getByTestId("spt-total")).toHaveText("193.33");
  await noHorizontalOverflow(staff, 1280);
});

test("at 390 px: a refused stay names its field and changes nothing; a good one changes the outcome's table", async () => {
  await staff.setViewportSize({ width: 390, height: 844 });
  await staff.goto(`${sectionUrl()}/history`);
  const card = staff.getByRole("region", { name: "Priya Raman" });
  const form = card.getByRole("form", { name: "Add a stay" });
  await form.getByLabel("Arrived").fill(`${Y}-11-10`);
  await form.getByLabel("Left").fill(`${Y}-11-01`);
  await form.getByRole("button", { name: "Add stay" }).click();
  const refused = card.getByRole("form", { name: "Add a stay" });
  await expect(refused.getByText(RESIDENCY_FORM_MESSAGES.departureBeforeArrival)).toBeVisible();
  await expect(refused.getByLabel("Left")).toHaveAttribute("aria-invalid", "true");
  await expect(refused.getByLabel("Arrived")).toHaveValue(`${Y}-11-10`);
  await expect(card.getByRole("list", { name: "Priya Raman: stays" }).getByRole("listitem")).toHaveCount(5);
  await noHorizontalOverflow(staff, 390);

  // The saved answer links to each year's Residency section.
  await addStayFromSection(390, `${Y}-11-01`, `${Y}-11-05`, (page) =>
    page.getByRole("region", { name: "Priya Raman" }).getByRole("link", { name: `Residency of the ${Y} case` }).click(),
  );
  await noHorizontalOverflow(staff, 390);
  expect((await tableRows(staff))[0]).toEqual([String(Y), "137", "1", "0", "137", "All", "137.00"]);
  await expect(staff.getByTestId("spt-total")).toHaveText("198.33");
});
