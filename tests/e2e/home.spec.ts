import { expect, test } from "./support";
import type { Page } from "@playwright/test";
import { heroSlides, paymentPricingGrid, paymentSection, testimonials } from "../../app/content/home";
import { servicePages } from "../../app/content/service-pages";

function slideTitle(n: number): string {
  const slide = heroSlides[n];
  if (!slide) throw new Error(`no slide ${n}`);
  return slide.title;
}

function testimonialName(n: number): string {
  const entry = testimonials[n];
  if (!entry) throw new Error(`no testimonial ${n}`);
  return entry.name;
}

const hero = (page: Page) => page.getByRole("region", { name: "Our main services" });
const testimonialCarousel = (page: Page) => page.getByRole("region", { name: "Client testimonials" });

/** The carousel controls appear once the page is interactive. */
/**
 * Fake timers that stand still until the test moves them: on a slow machine the real seconds a
 * page takes to load and to be checked would otherwise count toward a carousel's interval.
 */
async function stopTheClock(page: Page) {
  const start = new Date("2026-01-15T12:00:00Z").getTime();
  await page.clock.install({ time: start });
  // Before any page exists, so jumping ahead fires nothing; a minute ahead of the installed time,
  // so the jump is forward however long the two calls take.
  await page.clock.pauseAt(start + 60_000);
}

async function open(page: Page) {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Pause slide rotation" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pause testimonials" })).toBeVisible();
}

async function expectSlide(page: Page, n: number) {
  for (let i = 0; i < heroSlides.length; i++) {
    const heading = hero(page).getByRole("heading", { name: slideTitle(i) });
    if (i === n) await expect(heading).toBeVisible();
    else await expect(heading).toBeHidden();
  }
}

async function expectTestimonial(page: Page, n: number) {
  for (let i = 0; i < testimonials.length; i++) {
    const name = testimonialCarousel(page).getByText(testimonialName(i), { exact: true });
    if (i === n) await expect(name).toBeVisible();
    else await expect(name).toBeHidden();
  }
}

test.describe("home hero carousel", () => {
  test("shows the first slide's title as the page heading", async ({ page }) => {
    await open(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(slideTitle(0));
    await expect(page.locator("h1")).toHaveCount(1);
  });

  test("advances every 30 seconds and wraps around", async ({ page }) => {
    await stopTheClock(page);
    await open(page);
    await expectSlide(page, 0);

    await page.clock.runFor(25_000);
    await expectSlide(page, 0);
    await page.clock.runFor(5_000);
    await expectSlide(page, 1);

    await page.clock.runFor(30_000);
    await expectSlide(page, 2);

    await page.clock.runFor(30_000);
    await expectSlide(page, 0);
  });

  test("the arrows and dots set the slide", async ({ page }) => {
    await open(page);
    const next = page.getByRole("button", { name: "Next slide" });
    const previous = page.getByRole("button", { name: "Previous slide" });

    await next.click();
    await expectSlide(page, 1);
    await next.click();
    await expectSlide(page, 2);
    await next.click();
    await expectSlide(page, 0);
    await previous.click();
    await expectSlide(page, 2);

    await page.getByRole("button", { name: /^Slide 2:/ }).click();
    await expectSlide(page, 1);
    await expect(page.getByRole("button", { name: /^Slide 2:/ })).toHaveAttribute("aria-current", "true");
    await page.getByRole("button", { name: /^Slide 1:/ }).click();
    await expectSlide(page, 0);
  });

  test("a click on a control restarts the 30 seconds", async ({ page }) => {
    await stopTheClock(page);
    await open(page);
    await page.clock.runFor(20_000);
    await page.getByRole("button", { name: /^Slide 1:/ }).click();
    await page.clock.runFor(20_000);
    await expectSlide(page, 0);
    await page.clock.runFor(10_000);
    await expectSlide(page, 1);
  });

  test("the pause button stops the rotation and play starts it again", async ({ page }) => {
    await stopTheClock(page);
    await open(page);
    await page.getByRole("button", { name: "Pause slide rotation" }).click();
    // 50 s is not a multiple of 30 s, so a carousel that kept turning would show another slide.
    await page.clock.runFor(50_000);
    await expectSlide(page, 0);

    await page.getByRole("button", { name: "Start slide rotation" }).click();
    await page.clock.runFor(30_000);
    await expectSlide(page, 1);
  });

  test("rotation stops while keyboard focus is inside the carousel", async ({ page }) => {
    await stopTheClock(page);
    await open(page);
    await page.getByRole("button", { name: "Pause slide rotation" }).focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Previous slide" })).toBeFocused();
    await page.clock.runFor(50_000);
    await expectSlide(page, 0);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(30_000);
    await expectSlide(page, 1);
  });

  test("does not rotate on its own for visitors who prefer reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await stopTheClock(page);
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Start slide rotation" })).toBeVisible();
    await page.clock.runFor(50_000);
    await expectSlide(page, 0);
  });
});

test.describe("home testimonial carousel", () => {
  test("advances every 5 seconds and wraps around", async ({ page }) => {
    await stopTheClock(page);
    await open(page);
    await expectTestimonial(page, 0);
    await page.clock.runFor(4_000);
    await expectTestimonial(page, 0);
    await page.clock.runFor(1_000);
    await expectTestimonial(page, 1);
    await page.clock.runFor(5_000);
    await expectTestimonial(page, 2);
    await page.clock.runFor(5_000);
    await expectTestimonial(page, 3);
    await page.clock.runFor(5_000);
    await expectTestimonial(page, 0);
  });

  test("does not advance while the pointer is over it", async ({ page }) => {
    await stopTheClock(page);
    await open(page);
    await testimonialCarousel(page).hover();
    // 12 s is not a multiple of 5 s, so a carousel that kept turning would show another entry.
    await page.clock.runFor(12_000);
    await expectTestimonial(page, 0);

    await page.mouse.move(0, 0);
    await page.clock.runFor(5_000);
    await expectTestimonial(page, 1);
  });

  test("previous and next set the testimonial", async ({ page }) => {
    await open(page);
    await page.getByRole("button", { name: "Next testimonial" }).click();
    await expectTestimonial(page, 1);
    await page.getByRole("button", { name: "Previous testimonial" }).click();
    await page.getByRole("button", { name: "Previous testimonial" }).click();
    await expectTestimonial(page, 3);
  });

  test("shows star ratings, the verified badge and the stats", async ({ page }) => {
    await open(page);
    const first = testimonials[0];
    if (!first) throw new Error("no testimonial");
    await expect(
      testimonialCarousel(page).getByRole("img", { name: `Rated ${first.rating} out of 5` }),
    ).toBeVisible();
    if (first.verified) {
      const slide = testimonialCarousel(page).getByRole("group", { name: `1 of ${testimonials.length}` });
      await expect(slide.getByText("Verified", { exact: true })).toBeVisible();
    }

    const section = page.getByRole("region", { name: "What our clients say" });
    for (const text of ["97.5%", "$1.2M+", "50+", "24/7"]) {
      await expect(section.getByText(text, { exact: true })).toBeVisible();
    }
  });
});

test.describe("home page content", () => {
  test("links the six service cards and shows the showcase stats", async ({ page }) => {
    await page.goto("/");
    const showcase = page.getByRole("region", { name: "US tax help for every step of your stay" });
    for (const service of servicePages) {
      await expect(showcase.getByRole("link", { name: service.name })).toHaveAttribute("href", service.path);
    }
    for (const text of ["50+", "5", "97.5%"]) {
      await expect(showcase.getByText(text, { exact: true })).toBeVisible();
    }
  });

  test("offers a way to contact the firm and to sign up", async ({ page }) => {
    await page.goto("/");
    const cta = page.getByRole("region", { name: "Ready to file with confidence?" });
    await expect(cta.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/signup");
    await expect(cta.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
  });

  test("reads without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: slideTitle(0) })).toBeVisible();
    await expect(page.getByText(testimonialName(0), { exact: true })).toBeVisible();
    await expect(page.getByText("PAY SECURELY NOW")).toBeVisible();
    await context.close();
  });
});

test.describe("home payment section", () => {
  test("shows the offer, the accepted cards and the pricing grid", async ({ page }) => {
    await page.goto("/");
    const section = page.getByRole("region", { name: "Start your US tax filing today" });
    await expect(section.getByText("₹299", { exact: true })).toBeVisible();
    await expect(section.locator("del")).toContainText("₹499");
    await expect(section.getByText("Save ₹200", { exact: true })).toBeVisible();
    await expect(section.getByText("LIMITED TIME - 40% OFF", { exact: true })).toBeVisible();
    for (const card of ["Visa", "Mastercard", "American Express", "RuPay"]) {
      await expect(section.getByRole("img", { name: card, exact: true })).toBeVisible();
    }
    for (const entry of paymentPricingGrid) {
      const item = section
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: entry.name, exact: true }) });
      await expect(item).toContainText(entry.price);
    }
    await expect(section.getByText("Standard Filing", { exact: true })).toBeVisible();
  });

  test("PAY SECURELY NOW reads PROCESSING..., then takes a visitor to sign in first", async ({ page }) => {
    await open(page);
    // Hold /pay's answer so the busy state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/pay", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "PAY SECURELY NOW" }).click();
    await expect(page.getByRole("button", { name: "PROCESSING..." })).toHaveAttribute("aria-disabled", "true");
    release();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpay$/);
  });

  test("without JavaScript the button's form still leads to sign-in", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "PAY SECURELY NOW" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpay$/);
    await context.close();
  });
});

test("when the server cannot be reached the button alerts Payment failed. Please try again.", async ({ page }) => {
  await open(page);
  await page.route("**/pay", (route) => route.abort("connectionrefused"));
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.accept();
  });
  await page.getByRole("button", { name: "PAY SECURELY NOW" }).click();
  await expect(page.getByRole("button", { name: "PAY SECURELY NOW" })).not.toHaveAttribute("aria-disabled");
  expect(dialogs).toEqual([paymentSection.failureMessage]);
  expect(page.url()).not.toContain("/login");
});
