import AxeBuilder from "@axe-core/playwright";
import { expect, test, PASSWORD, createVerifiedUser, keepScreenshot, signIn, uniqueEmail } from "./support";
import type { Locator, Page } from "@playwright/test";

// The client's visa and travel history (/my-residency) in a real browser, at a desktop's width and
// a phone's: a new client adds an F-1 status period, pastes an I-94 travel history with a line
// that cannot be read (a date that is no day), sees that line named, reads it again fixed and
// adds the stays; adds a spouse on H-4 and a child on F-2 with a status period each; saves
// "About you"; and finds all of it listed after a reload, with no axe violation. On a phone nothing
// scrolls sideways. Then the same forms without JavaScript.

test.describe.configure({ mode: "serial" });

const PASTE_WITH_BAD_DATE = [
  "Row\tDate\tType\tLocation",
  "1\t2024-01-05\tArrival\tNYC",
  "2\t2023-12-20\tDeparture\tNYC",
  "3\t2023-06-10\tArrival\tSFR",
  "4\t2023-05-32\tDeparture\tSFR",
  "5\t2022-08-05\tArrival\tNYC",
].join("\n");
const PASTE_FIXED = PASTE_WITH_BAD_DATE.replace("2023-05-32", "2023-05-30");

const card = (page: Page, name: string) => page.getByRole("region", { name });

async function addPeriod(region: Locator, status: string, from: string) {
  const form = region.getByRole("form", { name: "Add a status period" });
  await form.getByLabel("Status").selectOption({ label: status });
  await form.getByLabel("From").fill(from);
  await form.getByRole("button", { name: "Add status period" }).click();
}

async function noSidewaysScroll(page: Page, width: number) {
  if (width > 400) return;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(width);
}

for (const width of [1280, 390]) {
  test(`a client lists their visa and travel history, and their family's, at ${width} px`, async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const email = uniqueEmail("residency");
    const me = `Asha Rao ${width}`;
    await createVerifiedUser(request, email, PASSWORD, me);
    await signIn(page, email);
    await expect(page).not.toHaveURL(/\/login/);

    await page.goto("/my-residency");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your visa and travel history");
    await expect(page.getByRole("link", { name: "Back to My Tax Filing" })).toHaveAttribute("href", "/my-tax-filing");
    await noSidewaysScroll(page, width);

    // An F-1 status period. The program's list shows for a J-1 only.
    const mine = card(page, me);
    await expect(mine.getByText("You", { exact: true })).toBeVisible();
    const periodForm = mine.getByRole("form", { name: "Add a status period" });
    await expect(periodForm.getByLabel("What the program is for")).toHaveCount(0);
    await periodForm.getByLabel("Status").selectOption({ label: "J-1 exchange visitor" });
    await expect(periodForm.getByLabel("What the program is for")).toBeVisible();
    await addPeriod(mine, "F-1 student", "2022-08-01");
    await expect(mine.getByRole("status")).toContainText("Added the status period F-1 student, August 1, 2022 to now, to your history.");
    const myPeriods = mine.getByRole("list", { name: `${me}: status periods` });
    await expect(myPeriods.getByRole("listitem")).toHaveCount(1);
    await expect(myPeriods).toContainText("F-1 student");
    await expect(myPeriods).toContainText("August 1, 2022 to now");

    // The I-94 paste: a line with a date that is no day is named, and nothing is saved yet.
    const i94 = card(page, "Paste your I-94 travel history");
    await expect(i94.getByRole("link", { name: "i94.cbp.dhs.gov" })).toHaveAttribute("href", "https://i94.cbp.dhs.gov/");
    await expect(i94).toContainText("Get Travel History");
    await i94.getByLabel("Your I-94 travel history").fill(PASTE_WITH_BAD_DATE);
    await i94.getByRole("button", { name: "Read my history" }).click();
    const unread = i94.getByRole("list", { name: "Lines we could not read" });
    await expect(unread).toContainText("Line 5: 2023-05-32 is not a real date. Check the month and the day.");
    await expect(i94.getByRole("list", { name: "Please check" })).toContainText("two arrivals in a row");
    await expect(i94.getByRole("button", { name: "Add these 2 stays" })).toBeVisible();
    await expect(mine.getByText("No stays yet.")).toBeVisible();
    await noSidewaysScroll(page, width);
    await keepScreenshot(page, `residency-i94-${width}`);

    // Read again, fixed: three stays, no line left unread.
    const box = i94.getByLabel("Your I-94 travel history");
    await expect(box).toHaveValue(PASTE_WITH_BAD_DATE);
    await box.fill(PASTE_FIXED);
    await i94.getByRole("button", { name: "Read my history" }).click();
    await expect(unread).toHaveCount(0);
    const read = i94.getByRole("list", { name: "Stays read from your I-94 history" });
    await expect(read.getByRole("listitem")).toHaveCount(3);
    await expect(read).toContainText("Arrived August 5, 2022 · Left May 30, 2023");
    await expect(read).toContainText("Arrived January 5, 2024 · Still here");
    await i94.getByRole("button", { name: "Add these 3 stays" }).click();
    await expect(i94.getByRole("status")).toContainText("Added 3 stays from your I-94 travel history to your stays.");
    const myStays = mine.getByRole("list", { name: `${me}: stays` });
    await expect(myStays.getByRole("listitem")).toHaveCount(3);
    await expect(myStays).toContainText("Arrived June 10, 2023 · Left December 20, 2023");
    await expect(myStays.getByText("From your I-94")).toHaveCount(3);

    // The household: a spouse on H-4 who travels with the client, a child on F-2.
    const household = card(page, "Your household");
    const spouseForm = household.getByRole("form", { name: "Add your spouse" });
    await spouseForm.getByLabel("Name").fill("Ravi Rao");
    await spouseForm.getByLabel("Date of birth").fill("1990-04-02");
    await expect(spouseForm.getByLabel("Travels with me")).toBeChecked();
    await spouseForm.getByRole("button", { name: "Add spouse" }).click();
    await expect(household.getByRole("status")).toContainText("Added your spouse, Ravi Rao.");
    await expect(household.getByRole("form", { name: "Add your spouse" })).toHaveCount(0);
    const spouse = card(page, "Ravi Rao");
    await expect(spouse).toContainText("Travels with you: uses your stays");
    await addPeriod(spouse, "H-4 dependant", "2022-08-01");
    await expect(spouse.getByRole("status")).toContainText("Added the status period H-4 dependant, August 1, 2022 to now, to Ravi Rao's history.");

    const childForm = household.getByRole("form", { name: "Add a dependant" });
    await childForm.getByLabel("Name").fill("Mia Rao");
    await childForm.getByLabel("Relation to you").selectOption({ label: "Child" });
    await childForm.getByLabel("Date of birth").fill("2018-09-09");
    await childForm.getByRole("button", { name: "Add dependant" }).click();
    await expect(household.getByRole("status")).toContainText("Added Mia Rao to your household.");
    const child = card(page, "Mia Rao");
    await expect(child.getByText("Your child", { exact: true })).toBeVisible();
    await addPeriod(child, "F-2 dependant", "2022-08-01");
    await expect(child.getByRole("status")).toContainText("Added the status period F-2 dependant, August 1, 2022 to now, to Mia Rao's history.");

    // About you.
    const about = card(page, "About you");
    await about.getByLabel("Country of citizenship").fill("India");
    await about.getByLabel("Country of tax residence").fill("India");
    await about.getByRole("radio", { name: "No", exact: true }).check();
    await about.getByLabel("Your school or university").fill("State University");
    await about.getByRole("button", { name: "Save" }).click();
    await expect(about.getByRole("status")).toContainText(
      "Saved your citizenship, country of tax residence, answer on Social Security and Medicare tax and school.",
    );
    await noSidewaysScroll(page, width);

    // Everything is listed as saved, after a reload too.
    await page.reload();
    await expect(card(page, me).getByRole("list", { name: `${me}: status periods` })).toContainText("F-1 student");
    await expect(card(page, me).getByRole("list", { name: `${me}: stays` }).getByRole("listitem")).toHaveCount(3);
    await expect(card(page, "Ravi Rao").getByRole("list", { name: "Ravi Rao: status periods" })).toContainText("H-4 dependant");
    await expect(card(page, "Ravi Rao")).toContainText("Travels with you: uses your stays");
    await expect(card(page, "Mia Rao").getByRole("list", { name: "Mia Rao: status periods" })).toContainText("F-2 dependant");
    const people = card(page, "Your household").getByRole("list", { name: "The people of your household" });
    await expect(people).toContainText("Ravi Rao");
    await expect(people).toContainText("Your spouse · born April 2, 1990 · travels with you");
    await expect(people).toContainText("Your child · born September 9, 2018 · travels with you");
    await expect(card(page, "About you").getByLabel("Country of citizenship")).toHaveValue("India");
    await expect(card(page, "About you").getByRole("radio", { name: "No", exact: true })).toBeChecked();
    await expect(card(page, "About you").getByLabel("Your school or university")).toHaveValue("State University");
    await noSidewaysScroll(page, width);
    const axe = await new AxeBuilder({ page }).include("main").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(axe.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
    await keepScreenshot(page, `residency-${width}`);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the forms are plain forms: a refused period shows its message by the field, a fixed one is added, a paste is read", async ({ page, request }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("residency-plain");
    const me = "Lena Plain";
    await createVerifiedUser(request, email, PASSWORD, me);
    await signIn(page, email);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto("/my-residency");

    const form = card(page, me).getByRole("form", { name: "Add a status period" });
    // Without JavaScript the program's list is always there.
    await form.getByLabel("Status").selectOption({ label: "J-1 exchange visitor" });
    await form.getByLabel("From").fill("2023-01-09");
    await form.getByLabel("To").fill("2023-01-01");
    await form.getByRole("button", { name: "Add status period" }).click();
    const refused = card(page, me).getByRole("form", { name: "Add a status period" });
    await expect(refused.getByLabel("What the program is for")).toHaveAccessibleDescription(/Choose what the J-1 program is for/);
    await expect(refused.getByLabel("To")).toHaveAccessibleDescription(/The last day in the status cannot be before its first day./);
    await expect(refused.getByLabel("From")).toHaveValue("2023-01-09");
    await expect(card(page, me).getByText("No status periods yet.")).toBeVisible();

    await refused.getByLabel("What the program is for").selectOption({ label: "Scholar" });
    await refused.getByLabel("To").fill("");
    await refused.getByRole("button", { name: "Add status period" }).click();
    await expect(card(page, me).getByRole("status")).toContainText("Added the status period J-1 exchange visitor (scholar), January 9, 2023 to now, to your history.");

    const i94 = card(page, "Paste your I-94 travel history");
    await i94.getByLabel("Your I-94 travel history").fill("2023-01-09 Arrival JFK");
    await i94.getByRole("button", { name: "Read my history" }).click();
    await expect(card(page, "Paste your I-94 travel history").getByRole("list", { name: "Stays read from your I-94 history" })).toContainText(
      "Arrived January 9, 2023 · Still here",
    );
    await card(page, "Paste your I-94 travel history").getByRole("button", { name: "Add this stay" }).click();
    await expect(card(page, me).getByRole("list", { name: `${me}: stays` })).toContainText("Arrived January 9, 2023 · Still here");
  });
});
