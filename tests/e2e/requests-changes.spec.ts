import {
  expect,
  test,
  PASSWORD,
  ADMIN,
  createVerifiedUser,
  signIn,
  signInAsStaff,
  uniqueEmail,
  clientIdOf,
} from "./support";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { requestTemplate } from "~/content/request-templates";
import { MAX_MESSAGE_LENGTH } from "~/domain/messages";
import { currentFilingYear } from "~/domain/tax-year";

// What a client's requested items and documents do when things change under them, in a real
// browser: an answer to an item staff received meanwhile shows the item as it now stands; a file
// of an item staff received cannot be removed; an uploader stops reporting a file removed since;
// a message longer than the limit is counted and refused, never cut short; and items finished
// when the page opens fold into "Finished (N)", at a desktop's width and a phone's.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const STUDENT = requestTemplate("1040nr-student")!;
const CHANGED = "This item has changed since the page was opened. Here is where it stands now.";
const PDF = Buffer.from(`%PDF-1.4\n%${"x".repeat(2_000)}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);

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

type Client = { email: string; id: string };

/** A verified client whose year starts from the student template (10 items). */
async function clientWithStudentList(request: Page["request"], name: string): Promise<Client> {
  const email = uniqueEmail("changes");
  await createVerifiedUser(request, email, PASSWORD, name);
  const id = await clientIdOf(staffPage.request, email);
  await staff(id, { intent: "add-template", template: STUDENT.id });
  return { email, id };
}

/** A staff change to a client's requested items, as the case page posts it. */
async function staff(clientId: string, form: Record<string, string>): Promise<void> {
  const answer = await staffPage.request.post(`/admin/clients/${clientId}/${YEAR}/requests`, {
    form: { ...form, enhanced: "1" },
  });
  expect(answer.status(), JSON.stringify(form)).toBe(200);
}

async function clientBrowser(
  browser: Browser,
  email: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width > 800 ? 800 : 844 } });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  return { context, page };
}

/** The item's id, from its element on the client's page. */
async function itemId(item: Locator): Promise<string> {
  const id = ((await item.getAttribute("id")) ?? "").replace(/^request-/, "");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

for (const width of [1280, 390]) {
  test(`at ${width} px: an answer to an item staff received meanwhile shows the item as it now stands`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const client = await clientWithStudentList(request, `Stale Answer ${width}`);
    const { context, page } = await clientBrowser(browser, client.email, width);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`/my-tax-filing/${YEAR}`);
      const section = page.getByRole("region", { name: "What we need from you" });
      const passport = section.getByRole("listitem", { name: "Passport", exact: true });
      await expect(passport).toContainText("Needed");
      await passport.getByText("Doesn't apply to you, or you can't get it?").click();
      await passport.getByLabel("I can't get it").check();
      await passport.getByLabel("Your note").fill("My passport is at the consulate for a visa stamp.");

      // Meanwhile staff receive the passport (it came by post).
      await staff(client.id, { intent: "receive", requestId: await itemId(passport) });

      await passport.getByRole("button", { name: "Send answer" }).click();
      await expect(passport.getByText(CHANGED)).toBeVisible();
      await expect(passport).toContainText("Received");
      await expect(passport).not.toContainText("Needed");
      await expect(passport.getByRole("button", { name: "Send answer" })).toHaveCount(0);
      await expect(passport.getByText("Doesn't apply to you, or you can't get it?")).toHaveCount(0);
      await expect(passport.locator('input[type="file"]')).toHaveCount(0);
      await expect(section.getByTestId("requests-summary")).toHaveText(
        `${STUDENT.items.length - 1} of ${STUDENT.items.length} items still needed.`,
      );
    } finally {
      await context.close();
    }
  });

  test(`at ${width} px: a file removed after it was uploaded against an item is no longer reported; a received item's file stays`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const client = await clientWithStudentList(request, `Removed Upload ${width}`);
    const { context, page } = await clientBrowser(browser, client.email, width);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`/my-tax-filing/${YEAR}`);
      const section = page.getByRole("region", { name: "What we need from you" });
      const documentsPanel = page.getByRole("region", { name: "Documents", exact: true });
      const w2 = section.getByRole("listitem", { name: "Form W-2", exact: true });
      const upload = async (name: string) => {
        await w2
          .locator('input[type="file"]')
          .setInputFiles([{ name, mimeType: "application/pdf", buffer: PDF }]);
        await expect(w2.getByText("1 file uploaded.")).toBeVisible();
        await expect(w2.getByRole("progressbar", { name: `Upload of ${name}` })).toHaveAttribute(
          "aria-valuenow",
          "100",
        );
        await expect(w2).toContainText("Sent: we will check it");
      };

      // Sent, then removed from the documents while the item is not received: the item is needed
      // again, and its uploader no longer says the file was uploaded.
      await upload("w2-first.pdf");
      await documentsPanel.getByRole("button", { name: "Remove w2-first.pdf" }).click();
      await expect(documentsPanel.getByText("The document was removed.")).toBeVisible();
      await expect(w2).toContainText("Needed");
      await expect(w2.getByText("1 file uploaded.")).toHaveCount(0);
      await expect(w2.getByRole("progressbar")).toHaveCount(0);
      await expect(w2.getByText("w2-first.pdf")).toHaveCount(0);

      // Sent again and received by staff: the file stays.
      await upload("w2-final.pdf");
      await staff(client.id, { intent: "receive", requestId: await itemId(w2) });
      await page.reload();
      await section.getByText(/^Finished \(1\)$/).click();
      await expect(w2).toContainText("Received");
      const listed = documentsPanel.getByRole("listitem").filter({ hasText: "w2-final.pdf" });
      await expect(listed).toContainText("Received by us: it stays");
      await expect(listed.getByRole("link", { name: "Download w2-final.pdf" })).toBeVisible();
      await expect(documentsPanel.getByRole("button", { name: "Remove w2-final.pdf" })).toHaveCount(0);

      // Forced: the server refuses, with the reason, and the file is still there for staff.
      const documentId =
        /\/documents\/([0-9a-f-]{36})/.exec(
          (await listed.getByRole("link").getAttribute("href")) ?? "",
        )?.[1] ?? "";
      const forced = await page.request.post(`/my-tax-filing/${YEAR}`, {
        form: { intent: "remove", documentIds: documentId },
      });
      expect(forced.status()).toBe(409);
      expect(await forced.text()).toContain(
        "This file stays: we have received “Form W-2”, which it was sent for.",
      );
      await staffPage.goto(`/admin/clients/${client.id}/${YEAR}/requests`);
      const staffW2 = staffPage
        .getByRole("region", { name: "What we need from the client" })
        .getByRole("listitem", {
          name: "Form W-2",
          exact: true,
        });
      await expect(staffW2).toContainText("Received");
      await expect(staffW2.getByRole("link", { name: "Download w2-final.pdf" })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test(`at ${width} px: a message longer than the limit is counted as it is pasted and refused, never cut short`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("long-message");
    await createVerifiedUser(request, email, PASSWORD, "Long Message");
    const { context, page } = await clientBrowser(browser, email, width);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`/my-tax-filing/${YEAR}/messages`);
      const box = page.getByLabel("Your message");
      const tooMany = "5,000 characters at most: 1,000 too many. Shorten your message before sending it.";
      await box.focus();
      // As a paste arrives: one insertion of the whole text.
      await page.keyboard.insertText("w".repeat(MAX_MESSAGE_LENGTH + 1_000));
      expect((await box.inputValue()).length).toBe(MAX_MESSAGE_LENGTH + 1_000);
      await expect(page.getByText(tooMany)).toBeVisible();
      await expect(box).toHaveAttribute("aria-invalid", "true");
      await expect(box).toHaveAccessibleDescription(
        new RegExp(tooMany.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
      );

      await page.getByRole("button", { name: "Send message" }).click();
      await expect(page.getByRole("alert").filter({ hasText: tooMany })).toBeVisible();
      await expect(box).toBeFocused();
      await expect(page.getByText("No messages yet.")).toBeVisible();
      expect((await box.inputValue()).length).toBe(MAX_MESSAGE_LENGTH + 1_000);

      // Shortened to the limit, it is sent whole.
      await box.fill("w".repeat(MAX_MESSAGE_LENGTH));
      await expect(page.getByText("5,000 of 5,000 characters")).toBeVisible();
      await expect(page.getByText(tooMany)).toHaveCount(0);
      await page.getByRole("button", { name: "Send message" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "Your message was sent. We will reply here, and e-mail you when we do.",
      );
    } finally {
      await context.close();
    }
  });
}

for (const width of [1280, 390]) {
  test(`at ${width} px: 11 items of which 8 are finished, the finished ones folded into "Finished (8)"`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000);
    const client = await clientWithStudentList(request, `Finished Fold ${width}`);
    await staff(client.id, {
      intent: "add-item",
      title: "Letter from your employer",
      detail: "On letterhead, with your dates of work.",
      category: "other-documents",
    });
    const { context, page } = await clientBrowser(browser, client.email);
    try {
      await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
      await page.goto(`/my-tax-filing/${YEAR}`);
      const section = page.getByRole("region", { name: "What we need from you" });
      await expect(section.getByTestId("requests-summary")).toHaveText("11 of 11 items still needed.");
      const received = STUDENT.items.slice(0, 6).map((i) => i.title);
      const notApplicable = STUDENT.items.slice(6, 8).map((i) => i.title);
      for (const title of received)
        await staff(client.id, {
          intent: "receive",
          requestId: await itemId(section.getByRole("listitem", { name: title, exact: true })),
        });
      for (const title of notApplicable) {
        const requestId = await itemId(section.getByRole("listitem", { name: title, exact: true }));
        const answer = await page.request.post(`/my-tax-filing/${YEAR}/requests`, {
          form: {
            intent: "answer",
            requestId,
            answer: "not-applicable",
            note: "Not for my visa.",
            enhanced: "1",
          },
        });
        expect(answer.status()).toBe(200);
      }

      await page.reload();
      await expect(section.getByTestId("requests-summary")).toHaveText("3 of 11 items still needed.");
      const fold = section.getByText(/^Finished \(8\)$/);
      await expect(fold).toBeVisible();
      for (const title of [...STUDENT.items.slice(8).map((i) => i.title), "Letter from your employer"])
        await expect(section.getByRole("listitem", { name: title, exact: true })).toBeVisible();
      const w2 = section.getByRole("listitem", { name: received[0], exact: true });
      await expect(w2).toBeHidden();
      // Measured with these items: the list 902 px tall at 1280 and 1,305 at 390 (the page 3,400 and
      // 5,646, with the residency panel), against 2,137 and 3,338 (the page 4,283 and 7,141, before
      // that panel) with every item shown.
      const listHeight = (await section.boundingBox())!.height;
      expect(listHeight).toBeLessThan(width > 800 ? 1_100 : 1_600);
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(
        width > 800 ? 3_800 : 6_200,
      );
      if (width < 800)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const summaryBox = await section.locator("summary").filter({ hasText: "Finished (8)" }).boundingBox();
      expect(summaryBox!.height).toBeGreaterThanOrEqual(44);

      // Opened on demand: each finished item, as it stands.
      await fold.click();
      await expect(w2).toBeVisible();
      await expect(w2).toContainText("Received");
      await expect(section.getByRole("listitem", { name: notApplicable[0], exact: true })).toContainText(
        "You said it doesn't apply",
      );
      await expect(
        section
          .getByRole("listitem", { name: notApplicable[0], exact: true })
          .getByRole("button", { name: /^Take back my answer/ }),
      ).toBeVisible();
    } finally {
      await context.close();
    }
  });
}
