import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, PASSWORD, uniqueEmail } from "./support";
import { freshSecrets } from "../../scripts/lib/server-process";
import { startServerOnFreePort } from "../helpers/server-port";
import type { RunningServer } from "../../scripts/lib/server-process";
import { readOutbox } from "../helpers/outbox";
import { currentFilingYear } from "~/domain/tax-year";
import { startS3Server } from "../helpers/s3-server";
import type { TestS3 } from "../helpers/s3-server";
import { signupFields } from "../helpers/signup";

// Documents in an S3-compatible bucket, end to end: a second built server (`node server.js`,
// production, its own embedded database) whose S3_* variables point at s3rver on loopback. A
// client signs up, uploads a PDF on their filing page, downloads it back byte for byte, and
// removes it; the file is in the bucket and never on the server's disk.

const SEASON = currentFilingYear();

/** A real PDF of about 6 MB (more than one 5 MiB part: the bucket receives a multipart upload). */
function largePdf(): Buffer {
  return Buffer.concat([
    Buffer.from("%PDF-1.4\n%"),
    Buffer.from(randomBytes(4.5 * 1024 * 1024).toString("base64")),
    Buffer.from("\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"),
  ]);
}

let s3: TestS3;
let server: RunningServer;
let root: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  root = mkdtempSync(path.join(os.tmpdir(), "taxbridge-e2e-s3-"));
  dataDir = path.join(root, "data");
  s3 = await startS3Server("taxbridge-e2e");
  ({ server } = await startServerOnFreePort({
    dataDir,
    databaseUrl: "",
    secrets: freshSecrets(),
    logFile: path.join(root, "server.log"),
    env: { ...s3.env, RATE_LIMIT_SCALE: "20", STAFF_EMAIL: "staff@taxbridge.test", ADMIN_EMAIL: "" },
  }));
});

test.afterAll(async () => {
  const code = await server?.stop();
  await s3?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  expect(code, "the server shut down cleanly").toBe(0);
});

test("a client's PDF goes to the bucket, comes back byte for byte, and its removal deletes the object", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("s3");
  const api = await playwright.request.newContext({ baseURL: server.url });
  const signedUp = await api.post("/signup", { form: signupFields(email, PASSWORD) });
  expect(signedUp.status()).toBe(200);
  let link = "";
  await expect
    .poll(() => {
      link =
        readOutbox(dataDir)
          .filter((mail) => mail.to.includes(email))
          .map((mail) => mail.text.match(/https?:\/\/\S*\/api\/auth\/verify-email\S*/)?.[0] ?? "")
          .find(Boolean) ?? "";
      return link;
    })
    .not.toBe("");
  const verified = await api.get(new URL(link).pathname + new URL(link).search, { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
  await api.dispose();

  const context = await browser.newContext({ baseURL: server.url, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("textbox", { name: "Email Address" }).fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`/my-tax-filing/${SEASON}`);
  await expect(page.getByRole("heading", { level: 1, name: `${SEASON} tax filing` })).toBeVisible();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const pdf = largePdf();
  await page.getByLabel("Category", { exact: true }).selectOption("w-2");
  await page.locator('input[type="file"]').setInputFiles([{ name: "w2-scan.pdf", mimeType: "application/pdf", buffer: pdf }]);
  await expect(page.getByText("1 file uploaded.")).toBeVisible({ timeout: 30_000 });

  // In the bucket, exactly as sent, and nothing under the server's data folder.
  expect(s3.objectKeys()).toHaveLength(1);
  const [key] = s3.objectKeys();
  expect(s3.objectBytes(key!).equals(pdf)).toBe(true);
  expect(s3.requests.some((line) => line.includes("x-id=UploadPart"))).toBe(true);
  const uploads = path.join(dataDir, "uploads");
  expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);

  // The Download link gives the same bytes back.
  const w2 = page.getByRole("region", { name: "W-2" });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    w2.getByRole("link", { name: "Download w2-scan.pdf" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("w2-scan.pdf");
  expect(readFileSync((await download.path())!).equals(pdf)).toBe(true);

  // Removing the document deletes the object.
  await w2.getByRole("button", { name: "Remove w2-scan.pdf" }).click();
  await expect(page.getByText("The document was removed.")).toBeVisible();
  await expect(page.getByText("No documents for this tax year yet.")).toBeVisible();
  expect(s3.objectKeys()).toEqual([]);
  await context.close();
});
