import { expect, test, ADMIN, PASSWORD, createVerifiedUser, letterAccepted, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import { ENGAGEMENT_MESSAGES } from "~/domain/engagement";
import { currentFilingYear } from "~/domain/tax-year";
import { RETURN_DONE } from "~/domain/return-section";
import { RETURN_MESSAGES } from "~/domain/returns";
import { sampleTaxpayer } from "../helpers/taxpayer";

// The staff's Return section of a case (docs/product/return-and-signature.md), at desktop and
// phone widths: what staff do on their own before the client has reviewed anything. Once the
// client has accepted the engagement letter staff sent, they upload a draft and download it again,
// record an identity check, and are told that the signature waits for the client's approval and a
// transmission for the signatures; the same forms work as plain posts without the page's script,
// where a draft before the letter is accepted is refused. The client's review and signing are
// their own pages.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const WIDTHS = [1280, 390] as const;
const height = (width: number) => (width > 800 ? 800 : 844);
const PDF = Buffer.from(
  "%PDF-1.4\n% e2e draft\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
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

/** A new client, signed in, with their taxpayer information sent; their id and page (the caller closes its context). */
async function newClient(browser: Browser, request: APIRequestContext, name: string): Promise<{ clientId: string; page: Page; context: BrowserContext }> {
  const email = uniqueEmail("return-staff");
  await createVerifiedUser(request, email, PASSWORD, name);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  expect((await page.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  const clientId = await clientIdOf(staff.request, email);
  return { clientId, page, context };
}

for (const width of WIDTHS) {
  test(`at ${width} px staff upload a draft, record an identity check, and are told what waits for the client`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const { clientId, page: client, context } = await newClient(browser, request, `Rita Return ${width}`);
    const sectionUrl = `/admin/clients/${clientId}/${YEAR}/return`;
    await staff.setViewportSize({ width, height: height(width) });
    // The draft waits for the engagement letter: staff send it and the client accepts it.
    await letterAccepted(staff, client, clientId, YEAR);
    await context.close();
    await staff.goto(`/admin/clients/${clientId}/${YEAR}`);
    await expect(staff.locator("html[data-hydrated]")).toHaveCount(1);
    await staff.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Return", exact: true }).click();
    await expect(staff).toHaveURL(new RegExp(`${sectionUrl}$`));
    await expect(staff.getByText("No version uploaded yet.")).toBeVisible();

    // The draft: a PDF with its form and a note for the client.
    const upload = staff.getByRole("form", { name: "Upload a draft return" });
    await upload.getByLabel("Form", { exact: true }).selectOption("1040-NR");
    await upload.getByLabel(/The draft return/).setInputFiles({ name: "draft-1040nr.pdf", mimeType: "application/pdf", buffer: PDF });
    await upload.getByLabel(/Note for the client/).fill("Please check your W-2 wages.");
    await upload.getByRole("button", { name: "Upload version" }).click();
    await expect(staff).toHaveURL(new RegExp(`${sectionUrl}\\?done=version-uploaded$`));
    await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["version-uploaded"] })).toBeVisible();
    const versions = staff.getByRole("list", { name: "Versions" });
    await expect(versions.getByRole("listitem")).toHaveCount(1);
    await expect(versions).toContainText("Version 1 · Form 1040-NR");
    await expect(versions).toContainText("Current");
    await expect(versions).toContainText("draft-1040nr.pdf");
    await expect(versions).toContainText("Note for the client: Please check your W-2 wages.");
    await expect(versions).toContainText("Not reviewed by the client yet.");
    const download = versions.getByRole("link", { name: "Download version 1" });
    const file = await staff.request.get((await download.getAttribute("href"))!);
    expect(file.status()).toBe(200);
    expect(Buffer.from(await file.body()).equals(PDF)).toBe(true);

    // An identity check: the taxpayer's passport seen by live video.
    const check = staff.getByRole("form", { name: "Record an identity check" });
    await check.getByLabel("Signer").selectOption("taxpayer");
    await check.getByLabel("Document").selectOption("passport");
    await check.getByLabel(/Issuing country/).fill("IN");
    await check.getByLabel("Expiry date").fill(`${YEAR + 6}-03-31`);
    await check.getByLabel(/Last 4 characters/).fill("4821");
    await check.getByLabel("Live video").check();
    await check.getByRole("button", { name: "Record the check" }).click();
    await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["id-checked"] })).toBeVisible();
    const checks = staff.getByRole("list", { name: "Recorded identity checks" });
    await expect(checks).toContainText(`Taxpayer: Passport (IN) ending 4821, expires ${YEAR + 6}-03-31 · Live video`);

    // The signature waits for the client's approval: the request is refused with the reason.
    const sign = staff.getByRole("form", { name: "Request the signature" });
    await expect(sign).toContainText("The client has not approved version 1 yet");
    await sign.getByLabel("Form 8879 to sign (PDF)").setInputFiles({ name: "8879.pdf", mimeType: "application/pdf", buffer: PDF });
    await sign.getByRole("button", { name: "Request the signature" }).click();
    await expect(staff.getByRole("alert").filter({ hasText: RETURN_MESSAGES.notApproved })).toBeVisible();
    await expect(staff.getByText("No signature requested yet.")).toBeVisible();

    // A transmission waits for every signature.
    const transmit = staff.getByRole("form", { name: "Record a transmission" });
    await transmit.getByLabel("Submission id").fill("00123420253");
    await transmit.getByRole("button", { name: "Record the transmission" }).click();
    await expect(staff.getByRole("alert").filter({ hasText: RETURN_MESSAGES.notAuthorised })).toBeVisible();
    await expect(staff.getByText("Nothing transmitted yet.")).toBeVisible();
    await expect(staff.getByText("The final copies are released once the IRS has accepted the federal return.")).toBeVisible();

    expect(await staff.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test("without the page's script: a plain post of a form redirects back with the confirmation, and bad input changes nothing", async ({ browser, request }) => {
  const { clientId, page: client, context } = await newClient(browser, request, "Nora Noscript");
  const sectionUrl = `/admin/clients/${clientId}/${YEAR}/return`;
  const form = { intent: "id-check", signer: "taxpayer", documentType: "visa", issuingCountry: "India", expiresOn: `${YEAR + 3}-01-31`, numberLast4: "77Ab", how: "in-person" };
  const refused = await staff.request.post(sectionUrl, { form, maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain(RETURN_MESSAGES.badCountry);
  expect(await (await staff.request.get(sectionUrl)).text()).toContain("No identity check recorded.");

  const recorded = await staff.request.post(sectionUrl, { form: { ...form, issuingCountry: "us" }, maxRedirects: 0 });
  expect(recorded.status()).toBe(302);
  expect(recorded.headers()["location"]).toBe(`${sectionUrl}?done=id-checked`);
  await staff.goto(`${sectionUrl}?done=id-checked`);
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["id-checked"] })).toBeVisible();
  await expect(staff.getByRole("list", { name: "Recorded identity checks" })).toContainText("Taxpayer: Visa (US) ending 77AB");

  // A draft before the client has accepted the engagement letter is refused with the reason, and no version is kept.
  const draft = { intent: "upload-version", form: "1040", note: "", file: { name: "draft.pdf", mimeType: "application/pdf", buffer: PDF } };
  const waits = await staff.request.post(sectionUrl, { multipart: draft, maxRedirects: 0 });
  expect(waits.status()).toBe(400);
  expect((await waits.text()).replaceAll("&#x27;", "'")).toContain(ENGAGEMENT_MESSAGES.draftWaits);
  const page = async () => (await (await staff.request.get(sectionUrl)).text()).replaceAll("&#x27;", "'");
  const waitsNote = "The draft waits for the client's engagement letter: an upload is refused until the client accepts it.";
  expect(await page()).toContain("No version uploaded yet.");
  expect(await page()).toContain(waitsNote);

  await letterAccepted(staff, client, clientId, YEAR);
  await context.close();
  expect(await page()).not.toContain(waitsNote);
  const upload = await staff.request.post(sectionUrl, { multipart: draft, maxRedirects: 0 });
  expect(upload.status()).toBe(302);
  expect(upload.headers()["location"]).toBe(`${sectionUrl}?done=version-uploaded`);
});
