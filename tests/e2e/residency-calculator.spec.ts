import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./support";
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
    // Hold the server's answer until the busy state has been seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(PATH, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await submit(page);
    await expect(page.getByRole("button", { name: "Checking..." })).toBeDisabled();
    release();

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
    // The form below the result is ready for another check, with the answers as sent.
    await expect(page.getByRole("button", { name: "Check my status" })).toBeEnabled();
    await expect(yearGroup(page, 2).getByRole("textbox", { name: "Days in the US" })).toHaveValue("120");
    await expect(yearGroup(page, 1)).toHaveAccessibleName(`The year before (${lastYear - 1})`);
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
    await page.getByText("Did your status change during one of these years?").click();
    await expect(page.getByRole("textbox", { name: `Days in another status: Two years before (${lastYear - 2})` })).toBeVisible();
    await page.getByRole("textbox", { name: /Calendar years as a student/ }).fill(`${lastYear}-${lastYear - 3}`);
    await fillDays(page, [-5, 400, "12.5"]);
    await submit(page);

    const summary = page.getByRole("heading", { name: "Please check your answers" }).locator("..");
    await expect(summary).toBeFocused();
    await expect(summary.getByRole("link", { name: `The year you are checking (${lastYear}): Days in the US: Days cannot be negative.` })).toBeVisible();
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
    // Changing an answer clears its message, under the field and in the summary.
    await expect(page.getByText("Days cannot be negative.")).toHaveCount(0);
    await expect(yearGroup(page, 0).getByRole("textbox", { name: "Days in the US" })).toHaveAttribute("aria-invalid", "false");
    await submit(page);

    await expect(resultHeading(page)).toHaveText(`Your result for ${lastYear}: nonresident alien for tax purposes`);
    const result = page.getByRole("region", { name: /^Your result for/ });
    await expect(result).toContainText(`In ${lastYear} you were an exempt individual as a student: ${lastYear} was your 4th calendar year`);
    await expect(arithmetic(page).getByRole("row", { name: "Total 0.00" })).toBeVisible();
    await expect(result.getByRole("heading", { name: "File Form 8843" })).toBeVisible();
  });

  test("a form posted before the script runs still lands on the result, focused", async ({ page }) => {
    await page.goto(PATH);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await chooseStatus(page, /^Green card holder/);
    await fillDays(page, [10, 0, 0]);
    // A plain submission, as the browser makes it when the script has not run yet or has failed.
    await page.evaluate(() => document.querySelector<HTMLFormElement>("main form")?.submit());
    await page.waitForLoadState("load");
    await expect(resultHeading(page)).toHaveText(`Your result for ${lastYear}: resident alien for tax purposes`);
    await expect(resultHeading(page)).toBeFocused();
    await expect(yearGroup(page, 0)).toHaveAccessibleName(`The year you are checking (${lastYear})`);
  });

  test("says so when the server cannot be reached, and keeps the answers", async ({ page }) => {
    await page.goto(PATH);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await page.route(PATH, (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));
    await chooseStatus(page, /^Not a student, teacher or trainee/);
    await fillDays(page, [100, 100, 100]);
    await submit(page);

    await expect(page.getByRole("alert")).toHaveText("Your answers could not be checked just now. Please check your connection and try again.");
    await expect(page.getByRole("button", { name: "Check my status" })).toBeEnabled();
    await expect(yearGroup(page, 0).getByRole("textbox", { name: "Days in the US" })).toHaveValue("100");
    await expect(resultHeading(page)).toHaveCount(0);

    await page.unroute(PATH);
    await submit(page);
    await expect(resultHeading(page)).toHaveText(`Your result for ${lastYear}: nonresident alien for tax purposes`);
    await expect(page.getByRole("alert")).toHaveCount(0);
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
      // Without a script the labels cannot follow the year chosen, so they name no calendar year.
      await expect(yearGroup(page, 1)).toHaveAccessibleName("The year before");
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
      await expect(yearGroup(page, 0)).toHaveAccessibleName("The year you are checking");
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
