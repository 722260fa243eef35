import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { expect, test, createVerifiedUser, signIn, uniqueEmail } from "./support";
import type { Locator, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";

// The client's side of tax-year cases, at a desktop's width and at a phone's: two tax years on
// My Tax Filings, one year's filing page, an upload of a camera photo (PNG) and a PDF with its
// progress bars, a removal, and a HEIC photo refused with the advice.

const SEASON = currentFilingYear();
const EARLIER = SEASON - 1;

/** A real PNG of random pixels (what a phone's camera sends, only smaller): about 58 KB. */
function pngPhoto(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed) >>> 0);
    return Buffer.concat([length, typed, crc]);
  };
  const side = 140;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Array.from({ length: side }, () => Buffer.concat([Buffer.from([0]), randomBytes(side * 3)]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A small real PDF, padded with a comment to about 40 KB. */
function pdfFile(): Buffer {
  return Buffer.from(`%PDF-1.4\n%${"x".repeat(40_000)}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
}

/** Records every value the upload progress bars take, from now on. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    const note = () =>
      document
        .querySelectorAll('[role="progressbar"]')
        .forEach((bar) => seen.push(Number(bar.getAttribute("aria-valuenow"))));
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-valuenow"],
    });
  });
}

const progressSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);

/** The network as a slow mobile connection sends (about 24 KB a second up), so that the upload takes seconds. */
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

async function expectTapTarget(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  expect(box, "the control is on screen").not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

for (const device of [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const) {
  test.describe(`at ${device.name} width`, () => {
    test.use({ viewport: device.viewport });

    test("a client with two tax years sees both, opens one, uploads a photo and a PDF, removes one, and a HEIC photo is refused", async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const email = uniqueEmail(`years-${device.name}`);
      await createVerifiedUser(request, email);
      await signIn(page, email);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(`Tax year ${SEASON}`);

      // One year from sign-up; the second started from My Tax Filings.
      await page.goto("/my-tax-filing");
      await expect(page.getByRole("heading", { name: "No Tax Filings Yet" })).toBeVisible();
      await expect(
        page.getByRole("heading", { name: `Taxpayer information for ${SEASON} not sent yet` }),
      ).toBeVisible();
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      await page.getByLabel("Tax year", { exact: true }).selectOption(String(EARLIER));
      await page.getByRole("button", { name: "Start this tax year" }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard\\?year=${EARLIER}$`));
      await expect(page.getByRole("heading", { level: 1 })).toContainText(`Tax year ${EARLIER}`);

      await page.goto("/my-tax-filing");
      const years = page.locator("main article").getByText(/^\d{4} tax year$/);
      await expect(years).toHaveText([`${SEASON} tax year`, `${EARLIER} tax year`]);
      await expect(page.getByRole("link", { name: `Fill in the ${EARLIER} form` })).toHaveAttribute(
        "href",
        `/dashboard?year=${EARLIER}`,
      );
      if (device.name === "phone") await expectNoSidewaysScroll(page);

      // One year's filing: the timeline and what the stage means.
      await page.getByRole("link", { name: `Open ${EARLIER} filing` }).click();
      await expect(page).toHaveURL(new RegExp(`/my-tax-filing/${EARLIER}$`));
      await expect(page.getByRole("heading", { level: 1, name: `${EARLIER} tax filing` })).toBeVisible();
      const stages = page.getByRole("list", { name: "Stages of this filing" }).getByRole("listitem");
      await expect(stages).toHaveCount(8);
      const current = page.locator('[aria-current="step"]');
      await expect(current).toHaveCount(1);
      await expect(current).toContainText("Getting started");
      await expect(current).toContainText("Current stage");
      await expect(stages.nth(7)).toContainText("To come");
      await expect(page.getByRole("heading", { name: "What this stage means" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "What happens next" })).toBeVisible();
      await expect(page.getByText("No documents for this tax year yet.")).toBeVisible();

      // Two files at once, sent slowly enough for their progress bars to move.
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      const chooseFiles = page.locator("label").filter({ hasText: "Choose files" });
      await page.getByLabel("Category", { exact: true }).selectOption("w-2");
      if (device.name === "phone") {
        await expectTapTarget(chooseFiles);
        await expectTapTarget(page.getByLabel("Category", { exact: true }));
      }
      await recordProgress(page);
      await slowUploads(page, true);
      await page.locator('input[type="file"]').setInputFiles([
        { name: "w2-photo.png", mimeType: "image/png", buffer: pngPhoto() },
        { name: "w2-form.pdf", mimeType: "application/pdf", buffer: pdfFile() },
      ]);
      const photoBar = page.getByRole("progressbar", { name: "Upload of w2-photo.png" });
      const pdfBar = page.getByRole("progressbar", { name: "Upload of w2-form.pdf" });
      await expect(photoBar).toBeVisible();
      await expect(photoBar).toHaveAttribute("aria-valuenow", "100", { timeout: 30_000 });
      await expect(pdfBar).toHaveAttribute("aria-valuenow", "100", { timeout: 30_000 });
      await slowUploads(page, false);
      const seen = await progressSeen(page);
      expect(
        seen.some((value) => value > 0 && value < 100),
        `progress seen: ${seen.join(", ")}`,
      ).toBe(true);
      await expect(page.getByText("2 files uploaded.")).toBeVisible();

      const w2 = page.getByRole("region", { name: "W-2" });
      const listed = (name: string) => w2.getByRole("listitem").filter({ hasText: name });
      await expect(listed("w2-photo.png")).toBeVisible();
      await expect(listed("w2-form.pdf")).toBeVisible();
      await expect(w2.getByText(/\d+\.\d\d KB/).first()).toBeVisible();
      const download = w2.getByRole("link", { name: "Download w2-form.pdf" });
      const file = await page.request.get((await download.getAttribute("href"))!);
      expect(file.status()).toBe(200);
      expect((await file.body()).subarray(0, 5).toString()).toBe("%PDF-");
      if (device.name === "phone") {
        await expectTapTarget(download);
        await expectTapTarget(w2.getByRole("button", { name: "Remove w2-form.pdf" }));
        await expectNoSidewaysScroll(page);
      }

      // Remove one of them; the other stays.
      await w2.getByRole("button", { name: "Remove w2-form.pdf" }).click();
      await expect(page.getByText("The document was removed.")).toBeVisible();
      await expect(listed("w2-form.pdf")).toHaveCount(0);
      await expect(listed("w2-photo.png")).toBeVisible();

      // An iPhone's HEIC photo is refused before it is sent, with how to send one we accept.
      await page.getByLabel("Category", { exact: true }).selectOption("passport-visa");
      await page
        .locator('input[type="file"]')
        .setInputFiles([
          {
            name: "IMG_0042.HEIC",
            mimeType: "image/heic",
            buffer: Buffer.from("000000186674797068656963", "hex"),
          },
        ]);
      await expect(
        page.getByText(
          /HEIC photos are not accepted: on an iPhone choose Settings > Camera > Formats > Most Compatible/,
        ),
      ).toBeVisible();
      await expect(page.getByText("1 file was not accepted (the reason is shown below).")).toBeVisible();
      await expect(page.getByRole("region", { name: "Passport and Visa (I-20, DS-2019, I-94)" })).toHaveCount(
        0,
      );
      if (device.name === "phone") await expectNoSidewaysScroll(page);

      // After a reload the page shows what is stored: one document in this year, none in the other.
      await page.reload();
      await expect(listed("w2-photo.png")).toBeVisible();
      await expect(listed("w2-form.pdf")).toHaveCount(0);
      await page.goto(`/my-tax-filing/${SEASON}`);
      await expect(page.getByText("No documents for this tax year yet.")).toBeVisible();
    });
  });
}

test("without JavaScript the filing page still shows the documents, removes one and saves the e-mail setting", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("no-js");
  await createVerifiedUser(request, email);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Two documents arrive (sent as the uploader sends them, with this session's cookie).
  for (const [name, buffer] of [
    ["bank-statement.pdf", pdfFile()],
    ["i-94.png", pngPhoto()],
  ] as const) {
    const sent = await page.request.post(`/my-tax-filing/${SEASON}/documents`, {
      multipart: {
        category: "bank-statements",
        files: { name, mimeType: "application/octet-stream", buffer },
      },
    });
    expect(sent.status()).toBe(200);
  }

  await page.goto(`/my-tax-filing/${SEASON}`);
  await expect(page.getByRole("heading", { level: 1, name: `${SEASON} tax filing` })).toBeVisible();
  // Chromium's script switch leaves <noscript> unrendered, so the line is looked for in the page's HTML.
  const html = await (await page.request.get(`/my-tax-filing/${SEASON}`)).text();
  expect(html).toMatch(/<noscript>[^]*Uploading documents needs JavaScript\.[^]*<\/noscript>/);
  const statements = page.getByRole("region", { name: "Bank Statements" });
  await expect(statements.getByRole("listitem")).toHaveCount(2);
  await statements.getByRole("button", { name: "Remove bank-statement.pdf" }).click();
  await expect(page.getByText("The document was removed.")).toBeVisible();
  await expect(statements.getByRole("listitem")).toHaveCount(1);
  await expect(statements.getByRole("listitem")).toContainText("i-94.png");

  const box = page.getByRole("checkbox", { name: "E-mail me when this filing moves to a new stage" });
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole("button", { name: "Save e-mail setting" }).click();
  await expect(
    page.getByText("Saved. We will not e-mail you when your filings move to a new stage."),
  ).toBeVisible();
  await page.goto(`/my-tax-filing/${SEASON}`);
  await expect(
    page.getByRole("checkbox", { name: "E-mail me when this filing moves to a new stage" }),
  ).not.toBeChecked();
  await context.close();
});
