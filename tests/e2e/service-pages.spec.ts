import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./support";
import { telLink, whatsappLink } from "~/content/business";
import { POLICIES_LAST_UPDATED } from "~/content/policies";
import { serviceDetails } from "~/content/service-details";
import { servicePages } from "~/content/service-pages";

const ITIN = "/services/itin-processing";
const axeTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** Clicks a tab until it is selected: the first click may land before the page has hydrated. */
async function openTab(page: Page, name: string) {
  const tab = page.getByRole("tab", { name, exact: true });
  await expect(async () => {
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return tab;
}

test.describe("ITIN Processing tabs", () => {
  test("show Overview first and switch by click, with one visible panel at a time", async ({ page }) => {
    await page.goto(ITIN);
    await expect(page.getByRole("heading", { level: 1, name: "ITIN Processing" })).toBeVisible();
    await expect(
      page.getByText("ITIN: the tax number for people who cannot get an SSN.").first(),
    ).toBeVisible();

    const tabs = page.getByRole("tab");
    await expect(tabs).toHaveText(["Overview", "Process", "Pricing", "Get Started"]);
    await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toHaveCount(1);
    await expect(page.getByRole("tabpanel")).toContainText("Form W-7");

    await openTab(page, "Pricing");
    const pricing = page.getByRole("tabpanel");
    await expect(pricing).toHaveCount(1);
    await expect(pricing.getByRole("heading", { name: "Standard Processing" })).toBeVisible();
    await expect(pricing.getByRole("heading", { name: "Expedited Processing" })).toBeVisible();
    await expect(pricing).toContainText("$199");
    await expect(pricing).toContainText("6-10 weeks");
    await expect(pricing).toContainText("$299");
    await expect(pricing).toContainText("2-4 weeks");
    await expect(pricing.getByText("Most Popular")).toBeVisible();
    await expect(pricing.getByText("per application", { exact: true })).toHaveCount(2);
    // The Overview panel is hidden from everyone, not only moved off screen.
    await expect(page.getByRole("heading", { name: "Who needs this" })).toBeHidden();

    await openTab(page, "Process");
    await expect(page.getByRole("tabpanel").getByRole("heading", { level: 3 })).toHaveText([
      "Document Review",
      "Application Preparation",
      "IRS Submission",
      "Status Tracking",
      "How long it takes",
    ]);

    await openTab(page, "Get Started");
    const start = page.getByRole("tabpanel");
    await expect(start.getByRole("link", { name: "Call us" })).toHaveAttribute("href", telLink);
    await expect(start.getByRole("link", { name: /Chat on WhatsApp/ })).toHaveAttribute(
      "href",
      whatsappLink(serviceDetails["itin-processing"].whatsappText),
    );
    await expect(start.getByRole("link", { name: "Send us a message" })).toHaveAttribute("href", "/contact");
    await expect(start.getByRole("link", { name: "Create your account" })).toHaveAttribute("href", "/signup");
  });

  test("switch with the arrow keys, Home and End", async ({ page }) => {
    await page.goto(ITIN);
    await openTab(page, "Process");
    const overview = await openTab(page, "Overview");
    await overview.focus();

    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Process" })).toBeFocused();
    await expect(page.getByRole("tab", { name: "Process" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("Document Review");

    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Pricing" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("$199");
    await expect(page.getByRole("tabpanel")).toContainText("$299");

    await page.keyboard.press("End");
    await expect(page.getByRole("tab", { name: "Get Started" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowRight"); // wraps around
    await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("tab", { name: "Get Started" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Home");
    await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");

    // Tab moves from the tab list into the open panel.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("tabpanel")).toBeFocused();
  });

  test("an address ending in #pricing opens the Pricing tab", async ({ page }) => {
    await page.goto(`${ITIN}#pricing`);
    await expect(page.getByRole("tab", { name: "Pricing" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toContainText("Expedited Processing");
  });

  test("every panel is in the server-rendered HTML", async ({ request }) => {
    const html = await (await request.get(ITIN)).text();
    for (const text of [
      "Who needs this",
      "Document Review",
      "Status Tracking",
      "Standard Processing",
      "Most Popular",
      "What happens next",
      "/signup",
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html.match(/<div[^>]*role="tabpanel"/g)).toHaveLength(4);
  });

  test("axe finds no violations with each tab open", async ({ page }) => {
    await page.goto(ITIN);
    for (const name of ["Overview", "Process", "Pricing", "Get Started"]) {
      await openTab(page, name);
      const results = await new AxeBuilder({ page }).withTags(axeTags).analyze();
      expect(results.violations.map((v) => `${name}: ${v.id} ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
    }
  });
});

test.describe("ITIN Processing without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("reads top to bottom: every panel shows and the tab list is hidden", async ({ page }) => {
    await page.goto(ITIN);
    await expect(page.getByRole("tablist")).toBeHidden();
    for (const heading of ["Overview", "Process", "Pricing", "Get Started"]) {
      await expect(page.getByRole("heading", { level: 2, name: heading, exact: true })).toBeVisible();
    }
    await expect(page.getByText("$299").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Status Tracking" })).toBeVisible();
  });
});

test.describe("the other service pages", () => {
  for (const service of servicePages.filter((s) => s.slug !== "itin-processing")) {
    test(`${service.path} answers the six questions and offers call and chat`, async ({ page }) => {
      const detail = serviceDetails[service.slug];
      await page.goto(service.path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(service.name);
      for (const question of [
        "Who needs this",
        "What we do",
        "What you provide",
        "How long it takes",
        "What it costs",
        "What happens next",
      ]) {
        await expect(page.getByRole("heading", { level: 2, name: question })).toBeVisible();
      }

      const call = page.getByRole("link", { name: "Call us" }).first();
      await expect(call).toBeVisible();
      await expect(call).toHaveAttribute("href", /^tel:\+/);
      await expect(call).toHaveAttribute("href", telLink);

      const chat = page.getByRole("link", { name: /Chat on WhatsApp/ }).first();
      await expect(chat).toBeVisible();
      const href = (await chat.getAttribute("href")) ?? "";
      expect(href).toContain("wa.me");
      const text = new URL(href).searchParams.get("text") ?? "";
      expect(text).toBe(detail.whatsappText);
      expect(text.length).toBeGreaterThan(10);

      await expect(page.getByText(/^From \$\d+/).first()).toBeVisible();
    });
  }

  test("FBAR states the threshold and current penalties", async ({ page }) => {
    await page.goto("/services/fbar-filing");
    const main = page.locator("main");
    await expect(main).toContainText("$10,000");
    await expect(main).toContainText("per report, not per account");
    await expect(main).not.toContainText("12,921");
    await expect(page.getByRole("table")).toContainText("$75,000");
  });

  test("Form 4868 separates the time to file (October 15) from the time to pay (April 15)", async ({
    page,
  }) => {
    await page.goto("/services/form-4868-extension");
    const main = page.locator("main");
    await expect(main).toContainText("October 15");
    await expect(main).toContainText("April 15");
    await expect(main).toContainText("not more time to pay");
  });

  test("1040 links to the contact page", async ({ page }) => {
    await page.goto("/services/1040-returns");
    await expect(page.locator("main").getByRole("link", { name: "contact us" }).first()).toHaveAttribute(
      "href",
      "/contact",
    );
  });
});

test.describe("policy pages", () => {
  for (const path of ["/privacy", "/terms"]) {
    test(`${path} shows its date and a working table of contents`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByText(`Last updated ${POLICIES_LAST_UPDATED}`)).toBeVisible();
      await expect(page.getByText("Last updated January 1, 2025")).toBeVisible();
      const toc = page.getByRole("navigation", { name: "On this page" });
      const links = toc.getByRole("link");
      expect(await links.count()).toBeGreaterThan(8);
      const last = links.last();
      const target = (await last.getAttribute("href")) ?? "";
      // Retried: a click that lands while the page hydrates can have its scroll reset.
      await expect(async () => {
        await last.click();
        await expect(page.locator(target)).toBeInViewport({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await expect(page).toHaveURL(new RegExp(`${target}$`));
    });
  }

  test("privacy keeps records at least seven years and never sells data", async ({ page }) => {
    await page.goto("/privacy");
    await expect(page.locator("main")).toContainText("at least seven years");
    await expect(page.locator("main")).toContainText("never sell");
  });

  test("terms name New York law, arbitration and the fee guarantee", async ({ page }) => {
    await page.goto("/terms");
    const main = page.locator("main");
    await expect(main).toContainText("State of New York");
    await expect(main).toContainText("arbitration");
    await expect(main).toContainText("The guarantee applies to our fees only");
  });
});
