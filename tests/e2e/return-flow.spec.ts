import { createHash } from "node:crypto";
import { extractText, getDocumentProxy } from "unpdf";
import { expect, test, ADMIN, PASSWORD, createVerifiedUser, e2eDataDir, letterAccepted, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";
import { RETURN_CLIENT_MESSAGES } from "~/domain/return-client";
import { RETURN_DONE } from "~/domain/return-section";
import { readOutbox } from "../helpers/outbox";
import { sampleTaxpayer } from "../helpers/taxpayer";

// A return from draft to final copies in the browser, staff and client each in their own pages
// (docs/product/return-and-signature.md): once the client has accepted the engagement letter
// staff send (the draft waits for it), staff upload a draft, the client asks for a change,
// staff upload a second version, the client approves it; staff record an identity check and
// request the signature of Form 8879; the client signs with the e-mailed code (at 1280 px, with
// the spouse signing from their own link on a joint return) or by hand, a scan staff accept (at
// 390 px); the signed copy's certificate is read back with a PDF parser and its hashes checked;
// the IRS rejects the return with IND-031-04, which reaches the client; it is sent again and
// accepted, and the final copies are released. Then a joint return's spouse: staff cancel a
// request sent to a mistyped address and send it again; the old link says it is not valid; the
// spouse writes to the firm and signs by hand, and their page then gives one confirmation, no form.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const NAME = `${sampleTaxpayer.name_as_per_ssn} ${sampleTaxpayer.last_name}`;
const onePagePdf = (tag: string) =>
  Buffer.from(
    `%PDF-1.4\n% ${tag}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

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

/** The newest 6-digit code e-mailed to `to` after `before` mails to them. */
async function codeFor(to: string, before: number): Promise<string> {
  let code = "";
  await expect
    .poll(() => {
      const mails = readOutbox(e2eDataDir).filter((m) => m.to.includes(to));
      if (mails.length <= before) return "";
      code = /\b(\d{6})\b/.exec(mails.at(-1)!.text)?.[1] ?? "";
      return code;
    })
    .not.toBe("");
  return code;
}

const mailCount = (to: string) => readOutbox(e2eDataDir).filter((m) => m.to.includes(to)).length;

/** A signed-in client with taxpayer information sent and the engagement letter accepted; their page and id. */
async function newClient(browser: Browser, width: number): Promise<{ email: string; page: Page; context: BrowserContext; clientId: string }> {
  const email = uniqueEmail(`return-flow-${width}`);
  await createVerifiedUser(staff.request, email, PASSWORD, NAME);
  const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 }, timezoneId: "Asia/Kolkata" });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  expect((await page.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  const clientId = await clientIdOf(staff.request, email);
  await letterAccepted(staff, page, clientId, YEAR);
  return { email, page, context, clientId };
}

async function uploadVersion(section: string, tag: string, note: string): Promise<void> {
  await staff.goto(section);
  const upload = staff.getByRole("form", { name: "Upload a draft return" });
  await upload.getByLabel("Form", { exact: true }).selectOption("1040-NR");
  await upload.getByLabel(/The draft return/).setInputFiles({ name: `${tag}.pdf`, mimeType: "application/pdf", buffer: onePagePdf(tag) });
  await upload.getByLabel(/Note for the client/).fill(note);
  await upload.getByRole("button", { name: "Upload version" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["version-uploaded"] })).toBeVisible();
}

async function recordIdCheck(signer: "taxpayer" | "spouse"): Promise<void> {
  const check = staff.getByRole("form", { name: "Record an identity check" });
  await check.getByLabel("Signer").selectOption(signer);
  await check.getByLabel("Document").selectOption("passport");
  await check.getByLabel(/Issuing country/).fill("IN");
  await check.getByLabel("Expiry date").fill(`${YEAR + 6}-03-31`);
  await check.getByLabel(/Last 4 characters/).fill(signer === "taxpayer" ? "4821" : "9034");
  await check.getByLabel("Live video").check();
  await check.getByRole("button", { name: "Record the check" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["id-checked"] })).toBeVisible();
}

/** Signs the form electronically on `page` (the client's filing page or the spouse's link), with the code e-mailed to `email`. */
async function eSign(page: Page, email: string, name: string): Promise<void> {
  const before = mailCount(email);
  await page.getByRole("button", { name: "Send me a code" }).click();
  const code = await codeFor(email, before);
  await page.getByLabel("I agree to sign electronically").check();
  await page.getByLabel("Your full legal name").fill(name);
  await page.getByLabel("The 6-digit code from the e-mail").fill(code);
  await page.getByRole("button", { name: "Sign Form 8879" }).click();
  await expect(page.getByText(RETURN_CLIENT_MESSAGES.signed).or(page.getByText(/signed Form 8879 on /)).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign Form 8879" })).toHaveCount(0);
}

for (const width of [1280, 390] as const) {
  const joint = width === 1280;
  test(`at ${width} px: draft, change, approval, ${joint ? "e-signatures of both spouses" : "a hand-signed form"}, a rejection, the return accepted and the final copies`, async ({ browser }) => {
    test.setTimeout(240_000);
    await staff.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    const client = await newClient(browser, width);
    const section = `/admin/clients/${client.clientId}/${YEAR}/return`;
    const filing = `/my-tax-filing/${YEAR}`;

    // Staff upload a draft; the client asks for a change, which lands in the case's messages.
    await uploadVersion(section, `draft-1-${width}`, "Please check your W-2 wages.");
    await client.page.goto(filing);
    await expect(client.page.getByRole("heading", { name: "Review your draft return" }).first()).toBeVisible();
    await expect(client.page.getByText("Please check your W-2 wages.")).toBeVisible();
    await client.page.getByLabel("Ask for changes").fill("My wages were $52,300, not $52,000.");
    await client.page.getByRole("button", { name: "Ask for changes" }).click();
    await expect(client.page.getByText(RETURN_CLIENT_MESSAGES.changesSent)).toBeVisible();
    await staff.goto(`/admin/clients/${client.clientId}/${YEAR}/messages`);
    await expect(staff.getByText("My wages were $52,300, not $52,000.")).toBeVisible();

    // A second version; the client approves it.
    await uploadVersion(section, `draft-2-${width}`, "Wages corrected.");
    await client.page.goto(filing);
    await expect(client.page.getByText("Wages corrected.")).toBeVisible();
    await client.page.getByLabel("I have read the draft and I agree with the declaration above.").check();
    await client.page.getByRole("button", { name: "Approve the draft" }).click();
    // The review card gives way to what was recorded (its thank-you may already be gone).
    await expect(client.page.getByText(RETURN_CLIENT_MESSAGES.approved).or(client.page.getByText(/^You approved the draft on /)).first()).toBeVisible();
    await expect(client.page.getByRole("list", { name: "Your return" })).toContainText("You approved the draft on");

    // Staff request the signature of Form 8879 on the approved version.
    await staff.goto(section);
    const versions = staff.getByRole("list", { name: "Versions" });
    await expect(versions.getByRole("listitem")).toHaveCount(2);
    const spouseEmail = uniqueEmail(`spouse-${width}`);
    if (joint) {
      await recordIdCheck("taxpayer");
      await recordIdCheck("spouse");
    }
    const form8879 = onePagePdf(`8879-${width}`);
    const sign = staff.getByRole("form", { name: "Request the signature" });
    await sign.getByLabel("Form 8879 to sign (PDF)").setInputFiles({ name: "8879.pdf", mimeType: "application/pdf", buffer: form8879 });
    if (joint) {
      await sign.getByLabel("Married filing jointly (the spouse signs too)").check();
      await sign.getByLabel("Spouse's name (joint return)").fill("Meera Kumar");
      await sign.getByLabel("Spouse's e-mail address (joint return)").fill(spouseEmail);
    }
    await sign.getByRole("button", { name: "Request the signature" }).click();
    await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["signature-requested"] })).toBeVisible();

    await client.page.goto(filing);
    await expect(client.page.getByRole("heading", { name: "Sign your e-file authorisation (Form 8879)" }).first()).toBeVisible();
    if (joint) {
      // The taxpayer signs with the code e-mailed to them; the spouse from their own link.
      await eSign(client.page, client.email, NAME);
      const link = readOutbox(e2eDataDir)
        .filter((m) => m.to.includes(spouseEmail))
        .map((m) => /https?:\/\/\S*\/sign\/[A-Za-z0-9_-]+/.exec(m.text)?.[0])
        .find(Boolean);
      expect(link).toBeTruthy();
      const spouseContext = await browser.newContext({ viewport: { width, height: 900 } });
      const spouse = await spouseContext.newPage();
      await spouse.goto(new URL(link!).pathname);
      await expect(spouse.getByRole("heading", { level: 1, name: "Sign your e-file authorisation (Form 8879)" })).toBeVisible();
      await eSign(spouse, spouseEmail, "Meera Kumar");
      await spouseContext.close();
    } else {
      // Without an identity check the client signs by hand and uploads a photo; staff accept it.
      await expect(client.page.getByRole("button", { name: "Send me a code" })).toHaveCount(0);
      await client.page.getByLabel("The signed Form 8879 (PDF, JPEG or PNG)").setInputFiles({ name: "signed-8879.pdf", mimeType: "application/pdf", buffer: onePagePdf(`hand-signed-${width}`) });
      await client.page.getByRole("button", { name: "Upload the signed form" }).click();
      await expect(client.page.getByText(RETURN_CLIENT_MESSAGES.uploaded)).toBeVisible();
      // One confirmation, and nothing more asked: no upload form, no next step to sign.
      await expect(client.page.getByText(/we received your signed form/i)).toHaveCount(1);
      await expect(client.page.getByRole("button", { name: "Upload the signed form" })).toHaveCount(0);
      await expect(client.page.getByLabel("The signed Form 8879 (PDF, JPEG or PNG)")).toHaveCount(0);
      await expect(client.page.getByRole("heading", { name: "Your signed Form 8879" })).toBeVisible();
      await expect(client.page.getByRole("region", { name: "Your next step" })).not.toContainText("Sign your e-file authorisation");
      await staff.goto(section);
      await staff.getByRole("button", { name: "Accept", exact: true }).click();
      await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["scan-accepted"] })).toBeVisible();
    }

    // The signed copy: the form with a certificate page listing each signature and both hashes.
    await staff.goto(section);
    const copyLink = staff.getByRole("link", { name: "Download the signed copy" });
    await expect(copyLink).toBeVisible();
    const copy = Buffer.from(await (await staff.request.get((await copyLink.getAttribute("href"))!)).body());
    expect(copy.subarray(0, 5).toString()).toBe("%PDF-");
    const shown = await staff.locator("code", { hasText: sha256(copy).slice(0, 8) }).first().getAttribute("title");
    expect(shown).toBe(sha256(copy));
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(copy)), { mergePages: true });
    const flat = text.replace(/\s+/g, "");
    expect(flat).toContain("Signaturecertificate");
    expect(flat).toContain(sha256(form8879));
    expect(flat).toContain(sha256(onePagePdf(`draft-2-${width}`)));
    expect(flat).toContain(NAME.replace(/\s+/g, ""));
    if (joint) expect(flat).toContain("MeeraKumar");

    // The IRS rejects the return with IND-031-04: the client is told at once, with what to do.
    const transmit = async (submissionId: string) => {
      const form = staff.getByRole("form", { name: "Record a transmission" });
      await form.getByLabel("Submission id").fill(submissionId);
      await form.getByRole("button", { name: "Record the transmission" }).click();
      await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE.transmitted })).toBeVisible();
    };
    await transmit(`0012342025${width}1`);
    const mailsBefore = mailCount(client.email);
    const rejection = staff.getByRole("form", { name: "Record the rejection" });
    await rejection.getByLabel(/^IND-031-04/).check();
    await rejection.getByRole("button", { name: "Record rejected" }).click();
    await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE.rejected })).toBeVisible();
    await expect(staff.getByRole("list", { name: "E-file history" })).toContainText("IND-031-04");
    await staff.goto("/admin/dashboard");
    await expect(staff.getByText(/5 days left to send again/).first()).toBeVisible();

    await expect.poll(() => mailCount(client.email)).toBeGreaterThan(mailsBefore);
    const notice = readOutbox(e2eDataDir).filter((m) => m.to.includes(client.email)).at(-1)!;
    expect(notice.text).toContain(`/my-tax-filing/${YEAR}`);
    expect(notice.text).not.toContain("IND-031-04");
    await client.page.goto(filing);
    const history = client.page.getByRole("list", { name: "Your return" });
    await expect(history).toContainText("The IRS rejected your federal return on");
    await expect(history).toContainText("IND-031-04");

    // Sent again and accepted; the final copies are released and reach the client.
    await staff.goto(section);
    await transmit(`0012342025${width}2`);
    await staff.getByRole("form", { name: "Record the acceptance" }).getByRole("button", { name: "Record accepted" }).click();
    await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE.accepted })).toBeVisible();
    await staff.getByRole("form", { name: "Release the final copies" }).getByRole("button", { name: "Release the final copies" }).click();
    await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE.released })).toBeVisible();

    await client.page.goto(filing);
    await expect(history).toContainText("The IRS accepted your federal return on");
    await expect(history).toContainText("Your final copies are ready");
    expect(await client.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await client.context.close();
  });
}

test("a joint return's spouse: a request cancelled for a wrong address and sent again, a message to the firm, and a hand-signed form", async ({ browser }) => {
  test.setTimeout(240_000);
  await staff.setViewportSize({ width: 1280, height: 900 });
  const client = await newClient(browser, 1280);
  const section = `/admin/clients/${client.clientId}/${YEAR}/return`;
  await uploadVersion(section, "draft-spouse", "Please review.");
  await client.page.goto(`/my-tax-filing/${YEAR}`);
  await client.page.getByLabel("I have read the draft and I agree with the declaration above.").check();
  await client.page.getByRole("button", { name: "Approve the draft" }).click();
  await expect(client.page.getByRole("list", { name: "Your return" })).toContainText("You approved the draft on");

  // Staff request the signatures with a mistyped spouse address, then cancel with a reason.
  const wrong = uniqueEmail("spouse-typo");
  const right = uniqueEmail("spouse-right");
  await staff.goto(section);
  const sign = staff.getByRole("form", { name: "Request the signature" });
  await sign.getByLabel("Form 8879 to sign (PDF)").setInputFiles({ name: "8879.pdf", mimeType: "application/pdf", buffer: onePagePdf("8879-spouse") });
  await sign.getByLabel("Married filing jointly (the spouse signs too)").check();
  await sign.getByLabel("Spouse's name (joint return)").fill("Meera Kumar");
  await sign.getByLabel("Spouse's e-mail address (joint return)").fill(wrong);
  await sign.getByRole("button", { name: "Request the signature" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["signature-requested"] })).toBeVisible();
  const linkTo = (to: string) =>
    readOutbox(e2eDataDir)
      .filter((m) => m.to.includes(to))
      .map((m) => /https?:\/\/\S*\/sign\/[A-Za-z0-9_-]+/.exec(m.text)?.[0])
      .find(Boolean);
  await expect.poll(() => linkTo(wrong) ?? "").not.toBe("");
  const oldPath = new URL(linkTo(wrong)!).pathname;

  const cancel = staff.getByRole("form", { name: "Cancel the signature request" });
  await cancel.getByLabel("Reason to cancel (kept in the case's history)").fill("The spouse's e-mail address was mistyped.");
  await cancel.getByRole("button", { name: "Cancel the request" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["request-cancelled"] })).toBeVisible();
  await expect(staff.getByRole("list", { name: "Signature requests" })).toContainText("Cancelled: The spouse's e-mail address was mistyped.");

  // Sent again with no new file, no new version, no new approval: the corrected address.
  const again = staff.getByRole("form", { name: "Request the signature" });
  await expect(again.getByLabel("Married filing jointly (the spouse signs too)")).toBeChecked();
  await again.getByLabel("Spouse's e-mail address (joint return)").fill(right);
  await again.getByRole("button", { name: "Request the signature" }).click();
  await expect(staff.getByRole("status").filter({ hasText: RETURN_DONE["signature-requested"] })).toBeVisible();
  await expect.poll(() => linkTo(right) ?? "").not.toBe("");

  const spouseContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const spouse = await spouseContext.newPage();
  // The old link says it is not valid, on its page and its form's address.
  await spouse.goto(oldPath);
  await expect(spouse.getByRole("heading", { level: 1, name: "Signing link not valid" })).toBeVisible();
  await expect(spouse.getByText(RETURN_CLIENT_MESSAGES.badLink)).toBeVisible();
  expect((await spouse.request.get(`${oldPath}/form`)).status()).toBe(404);

  // The new one: the spouse writes to the firm.
  await spouse.goto(new URL(linkTo(right)!).pathname);
  await expect(spouse.getByRole("heading", { level: 1, name: "Sign your e-file authorisation (Form 8879)" })).toBeVisible();
  await spouse.getByLabel("Your message").fill("Can I sign electronically? A video call suits me.");
  await spouse.getByRole("button", { name: "Send the message" }).click();
  await expect(spouse.getByText(RETURN_CLIENT_MESSAGES.spouseMessageSent)).toBeVisible();
  await staff.goto(`/admin/clients/${client.clientId}/${YEAR}/messages`);
  await expect(staff.getByText("Can I sign electronically? A video call suits me.")).toBeVisible();
  await expect(staff.getByText("Meera Kumar, the spouse").first()).toBeVisible();

  // The spouse signs by hand: after the upload, one confirmation and no form.
  await spouse.getByLabel("The signed Form 8879 (PDF, JPEG or PNG)").setInputFiles({ name: "meera-signed.pdf", mimeType: "application/pdf", buffer: onePagePdf("meera-signed") });
  await spouse.getByRole("button", { name: "Upload the signed form" }).click();
  await expect(spouse).toHaveURL(/\?signed-form=received$/);
  await expect(spouse.getByRole("heading", { level: 1, name: "Your signed Form 8879" })).toBeVisible();
  await expect(spouse.getByText(/we received your signed form/i)).toHaveCount(1);
  await expect(spouse.locator("main form")).toHaveCount(0);
  await expect(spouse.locator("main input, main textarea")).toHaveCount(0);
  expect(await spouse.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await spouseContext.close();
  await client.context.close();
});
