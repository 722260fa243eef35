import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { residencyTool } from "~/content/tools";

const PATH = residencyTool.path;
/** The year the form offers first: the last completed one. */
const lastYear = new Date().getFullYear() - 1;

const yearGroups = [/^The year you are checking/, /^The year before/, /^Two years before/] as const;

function yearGroup(page: Page, offset: 0 | 1 | 2) {
  return page.getByRole("group", { name: yearGroups[offset] });
}

async function fillDays(page: Page, days: [number | string, number | string, number | string]) {
  for (const offset of [0, 1, 2] as const) {
    await yearGroup(page, offset).getByRole("textbox", { name: "Days in the US" }).fill(String(days[offset]));
  }
}

async function chooseStatus(page: Page, label: RegExp) {
  await page.getByRole("radio", { name: label }).check();
}

const submit = (page: Page) => page.getByRole("button", { name: "Check my status" }).click();
const resultHeading = (page: Page) => page.getByRole("heading", { level: 2, name: /^Your result for/ });
const arithmetic = (page: Page) => page.getByRole("table", { name: /The substantial presence test for/ });

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
}

test.describe("residency calculator", () => {
  test("Publication 519's example: 120 days a year is 180 days, nonresident, shown without reloading the page", async ({ page }) => {
    await page.goto(PATH);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resident or nonresident for tax purposes?");
    await expect(page.getByRole("combobox", { name: "Tax year to check" })).toHaveValue(String(lastYear));
    await expect(yearGroup(page, 1)).toHaveAccessibleName(`The year before (${lastYear - 1})`);

    await chooseStatus(page, /^Not a student, teacher or trainee/);
    await fillDays(page, [120, 120, 120]);
    // A marker on the window survives only if the page does not reload.
    await page.evaluate(() => ((window as unknown as { calculatorMarker: boolean }).calculatorMarker = true));
    await submit(page);

    const heading = resultHeading(page);
    await expect(heading).toHaveText(`Your result for ${lastYear}: nonresident alien for tax purposes`);
    await expect(heading).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { calculatorMarker?: boolean }).calculatorMarker)).toBe(true);
    await expect(page).toHaveURL(new RegExp(`${PATH}$`));

    const table = arithmetic(page);
    await expect(table.getByRole("row", { name: new RegExp(`^${lastYear} 120 0 120 all 120\\.00$`) })).toBeVisible();
    await expect(table.getByRole("row", { name: new RegExp(`^${lastYear - 1} 120 0 120 one third 40\\.00$`) })).toBeVisible();
    await expect(table.getByRole("row", { name: new RegExp(`^${lastYear - 2} 120 0 120 one sixth 20\\.00$`) })).toBeVisible();
    await expect(table.getByRole("row", { name: "Total 180.00" })).toBeVisible();

    const result = page.getByRole("region", { name: /^Your result for/ });
    await expect(result).toContainText(`Your days over ${lastYear - 2} to ${lastYear} add up to 180.00, fewer than 183.`);
    await expect(result).toContainText("Nonresidents file Form 1040-NR");
    await expect(result.getByRole("heading", { name: "Guidance, not tax advice" })).toBeVisible();
    await expect(result.getByRole("heading", { name: "The first-year choice" })).toBeVisible();
    await expect(result.getByRole("link", { name: "Get help with your Form 1040-NR" })).toHaveAttribute("href", "/services/1040-returns");
    await expect(result.getByRole("link", { name: "Ask a tax professional" })).toHaveAttribute("href", "/contact");
  });

  test("the years follow the year chosen, and days that don't count are taken off", async ({ page }) => {
    await page.goto(PATH);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await page.getByRole("combobox", { name: "Tax year to check" }).selectOption("2024");
    await expect(yearGroup(page, 0)).toHaveAccessibleName("The year you are checking (2024)");
    await expect(yearGroup(page, 2)).toHaveAccessibleName("Two years before (2022)");

    await chooseStatus(page, /^Not a student, teacher or trainee/);
    await fillDays(page, [250, 90, 0]);
    const current = yearGroup(page, 0);
    await current.getByText("Days that don't count").click();
    await current.getByRole("textbox", { name: /medical condition/ }).fill("30");
    await current.getByRole("textbox", { name: /commuting to work/ }).fill("40");
    await submit(page);

    await expect(resultHeading(page)).toHaveText("Your result for 2024: resident alien for tax purposes");
    const table = arithmetic(page);
    await expect(table.getByRole("row", { name: /^2024 250 70 40 commuting, 30 medical 180 all 180\.00$/ })).toBeVisible();
    await expect(table.getByRole("row", { name: "Total 210.00" })).toBeVisible();
    const result = page.getByRole("region", { name: /^Your result for/ });
    await expect(result.getByRole("heading", { name: "File Form 8843" })).toBeVisible();
    await expect(result.getByRole("heading", { name: /closer connection exception/ })).toBeVisible();
    await expect(result.getByRole("link", { name: "Get help with your Form 1040" })).toHaveAttribute("href", "/services/1040-returns");
    await expectNoAxeViolations(page, "result at 1280 px");
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoAxeViolations(page, "result at 360 px");
  });

  test("refuses invalid answers with a message per field, then decides an exempt student's years", async ({ page }) => {
    await page.goto(PATH);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await chooseStatus(page, /^Student on an F, J, M or Q visa/);
    await page.getByRole("textbox", { name: /Calendar years as a student/ }).fill(`${lastYear}-${lastYear - 3}`);
    await fillDays(page, [-5, 400, "12.5"]);
    await submit(page);

    const summary = page.getByRole("heading", { name: "Please check your answers" }).locator("..");
    await expect(summary).toBeFocused();
    await expect(page.getByText(`Write the earlier year first: ${lastYear - 3}-${lastYear}, not ${lastYear}-${lastYear - 3}.`).first()).toBeVisible();
    const leapOrNot = (lastYear - 1) % 4 === 0 ? 366 : 365;
    await expect(yearGroup(page, 0)).toContainText("Days cannot be negative.");
    await expect(yearGroup(page, 1)).toContainText(`${lastYear - 1} has ${leapOrNot} days. Enter ${leapOrNot} or fewer.`);
    await expect(yearGroup(page, 2)).toContainText("Enter whole days, without decimals.");
    await expect(yearGroup(page, 0).getByRole("textbox", { name: "Days in the US" })).toHaveAttribute("aria-invalid", "true");
    await expect(resultHeading(page)).toHaveCount(0);
    await expectNoAxeViolations(page, "errors");

    // The summary's links lead to the fields.
    await summary.getByRole("link", { name: /Days cannot be negative/ }).click();
    await expect(yearGroup(page, 0).getByRole("textbox", { name: "Days in the US" })).toBeFocused();

    await page.getByRole("textbox", { name: /Calendar years as a student/ }).fill(`${lastYear - 3}-${lastYear}`);
    await fillDays(page, [300, 200, 100]);
    await expect(page.getByText("Days cannot be negative.")).toHaveCount(0);
    await submit(page);

    await expect(resultHeading(page)).toHaveText(`Your result for ${lastYear}: nonresident alien for tax purposes`);
    const result = page.getByRole("region", { name: /^Your result for/ });
    await expect(result).toContainText(`In ${lastYear} you were an exempt individual as a student: ${lastYear} was your 4th calendar year`);
    await expect(arithmetic(page).getByRole("row", { name: "Total 0.00" })).toBeVisible();
    await expect(result.getByRole("heading", { name: "File Form 8843" })).toBeVisible();
  });

  test("the Services menu, the home page and the 1040 page link to the calculator", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await page.getByRole("main").getByRole("link", { name: "Check your tax residency with our free calculator" }).click();
    await expect(page).toHaveURL(new RegExp(`${PATH}$`));

    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("button", { name: "Services" }).hover();
    await expect(nav.getByRole("link", { name: /Residency calculator/ })).toHaveAttribute("href", PATH);

    await page.goto("/services/1040-returns");
    await page.getByRole("main").getByRole("link", { name: "residency calculator" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resident or nonresident for tax purposes?");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the form posts and the server answers with the result and the arithmetic", async ({ page }) => {
      await page.goto(PATH);
      await expect(page.getByRole("combobox", { name: "Tax year to check" })).toHaveValue(String(lastYear));
      await chooseStatus(page, /^Not a student, teacher or trainee/);
      // The questions for students, teachers and trainees hide with CSS alone.
      await expect(page.getByRole("textbox", { name: /Calendar years as a student/ })).toBeHidden();
      await fillDays(page, [200, 0, 60]);
      await submit(page);

      await expect(resultHeading(page)).toHaveText(`Your result for ${lastYear}: resident alien for tax purposes`);
      const table = arithmetic(page);
      await expect(table.getByRole("row", { name: new RegExp(`^${lastYear} 200 0 200 all 200\\.00$`) })).toBeVisible();
      await expect(table.getByRole("row", { name: new RegExp(`^${lastYear - 2} 60 0 60 one sixth 10\\.00$`) })).toBeVisible();
      await expect(table.getByRole("row", { name: "Total 210.00" })).toBeVisible();
      const result = page.getByRole("region", { name: /^Your result for/ });
      await expect(result).toContainText(`You meet the substantial presence test for ${lastYear}.`);
      await expect(result.getByRole("link", { name: "Get help with your Form 1040" })).toHaveAttribute("href", "/services/1040-returns");
      await expect(result.getByRole("link", { name: "Ask a tax professional" })).toHaveAttribute("href", "/contact");
      // The form comes back as it was sent.
      await expect(yearGroup(page, 0).getByRole("textbox", { name: "Days in the US" })).toHaveValue("200");
      await expect(page.getByRole("radio", { name: /^Not a student, teacher or trainee/ })).toBeChecked();
    });

    test("the server refuses invalid answers with a message per field and keeps what was typed", async ({ page }) => {
      await page.goto(PATH);
      await chooseStatus(page, /^Teacher, researcher or trainee/);
      await fillDays(page, ["12.5", "", 30]);
      await yearGroup(page, 2).getByText("Days that don't count").click();
      await yearGroup(page, 2).getByRole("textbox", { name: /in transit/ }).fill("31");
      await submit(page);

      await expect(page.getByRole("heading", { name: "Please check your answers" })).toBeVisible();
      await expect(page.getByText("List the calendar years you were in the US as a teacher, researcher or trainee, for example 2024, 2025.").first()).toBeVisible();
      await expect(yearGroup(page, 0)).toContainText("Enter whole days, without decimals.");
      await expect(yearGroup(page, 1)).toContainText(`Enter the number of days you were in the US in ${lastYear - 1}. Enter 0 if none.`);
      await expect(yearGroup(page, 2)).toContainText(
        `The days that don't count in ${lastYear - 2} add up to 31, more than the 30 days you were in the US.`,
      );
      await expect(yearGroup(page, 2).getByRole("textbox", { name: /in transit/ })).toHaveValue("31");
      await expect(yearGroup(page, 0).getByRole("textbox", { name: "Days in the US" })).toHaveValue("12.5");
      await expect(resultHeading(page)).toHaveCount(0);
    });
  });
});
