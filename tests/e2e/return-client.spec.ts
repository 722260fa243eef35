import { expect, test, createVerifiedUser, signIn, uniqueEmail } from "./support";
import type { Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";

// The client's side of the return in the browser, as far as it is reachable without staff: a
// draft, a signature request and an identity check are staff's actions, whose pages are not part
// of this, and the e2e server's database (PGlite) is its own process's alone. The whole flow
// (review, changes, approval, code, signature, hand-signed form, spouse's link, history) is
// covered by tests/integration/client-return.test.ts through the same routes.

const SEASON = currentFilingYear();
const BAD_LINK = "This signing link is not valid or has expired. Ask the firm for a new one.";

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

for (const device of [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const) {
  test.describe(`at ${device.name} width`, () => {
    test.use({ viewport: device.viewport });

    test("a filing without a return shows nothing of it, and its form and draft addresses are 404", async ({ page, request }) => {
      const email = uniqueEmail(`return-none-${device.name}`);
      await createVerifiedUser(request, email);
      await signIn(page, email);
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.goto(`/my-tax-filing/${SEASON}`);
      await expect(page.getByRole("heading", { level: 1, name: `${SEASON} tax filing` })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Review your draft return" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: /Sign your e-file authorisation/ })).toHaveCount(0);
      await expect(page.getByRole("list", { name: "Your return" })).toHaveCount(0);
      await expectNoSidewaysScroll(page);

      await page.goto("/my-tax-filing");
      await expect(page.getByText("Draft ready for your review")).toHaveCount(0);
      await expect(page.getByText("Signature needed")).toHaveCount(0);

      expect((await page.request.get(`/my-tax-filing/${SEASON}/signing-form`)).status()).toBe(404);
      expect((await page.request.get(`/my-tax-filing/${SEASON}/return/00000000-0000-4000-8000-000000000000`)).status()).toBe(404);
    });

    test("a signing link that does not work shows the clear page, not indexed and not cached", async ({ page }) => {
      const token = "Zm9yZ2VkLXRva2VuLXRoYXQtZG9lcy1ub3QtZXhpc3QtYXQtYWxs";
      const answer = await page.goto(`/sign/${token}`);
      expect(answer?.status()).toBe(404);
      expect(answer?.headers()["cache-control"]).toContain("no-store");
      expect(answer?.headers()["x-robots-tag"]).toContain("noindex");
      // Other sites are sent no path (so no token) as referrer.
      expect(answer?.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      await expect(page.getByRole("heading", { level: 1, name: "Signing link not valid" })).toBeVisible();
      await expect(page.getByText(BAD_LINK)).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      await expectNoSidewaysScroll(page);
      expect((await page.request.get(`/sign/${token}/form`)).status()).toBe(404);
    });
  });
}

test("without JavaScript a signing link that does not work shows the same page, and posting to it changes nothing", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const answer = await page.goto("/sign/not-a-real-link-token-000000000000");
  expect(answer?.status()).toBe(404);
  await expect(page.getByText(BAD_LINK)).toBeVisible();
  const posted = await page.request.post("/sign/not-a-real-link-token-000000000000", { form: { intent: "send-code" } });
  expect(posted.status()).toBe(409);
  await context.close();
});
