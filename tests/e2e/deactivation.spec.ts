import { expect, test, ADMIN, PASSWORD, createVerifiedUser, signInAsStaff, uniqueEmail } from "./support";
import type { Locator, Page } from "@playwright/test";

// Deactivating a staff member from the team page: the case assigned to them shows "Unassigned"
// in the staff panel at once, and stays so after they are reactivated.

test.use({ viewport: { width: 1280, height: 900 } });

const TAG = `Dea${Date.now().toString(36)}`;
const CLIENT = `${TAG} Client`;
// Sorted after the other staff (other specs take the first name of the staff list as their own).
const PREPARER = `Zeta ${TAG} Preparer`;

const list = `/admin/dashboard?q=${TAG}`;
const assignee = (page: Page) =>
  page
    .locator("tbody tr[data-client-row]")
    .filter({ hasText: CLIENT })
    .getByRole("combobox", { name: new RegExp(`^Assigned To: TB-\\d{5} ${CLIENT}$`) });
const chosen = (select: Locator) => select.locator("option:checked");

test("deactivating a preparer unassigns their case, and reactivating them gives it not back", async ({ page, request }) => {
  test.setTimeout(120_000);
  await createVerifiedUser(request, ADMIN);
  await createVerifiedUser(request, uniqueEmail("deact"), PASSWORD, CLIENT);
  await signInAsStaff(page);
  const email = uniqueEmail("preparer");
  const invited = await page.request.post("/admin/team", {
    form: { intent: "invite", fullName: PREPARER, email, role: "preparer" },
  });
  expect(invited.status(), await invited.text()).toBe(200);

  // The case is assigned to the preparer, and stored so.
  await page.goto(list);
  await assignee(page).selectOption({ label: PREPARER });
  await expect(page.getByRole("status").filter({ hasText: `is now assigned to ${PREPARER}.` })).toBeVisible();
  await page.reload();
  await expect(chosen(assignee(page))).toHaveText(PREPARER);

  // Deactivated from the team page.
  await page.goto("/admin/team");
  const member = page.locator(`[data-testid="team-member"][data-email="${email}"]`);
  page.once("dialog", (dialog) => void dialog.accept());
  await member.getByRole("button", { name: /^Deactivate/ }).click();
  await expect(page.getByText("Deactivated. Their sessions have ended and their cases are unassigned.")).toBeVisible();

  // The case is unassigned, and the preparer is no longer offered.
  await page.goto(list);
  await expect(chosen(assignee(page))).toHaveText("Unassigned");
  await expect(assignee(page).locator("option", { hasText: PREPARER })).toHaveCount(0);

  // Reactivated: offered again, but the case stays unassigned.
  await page.goto("/admin/team");
  page.once("dialog", (dialog) => void dialog.accept());
  await member.getByRole("button", { name: /^Reactivate/ }).click();
  await expect(page.getByText("Reactivated. They can sign in again.")).toBeVisible();
  await page.goto(list);
  await expect(assignee(page).locator("option", { hasText: PREPARER })).toHaveCount(1);
  await expect(chosen(assignee(page))).toHaveText("Unassigned");
});
