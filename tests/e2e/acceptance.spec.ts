import { expect, test, ADMIN, createVerifiedUser, signIn, signInAsStaffWithCode, uniqueEmail, GOOGLE_MOCK_URL } from "./support";
import type { Locator, Page } from "@playwright/test";
import { business } from "~/content/business";
import { heroSlides } from "~/content/home";
import { fatcaFacts, formatUsd } from "~/content/tax-facts";

// The public site and sign-in at a desktop and a phone width.
const widths = [
  { name: "1280 px", width: 1280, height: 900 },
  { name: "360 px", width: 360, height: 800 },
] as const;

/** The element lies inside the window, left to right. */
async function expectWithinWidth(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, "the element has a box").not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

/** The page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
}

for (const size of widths) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test.describe("sign-in replaces the sign-in page in the history", () => {
      test("a client signs in from /pricing with a password, and Back returns to /pricing", async ({ page, request }) => {
        const email = uniqueEmail("history");
        await createVerifiedUser(request, email);
        await page.goto("/pricing");
        await signIn(page, email);
        await expect(page).toHaveURL(/\/dashboard$/);
        await page.goBack();
        await expect(page).toHaveURL(/\/pricing$/);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Clear fees, agreed before we start");
      });

      test("a signed-in client who opens /login lands on the dashboard, and Back returns to /pricing", async ({ page, request }) => {
        const email = uniqueEmail("history");
        await createVerifiedUser(request, email);
        await signIn(page, email);
        await expect(page).toHaveURL(/\/dashboard$/);
        await page.goto("/pricing");
        await page.goto("/login");
        await expect(page).toHaveURL(/\/dashboard$/);
        await page.goBack();
        await expect(page).toHaveURL(/\/pricing$/);
      });

      test("a client signs in with Google from /pricing, and Back returns to /pricing", async ({ page }) => {
        const email = uniqueEmail("history-google");
        await page.route("https://accounts.google.com/**", async (route) => {
          const url = new URL(route.request().url());
          url.searchParams.set("test_email", email);
          url.searchParams.set("test_name", "Grace Google");
          await route.fulfill({ status: 302, headers: { location: `${GOOGLE_MOCK_URL}/authorize${url.search}` } });
        });
        await page.goto("/pricing");
        await page.goto("/login");
        await page.getByRole("button", { name: "Continue with Google" }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
        await page.goBack();
        await expect(page).toHaveURL(/\/pricing$/);
      });

      test("staff sign in from /pricing with a password and a code, and Back leaves the sign-in pages", async ({ page, request }) => {
        await createVerifiedUser(request, ADMIN);
        await page.goto("/pricing");
        await signInAsStaffWithCode(page);
        await page.goBack();
        await expect(page).toHaveURL(/\/pricing$/);
      });
    });

    test.describe("hero background pictures", () => {
      const heroSlide = (page: Page) => page.locator('[aria-label="Our main services"] [data-carousel-slide]');

      test("every slide shows its own picture behind the text, ", async ({ page }) => {
        await page.goto("/");
        await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
        const slides = heroSlide(page);
        await expect(slides).toHaveCount(heroSlides.length);
        for (const [i, slide] of heroSlides.entries()) {
          const image = slides.nth(i).locator("img[data-hero-image]");
          await expect(image).toHaveAttribute("src", slide.image);
          await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
          await expect(slides.nth(i).locator("[data-hero-image-fallback]")).toBeHidden();
        }
        // The first slide's picture covers the whole slide, at this width too.
        const first = slides.first();
        await expect(first.locator("img[data-hero-image]")).toBeVisible();
        const slideBox = (await first.boundingBox())!;
        const imageBox = (await first.locator("img[data-hero-image]").boundingBox())!;
        expect(imageBox.width).toBeCloseTo(slideBox.width, 0);
        expect(imageBox.height).toBeCloseTo(slideBox.height, 0);
        await expect(first.getByRole("heading", { level: 1 })).toHaveText(heroSlides[0]!.title);
      });

      test("a picture that fails to load leaves the slide's gradient with its icon", async ({ page }) => {
        await page.route("**/hero/*.svg", (route) => route.abort());
        await page.goto("/");
        await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
        const first = heroSlide(page).first();
        // The broken picture and its shade are gone; the icon shows on the gradient.
        await expect(page.locator("img[data-hero-image]")).toHaveCount(0);
        await expect(page.locator("[data-hero-image-shade]")).toHaveCount(0);
        const icon = first.locator(`[data-hero-fallback-icon="${heroSlides[0]!.art}"]`);
        await expect(icon).toBeVisible();
        await expectWithinWidth(page, icon);
        const gradient = await first.locator("> div").first().evaluate((el) => getComputedStyle(el).backgroundImage);
        expect(gradient).toContain("linear-gradient");
        await expect(first.getByRole("heading", { level: 1 })).toHaveText(heroSlides[0]!.title);
        // The other slides fall back the same way when they come round.
        await page.getByRole("button", { name: "Next slide" }).click();
        await expect(heroSlide(page).nth(1).locator(`[data-hero-fallback-icon="${heroSlides[1]!.art}"]`)).toBeVisible();
      });
    });

    test("the contact bar shows phone, WhatsApp, e-mail, hours and the badge, inside the page", async ({ page }) => {
      await page.goto("/");
      const bar = page.getByRole("complementary", { name: "Contact details" });
      const items = [
        bar.getByRole("link", { name: `Phone: ${business.phone.display}` }),
        bar.getByRole("link", { name: "WhatsApp (opens in a new tab)" }),
        bar.getByRole("link", { name: business.email }),
        bar.getByText(business.hours),
        bar.getByText(business.licensedBadge),
      ];
      for (const item of items) {
        await expect(item).toBeVisible();
        await expectWithinWidth(page, item);
      }
      await expect(bar.getByRole("link", { name: business.email })).toHaveAttribute("href", `mailto:${business.email}`);
      await expectNoSidewaysScroll(page);
    });

    test("the FBAR page's Form 8938 thresholds are all readable", async ({ page }) => {
      await page.goto("/services/fbar-filing");
      const callout = page.getByRole("region", { name: `Form 8938 (FATCA) thresholds, tax year ${fatcaFacts.taxYear}` });
      await expect(callout).toBeVisible();
      for (const row of fatcaFacts.thresholds) {
        // A table row at desktop width, a card on a phone: whichever is shown.
        const shown = callout.locator("tr, li").filter({ hasText: row.filer, visible: true });
        await expect(shown).toHaveCount(1);
        for (const text of [row.filer, formatUsd(row.lastDay), formatUsd(row.anyTime)]) {
          const cell = shown.getByText(text, { exact: true });
          await expect(cell).toBeVisible();
          await expectWithinWidth(page, cell);
        }
      }
      // Every figure is named by its column's question.
      for (const label of ["Total on the last day of the year is more than", "Or at any time in the year it was more than"]) {
        await expect(callout.getByText(label, { exact: true }).filter({ visible: true }).first()).toBeVisible();
      }
      await expectNoSidewaysScroll(page);
    });
  });
}

test("on /pricing at 1280 px every plan button keeps its label on one line", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/pricing");
  const free = page.getByRole("link", { name: "Book Consultation for Free" });
  // The same kind of button, with a short label.
  const paid = page.getByRole("link", { name: "Contact Us for Custom" });
  await expect(free).toBeVisible();
  const [freeBox, paidBox] = [(await free.boundingBox())!, (await paid.boundingBox())!];
  expect(freeBox.height).toBe(paidBox.height);
  // The label's text fits the button's content box without wrapping.
  const lines = await free.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);
});

test("the reset-password page shows the firm's logo once", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/reset-password?token=not-a-real-token");
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  const logos = page.locator('svg[viewBox="0 0 32 32"]');
  await expect(page.locator("header").first().locator('svg[viewBox="0 0 32 32"]')).toBeVisible();
  await expect(page.locator("main").locator('svg[viewBox="0 0 32 32"]')).toHaveCount(0);
  // The header's and the footer's, nothing more.
  await expect(logos).toHaveCount(2);
});

test.describe("sign-in pages without the site header keep their own logo", () => {
  test("the sign-in page shows the logo above its card", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator("main").getByRole("link", { name: "TaxBridge home" })).toBeVisible();
    await expect(page.locator("header")).toHaveCount(0);
  });
});
