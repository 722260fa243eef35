import { expect, test, createVerifiedUser, signIn, uniqueEmail } from "./support";
import type { Page } from "@playwright/test";

async function fillRecord(page: Page) {
  const box = (name: string) => page.locator(`[name="${name}"]`);
  await box("name_as_per_ssn").fill("Ravi");
  await box("last_name").fill("Kumar");
  await box("ssn_tin").pressSequentially("123456789");
  await expect(box("ssn_tin")).toHaveValue("123-45-6789");
  await box("date_of_birth").fill("1990-04-12");
  await box("occupation").fill("Software Engineer");
  await box("filing_status").selectOption("Single");
  await box("first_entry_date_usa").fill("2016-08-20");
  await box("visa_type").selectOption("H1-B");
  await box("primary_country_code").selectOption("+1");
  await box("primary_contact").fill("212 555 0147");
  await box("city").fill("Jersey City");
  await box("state").fill("NJ");
  await box("zipcode").fill("07302");
  await box("current_mailing_address").fill("30 Hudson Street, Apt 12");
}

test("a new client sees the empty state, saves the form, and follows the filing", async ({ page, request }) => {
  const email = uniqueEmail("portal");
  await createVerifiedUser(request, email);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/my-tax-filing");
  await expect(page.getByRole("heading", { name: "No Tax Filings Yet" })).toBeVisible();
  await page.getByRole("link", { name: "Submit Tax Information" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);

  await expect(page.getByRole("heading", { name: "Tax Filing Dashboard" })).toBeVisible();
  await expect(page.locator("main").getByText(email)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Tax Payer Information" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Contact Information" })).toBeVisible();
  await expect(page.locator('[name="time_zone"]')).toHaveValue("IST");
  await expect(page.locator('[name="primary_country_code"]')).toHaveValue("+91");
  await expect(page.locator('[name="ssn_tin"]')).toHaveAttribute("placeholder", "XXX-XX-XXXX");

  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.locator("#taxpayer-filing-status-error")).toHaveText("Please select filing status");

  await fillRecord(page);
  await page.locator('[name="ssn_tin"]').fill("12345");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Enter the SSN or ITIN as NNN-NN-NNNN (9 digits)")).toBeVisible();
  await page.locator('[name="ssn_tin"]').fill("");
  await page.locator('[name="ssn_tin"]').pressSequentially("123456789");

  await page.getByRole("button", { name: "Submit" }).click();
  const modal = page.getByRole("dialog", { name: "Success!" });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText("Your details have been saved successfully.");
  await modal.getByRole("button", { name: "OK" }).click();
  await expect(modal).toBeHidden();

  await page.reload();
  await expect(page.locator('[name="name_as_per_ssn"]')).toHaveValue("Ravi");
  await expect(page.locator('[name="ssn_tin"]')).toHaveValue("123-45-6789");
  await expect(page.locator('[name="visa_type"]')).toHaveValue("H1-B");

  // Save again and close the modal by its backdrop.
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.locator('[name="occupation"]').fill("Staff Engineer");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(modal).toBeVisible();
  // The dialog turns modal (with its backdrop) once the page has shown it.
  await expect.poll(() => modal.evaluate((d) => d.matches(":modal"))).toBe(true);
  await page.mouse.click(5, 5);
  await expect(modal).toBeHidden();

  await page.goto("/my-tax-filing");
  const main = page.locator("main");
  await expect(main).toContainText("Total Filings");
  await expect(main).toContainText("Completed");
  await expect(main).toContainText("In Progress");
  await expect(main.getByText("Ravi Kumar").first()).toBeVisible();
  await expect(main.getByText("***-**-6789")).toBeVisible();
  await expect(main.getByText("Submitted", { exact: true })).toBeVisible();
  await expect(main).not.toContainText("123-45-6789");
  await main.getByRole("button", { name: "View Details" }).click();
  const details = page.getByRole("dialog");
  await expect(details.getByRole("heading", { name: "Personal Information" })).toBeVisible();
  await expect(details.getByRole("heading", { name: "Contact Information" })).toBeVisible();
  await expect(details.getByRole("heading", { name: "Submission Information" })).toBeVisible();
  await expect(details).toContainText("Submitted On");
  await expect(details).toContainText("Last Updated");
  await expect(details).toContainText("Staff Engineer");
  await details.getByRole("button", { name: "Close" }).click();
  await expect(details).toBeHidden();
});

test("the list page never sends a full SSN, and another client sees none of it", async ({ page, request, browser }) => {
  const owner = uniqueEmail("owner");
  await createVerifiedUser(request, owner);
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await fillRecord(page);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("dialog", { name: "Success!" })).toBeVisible();
  const html = await (await page.request.get("/my-tax-filing")).text();
  expect(html).toContain("***-**-6789");
  expect(html).not.toContain("123-45-6789");

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const otherEmail = uniqueEmail("other");
  await createVerifiedUser(otherPage.request, otherEmail);
  await signIn(otherPage, otherEmail);
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  await otherPage.goto("/my-tax-filing");
  await expect(otherPage.getByRole("heading", { name: "No Tax Filings Yet" })).toBeVisible();
  await otherPage.goto("/dashboard");
  await expect(otherPage.locator('[name="name_as_per_ssn"]')).toHaveValue("");
  await other.close();
});
