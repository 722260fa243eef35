import { readFileSync } from "node:fs";
import { extractText, getDocumentProxy } from "unpdf";
import { expect, test, ADMIN, PASSWORD, createVerifiedUser, e2eDataDir, letterAccepted, linkFromOutbox, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { paymentInstructions } from "~/content/business";
import { priceList } from "~/content/price-list";
import { FEE_DONE } from "~/domain/fee-section";
import { FEE_TEXTS, INVOICE_STATUS_LABELS, formatUsd } from "~/domain/fees";
import { RETURN_CLIENT_MESSAGES } from "~/domain/return-client";
import { RETURN_DONE } from "~/domain/return-section";
import { RETURN_FILE_NAMES } from "~/domain/returns";
import { currentFilingYear } from "~/domain/tax-year";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { readOutbox } from "../helpers/outbox";
import { sampleTaxpayer } from "../helpers/taxpayer";

// The fee of a case in the browser (docs/product/fees.md), staff and clients each in their own
// pages: an admin builds client A's invoice from the price list and sends it; A sees what is
// due (at 1280 px), downloads the invoice PDF and the draft (stamped DRAFT), finds the final copies
// released with the form's defaults held on every address until paid, pays by card on the local
// Stripe's page and gets the receipt and the final copies. A preparer
// invoices client B (whose pages are 390 px wide), B reads the wire and Zelle instructions and
// says the payment was sent; staff record a partial wire and the rest by Zelle; an admin refunds
// part of it. Then PAY SECURELY NOW, who may void and refund, the Payments page and its CSV, and
// one client kept from the other's invoices.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const NAME = `${sampleTaxpayer.name_as_per_ssn} ${sampleTaxpayer.last_name}`;
const INVOICE_NUMBER = /INV-\d{4}-\d{5}/;
const onePagePdf = (tag: string) =>
  Buffer.from(
    `%PDF-1.4\n% ${tag}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );
const item = (id: string) => priceList.find((p) => p.id === id)!;
const STANDARD = item("standard-filing");
const PREMIUM = item("premium-service");
const RUSH = item("rush-processing");

type Client = { email: string; page: Page; context: BrowserContext; clientId: string; width: number };

let staffContext: BrowserContext;
let staff: Page;
let preparerContext: BrowserContext;
let preparer: Page;
let a: Client;
let b: Client;
/** What the tests learn as they go: the invoices' numbers and ids, the final copies' ids. */
const found = { aNumber: "", aInvoiceId: "", bNumber: "", filedReturnId: "", signedCopyId: "", reviewHref: "", secondNumber: "" };

const filing = `/my-tax-filing/${YEAR}`;
const feeSection = (client: Client) => `/admin/clients/${client.clientId}/${YEAR}/fee`;
const feeRegion = (page: Page) => page.getByRole("region", { name: "Your fee" });
/** The state shown at the head of the client's invoice `number` ("Due", "Partly paid", "Paid"). */
const clientBadge = (page: Page, number: string) => feeRegion(page).getByRole("article", { name: `Invoice ${number}` }).locator("header > span");
const staffInvoice = (page: Page, number: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: new RegExp(`^${number}`) }) });
const done = (page: Page, text: string) => expect(page.getByRole("status").filter({ hasText: text })).toBeVisible();

/** A signed-in client with taxpayer information sent, in a browser `width` px wide; their id. */
async function newClient(browser: Browser, width: number): Promise<Client> {
  const email = uniqueEmail(`fees-${width}`);
  await createVerifiedUser(staff.request, email, PASSWORD, NAME);
  const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 }, timezoneId: "Asia/Kolkata" });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard/);
  expect((await page.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  const clientId = await clientIdOf(staff.request, email);
  return { email, page, context, clientId, width };
}

/** An admin invites a preparer, who chooses a password and enrols an authenticator (as tests/e2e/team.spec.ts does). */
async function newPreparer(browser: Browser): Promise<Page> {
  const email = uniqueEmail("fees-preparer");
  await staff.goto("/admin/team");
  await staff.getByLabel("Full name").fill("Paula Preparer");
  await staff.getByLabel("E-mail").fill(email);
  await staff.getByLabel("Role").selectOption("preparer");
  await staff.getByRole("button", { name: "Send invitation" }).click();
  await expect(staff.getByText("The invitation is being e-mailed.", { exact: false })).toBeVisible();
  const link = new URL(await linkFromOutbox(email, "/reset-password"));
  preparerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await preparerContext.newPage();
  await page.goto(link.pathname + link.search);
  const password = "Preparer pass phrase 2";
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="confirmPassword"]').fill(password);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(/\/login\?reset=1/);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/admin\/security\/setup/);
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await page.getByLabel(/Authenticator code/).fill(totpAt(secret, timeStep()));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  return page;
}

/** The text of a PDF the signed-in `page` downloads from `href`, spaces removed. */
async function pdfText(page: Page, href: string): Promise<string> {
  const response = await page.request.get(href);
  expect(response.status(), href).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/pdf");
  const bytes = new Uint8Array(await response.body());
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text.replace(/\s+/g, "");
}
const flat = (text: string) => text.replace(/\s+/g, "");

/** Staff make an invoice of one price-list item in the case's Fee section; its number. */
async function invoiceFromPriceList(page: Page, client: Client, priced: (typeof priceList)[number], then: "save" | "send"): Promise<string> {
  await page.goto(feeSection(client));
  const numbers = async () => (await page.getByRole("list", { name: "Invoices of this case" }).getByRole("heading", { level: 3 }).allTextContents()).map((t) => INVOICE_NUMBER.exec(t)?.[0] ?? "");
  const before = await numbers();
  const form = page.getByRole("form", { name: "New invoice" });
  if (!(await form.isVisible())) await page.getByText("New invoice", { exact: true }).click();
  await form.getByLabel("Add from the price list").selectOption({ label: `${priced.description}: ${formatUsd(priced.unitCents)}` });
  await form.getByRole("button", { name: "Add item" }).click();
  await expect(form.getByLabel("Line 1: description")).toHaveValue(priced.description);
  const unit = form.getByLabel("Unit price ($)");
  await expect(unit).toHaveValue(formatUsd(priced.unitCents).slice(1));
  await expect(unit).toBeEditable();
  await expect(form.getByText(`Total: ${formatUsd(priced.unitCents)}`)).toBeVisible();
  await form.getByRole("button", { name: then === "save" ? "Save draft" : "Save and send to the client" }).click();
  await done(page, then === "save" ? FEE_DONE["invoice-saved"] : FEE_DONE["invoice-sent"]);
  const made = (await numbers()).filter((n) => !before.includes(n));
  expect(made).toHaveLength(1);
  expect(made[0]).toMatch(INVOICE_NUMBER);
  return made[0]!;
}

/** Staff record a payment received outside Stripe on `number`. */
async function recordPayment(page: Page, number: string, method: "wire" | "zelle", amount: string, reference: string, paidInFull: boolean): Promise<void> {
  const card = staffInvoice(page, number);
  await card.getByText("Record a payment", { exact: true }).click();
  const form = page.getByRole("form", { name: `Record a payment of ${number}` });
  await form.getByLabel("Method").selectOption(method);
  await form.getByLabel("Amount received ($)").fill(amount);
  await form.getByLabel(/^Reference/).fill(reference);
  await form.getByRole("button", { name: "Record the payment" }).click();
  await done(page, paidInFull ? FEE_DONE["payment-recorded-paid"] : FEE_DONE["payment-recorded"]);
  // Folded again: its amount is not offered a second time.
  await expect(form).toBeHidden();
}

async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "America/New_York" });
  staff = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staff);
  a = await newClient(browser, 1280);
  b = await newClient(browser, 390);
  preparer = await newPreparer(browser);
});

test.afterAll(async () => {
  for (const context of [a?.context, b?.context, preparerContext, staffContext]) await context?.close();
});

test("at 1280 px an admin builds A's invoice from the price list and sends it; A sees the fee due and downloads the invoice", async () => {
  test.setTimeout(90_000);
  found.aNumber = await invoiceFromPriceList(staff, a, STANDARD, "save");
  const card = staffInvoice(staff, found.aNumber);
  await expect(card).toContainText(INVOICE_STATUS_LABELS.draft);
  // Nothing is shown to the client before the invoice is sent.
  await a.page.goto(filing);
  await expect(feeRegion(a.page)).toHaveCount(0);

  await card.getByRole("button", { name: "Send to the client" }).click();
  await done(staff, FEE_DONE["invoice-sent"]);
  await expect(staffInvoice(staff, found.aNumber)).toContainText(INVOICE_STATUS_LABELS.sent);
  await expect.poll(() => readOutbox(e2eDataDir).filter((m) => m.to.includes(a.email) && m.subject.includes(found.aNumber)).length).toBe(1);

  await a.page.goto("/my-tax-filing");
  await expect(a.page.getByRole("link", { name: FEE_TEXTS.feeDue(STANDARD.unitCents) })).toBeVisible();
  await a.page.goto(filing);
  const fee = feeRegion(a.page);
  await expect(fee.getByText(FEE_TEXTS.feeDue(STANDARD.unitCents), { exact: true })).toBeVisible();
  await expect(fee.getByRole("heading", { name: `Invoice ${found.aNumber}` })).toBeVisible();
  const href = (await fee.getByRole("link", { name: "Download the invoice (PDF)" }).getAttribute("href"))!;
  found.aInvoiceId = /invoices\/([^/]+)\/invoice\.pdf$/.exec(href)?.[1] ?? "";
  expect(found.aInvoiceId).not.toBe("");
  const text = await pdfText(a.page, href);
  expect(text).toContain(found.aNumber);
  expect(text).toContain("TaxBridge");
  expect(text).toMatch(/Amountdue\$299\.00/i);
  await expectNoSidewaysScroll(a.page, a.width);
});

test("the final copies released for A with the form's defaults wait for the fee on every address: listed as held, each download answers 402", async () => {
  test.setTimeout(150_000);
  const section = `/admin/clients/${a.clientId}/${YEAR}/return`;
  // The return up to its acceptance: the engagement letter accepted (the draft waits for it), a
  // draft the client reviews and approves, a hand-signed Form 8879, an accepted e-file.
  await letterAccepted(staff, a.page, a.clientId, YEAR);
  await staff.goto(section);
  const upload = staff.getByRole("form", { name: "Upload a draft return" });
  await upload.getByLabel("Form", { exact: true }).selectOption("1040-NR");
  await upload.getByLabel(/The draft return/).setInputFiles({ name: "1040nr-draft-v1.pdf", mimeType: "application/pdf", buffer: onePagePdf("fees-draft") });
  await upload.getByRole("button", { name: "Upload version" }).click();
  await done(staff, RETURN_DONE["version-uploaded"]);
  await a.page.goto(filing);
  // The draft reaches the client under its own name, stamped DRAFT: never staff's file.
  const draftName = RETURN_FILE_NAMES.draft("1040-NR", YEAR, 1);
  const draftLink = a.page.getByRole("link", { name: `Download the draft (${draftName})` });
  found.reviewHref = (await draftLink.getAttribute("href"))!;
  const [reviewed] = await Promise.all([a.page.waitForEvent("download"), draftLink.click()]);
  expect(reviewed.suggestedFilename()).toBe(draftName);
  expect(await pdfText(a.page, found.reviewHref)).toBe("DRAFT");
  await a.page.getByLabel("I have read the draft and I agree with the declaration above.").check();
  await a.page.getByRole("button", { name: "Approve the draft" }).click();
  await expect(a.page.getByText(RETURN_CLIENT_MESSAGES.approved).or(a.page.getByText(/^You approved the draft on /)).first()).toBeVisible();

  await staff.goto(section);
  const sign = staff.getByRole("form", { name: "Request the signature" });
  await sign.getByLabel("Form 8879 to sign (PDF)").setInputFiles({ name: "8879.pdf", mimeType: "application/pdf", buffer: onePagePdf("fees-8879") });
  await sign.getByRole("button", { name: "Request the signature" }).click();
  await done(staff, RETURN_DONE["signature-requested"]);
  await a.page.goto(filing);
  await a.page.getByLabel("The signed Form 8879 (PDF, JPEG or PNG)").setInputFiles({ name: "signed-8879.pdf", mimeType: "application/pdf", buffer: onePagePdf("fees-signed") });
  await a.page.getByRole("button", { name: "Upload the signed form" }).click();
  await expect(a.page.getByText(RETURN_CLIENT_MESSAGES.uploaded)).toBeVisible();

  await staff.goto(section);
  await staff.getByRole("button", { name: "Accept", exact: true }).click();
  await done(staff, RETURN_DONE["scan-accepted"]);
  const transmit = staff.getByRole("form", { name: "Record a transmission" });
  await transmit.getByLabel("Submission id").fill("00123420259");
  await transmit.getByRole("button", { name: "Record the transmission" }).click();
  await done(staff, RETURN_DONE.transmitted);
  await staff.getByRole("form", { name: "Record the acceptance" }).getByRole("button", { name: "Record accepted" }).click();
  await done(staff, RETURN_DONE.accepted);

  // The final copies form as it comes: "The current version" and "The signed copy", released while the invoice is unpaid.
  const release = staff.getByRole("form", { name: "Release the final copies" });
  await expect(release.getByRole("group", { name: "The filed return" }).getByLabel("The current version (version 1, 1040nr-draft-v1.pdf)")).toBeChecked();
  await expect(release.getByRole("group", { name: "The signed authorisation" }).getByLabel("The signed copy", { exact: true })).toBeChecked();
  await release.getByRole("button", { name: "Release the final copies" }).click();
  await done(staff, RETURN_DONE.released);
  found.filedReturnId = (await staff.getByRole("link", { name: "the filed return" }).getAttribute("href"))!.replace("/documents/", "");
  found.signedCopyId = (await staff.getByRole("link", { name: "the signed authorisation" }).getAttribute("href"))!.replace("/documents/", "");
  await staff.goto(feeSection(a));
  await expect(staff.getByText("Locked: the client sees the final copies as available once the fee is paid.")).toBeVisible();

  // A sees both listed, held until the fee is paid, with no Download, and no address gives either file or the version filed.
  await a.page.goto(filing);
  for (const name of [RETURN_FILE_NAMES.filed("1040-NR", YEAR), `Form 8879 ${YEAR} signed.pdf`]) {
    const row = a.page.getByRole("listitem").filter({ hasText: name });
    await expect(row.getByRole("link", { name: FEE_TEXTS.finalCopiesLocked })).toBeVisible();
    await expect(row.getByRole("link", { name: /^Download/ })).toHaveCount(0);
  }
  await expect(a.page.getByRole("link", { name: /1040nr-draft-v1\.pdf/ })).toHaveCount(0);
  for (const href of [`/documents/${found.filedReturnId}`, `/documents/${found.signedCopyId}`, found.reviewHref]) {
    const held = await a.page.request.get(href);
    expect(held.status(), href).toBe(402);
    expect(await held.text()).toBe(FEE_TEXTS.finalCopiesLocked);
  }
  // Nothing waits for a signature, and the upload addresses give no file.
  expect((await a.page.request.get(`${filing}/signing-form`)).status()).toBe(404);
  for (const path of [`${filing}/signed-form`, `${filing}/documents`]) expect((await a.page.request.get(path)).status(), path).toBe(405);
  // B, another client, gets the same 404 as for nothing.
  for (const href of [`/documents/${found.filedReturnId}`, `/documents/${found.signedCopyId}`, found.reviewHref]) {
    expect((await b.page.request.get(href)).status(), href).toBe(404);
  }
});

test("A pays by card on Stripe's page: paid, the receipt, the final copies, PAYMENT completed and the e-mail", async () => {
  test.setTimeout(90_000);
  await a.page.goto(filing);
  await feeRegion(a.page).getByRole("button", { name: `Pay ${formatUsd(STANDARD.unitCents)} by card` }).click();
  await expect(a.page).toHaveURL(/\/checkout\/cs_test_[0-9a-f]+$/);
  await expect(a.page.locator("#amount")).toHaveText(formatUsd(STANDARD.unitCents));
  await a.page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(a.page).toHaveURL(new RegExp(`${filing}\\?checkout=done&session_id=cs_test_`));
  await expect(a.page.getByText(FEE_TEXTS.cardPaid).or(a.page.getByText(FEE_TEXTS.confirming)).first()).toBeVisible();
  // Once Stripe's word has come (the stand-in sends it before it redirects), the invoice reads Paid.
  await expect(async () => {
    await a.page.reload();
    await expect(clientBadge(a.page, found.aNumber)).toHaveText(FEE_TEXTS.paid, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(feeRegion(a.page).getByText(FEE_TEXTS.feeDue(STANDARD.unitCents))).toHaveCount(0);

  const receipt = (await feeRegion(a.page).getByRole("link", { name: "Download the receipt (PDF)" }).getAttribute("href"))!;
  const text = await pdfText(a.page, receipt);
  expect(text).toContain(found.aNumber);
  expect(text).toContain("$299.00");
  expect(text).toContain("Card");

  // Paid: every address gives A the final copies. The filed return is the version's own bytes, under its own name.
  await a.page.goto(filing);
  await expect(a.page.getByRole("link", { name: FEE_TEXTS.finalCopiesLocked })).toHaveCount(0);
  const filedName = RETURN_FILE_NAMES.filed("1040-NR", YEAR);
  const [filed] = await Promise.all([a.page.waitForEvent("download"), a.page.getByRole("link", { name: `Download ${filedName}` }).click()]);
  expect(filed.suggestedFilename()).toBe(filedName);
  expect(readFileSync((await filed.path())!).equals(onePagePdf("fees-draft"))).toBe(true);
  const signedName = `Form 8879 ${YEAR} signed.pdf`;
  const [signed] = await Promise.all([a.page.waitForEvent("download"), a.page.getByRole("link", { name: `Download ${signedName}` }).click()]);
  expect(signed.suggestedFilename()).toBe(signedName);
  expect(await pdfText(a.page, `/documents/${found.signedCopyId}`)).toMatch(/signaturecertificate/i);
  // The review address gives the draft again, stamped DRAFT: never the filed return.
  expect(await pdfText(a.page, found.reviewHref)).toBe("DRAFT");
  await expect(a.page.getByText("Paid. Your receipt is here.")).toBeVisible();

  await staff.goto(`/admin/clients/${a.clientId}/${YEAR}/workflow`);
  await expect(staff.getByRole("checkbox", { name: /Stage 6: PAYMENT/ })).toBeChecked();
  await staff.goto(feeSection(a));
  await expect(staffInvoice(staff, found.aNumber)).toContainText(INVOICE_STATUS_LABELS.paid);
  await expect(staffInvoice(staff, found.aNumber)).toContainText("through Stripe");

  await expect.poll(() => readOutbox(e2eDataDir).filter((m) => m.to.includes(a.email) && m.subject === `Payment received for your ${YEAR} tax filing`).length).toBe(1);
  const mail = readOutbox(e2eDataDir).find((m) => m.to.includes(a.email) && m.subject === `Payment received for your ${YEAR} tax filing`)!;
  expect(mail.text).toContain(found.aNumber);
  // A link only: no amount in the e-mail.
  expect(`${mail.subject} ${mail.text} ${mail.raw}`).not.toMatch(/\$\s?\d|299\.00/);
});

test("at 390 px B is invoiced by a preparer, reads the wire and Zelle details, says it was sent; a partial wire, then Zelle: paid", async () => {
  test.setTimeout(90_000);
  found.bNumber = await invoiceFromPriceList(preparer, b, PREMIUM, "send");

  await b.page.goto("/my-tax-filing");
  await expect(b.page.getByRole("link", { name: FEE_TEXTS.feeDue(PREMIUM.unitCents) })).toBeVisible();
  await b.page.goto(filing);
  const fee = feeRegion(b.page);
  await expect(fee.getByText(FEE_TEXTS.feeDue(PREMIUM.unitCents), { exact: true })).toBeVisible();
  await expect(fee.getByText(`Write ${paymentInstructions.reference(found.bNumber)} as the reference`)).toBeVisible();
  await expect(fee.getByText(paymentInstructions.wire.accountName, { exact: true })).toBeVisible();
  await expect(fee.getByText(paymentInstructions.wire.swift, { exact: true })).toBeVisible();
  await expect(fee.getByText(paymentInstructions.zelle.email, { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(b.page, b.width);
  await fee.getByRole("button", { name: "I have sent the payment" }).click();
  await expect(feeRegion(b.page).getByText(FEE_TEXTS.paymentNoticeSent)).toBeVisible();
  await expect(feeRegion(b.page).getByRole("button", { name: "I have sent the payment" })).toHaveCount(0);

  await preparer.goto(feeSection(b));
  await expect(staffInvoice(preparer, found.bNumber)).toContainText("The client said they sent the payment by wire or Zelle");
  await recordPayment(preparer, found.bNumber, "wire", "200.00", "WIRE-123", false);
  await expect(staffInvoice(preparer, found.bNumber)).toContainText("WIRE-123");
  await b.page.goto(filing);
  await expect(feeRegion(b.page).getByText(FEE_TEXTS.feeDue(39_900), { exact: true })).toBeVisible();
  await expect(clientBadge(b.page, found.bNumber)).toHaveText(INVOICE_STATUS_LABELS["partly-paid"]);

  await recordPayment(preparer, found.bNumber, "zelle", "399.00", "ZELLE-9", true);
  await expect(staffInvoice(preparer, found.bNumber)).toContainText(INVOICE_STATUS_LABELS.paid);
  await b.page.goto(filing);
  await expect(b.page.getByText("Paid. Your receipt is here.")).toBeVisible();
  await b.page.getByText("Paid. Your receipt is here.").click();
  await expect(clientBadge(b.page, found.bNumber)).toHaveText(FEE_TEXTS.paid);
  const receipt = (await feeRegion(b.page).getByRole("link", { name: "Download the receipt (PDF)" }).getAttribute("href"))!;
  const text = await pdfText(b.page, receipt);
  expect(text).toContain(found.bNumber);
  expect(text).toContain("WIRE-123");
  expect(text).toContain("$599.00");
  await expectNoSidewaysScroll(b.page, b.width);
});

test("an admin refunds $100.00 of B's Zelle payment: the invoice is partly paid again and B owes $100.00", async () => {
  await staff.goto(feeSection(b));
  const zelle = staffInvoice(staff, found.bNumber).getByRole("listitem").filter({ hasText: `${formatUsd(39_900)} · Zelle` });
  await zelle.locator("summary", { hasText: /^Refund$/ }).click();
  const form = staff.getByRole("form", { name: `Refund the payment of ${formatUsd(39_900)}` });
  await form.getByLabel(/Amount to refund/).fill("100.00");
  await form.getByLabel("Reason (optional)").fill("Goodwill");
  await form.getByRole("button", { name: "Refund", exact: true }).click();
  await done(staff, FEE_DONE["refund-recorded"]);
  const card = staffInvoice(staff, found.bNumber);
  await expect(card).toContainText(INVOICE_STATUS_LABELS["partly-paid"]);
  await expect(card.getByRole("list", { name: "Refunds" })).toContainText("Refund $100.00 · Refunded");

  await b.page.goto(filing);
  await expect(feeRegion(b.page).getByText(FEE_TEXTS.feeDue(10_000), { exact: true })).toBeVisible();
  await expect(clientBadge(b.page, found.bNumber)).toHaveText(INVOICE_STATUS_LABELS["partly-paid"]);
});

test("PAY SECURELY NOW takes A with an open invoice to the fee, and a visitor to sign in first, then to the fee", async ({ browser }) => {
  test.setTimeout(90_000);
  // A's first invoice is paid: a second one is open.
  found.secondNumber = await invoiceFromPriceList(staff, a, RUSH, "send");
  await a.page.goto("/");
  await a.page.getByRole("button", { name: "PAY SECURELY NOW" }).click();
  await expect(a.page).toHaveURL(new RegExp(`${filing}#fee$`));
  await expect(feeRegion(a.page).getByText(FEE_TEXTS.feeDue(RUSH.unitCents), { exact: true })).toBeVisible();

  const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto("/");
  await visitor.getByRole("button", { name: "PAY SECURELY NOW" }).click();
  await expect(visitor).toHaveURL(/\/login\?redirectTo=%2Fpay$/);
  await expect(visitor.locator("html[data-hydrated]")).toHaveCount(1);
  await visitor.getByRole("textbox", { name: "Email Address" }).fill(a.email);
  await visitor.locator('input[name="password"]').fill(PASSWORD);
  await visitor.getByRole("button", { name: "Sign In" }).click();
  await expect(visitor).toHaveURL(new RegExp(`${filing}#fee$`));
  await expect(feeRegion(visitor).getByText(FEE_TEXTS.feeDue(RUSH.unitCents), { exact: true })).toBeVisible();
  await visitorContext.close();
});

test("roles and isolation: B cannot reach A's invoice, a preparer cannot void, refund or open Payments; the admin's Payments page and CSV", async () => {
  test.setTimeout(90_000);
  // B asks for A's invoice PDF, and posts A's invoice id to their own fee forms: the same 404 as nothing.
  for (const file of ["invoice.pdf", "receipt.pdf"]) {
    expect((await b.page.request.get(`${filing}/invoices/${found.aInvoiceId}/${file}`)).status(), file).toBe(404);
  }
  for (const intent of ["announce-payment", "pay-card"]) {
    const posted = await b.page.request.post(`${filing}/fee`, { form: { intent, invoiceId: found.aInvoiceId }, maxRedirects: 0 });
    expect(posted.status(), intent).toBe(404);
  }

  // A's case: a sent invoice nothing was paid on (the admin may void it) and a card payment (the admin may refund it).
  const sections = async (page: Page): Promise<{ voids: Locator; refunds: Locator }> => {
    await page.goto(feeSection(a));
    await expect(staffInvoice(page, found.secondNumber)).toContainText(INVOICE_STATUS_LABELS.sent);
    return { voids: page.locator("summary", { hasText: /^Void this invoice$/ }), refunds: page.locator("summary", { hasText: /^Refund$/ }) };
  };
  const asAdmin = await sections(staff);
  await expect(asAdmin.voids).toHaveCount(1);
  await expect(asAdmin.refunds).toHaveCount(1);
  const asPreparer = await sections(preparer);
  await expect(asPreparer.voids).toHaveCount(0);
  await expect(asPreparer.refunds).toHaveCount(0);
  await expect(preparer.getByRole("link", { name: "Payments", exact: true })).toHaveCount(0);
  const refused = await preparer.goto("/admin/payments");
  expect(refused?.status()).toBe(403);
  await expect(preparer.getByText("This part of the panel is for administrators.")).toBeVisible();
  expect((await preparer.request.get("/admin/payments.csv", { maxRedirects: 0 })).status()).toBe(403);

  // The admin's Payments page: what is owed, this month's payments, the CSV.
  await staff.goto("/admin/payments");
  const outstanding = staff.getByRole("table", { name: "Outstanding invoices, oldest first" });
  await expect(outstanding.getByRole("row").filter({ hasText: found.bNumber })).toContainText(formatUsd(10_000));
  await expect(outstanding.getByRole("row").filter({ hasText: found.secondNumber })).toContainText(formatUsd(RUSH.unitCents));
  await expect(outstanding.getByRole("row").filter({ hasText: found.aNumber })).toHaveCount(0);
  const month = staff.getByRole("table", { name: "Payments and refunds this month, newest first" });
  await expect(month.getByRole("row").filter({ hasText: found.bNumber }).filter({ hasText: "WIRE-123" })).toContainText(formatUsd(20_000));
  await expect(month.getByRole("row").filter({ hasText: found.aNumber })).toContainText("Card");
  const [download] = await Promise.all([staff.waitForEvent("download"), staff.getByRole("link", { name: "Download CSV" }).click()]);
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv).toContain(found.bNumber);
  expect(csv).toContain(found.aNumber);
  expect(flat(csv)).toContain("WIRE-123");
});
