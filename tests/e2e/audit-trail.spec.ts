import { expect, test, ADMIN, PASSWORD, createVerifiedUser, signInAsStaff, uniqueEmail } from "./support";
import type { BrowserContext, Page } from "@playwright/test";

// The audit trail (/admin/audit): an admin pages through it and filters it by who acted and by
// kind, the filters in the URL (Back works), with people named by name; at 1280 px and at 390 px,
// where it never scrolls sideways.

test.describe.configure({ mode: "serial" });

const TAG = `Aud${Date.now().toString(36)}`;
const CLIENT = `${TAG} Client`;
const PREPARER = `Zeta ${TAG} Preparer`;

let context: BrowserContext;
let page: Page;
let caseUrl: string;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await createVerifiedUser(request, ADMIN);
  await createVerifiedUser(request, uniqueEmail("audit"), PASSWORD, CLIENT);
  await signInAsStaff(page);
  const invited = await page.request.post("/admin/team", {
    form: { intent: "invite", fullName: PREPARER, email: uniqueEmail("preparer"), role: "preparer" },
  });
  expect(invited.status(), await invited.text()).toBe(200);

  // The client's case is assigned to the preparer from the list's own select.
  await page.goto(`/admin/dashboard?q=${TAG}`);
  const row = page.locator("tbody tr[data-client-row]").filter({ hasText: CLIENT });
  await row.getByRole("combobox", { name: /^Assigned To: / }).selectOption({ label: PREPARER });
  await expect(row.getByText("Saved", { exact: true })).toBeVisible();
  caseUrl = (await row.locator('a[href^="/admin/clients/"]').first().getAttribute("href"))!.split("?")[0]!;
  // Enough entries for a second page: each opening of the case page is one.
  for (let i = 0; i < 55; i++) expect((await page.request.get(caseUrl)).status()).toBe(200);
});

test.afterAll(async () => {
  await context?.close();
});

const entriesTable = (p: Page) => p.getByRole("region", { name: "Audit log" });

/** The document is no wider than the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(p: Page) {
  const widths = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test("at 1280 px: pages of 50, filters by kind and by who acted kept in the URL, Back restores them, names not ids", async () => {
  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Showing 1-50 of \d+ entries\.$/ })).toBeVisible();
  await expect(entriesTable(page).locator("tbody tr")).toHaveCount(50);
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/\/admin\/audit\?page=2$/);
  await expect(page.getByRole("status").filter({ hasText: /^Showing 51-/ })).toBeVisible();

  // By kind: the assignment, naming the preparer; no account id anywhere in the entry.
  await page.getByLabel("Kind").selectOption("case-assigned");
  await expect(page).toHaveURL(/\/admin\/audit\?action=case-assigned$/);
  const assigned = entriesTable(page).locator("tbody tr").filter({ hasText: CLIENT });
  await expect(assigned).toHaveCount(1);
  await expect(assigned.getByRole("cell", { name: `Assigned the case to ${PREPARER}`, exact: true })).toBeVisible();
  await expect(assigned).not.toContainText("assignee:");

  // By who acted as well: the admin's entries of that kind.
  const adminName = (await page.getByLabel("Who acted").locator("option").filter({ hasNotText: /Anyone|System|Zeta/ }).first().textContent())!;
  await page.getByLabel("Who acted").selectOption({ label: adminName });
  await expect(page).toHaveURL(/\/admin\/audit\?actor=[^&]+&action=case-assigned$/);
  await expect(entriesTable(page).locator("tbody tr td:nth-child(2)").first()).toContainText(adminName);
  await expect(entriesTable(page).locator("tbody tr td:nth-child(2)").first()).toContainText(ADMIN);
  await page.getByLabel("Kind").selectOption("case-viewed");
  await expect(page).toHaveURL(/\/admin\/audit\?actor=[^&]+&action=case-viewed$/);
  await expect(page.getByRole("navigation", { name: "Pagination" })).toBeVisible();

  // Back: the previous filter, and the fields follow the URL.
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/audit\?actor=[^&]+&action=case-assigned$/);
  await expect(page.getByLabel("Kind")).toHaveValue("case-assigned");
  await page.goBack();
  await expect(page).toHaveURL(/\/admin\/audit\?action=case-assigned$/);
  await expect(page.getByLabel("Who acted")).toHaveValue("");

  // The admin's own first password, chosen through the link after verification, is recorded.
  await page.goto("/admin/audit?action=password-set");
  await expect(entriesTable(page).locator("tbody tr td:nth-child(2)").filter({ hasText: ADMIN }).first()).toBeVisible();

  // A bad value in the link is named, and the rest of the filter still applies.
  await page.goto("/admin/audit?action=no-such-kind&page=abc");
  await expect(page.getByRole("alert")).toHaveText("The kind of entry in this link is not one the trail has; every kind is shown.");
  await expect(page.getByRole("status").filter({ hasText: /^Showing 1-50 of/ })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test("at 390 px: cards, paging and filters, and nothing scrolls sideways", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto("/admin/audit");
    const cards = page.getByRole("list", { name: "Audit entries" }).getByRole("listitem");
    await expect(cards).toHaveCount(50);
    await expect(entriesTable(page)).toBeHidden();
    await expectNoSidewaysScroll(page);
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/admin\/audit\?page=2$/);
    await expectNoSidewaysScroll(page);

    await page.getByLabel("Kind").selectOption("case-assigned");
    await expect(page).toHaveURL(/\/admin\/audit\?action=case-assigned$/);
    // Every card is of the chosen kind (none left from the unfiltered page 2), one of them this client's.
    await expect(cards.filter({ hasNotText: "case-assigned" })).toHaveCount(0);
    await expect(cards.filter({ hasText: CLIENT })).toContainText(`Assigned the case to ${PREPARER}`);
    await expectNoSidewaysScroll(page);
    await page.getByLabel("Who acted").selectOption({ label: PREPARER });
    await expect(page).toHaveURL(/\/admin\/audit\?actor=[^&]+&action=case-assigned$/);
    await expect(page.getByText("No audit entries match these filters.")).toBeVisible();
    await expectNoSidewaysScroll(page);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});
