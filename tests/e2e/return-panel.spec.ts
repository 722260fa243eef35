import { expect, test, ADMIN, PASSWORD, createVerifiedUser, signInAsStaff, uniqueEmail } from "./support";
import type { Page } from "@playwright/test";

// The staff list's return filter at 1280 px and 390 px: its select and its choices with their
// counts, the choice kept in the URL, and a filter that keeps no case showing the list's empty
// state. (A case waiting for a signature or rejected is made through the server's functions: the
// integration tests cover those lists.)

test.describe.configure({ mode: "serial" });

const TAG = `Ret${Date.now().toString(36)}`;
const NAME = `${TAG} Panelclient`;

test.beforeAll(async ({ request }) => {
  await createVerifiedUser(request, ADMIN);
  await createVerifiedUser(request, uniqueEmail("retpanel"), PASSWORD, NAME);
});

async function checkFilter(page: Page, width: number) {
  await page.goto(`/admin/dashboard?q=${encodeURIComponent(TAG)}`);
  await expect(page.getByRole("link", { name: NAME, exact: true })).toBeVisible();
  const select = page.getByLabel("Filter by return");
  await expect(select).toBeVisible();
  await expect(select).toHaveValue("all");
  const options = await select.locator("option").allInnerTexts();
  expect(options[0]).toBe("All Returns");
  expect(options.slice(1).map((o) => o.replace(/ \(\d+\)$/, ""))).toEqual(["Waiting for approval", "Waiting for a signature", "Rejected"]);
  for (const o of options.slice(1)) expect(o).toMatch(/ \(\d+\)$/);

  // The new client has no return yet: no filter keeps them.
  await select.selectOption("awaiting-signature");
  await expect(page).toHaveURL(/[?&]return=awaiting-signature(&|$)/);
  await expect(page.getByText("No clients found matching your criteria.")).toBeVisible();
  await expect(page.getByRole("link", { name: NAME, exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Search clients")).toHaveValue(TAG);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

  // Clear filters drops it with the search.
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/return=/);
  await expect(page.getByLabel("Filter by return")).toHaveValue("all");

  // A value the list does not know is ignored.
  await page.goto(`/admin/dashboard?q=${encodeURIComponent(TAG)}&return=bogus`);
  await expect(page.getByLabel("Filter by return")).toHaveValue("all");
  await expect(page.getByRole("link", { name: NAME, exact: true })).toBeVisible();
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`the return filter at ${width} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    try {
      await signInAsStaff(page);
      await checkFilter(page, width);
    } finally {
      await context.close();
    }
  });
}
