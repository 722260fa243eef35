import { expect, test, ADMIN, PASSWORD, createVerifiedUser, e2eDataDir, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { Browser, BrowserContext, Dialog, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";
import { readOutbox } from "../helpers/outbox";
import { sampleTaxpayer } from "../helpers/taxpayer";

// The staff's case page (/admin/clients/:clientId/:year) at desktop and phone widths: staff open
// a case from its address, reveal the SSN (the activity names them), upload a final copy in
// Document Management, share it, and the client downloads it.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const CLIENT_NAME = "Priya Casepage";
const PDF = (label: string) => Buffer.from(`%PDF-1.4\n% ${label}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);

// One staff browser for the serial tests (codes are single-use), in New York's time zone so the
// page's local times can be told from UTC.
let staffContext: BrowserContext;
let staffPage: Page;
let clientEmail: string;
let clientId: string;
let staffName: string;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  staffContext = await browser.newContext({ timezoneId: "America/New_York" });
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staffPage);

  clientEmail = uniqueEmail("casepage");
  await createVerifiedUser(request, clientEmail, PASSWORD, CLIENT_NAME);
  // The client sends the year's taxpayer information (the form's own post, as the browser sends it).
  await asClient(browser, async (page) => {
    const saved = await page.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer });
    expect(saved.status()).toBe(200);
  });

  clientId = await clientIdOf(staffPage.request, clientEmail);

  // The signed-in staff member's name, as the team page lists it (other specs add staff whose
  // names may sort before it anywhere else).
  await staffPage.goto("/admin/team");
  const me = staffPage.locator(`[data-testid="team-member"][data-email="${ADMIN}"] th span`).first();
  staffName = ((await me.textContent()) ?? "").replace(/\s*\(you\)$/, "").trim();
  expect(staffName).not.toBe("");
});

test.afterAll(async () => {
  await staffContext?.close();
});

/** Runs `fn` in a new browser signed in as the client. */
async function asClient(browser: Browser, fn: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signIn(page, clientEmail);
    await expect(page).toHaveURL(/\/dashboard/);
    await fn(page);
  } finally {
    await context.close();
  }
}

/** A section of the case (its last path segment; "" for the overview). */
function casePath(section: string, back?: string): string {
  return `/admin/clients/${clientId}/${YEAR}${section ? `/${section}` : ""}${back ? `?back=${encodeURIComponent(back)}` : ""}`;
}

async function openCase(page: Page, section: string, back?: string): Promise<void> {
  await page.goto(casePath(section, back));
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1, name: CLIENT_NAME })).toBeVisible();
}

/** Moves to another section of the case by its navigation. */
async function toSection(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name, exact: true }).click();
  await expect(
    page.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name, exact: true }),
  ).toHaveAttribute("aria-current", "page");
}

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async () => {
      await staffPage.setViewportSize({ width, height: width > 800 ? 800 : 844 });
    });

    test("staff open a case from its address and reveal the SSN; the activity names them, in local time", async () => {
      const back = `/admin/dashboard?q=${encodeURIComponent(clientEmail)}`;
      await openCase(staffPage, "taxpayer", back);
      await expect(staffPage.getByRole("link", { name: "Back to clients" })).toHaveAttribute("href", back);
      await expect(
        staffPage
          .getByRole("navigation", { name: "Tax years of this client" })
          .getByRole("link", { name: String(YEAR) }),
      ).toHaveAttribute("aria-current", "page");

      const taxpayer = staffPage.getByRole("region", { name: "Taxpayer information" });
      await expect(taxpayer.getByText("***-**-6789")).toBeVisible();
      await expect(taxpayer).not.toContainText(sampleTaxpayer.ssn_tin);
      await expect(taxpayer).toContainText("First Name (as per SSN)");
      await expect(taxpayer).toContainText(sampleTaxpayer.occupation);

      await taxpayer.getByRole("button", { name: "Reveal SSN/ITIN" }).click();
      await expect(taxpayer.getByTestId("revealed-ssn")).toHaveText(sampleTaxpayer.ssn_tin);
      await taxpayer.getByRole("button", { name: "Hide" }).click();
      await expect(taxpayer.getByTestId("revealed-ssn")).toHaveCount(0);
      await expect(taxpayer.getByText("***-**-6789")).toBeVisible();
      await noSidewaysScroll(staffPage, width);

      await toSection(staffPage, "Notes & activity");
      // The other sections keep the list to return to.
      await expect(staffPage).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}/notes\\?back=`));
      const activity = staffPage.getByRole("region", { name: "Activity", exact: true });
      const entry = activity.getByRole("listitem").filter({ hasText: "Revealed the SSN/ITIN" }).first();
      await expect(entry).toContainText(`${staffName} · Revealed the SSN/ITIN`);
      // New York time in November (EST) or summer (EDT), never the server's UTC fallback.
      await expect(entry.locator("time")).toHaveText(/\d{1,2}:\d\d [AP]M E[SD]T$/);
      await expect(activity).not.toContainText("UTC");

      // The assignee list offers the signed-in staff member by name.
      await toSection(staffPage, "Workflow");
      await expect(staffPage.locator("#case-assignee option", { hasText: staffName }).first()).toBeAttached();

      // Back to clients returns to the list as it was.
      await staffPage.getByRole("link", { name: "Back to clients" }).click();
      await expect(staffPage).toHaveURL(
        new RegExp(`/admin/dashboard\\?q=${encodeURIComponent(clientEmail).replace(/\./g, "\\.")}`),
      );
    });

    test("staff upload a final copy, share it, and the client downloads it; once taken back the client cannot", async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const fileName = `final-return-${width}.pdf`;
      await openCase(staffPage, "documents");
      await staffPage.getByRole("link", { name: "Manage documents" }).click();
      await expect(staffPage.getByRole("heading", { name: "Document Management" })).toBeVisible();
      await expect(staffPage.locator("html[data-hydrated]")).toHaveCount(1);
      await staffPage
        .getByRole("region", { name: "Other Documents", exact: true })
        .locator('input[type="file"]')
        .setInputFiles([{ name: fileName, mimeType: "application/pdf", buffer: PDF(fileName) }]);
      await staffPage.getByRole("button", { name: "Save Documents" }).click();
      await expect(
        staffPage.getByRole("link", { name: new RegExp(fileName.replace(/\./g, "\\.")) }),
      ).toBeVisible();

      await openCase(staffPage, "documents");
      const documents = staffPage.getByRole("region", { name: "Documents", exact: true });
      const row = documents.getByRole("listitem").filter({ hasText: fileName });
      await expect(row).toContainText("Not shared");
      await expect(row).toContainText(`Uploaded by ${staffName} (staff)`);
      const documentId = (await row.getAttribute("data-document-id"))!;
      expect(documentId).toMatch(/^[0-9a-f-]{36}$/);
      const shareMails = () =>
        readOutbox(e2eDataDir).filter(
          (m) =>
            m.to === clientEmail &&
            m.subject.startsWith("New document") &&
            m.text.includes(`/my-tax-filing/${YEAR}`),
        );
      const mailsBefore = shareMails().length;

      await row.getByRole("button", { name: `Share ${fileName} with the client` }).click();
      await expect(
        documents.getByText("The document is now shared with the client", { exact: false }),
      ).toBeVisible();
      await expect(row).toContainText("Shared with client");
      await expect(row.getByRole("button", { name: `Stop sharing ${fileName}` })).toBeVisible();
      await noSidewaysScroll(staffPage, width);
      await expect.poll(() => shareMails().length).toBe(mailsBefore + 1);
      // A link, never the document's name.
      expect(shareMails().at(-1)!.raw).not.toContain(fileName);
      await toSection(staffPage, "Notes & activity");
      const activity = staffPage.getByRole("region", { name: "Activity", exact: true });
      await expect(activity).toContainText(`${staffName} · Shared a document: Other Documents: ${fileName}`);
      // Back returns to the Documents section.
      await staffPage.goBack();
      await expect(staffPage).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}/documents$`));

      // The client: from the year's filing page when it lists the document, else by its address.
      await asClient(browser, async (page) => {
        await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
        await page.goto(`/my-tax-filing/${YEAR}`);
        const link = page.locator(`a[href="/documents/${documentId}"]`);
        let href = `/documents/${documentId}`;
        if ((await link.count()) > 0) {
          await expect(link.first()).toBeVisible();
          const download = page.waitForEvent("download");
          await link.first().click();
          expect((await download).suggestedFilename()).toBe(fileName);
          href = (await link.first().getAttribute("href"))!;
        } else {
          test.info().annotations.push({
            type: "note",
            description: `/my-tax-filing/${YEAR} did not list the document; downloaded by its address instead`,
          });
        }
        const file = await page.request.get(href);
        expect(file.status()).toBe(200);
        expect((await file.body()).toString()).toBe(PDF(fileName).toString());
      });

      await row.getByRole("button", { name: `Stop sharing ${fileName}` }).click();
      await expect(documents.getByText("The client no longer sees this document.")).toBeVisible();
      await expect(row).toContainText("Not shared");
      await asClient(browser, async (page) => {
        const file = await page.request.get(`/documents/${documentId}`);
        expect(file.status()).toBe(404);
      });
    });
  });
}

test("unsaved workflow changes ask before leaving by a link", async () => {
  await staffPage.setViewportSize({ width: 1280, height: 800 });
  await openCase(staffPage, "workflow");
  const tile = staffPage.getByRole("checkbox", { name: /: HOME / });
  await staffPage.locator("label").filter({ has: tile }).click();
  await expect(staffPage.getByText("You have changes that are not saved.")).toBeVisible();

  // One listener answers every question the page asks, so a late question can never be
  // answered twice; the test counts them to be sure each click asked exactly once.
  const questions: string[] = [];
  let answer: "dismiss" | "accept" = "dismiss";
  const onDialog = (dialog: Dialog) => {
    questions.push(dialog.message());
    void (answer === "accept" ? dialog.accept() : dialog.dismiss());
  };
  staffPage.on("dialog", onDialog);
  try {
    await staffPage.getByRole("link", { name: "Back to clients" }).click();
    await expect.poll(() => questions.length).toBe(1);
    await expect(staffPage).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}`));
    await expect(tile).toBeChecked();

    answer = "accept";
    await staffPage.getByRole("link", { name: "Back to clients" }).click();
    await expect(staffPage).toHaveURL(/\/admin\/dashboard$/);
    expect(questions).toEqual([
      "Leave this page? Your changes to the workflow are not saved.",
      "Leave this page? Your changes to the workflow are not saved.",
    ]);
  } finally {
    staffPage.off("dialog", onDialog);
  }
  await expect(staffPage).toHaveURL(/\/admin\/dashboard$/);
});
