import { expect, test, ADMIN, createVerifiedUser, e2eDataDir, linkFromOutbox, signIn, signInAsStaff, uniqueEmail } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { CASE_STAGE_TEXTS } from "~/content/case-stages";
import { currentFilingYear } from "~/domain/tax-year";
import { readOutbox } from "../helpers/outbox";

// End to end (docs/product/workflow.md#flags-and-the-current-stage): staff move a client's case in
// the panel; the client is e-mailed a link (no tax details) and their filing page shows the new
// stage, at desktop and phone widths.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
let staffContext: BrowserContext;
let staffPage: Page;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  staffContext = await browser.newContext();
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staffPage);
});

test.afterAll(async () => {
  await staffContext?.close();
});

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`at ${width} px: staff move a case; the client receives the notice and sees the new stage`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail(`flow${width}`);
    await createVerifiedUser(request, email, undefined, `Flow Client ${width}`);
    const client = await browser.newContext({ viewport: { width, height } });
    const clientPage = await client.newPage();
    await signIn(clientPage, email);
    await expect(clientPage).toHaveURL(/\/dashboard/);

    // Before: the case is at its first stage.
    await clientPage.goto(`/my-tax-filing/${YEAR}`);
    const timeline = clientPage.getByRole("list", { name: "Stages of this filing" });
    await expect(timeline.locator('[aria-current="step"]')).toContainText(CASE_STAGE_TEXTS.home.title);
    await expect(timeline.locator('[aria-current="step"]')).toContainText("Current stage");

    // Staff complete HOME and TAX INFO: the case moves to DOCUMENTS.
    await staffPage.setViewportSize({ width, height });
    await staffPage.goto(`/admin/dashboard?q=${encodeURIComponent(email)}`);
    await expect(staffPage.locator("html[data-hydrated]")).toHaveCount(1);
    await staffPage.getByRole("button", { name: "View Workflow" }).first().click();
    for (const stage of ["HOME", "TAX INFO"]) {
      const box = staffPage.getByRole("checkbox", { name: new RegExp(`: ${stage} `) });
      await staffPage.locator("label").filter({ has: box }).click();
      await expect(box).toBeChecked();
    }
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await expect(staffPage.getByText("Workflow saved.")).toBeVisible();

    // The notice: a link to the filing, and nothing about the case's contents.
    const link = await linkFromOutbox(email, `/my-tax-filing/${YEAR}`);
    const notice = readOutbox(e2eDataDir).filter((m) => m.to.includes(email)).at(-1)!;
    expect(notice.subject).toBe(`An update on your ${YEAR} tax filing`);
    expect(notice.text).not.toMatch(/DOCUMENTS|TAX INFO|SSN/i);

    // The client follows the link and sees where the filing stands now.
    await clientPage.goto(new URL(link).pathname);
    await expect(timeline.locator('[aria-current="step"]')).toContainText(CASE_STAGE_TEXTS.documents.title);
    for (const key of ["home", "taxinfo"] as const)
      await expect(timeline.getByRole("listitem").filter({ hasText: CASE_STAGE_TEXTS[key].title })).toContainText("Done");
    await expect(clientPage.getByText(CASE_STAGE_TEXTS.documents.means)).toBeVisible();
    expect(await clientPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // A save that leaves the stage where it is sends nothing more.
    const before = readOutbox(e2eDataDir).filter((m) => m.to.includes(email)).length;
    const saved = staffPage.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/dashboard"));
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    expect((await saved).status()).toBe(200);
    await expect(staffPage.getByText("Workflow saved.")).toBeVisible();
    expect(readOutbox(e2eDataDir).filter((m) => m.to.includes(email))).toHaveLength(before);
    await client.close();
  });
}
