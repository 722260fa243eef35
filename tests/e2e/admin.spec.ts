import { readFileSync } from "node:fs";
import { expect, test, ADMIN, createVerifiedUser, e2eDataDir, freshStaffCode, signIn, signInAsStaff, uniqueEmail, wrongStaffCode } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox";

test.describe.configure({ mode: "serial" });

// One staff browser for the serial tests: codes are single-use and change every 30 seconds.
let staffContext: BrowserContext;
let staffPage: Page;

test.afterAll(async () => {
  await staffContext?.close();
});

test.beforeAll(async ({ request, browser }) => {
  staffContext = await browser.newContext();
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  for (const name of ["Zainab Oyelaran", "Tomas Ruiz"]) {
    const email = uniqueEmail(name.split(" ")[0]!.toLowerCase());
    await createVerifiedUser(request, email);
  }
  for (let i = 0; i < 10; i++) await createVerifiedUser(request, uniqueEmail("bulk"));
});

test("staff enrol a second factor, then every new sign-in asks for the code", async () => {
  const page = staffPage;
  const context = staffContext;
  await signInAsStaff(page);
  await expect(page.getByRole("heading", { name: "Client Management" })).toBeVisible();
  await context.clearCookies();
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/admin\/security\/verify/);
  await page.getByLabel(/Authenticator code/).fill(wrongStaffCode());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("That code is not right.", { exact: false })).toBeVisible();
  await page.getByLabel(/Authenticator code/).fill(await freshStaffCode());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("search, filter, page, save a workflow, export and add a client", async () => {
  test.setTimeout(120_000);
  const page = staffPage;
  await page.goto("/admin/dashboard");
  for (const card of ["Total Clients", "Active Cases", "Pending Documents", "Completed"]) await expect(page.getByText(card, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/Showing 1-10 of \d+ clients/)).toBeVisible();
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/Showing 11-\d+ of \d+ clients/)).toBeVisible();

  await page.getByLabel("Search clients").fill("zainab");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=zainab/);
  await expect(page.getByRole("cell", { name: /zainab/ }).first()).toBeVisible();
  await expect(page.getByText("Showing 1-1 of 1 clients")).toBeVisible();

  await page.getByRole("button", { name: "View Workflow" }).click();
  for (const stage of ["HOME", "TAX INFO"]) {
    const box = page.getByRole("checkbox", { name: new RegExp(`: ${stage} `) });
    await page.locator("label").filter({ has: box }).click();
    await expect(box).toBeChecked();
  }
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Workflow saved.")).toBeVisible();
  await page.reload();
  await expect(page.locator("tbody").getByText("DOCUMENTS").first()).toBeVisible();

  await page.goto("/admin/dashboard?section=documents");
  await expect(page.getByText("Showing 1-1 of 1 clients")).toBeVisible();
  await page.goto("/admin/dashboard?stage=draft");
  await expect(page.getByText("No clients found matching your criteria.")).toBeVisible();

  await page.goto("/admin/dashboard?q=zainab");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export Data" }).click();
  const file = await download;
  const csv = readFileSync((await file.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toContain('"Client ID"');
  expect(csv).toContain("zainab");

  const invitee = uniqueEmail("invited");
  await page.getByRole("button", { name: "Add New Client" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: "Full Name" }).fill("Invited Client");
  await dialog.getByRole("textbox", { name: "Email Address" }).fill(invitee);
  await dialog.getByRole("combobox", { name: "Visa/Status" }).selectOption("J-1");
  await dialog.getByRole("button", { name: "Create and send invitation" }).click();
  await expect(dialog.getByText(`The invitation is being e-mailed to ${invitee}.`)).toBeVisible();
  await expect.poll(() => readOutbox(e2eDataDir).some((m) => m.to === invitee && /\/reset-password\?token=/.test(m.text))).toBe(true);
});

test("on a phone the Sections button opens the sections, a link closes them, and the search follows back and forward", async () => {
  const page = staffPage;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto("/admin/dashboard?q=zainab");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    const sections = page.getByRole("button", { name: "Sections" });
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    await expect(sections).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();
    await sections.click();
    await expect(sections).toHaveAttribute("aria-expanded", "true");
    await nav.getByRole("link", { name: "DOCUMENTS" }).click();
    await expect(page).toHaveURL(/section=documents/);
    await expect(sections).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();
    await expect(page.getByLabel("Search clients")).toHaveValue("");

    await page.goBack();
    await expect(page).toHaveURL(/q=zainab/);
    await expect(page.getByLabel("Search clients")).toHaveValue("zainab");
    await page.goForward();
    await expect(page.getByLabel("Search clients")).toHaveValue("");
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});

test("staff read contact messages and mark them handled; the audit trail lists what happened", async ({ request }) => {
  const page = staffPage;
  await request.post("/contact", { form: { name: "Visitor", email: "visitor@example.com", phone: "", subject: "Need an ITIN", description: "My daughter needs an ITIN for our joint return." } });
  await page.goto("/admin/dashboard");
  await page.getByRole("link", { name: "Contact form" }).click();
  await expect(page.getByRole("heading", { name: "Need an ITIN" })).toBeVisible();
  await page.getByRole("button", { name: "Mark as handled" }).first().click();
  await expect(page.getByText("Handled").first()).toBeVisible();
  // Every e-mail so far went (the outbox folder took them): nothing is undelivered.
  await page.getByRole("link", { name: "Undelivered e-mails" }).click();
  await expect(page).toHaveURL(/\/admin\/notices$/);
  await expect(page.getByRole("heading", { name: "Undelivered e-mails", level: 1 })).toBeVisible();
  await expect(page.getByText("No e-mail has failed.")).toBeVisible();
  await expect(page.getByText("No e-mail is waiting for another try.")).toBeVisible();
  await page.getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "workflow-saved" }).first()).toBeVisible();
  await expect(page.getByRole("cell", { name: "clients-exported" }).first()).toBeVisible();
  await expect(page.getByRole("cell", { name: "case-viewed" }).first()).toBeVisible();

  // The filter is the client list's search: one client's entries, by name.
  await page.getByRole("searchbox", { name: "Client" }).fill("zainab");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/admin\/audit\?client=zainab$/);
  await expect(page.getByText("Entries for 1 client matching “zainab”.")).toBeVisible();
  const clientCells = page.getByRole("region", { name: "Audit log" }).locator("tbody tr td:nth-child(4)");
  await expect(clientCells.first()).toHaveText(/^TB-\d{5} /);
  expect(new Set(await clientCells.allInnerTexts()).size).toBe(1);
  await expect(page.getByRole("cell", { name: "clients-exported" })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Client" }).fill("no such client");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No client matches “no such client”.")).toBeVisible();
  await expect(page.getByText("No audit entries for these clients.")).toBeVisible();
  await page.getByRole("link", { name: "Clear filter" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("searchbox", { name: "Client" })).toHaveValue("");
  await expect(page.getByRole("cell", { name: "clients-exported" }).first()).toBeVisible();
});

test("documents: upload a PDF and an image, refuse a fake, download one, remove one", async () => {
  test.setTimeout(120_000);
  const page = staffPage;
  await page.goto("/admin/dashboard?q=zainab");
  await page.getByRole("link", { name: /^Manage \(0\)/ }).click();
  await expect(page.getByRole("heading", { name: /Document Management/ }).first()).toBeVisible();
  await expect(page.getByText("No documents uploaded").first()).toBeVisible();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);

  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
  const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
  await page.getByRole("region", { name: "PAN Card" }).locator('input[type="file"]').setInputFiles([
    { name: "pan-card.pdf", mimeType: "application/pdf", buffer: pdf },
    { name: "fake.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html><script>alert(1)</script></html>") },
  ]);
  await page.getByRole("region", { name: "Aadhar Card" }).locator('input[type="file"]').setInputFiles([{ name: "aadhar.png", mimeType: "image/png", buffer: png }]);
  await page.getByRole("button", { name: "Save Documents" }).click();
  await expect(page.getByText(/fake\.pdf:/)).toBeVisible();
  const panLink = page.getByRole("link", { name: /pan-card\.pdf/ });
  await expect(panLink).toBeVisible();
  await expect(page.getByRole("link", { name: /aadhar\.png/ })).toBeVisible();
  await expect(page.getByText(/\d+\.\d\d KB/).first()).toBeVisible();

  const href = await panLink.getAttribute("href");
  const file = await page.request.get(href!);
  expect(file.headers()["content-disposition"]).toContain('attachment; filename="pan-card.pdf"');
  // The server sends nosniff on every response, once.
  expect(file.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await file.body()).subarray(0, 5).toString()).toBe("%PDF-");

  await page.getByRole("button", { name: "Remove aadhar.png" }).click();
  await page.getByRole("button", { name: "Save Documents" }).click();
  await expect(page.getByRole("link", { name: /aadhar\.png/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /pan-card\.pdf/ })).toBeVisible();
});

test("a client reaches none of the staff pages", async ({ page, request }) => {
  const email = uniqueEmail("nosy");
  await createVerifiedUser(request, email);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const path of ["/admin/dashboard", "/admin/messages", "/admin/audit", "/admin/security/setup"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
  }
  const csv = await page.request.get("/admin/clients.csv", { maxRedirects: 0 });
  expect(csv.status()).toBe(302);
});
