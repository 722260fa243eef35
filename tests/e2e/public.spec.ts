import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./support";
import { publicPaths } from "~/content/public-routes";
import { servicePages } from "~/content/service-pages";

test.describe("every public page", () => {
  for (const path of publicPaths) {
    test(`${path} answers 200 with one heading, its own title and SEO tags`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.locator("h1")).toBeVisible();
      await expect(page).toHaveTitle(/TaxBridge/);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /^.{50,}$/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path === "/" ? "/" : path}$`));
      await expect(page.locator('meta[property="og:title"]')).toHaveCount(1);
    });
  }

  test("page titles are all different", async ({ request }) => {
    const titles = new Set<string>();
    for (const path of publicPaths) {
      const html = await (await request.get(path)).text();
      titles.add(html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "");
    }
    expect(titles.size).toBe(publicPaths.length);
  });

  for (const width of [1280, 360]) {
    test(`axe finds no accessibility violations at ${width} px`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      for (const path of publicPaths) {
        await page.goto(path);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
        const summary = results.violations.map((v) => `${path}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target.join(" ")}`);
        expect(summary).toEqual([]);
      }
    });
  }
});

test("an unknown address shows the 404 page in the site's style", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible();
  expect(await page.content()).not.toMatch(/at .*\.(js|ts):\d+/);
});

test("sitemap, robots and health answer", async ({ request, baseURL }) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  const xml = await sitemap.text();
  for (const path of publicPaths) expect(xml).toContain(`<loc>${baseURL}${path}</loc>`);
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  expect((await request.get("/healthz")).status()).toBe(200);
  const favicon = await request.get("/favicon.svg");
  expect(favicon.status()).toBe(200);
});

test("built assets are cached for a year and HTML is not cached", async ({ request }) => {
  // Read the server-rendered HTML: after hydration React Router may drop its preload links.
  const html = await request.get("/");
  expect(html.headers()["cache-control"]).toBe("no-cache");
  // The home page's one script (docs/decisions/0008-zero-js-public-pages.md).
  const script = /<script type="module"[^>]* src="([^"]+)"/.exec(await html.text())?.[1];
  expect(script).toMatch(/^\/assets\//);
  const asset = await request.get(script!);
  expect(asset.headers()["cache-control"]).toContain("immutable");
  expect(asset.headers()["cache-control"]).toContain("max-age=31536000");
});

test.describe("header", () => {
  test("the Services menu opens on hover and on keyboard focus, and closes on Escape and navigation", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/about");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const nav = page.getByRole("navigation", { name: "Main" });
    const button = nav.getByRole("button", { name: "Services" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.hover();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    for (const s of servicePages) await expect(nav.getByRole("link", { name: new RegExp(s.name) })).toBeVisible();
    await page.mouse.move(5, 600);
    await expect(button).toHaveAttribute("aria-expanded", "false");

    await button.focus();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toBeFocused();

    await button.click();
    await nav.getByRole("link", { name: /FBAR/ }).click();
    await expect(page).toHaveURL(/\/services\/fbar-filing$/);
    await expect(nav.getByRole("link", { name: /ITIN Processing/ })).toBeHidden();
  });

  test("desktop shows Home, About, Contact, Sign In and Get Started for visitors", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    const header = page.locator("header");
    for (const name of ["Home", "About", "Contact"]) await expect(header.getByRole("link", { name, exact: true }).first()).toBeVisible();
    await expect(header.getByRole("link", { name: "Sign In" }).first()).toHaveAttribute("href", "/login");
    await expect(header.getByRole("link", { name: "Get Started" }).first()).toHaveAttribute("href", "/signup");
  });

  test("the mobile menu toggles, lists everything and closes on navigation", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeVisible();
    for (const name of ["Home", "About", "Contact", "Sign In", "Get Started", ...servicePages.map((s) => s.name)]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await menu.getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(menu).toBeHidden();
    // Public pages are full page loads: wait for the new page to be interactive.
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
  });

  test("takes its scrolled look past 20 pixels", async ({ page }) => {
    await page.goto("/privacy");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const header = page.locator("header").first();
    await expect(header).toHaveAttribute("data-scrolled", "false");
    await page.evaluate(() => window.scrollTo(0, 21));
    await expect(header).toHaveAttribute("data-scrolled", "true");
    await page.evaluate(() => window.scrollTo(0, 20));
    await expect(header).toHaveAttribute("data-scrolled", "false");
  });

  test("the contact bar shows phone, WhatsApp, e-mail, hours and the licensed badge", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    const bar = page.getByRole("complementary", { name: "Contact details" });
    await expect(bar.getByText("Mon-Fri 9AM-6PM EST")).toBeVisible();
    await expect(bar.getByText("Licensed Professionals")).toBeVisible();
    await expect(page.locator('a[href^="tel:"]').first()).toBeVisible();
    await expect(page.locator('a[href^="https://wa.me/"]').first()).toBeVisible();
  });

  test("the footer links the six services, About as How It Works, pricing, contact and policies", async ({ page }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    for (const s of servicePages) await expect(footer.getByRole("link", { name: s.name })).toHaveAttribute("href", s.path);
    await expect(footer.getByRole("link", { name: "How It Works" })).toHaveAttribute("href", "/about");
    for (const href of ["/pricing", "/contact", "/privacy", "/terms"]) await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
    await expect(footer).toContainText("Hyderabad");
  });
});
