import AxeBuilder from "@axe-core/playwright";
import { expect, test, ADMIN, PASSWORD, createVerifiedUser, keepScreenshot, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";
import { sampleTaxpayer } from "../helpers/taxpayer";

// Accessibility of the signed-in pages of tax-year cases, with realistic data (a client with two
// tax years, the taxpayer information sent for one, a client upload and a shared staff document, a
// note and a reveal), at a desktop's width and a phone's: axe finds nothing, nothing scrolls
// sideways on a phone, and every tap target on a phone is at least 44 px. With E2E_SCREENSHOTS=1,
// screenshots of each page are saved under .tmp/shots/ for a person to look at.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const EARLIER = YEAR - 1;
const CLIENT_NAME = "Amara Accessible";
const PDF = (label: string) => Buffer.from(`%PDF-1.4\n% ${label}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);

let staffContext: BrowserContext;
let staffPage: Page;
let clientContext: BrowserContext;
let clientPage: Page;
let clientId: string;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  staffContext = await browser.newContext();
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staffPage);

  const email = uniqueEmail("a11y");
  await createVerifiedUser(request, email, PASSWORD, CLIENT_NAME);
  clientContext = await browser.newContext();
  clientPage = await clientContext.newPage();
  await signIn(clientPage, email);
  await expect(clientPage).toHaveURL(/\/dashboard/);

  // The client sends this year's taxpayer information, starts the earlier year and uploads a W-2.
  const saved = await clientPage.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer });
  expect(saved.status()).toBe(200);
  await clientPage.request.post("/my-tax-filing", { form: { intent: "start-year", taxYear: String(EARLIER) } });
  const uploaded = await clientPage.request.post(`/my-tax-filing/${YEAR}/documents`, {
    multipart: {
      category: "w-2",
      files: { name: "w2-employer.pdf", mimeType: "application/pdf", buffer: PDF("w2") },
    },
  });
  expect(uploaded.status()).toBe(200);

  clientId = await clientIdOf(staffPage.request, email);

  // Staff upload a final copy and share it, add a note and reveal the SSN (all through the page's own forms).
  const staffUpload = await staffPage.request.post(`/admin/clients/${clientId}/documents/upload?year=${YEAR}`, {
    multipart: {
      category: "other-documents",
      files: { name: "final-return.pdf", mimeType: "application/pdf", buffer: PDF("final") },
    },
  });
  expect(staffUpload.status()).toBe(200);
  await staffPage.goto(`/admin/clients/${clientId}/${YEAR}/documents`);
  await expect(staffPage.locator("html[data-hydrated]")).toHaveCount(1);
  const documents = staffPage.getByRole("region", { name: "Documents", exact: true });
  const row = documents.getByRole("listitem").filter({ hasText: "final-return.pdf" });
  await row.getByRole("button", { name: "Share final-return.pdf with the client" }).click();
  await expect(row).toContainText("Shared with client");
  await staffPage.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Notes & activity" }).click();
  const notes = staffPage.getByRole("region", { name: "Notes" });
  await notes.locator('textarea[name="body"]').fill("Called the client: the 1042-S arrives next week.");
  await notes.getByRole("button").last().click();
  await expect(notes).toContainText("the 1042-S arrives next week");
  await staffPage.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Taxpayer information" }).click();
  const taxpayer = staffPage.getByRole("region", { name: "Taxpayer information" });
  await taxpayer.getByRole("button", { name: "Reveal SSN/ITIN" }).click();
  await expect(taxpayer.getByTestId("revealed-ssn")).toHaveText(sampleTaxpayer.ssn_tin);
});

test.afterAll(async () => {
  await staffContext?.close();
  await clientContext?.close();
});

type Check = { name: string; who: "client" | "staff"; path: () => string };

const pages: Check[] = [
  { name: "my-tax-filing", who: "client", path: () => "/my-tax-filing" },
  { name: "filing-year", who: "client", path: () => `/my-tax-filing/${YEAR}` },
  { name: "filing-earlier-year", who: "client", path: () => `/my-tax-filing/${EARLIER}` },
  { name: "dashboard-year", who: "client", path: () => `/dashboard?year=${YEAR}` },
  { name: "dashboard-earlier-year", who: "client", path: () => `/dashboard?year=${EARLIER}` },
  { name: "admin-dashboard", who: "staff", path: () => `/admin/dashboard?year=${YEAR}` },
  { name: "admin-case", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}` },
  { name: "admin-case-earlier", who: "staff", path: () => `/admin/clients/${clientId}/${EARLIER}` },
  { name: "admin-case-taxpayer", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}/taxpayer` },
  { name: "admin-case-documents", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}/documents` },
  { name: "admin-case-requests", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}/requests` },
  { name: "admin-case-workflow", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}/workflow` },
  { name: "admin-case-return", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}/return` },
  { name: "admin-case-notes", who: "staff", path: () => `/admin/clients/${clientId}/${YEAR}/notes` },
  { name: "admin-documents", who: "staff", path: () => `/admin/clients/${clientId}/documents?year=${YEAR}` },
];

/** Tap targets smaller than 44 × 44 px in the page's main content or dialog; links inside sentences are exempt. */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const scope = Array.from(document.querySelectorAll("main, [role=dialog], dialog[open]"));
    const seen = new Set<Element>();
    const small: string[] = [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 50)}"`;
    for (const root of scope) {
      for (const control of Array.from(
        root.querySelectorAll("a[href], button, select, summary, input[type=checkbox], input[type=radio]"),
      )) {
        let target: Element = control;
        if (control instanceof HTMLInputElement) target = control.closest("label") ?? control;
        if (seen.has(target)) continue;
        seen.add(target);
        const style = getComputedStyle(target);
        if (style.visibility === "hidden" || style.display === "none") continue;
        const box = target.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        // Screen-reader-only (1 px) elements are not tap targets.
        if (box.width <= 1 && box.height <= 1) continue;
        if (control.tagName === "A") {
          // An inline link inside a sentence: the parent block has more text than the link.
          const parent = control.parentElement;
          const own = (control.textContent ?? "").trim().length;
          const around = (parent?.textContent ?? "").trim().length;
          if (style.display === "inline" && around > own + 10) continue;
        }
        if (box.height < 44 || box.width < 44)
          small.push(`${describe(target)} ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return small;
  });
}

// One test for every page at both widths, with soft checks, so that one page's finding does not
// hide the others' (the seeded data is shared, and staff codes are single-use).
test("each page: no axe violations at 1280 and 390 px; at 390 px no sideways scroll and tap targets of 44 px", async () => {
  test.setTimeout(240_000);
  for (const width of [1280, 390]) {
    const height = width > 800 ? 800 : 844;
    for (const check of pages) {
      await test.step(`${check.name} at ${width} px`, async () => {
        const page = check.who === "client" ? clientPage : staffPage;
        await page.setViewportSize({ width, height });
        const response = await page.goto(check.path());
        expect(response?.status()).toBe(200);
        await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
        await keepScreenshot(page, `${check.name}-${width}`);

        const results = await new AxeBuilder({ page })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
          .analyze();
        const summary = results.violations.map(
          (v) => `${v.id} (${v.nodes.length}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(" | ")}`,
        );
        expect.soft(summary, `axe on ${check.name} at ${width} px`).toEqual([]);

        if (width === 390) {
          expect
            .soft(await page.evaluate(() => document.documentElement.scrollWidth), `${check.name}: page width`)
            .toBeLessThanOrEqual(390);
          expect.soft(await smallTapTargets(page), `${check.name}: tap targets under 44 px`).toEqual([]);
        }
      });
    }
  }
});
