import { expect, test, ADMIN, PASSWORD, createVerifiedUser, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { priceList } from "~/content/price-list";
import { FEE_DONE } from "~/domain/fee-section";
import { FEE_TEXTS, INVOICE_STATUS_LABELS, formatUsd } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { sampleTaxpayer } from "../helpers/taxpayer";

// A card payment page that outlives its reason (docs/product/fees.md#paying), in the browser
// against the local Stripe: the client opens the $299.00 page, staff record a $100.00 wire, and
// the page left open can no longer be paid; the client pays the $199.00 still owed on a new page,
// and the invoice is paid once, with nothing to give back.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const STANDARD = priceList.find((p) => p.id === "standard-filing")!;
const filing = `/my-tax-filing/${YEAR}`;
const feeRegion = (page: Page) => page.getByRole("region", { name: "Your fee" });
const done = (page: Page, text: string) => expect(page.getByRole("status").filter({ hasText: text })).toBeVisible();

let staffContext: BrowserContext;
let staff: Page;
let clientContext: BrowserContext;
let client: Page;
let clientId = "";
let number = "";

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "America/New_York" });
  staff = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staff);
  const email = uniqueEmail("card-pages");
  await createVerifiedUser(staff.request, email, PASSWORD, `${sampleTaxpayer.name_as_per_ssn} ${sampleTaxpayer.last_name}`);
  clientContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  client = await clientContext.newPage();
  await signIn(client, email);
  await expect(client).toHaveURL(/\/dashboard/);
  expect((await client.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  clientId = await clientIdOf(staff.request, email);
});

test.afterAll(async () => {
  for (const context of [clientContext, staffContext]) await context?.close();
});

test("a wire recorded while the $299.00 card page is open expires it: only the $199.00 still owed can be paid", async () => {
  test.setTimeout(120_000);
  const section = `/admin/clients/${clientId}/${YEAR}/fee`;
  await staff.goto(section);
  const form = staff.getByRole("form", { name: "New invoice" });
  if (!(await form.isVisible())) await staff.getByText("New invoice", { exact: true }).click();
  await form.getByLabel("Add from the price list").selectOption({ label: `${STANDARD.description}: ${formatUsd(STANDARD.unitCents)}` });
  await form.getByRole("button", { name: "Add item" }).click();
  await form.getByRole("button", { name: "Save and send to the client" }).click();
  await done(staff, FEE_DONE["invoice-sent"]);
  number = ((await staff.getByRole("list", { name: "Invoices of this case" }).getByRole("heading", { level: 3 }).first().textContent()) ?? "").match(/INV-\d{4}-\d{5}/)?.[0] ?? "";
  expect(number).not.toBe("");

  // The client opens Stripe's page for $299.00, and leaves it open.
  await client.goto(filing);
  await feeRegion(client).getByRole("button", { name: `Pay ${formatUsd(STANDARD.unitCents)} by card` }).click();
  await expect(client).toHaveURL(/\/checkout\/cs_test_[0-9a-f]+$/);
  await expect(client.locator("#amount")).toHaveText(formatUsd(STANDARD.unitCents));
  const firstPage = client.url();

  // Meanwhile a $100.00 wire arrives and staff record it.
  const card = staff.getByRole("listitem").filter({ has: staff.getByRole("heading", { name: new RegExp(`^${number}`) }) });
  await card.getByText("Record a payment", { exact: true }).click();
  const pay = staff.getByRole("form", { name: `Record a payment of ${number}` });
  await pay.getByLabel("Method").selectOption("wire");
  await pay.getByLabel("Amount received ($)").fill("100.00");
  await pay.getByLabel(/^Reference/).fill("WIRE-77");
  await pay.getByRole("button", { name: "Record the payment" }).click();
  await done(staff, FEE_DONE["payment-recorded"]);

  // The page left open (Stripe's, not ours: no hydration to wait for) can no longer be paid.
  await Promise.all([client.waitForEvent("load"), client.evaluate(() => location.reload())]);
  expect(client.url()).toBe(firstPage);
  await expect(client.getByText("This session has expired: it can no longer be paid.")).toBeVisible();
  await expect(client.getByRole("button", { name: "Pay", exact: true })).toHaveCount(0);

  // The client pays what is still owed on a new page.
  await client.goto(filing);
  await feeRegion(client).getByRole("button", { name: `Pay ${formatUsd(19_900)} by card` }).click();
  await expect(client).toHaveURL(/\/checkout\/cs_test_[0-9a-f]+$/);
  expect(client.url()).not.toBe(firstPage);
  await expect(client.locator("#amount")).toHaveText(formatUsd(19_900));
  await client.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(client).toHaveURL(new RegExp(`${filing}\\?checkout=done&session_id=cs_test_`));
  await expect(async () => {
    await client.reload();
    await expect(feeRegion(client).getByText(FEE_TEXTS.paid, { exact: true }).first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // Paid once: $299.00, nothing to give back.
  await staff.goto(section);
  const paid = staff.getByRole("listitem").filter({ has: staff.getByRole("heading", { name: new RegExp(`^${number}`) }) });
  await expect(paid).toContainText(INVOICE_STATUS_LABELS.paid);
  await expect(paid).not.toContainText("refund $");
  await expect(paid.getByRole("list", { name: `Payments of ${number}` }).getByRole("listitem")).toHaveCount(2);
  await staff.goto("/admin/payments");
  await expect(staff.getByRole("heading", { name: "Money to give back" })).toHaveCount(0);
});
