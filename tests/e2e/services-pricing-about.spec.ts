import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support";
import { howItWorks } from "~/content/about";
import { figures } from "~/content/business";
import { addOns, plans } from "~/content/plans";
import { services } from "~/content/services";

const axeTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

function trigger(page: Page, name: string): Locator {
  return page.getByRole("button", { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });
}

/** Clicks until the trigger reaches the wanted state: the first click may land before hydration. */
async function setOpen(button: Locator, open: boolean) {
  const wanted = String(open);
  await expect(async () => {
    if ((await button.getAttribute("aria-expanded")) !== wanted) await button.click();
    await expect(button).toHaveAttribute("aria-expanded", wanted, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(axeTags).analyze();
  expect(results.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
}

test.describe("/services", () => {
  test("lists all 8 services with their prices, and the page's stats", async ({ page }) => {
    await page.goto("/services");
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.locator("main h3")).toHaveCount(8);
    for (const service of services) {
      const button = trigger(page, service.name);
      await expect(button).toBeVisible();
      await expect(button).toContainText(service.price);
    }
    await expect(page.getByText("$150", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("On quote", { exact: true }).first()).toBeVisible();
    for (const [value, label] of [
      ["98%", "Success rate"],
      ["$2.8K", "Average refund"],
      ["24h", "Response"],
    ] as const) {
      await expect(page.getByText(value, { exact: true })).toBeVisible();
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
  });

  test("the accordion opens one item at a time, and clicking the open item closes it", async ({ page }) => {
    await page.goto("/services");
    const itin = trigger(page, "ITIN Processing");
    const fbar = trigger(page, "FBAR & FATCA Filing");
    const fica = trigger(page, "FICA Refund Assistance");

    // The first service is open on arrival (server-rendered).
    await expect(itin).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByText("Eligibility check before you apply")).toBeVisible();

    await setOpen(fbar, true);
    await expect(itin).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByText("Eligibility check before you apply")).toBeHidden();
    await expect(page.getByText("FBAR (FinCEN Form 114) filed electronically")).toBeVisible();
    await expect(page.getByRole("main").getByRole("button", { expanded: true })).toHaveCount(1);

    await fica.click();
    await expect(fica).toHaveAttribute("aria-expanded", "true");
    await expect(fbar).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByText("Form 843 and Form 8316 prepared for the IRS when needed")).toBeVisible();
    await expect(page.getByText("$300", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("main").getByRole("button", { expanded: true })).toHaveCount(1);

    // Clicking the open item closes it: nothing is open.
    await fica.click();
    await expect(fica).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByText("Form 843 and Form 8316 prepared for the IRS when needed")).toBeHidden();
    await expect(page.getByRole("main").getByRole("button", { expanded: true })).toHaveCount(0);
  });

  test("the accordion works with the keyboard (Enter and Space)", async ({ page }) => {
    await page.goto("/services");
    const itin = trigger(page, "ITIN Processing");
    const w4 = trigger(page, "W-4 Assistance");
    await setOpen(itin, false);

    await w4.focus();
    await expect(w4).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(w4).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByText("A completed Form W-4 to hand to your employer")).toBeVisible();

    await page.keyboard.press("Space");
    await expect(w4).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByText("A completed Form W-4 to hand to your employer")).toBeHidden();

    await page.keyboard.press("Space");
    await expect(w4).toHaveAttribute("aria-expanded", "true");

    // Arrow keys move between the headers; Enter opens the next one and closes the other.
    await page.keyboard.press("ArrowDown");
    const extension = trigger(page, "Form 4868 Extension");
    await expect(extension).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(extension).toHaveAttribute("aria-expanded", "true");
    await expect(w4).toHaveAttribute("aria-expanded", "false");

    // Tab reaches the open panel's Get Started link.
    await page.keyboard.press("Tab");
    const getStarted = page.getByRole("main").getByRole("link", { name: "Get Started" });
    await expect(getStarted).toBeFocused();
  });

  test("Get Started goes to /contact, and Learn more to the service's own page", async ({ page }) => {
    await page.goto("/services");
    const fbar = trigger(page, "FBAR & FATCA Filing");
    await setOpen(fbar, true);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "Learn more" })).toHaveAttribute("href", "/services/fbar-filing");
    const getStarted = main.getByRole("link", { name: "Get Started" });
    await expect(getStarted).toHaveText("Get Started");
    await expect(getStarted).toHaveAttribute("href", "/contact");
    await getStarted.click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test("a service can be opened from the address (/services#fica-refund)", async ({ page }) => {
    await page.goto("/services#fica-refund");
    await expect(trigger(page, "FICA Refund Assistance")).toHaveAttribute("aria-expanded", "true");
    await expect(trigger(page, "ITIN Processing")).toHaveAttribute("aria-expanded", "false");
  });

  test("has no accessibility violations with an item open, at 360 px", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/services");
    await setOpen(trigger(page, "International Forms"), true);
    await expect(page.getByText("A fixed quote before we begin")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe("/pricing", () => {
  test("shows the four plans with prices, periods, the Most Popular mark and the button labels", async ({ page }) => {
    await page.goto("/pricing");
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    const expected = [
      { name: "Basic Consultation", price: "Free", period: "one-time, 30 minutes", label: "Book Consultation for Free" },
      { name: "Standard Filing", price: "$299", period: "per tax year", label: "Get Started" },
      { name: "Premium Service", price: "$599", period: "per tax year", label: "Get Started" },
      { name: "Enterprise", price: "Custom", period: "annual contract", label: "Contact Us for Custom" },
    ];
    await expect(page.getByRole("article")).toHaveCount(plans.length);
    for (const plan of expected) {
      const card = page.getByRole("article", { name: plan.name });
      await expect(card.getByRole("heading", { name: plan.name })).toBeVisible();
      await expect(card.getByText(plan.price, { exact: true })).toBeVisible();
      await expect(card.getByText(plan.period, { exact: true })).toBeVisible();
      const button = card.getByRole("link", { name: plan.label, exact: true });
      await expect(button).toBeVisible();
      await expect(button).toHaveText(plan.label);
      await expect(button).toHaveAttribute("href", "/contact");
    }
    await expect(page.getByText("Most Popular", { exact: true })).toHaveCount(1);
    await expect(
      page.getByRole("article", { name: "Standard Filing" }).getByText("Most Popular", { exact: true }),
    ).toBeVisible();
  });

  test("shows the three add-ons with their prices", async ({ page }) => {
    await page.goto("/pricing");
    for (const [name, price] of [
      ["Rush Processing", "+$100"],
      ["Audit Protection", "+$150"],
      ["Prior Year Returns", "+$200"],
    ] as const) {
      await expect(page.getByRole("heading", { level: 3, name: new RegExp(`^${name}`) })).toBeVisible();
      await expect(page.getByText(price, { exact: true })).toBeVisible();
    }
    expect(addOns).toHaveLength(3);
    await expect(page.getByText("48-hour turnaround")).toBeVisible();
    await expect(page.getByText("per additional year", { exact: true })).toBeVisible();
  });

  test("the fees FAQ states the satisfaction guarantee on fees", async ({ page }) => {
    await page.goto("/pricing");
    const question = page.getByText("What does the satisfaction guarantee cover?");
    await question.click();
    await expect(page.getByText(/100% satisfaction guarantee applies to our fees/)).toBeVisible();
  });

  test("each plan button leads to /contact", async ({ page }) => {
    await page.goto("/pricing");
    await page.getByRole("main").getByRole("link", { name: "Book Consultation for Free" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await page.goto("/pricing");
    await page.getByRole("main").getByRole("link", { name: "Contact Us for Custom" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await page.goto("/pricing");
    await page.getByRole("article", { name: "Premium Service" }).getByRole("link", { name: "Get Started" }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test("the payment offer's PAY SECURELY NOW takes a visitor to sign in first, then to their fee", async ({ page }) => {
    await page.goto("/pricing");
    const offer = page.getByRole("region", { name: "Start your US tax filing today" });
    await expect(offer.getByText("₹299", { exact: true })).toBeVisible();
    await expect(offer.getByText("LIMITED TIME - 40% OFF", { exact: true })).toBeVisible();
    // The home page's grid of filing fees is not repeated next to the plans.
    await expect(page.getByRole("heading", { name: "Our filing fees" })).toHaveCount(0);
    await offer.getByRole("button", { name: "PAY SECURELY NOW" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpay$/);
  });
});

test.describe("/about", () => {
  test("shows mission, core values, the clients badge and How It Works", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.getByRole("heading", { name: "Our mission" })).toBeVisible();
    for (const value of ["Transparency", "Expertise", "Security"]) {
      await expect(page.getByRole("heading", { level: 3, name: value, exact: true })).toBeVisible();
    }
    await expect(page.getByText(`${figures.clientsServed} clients`, { exact: true })).toBeVisible();
    await expect(page.getByText("5000+")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 2, name: "How It Works" })).toBeVisible();
    const steps = page.locator("#how-it-works ol > li");
    await expect(steps).toHaveCount(8);
    for (const [i, step] of howItWorks.entries()) {
      await expect(steps.nth(i)).toContainText(step.stage);
      await expect(steps.nth(i).getByRole("heading", { name: step.title })).toBeVisible();
    }
  });

  test("its buttons go to /contact and /services", async ({ page }) => {
    await page.goto("/about");
    const main = page.getByRole("main");
    await main.getByRole("link", { name: "Contact us" }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
    await page.goto("/about");
    await main.getByRole("link", { name: "Explore our services" }).first().click();
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
