import { expect, test, ADMIN, PASSWORD, createVerifiedUser, letterAccepted, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";
import { RETURN_CLIENT_MESSAGES } from "~/domain/return-client";
import { RETURN_DONE } from "~/domain/return-section";
import { sampleTaxpayer } from "../helpers/taxpayer";

// The stage the client reads follows the return's records, whatever flags staff ticked
// (docs/product/workflow.md#the-stage-the-client-reads): staff tick nothing, the client accepts
// the engagement letter, approves the draft and signs by hand, staff record the transmission and
// the IRS's rejection; the client's filing page and their list then read E-filing, and the next
// step no longer asks for documents.

const YEAR = currentFilingYear();
const onePagePdf = (tag: string) =>
  Buffer.from(
    `%PDF-1.4\n% ${tag}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );

let staffContext: BrowserContext;
let staff: Page;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  staffContext = await browser.newContext({ timezoneId: "America/New_York" });
  staff = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staff);
});

test.afterAll(async () => {
  await staffContext?.close();
});

test("a return approved, signed, filed and rejected reads E-filing while staff ticked no earlier stage", async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("client-stage");
  await createVerifiedUser(staff.request, email, PASSWORD, `${sampleTaxpayer.name_as_per_ssn} ${sampleTaxpayer.last_name}`);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  expect((await page.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  const clientId = await clientIdOf(staff.request, email);
  const section = `/admin/clients/${clientId}/${YEAR}/return`;
  const filing = `/my-tax-filing/${YEAR}`;

  // The client accepts the engagement letter staff send (the draft waits for it); staff upload a
  // draft; the client approves it.
  await letterAccepted(staff, page, clientId, YEAR);
  await staff.goto(section);
  const upload = staff.getByRole("form", { name: "Upload a draft return" });
  await upload.getByLabel("Form", { exact: true }).selectOption("1040-NR");
  await upload.getByLabel(/The draft return/).setInputFiles({ name: "draft.pdf", mimeType: "application/pdf", buffer: onePagePdf("stage-draft") });
  await upload.getByRole("button", { name: "Upload version" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["version-uploaded"] })).toBeVisible();
  await page.goto(filing);
  await page.getByLabel("I have read the draft and I agree with the declaration above.").check();
  await page.getByRole("button", { name: "Approve the draft" }).click();
  await expect(page.getByText(RETURN_CLIENT_MESSAGES.approved).or(page.getByText(/^You approved the draft on /)).first()).toBeVisible();

  // Staff request the signature; the client signs by hand; staff accept the scan.
  await staff.goto(section);
  const sign = staff.getByRole("form", { name: "Request the signature" });
  await sign.getByLabel("Form 8879 to sign (PDF)").setInputFiles({ name: "8879.pdf", mimeType: "application/pdf", buffer: onePagePdf("stage-8879") });
  await sign.getByRole("button", { name: "Request the signature" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["signature-requested"] })).toBeVisible();
  await page.goto(filing);
  await page.getByLabel("The signed Form 8879 (PDF, JPEG or PNG)").setInputFiles({ name: "signed-8879.pdf", mimeType: "application/pdf", buffer: onePagePdf("stage-signed") });
  await page.getByRole("button", { name: "Upload the signed form" }).click();
  await expect(page.getByText(RETURN_CLIENT_MESSAGES.uploaded)).toBeVisible();
  await staff.goto(section);
  await staff.getByRole("button", { name: "Accept", exact: true }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["scan-accepted"] })).toBeVisible();

  // Transmitted, then rejected by the IRS.
  const transmission = staff.getByRole("form", { name: "Record a transmission" });
  await transmission.getByLabel("Submission id").fill(`00123420${YEAR}77`);
  await transmission.getByRole("button", { name: "Record the transmission" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE.transmitted })).toBeVisible();
  const rejection = staff.getByRole("form", { name: "Record the rejection" });
  await rejection.getByLabel(/^IND-031-04/).check();
  await rejection.getByRole("button", { name: "Record rejected" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE.rejected })).toBeVisible();

  // The client's filing page: E-filing, and nothing asked of a stage passed.
  await page.goto(filing);
  await expect(page.getByRole("list", { name: "Your return" })).toContainText("The IRS rejected your federal return on");
  await expect(page.getByText("Stage", { exact: true }).locator("..")).toContainText("E-filing");
  const current = page.locator('[aria-current="step"]');
  await expect(current).toHaveCount(1);
  await expect(current).toContainText("E-filing");
  await expect(current).toContainText("Current stage");
  const next = page.locator("section", { has: page.getByText("Your next step") });
  await expect(next).toContainText("Nothing to do for now");
  await expect(page.getByText("Upload your documents")).toHaveCount(0);
  await expect(page.getByText("Getting started")).toHaveCount(1); // the timeline's first step, done
  await expect(page.getByRole("list", { name: "Stages of this filing" }).getByRole("listitem").first()).toContainText("Done");

  // Their list of filings reads the same stage.
  await page.goto("/my-tax-filing");
  await expect(page.locator("main article").filter({ hasText: `${YEAR} tax year` })).toContainText("E-filing");
});
