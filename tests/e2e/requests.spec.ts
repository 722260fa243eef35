import AxeBuilder from "@axe-core/playwright";
import { expect, test, PASSWORD, ADMIN, createVerifiedUser, e2eDataDir, keepScreenshot, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { requestTemplate } from "~/content/request-templates";
import { currentFilingYear } from "~/domain/tax-year";
import { readOutbox } from "../helpers/outbox";

// Document requests in a real browser, at a desktop's width and a phone's: staff start a client's
// checklist from a template and add an item of their own; the client sees the list, uploads a
// PDF against one item (with its progress bar) and answers "doesn't apply" with a note on another;
// staff mark the upload received and return the other with a reason; the client sees "Received"
// and the reason. The client's e-mails carry a link and no item. Axe checks both sections; on a
// phone nothing scrolls sideways and the controls are 44 px tall. Then the same answer without
// JavaScript: the browser comes back to the page with the answer shown.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const STUDENT = requestTemplate("1040nr-student")!;
const OWN_ITEM = "Letter closing your Indian savings account";
const REASON = "This says the account is open. Please send the bank's closing letter instead.";
const NOTE = "I had no US bank account, so no 1099 form was issued to me.";

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

/** A client with a verified account; their id as the panel's list links it. */
async function newClient(request: Page["request"], name: string): Promise<{ email: string; id: string }> {
  const email = uniqueEmail("requests");
  await createVerifiedUser(request, email, PASSWORD, name);
  const id = await clientIdOf(staffPage.request, email);
  return { email, id };
}

async function clientBrowser(browser: Browser, email: string, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  // The sign-in form is a plain form: it works without JavaScript too.
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  return { context, page };
}

/** The network as a slow mobile connection sends, so that an upload takes seconds. */
async function slowUploads(page: Page, on: boolean): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: on ? 40 : 0,
    downloadThroughput: -1,
    uploadThroughput: on ? 24 * 1024 : -1,
  });
}

/** Records every value the progress bars take, from now on. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    new MutationObserver(() =>
      document.querySelectorAll('[role="progressbar"]').forEach((bar) => seen.push(Number(bar.getAttribute("aria-valuenow")))),
    ).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
}

async function axeOn(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`);
}

async function expectTall(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  expect(box, "the control is on screen").not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

const PDF = Buffer.from(`%PDF-1.4\n%${"x".repeat(40_000)}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);

for (const width of [1280, 390]) {
  test(`at ${width} px: a checklist started by staff, answered and uploaded by the client, received and returned by staff`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const height = width > 800 ? 800 : 844;
    const phone = width < 800;
    const client = await newClient(request, `Rahul Requests ${width}`);
    await staffPage.setViewportSize({ width, height });

    // Staff: the student template (offered among all of them: this client gave no visa), then an item of their own.
    await staffPage.goto(`/admin/clients/${client.id}/${YEAR}/requests`);
    await expect(staffPage.locator("html[data-hydrated]")).toHaveCount(1);
    const staffSection = staffPage.getByRole("region", { name: "What we need from the client" });
    await expect(staffSection).toContainText("Nothing requested yet.");
    await staffSection.getByLabel("Start from a template").selectOption(STUDENT.id);
    await staffSection.getByRole("button", { name: "Add the template's items" }).click();
    await expect(staffSection.getByText(`${STUDENT.items.length} items added from the template.`)).toBeVisible();
    await expect(staffSection.getByRole("listitem", { name: "Form W-2", exact: true })).toContainText("Requested");
    await staffSection.getByLabel("Add an item").fill(OWN_ITEM);
    await staffSection.getByLabel("What exactly to send (optional)").fill("The bank's letter that confirms the account was closed, with the date.");
    await staffSection.getByLabel("The client's files go to").selectOption("bank-statements");
    await staffSection.getByRole("button", { name: "Add item" }).click();
    await expect(staffSection.getByText("Item added. The client has been sent an e-mail asking for it.")).toBeVisible();
    await expect(staffSection.getByRole("listitem", { name: OWN_ITEM, exact: true })).toContainText("Files go to Bank Statements");
    await expect(staffSection.getByLabel("Add an item")).toHaveValue("");
    const total = STUDENT.items.length + 1;
    await expect(staffSection).toContainText(`${total} items: ${total} outstanding, 0 to review, 0 received.`);
    expect(await axeOn(staffPage, "#requests")).toEqual([]);
    if (phone) {
      await noSidewaysScroll(staffPage);
      await expectTall(staffSection.getByRole("button", { name: "Add item" }));
      await expectTall(staffSection.getByRole("button", { name: "Mark received: Form W-2" }));
    }

    // The client's page lists every item, each needed.
    const { context: clientContext, page } = await clientBrowser(browser, client.email);
    try {
      await page.setViewportSize({ width, height });
      await page.goto(`/my-tax-filing/${YEAR}`);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      const section = page.getByRole("region", { name: "What we need from you" });
      await expect(section.getByTestId("requests-summary")).toHaveText(`${total} of ${total} items still needed.`);
      const w2 = section.getByRole("listitem", { name: "Form W-2", exact: true });
      await expect(w2).toContainText("Needed");
      await expect(w2).toContainText(STUDENT.items[0]!.detail);
      await expect(section.getByRole("listitem", { name: OWN_ITEM, exact: true })).toContainText(
        "The bank's letter that confirms the account was closed, with the date.",
      );

      // A PDF against the W-2, sent slowly enough for its progress bar to move.
      const fileName = `w2-${width}.pdf`;
      if (phone) await expectTall(w2.locator("label").filter({ hasText: "Upload files" }));
      await recordProgress(page);
      await slowUploads(page, true);
      await w2.locator('input[type="file"]').setInputFiles([{ name: fileName, mimeType: "application/pdf", buffer: PDF }]);
      const bar = w2.getByRole("progressbar", { name: `Upload of ${fileName}` });
      await expect(bar).toBeVisible();
      await expect(bar).toHaveAttribute("aria-valuenow", "100", { timeout: 30_000 });
      await slowUploads(page, false);
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
      expect(seen.some((v) => v > 0 && v < 100), `progress seen: ${seen.join(", ")}`).toBe(true);
      await expect(w2.getByText("1 file uploaded.")).toBeVisible();
      await expect(w2).toContainText("Sent: we will check it");
      await expect(w2.getByRole("list", { name: "Files sent for Form W-2" })).toContainText(fileName);

      // "Doesn't apply" with a note on the 1099 forms.
      const forms1099 = section.getByRole("listitem", { name: "1099 forms, if any", exact: true });
      const question = forms1099.getByText("Doesn't apply to you, or you can't get it?");
      if (phone) await expectTall(forms1099.locator("summary"));
      await question.click();
      await forms1099.getByLabel("Doesn't apply to me").check();
      await forms1099.getByLabel("Your note").fill(NOTE);
      if (phone) await expectTall(forms1099.getByRole("button", { name: "Send answer" }));
      await forms1099.getByRole("button", { name: "Send answer" }).click();
      await expect(forms1099.getByText("Thank you. We noted that this item doesn't apply to you.")).toBeVisible();
      await expect(forms1099).toContainText("You said it doesn't apply");
      await expect(forms1099).toContainText(NOTE);
      await expect(forms1099.getByRole("button", { name: "Take back my answer for 1099 forms, if any" })).toBeVisible();
      await expect(section.getByTestId("requests-summary")).toHaveText(`${total - 2} of ${total} items still needed.`);
      expect(await axeOn(page, "#requests")).toEqual([]);
      if (phone) await noSidewaysScroll(page);

      // Staff review: the upload received, the answer returned with a reason.
      await staffPage.reload();
      await expect(staffPage.locator("html[data-hydrated]")).toHaveCount(1);
      const staffW2 = staffSection.getByRole("listitem", { name: "Form W-2", exact: true });
      await expect(staffW2).toContainText("Uploaded: to review");
      await expect(staffW2.getByRole("link", { name: `Download ${fileName}` })).toBeVisible();
      await staffW2.getByRole("button", { name: "Mark received: Form W-2" }).click();
      await expect(staffW2.getByText("Marked received.")).toBeVisible();
      await expect(staffW2).toContainText("Received");
      const staff1099 = staffSection.getByRole("listitem", { name: "1099 forms, if any", exact: true });
      await expect(staff1099).toContainText("Client: doesn't apply");
      await expect(staff1099).toContainText(NOTE);
      await staff1099.getByText("Return with a reason").click();
      await staff1099.getByLabel("Why are you returning it? The client reads this.").fill(REASON);
      await staff1099.getByRole("button", { name: "Return to the client" }).click();
      await expect(
        staff1099.getByText("Returned. The client sees your reason and has been sent an e-mail asking them to look at it."),
      ).toBeVisible();
      await expect(staff1099).toContainText("Returned to client");
      await expect(staffSection).toContainText(`${total} items: ${total - 1} outstanding, 0 to review, 1 received.`);
      await keepScreenshot(staffSection, `requests-staff-${width}`);
      expect(await axeOn(staffPage, "#requests")).toEqual([]);
      if (phone) await noSidewaysScroll(staffPage);

      // The client sees both; the received W-2 is folded among the finished items.
      await page.reload();
      await expect(w2).toBeHidden();
      await section.getByText(/^Finished \(1\)$/).click();
      await expect(w2).toContainText("Received");
      await expect(w2.locator('input[type="file"]')).toHaveCount(0);
      await expect(forms1099).toContainText("Sent back: please look again");
      await expect(forms1099).toContainText("Why we sent it back");
      await expect(forms1099).toContainText(REASON);
      await expect(section.getByTestId("requests-summary")).toHaveText(`${total - 1} of ${total} items still needed.`);
      await keepScreenshot(section, `requests-client-${width}`);
      expect(await axeOn(page, "#requests")).toEqual([]);
      if (phone) await noSidewaysScroll(page);
    } finally {
      await clientContext.close();
    }

    // The client's e-mails: one per staff action, a link to the filing, no item.
    // E-mails go out once each answer has been sent: the last may still be on its way.
    await expect.poll(() => readOutbox(e2eDataDir).filter((m) => m.to.includes(client.email)).length).toBe(4);
    const mails = readOutbox(e2eDataDir).filter((m) => m.to.includes(client.email));
    expect(mails.map((m) => m.subject)).toEqual([
      `Verify your e-mail for TaxBridge`,
      `We need something from you for your ${YEAR} tax filing`,
      `We need something from you for your ${YEAR} tax filing`,
      `Please look again at an item for your ${YEAR} tax filing`,
    ]);
    for (const mail of mails.slice(1)) {
      expect(mail.text).toMatch(new RegExp(`See what we need: http://localhost:\\d+/my-tax-filing/${YEAR}`));
      for (const secret of ["W-2", "1099", "Indian", REASON.slice(0, 20), NOTE.slice(0, 20)]) expect(mail.raw).not.toContain(secret);
    }
  });
}

test("without JavaScript, the client answers \"can't get it\" and the page comes back with the answer", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const client = await newClient(request, "Nadia Noscript");
  const added = await staffPage.request.post(`/admin/clients/${client.id}/${YEAR}/requests`, {
    form: { intent: "add-template", template: "fica-refund", enhanced: "1" },
  });
  expect(added.status()).toBe(200);

  const { context, page } = await clientBrowser(browser, client.email, false);
  try {
    await page.goto(`/my-tax-filing/${YEAR}`);
    const section = page.getByRole("region", { name: "What we need from you" });
    const letter = section.getByRole("listitem", { name: "Employer's refusal letter", exact: true });
    await letter.getByText("Doesn't apply to you, or you can't get it?").click();
    await letter.getByLabel("I can't get it").check();
    await letter.getByLabel("Your note").fill("My employer never answered my e-mails.");
    await letter.getByRole("button", { name: "Send answer" }).click();
    await expect(page).toHaveURL(new RegExp(`/my-tax-filing/${YEAR}\\?requests=answered-unavailable&item=[0-9a-f-]{36}#request-`));
    await expect(letter.getByText("Thank you. We noted that you can't get this item, and we will read your note.")).toBeVisible();
    await expect(letter).toContainText("You said you can't get it");
    await expect(letter).toContainText("My employer never answered my e-mails.");

    // Taking the answer back works the same way.
    await letter.getByRole("button", { name: "Take back my answer for Employer's refusal letter" }).click();
    await expect(letter.getByText("Your answer was taken back. The item is needed again.")).toBeVisible();
    await expect(letter).toContainText("Needed");
    // Uploading needs JavaScript, and the page says so (Chromium's script switch leaves <noscript>
    // unrendered, so the line is looked for in the page's HTML).
    const html = await (await page.request.get(`/my-tax-filing/${YEAR}`)).text();
    expect(html).toMatch(/<noscript>[^]*Uploading files needs JavaScript\.[^]*<\/noscript>/);
  } finally {
    await context.close();
  }
});
