import { expect, test, ADMIN, PASSWORD, createVerifiedUser, keepScreenshot, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { priceList } from "~/content/price-list";
import { FEE_DONE } from "~/domain/fee-section";
import { formatUsd } from "~/domain/fees";
import { currentFilingYear } from "~/domain/tax-year";
import { sampleTaxpayer } from "../helpers/taxpayer";

// An invoice's lines table on a phone (docs/product/look-and-voice.md): at 390 px the client's
// table on the filing page and the staff's in the case's Fee section show every word and amount
// whole, inside the invoice's box, without a scroll bar of their own.

const YEAR = currentFilingYear();
const WIDTH = 390;
const STANDARD = priceList.find((p) => p.id === "standard-filing")!;
const RUSH = priceList.find((p) => p.id === "rush-processing")!;
const INVOICE_NUMBER = /INV-\d{4}-\d{5}/;

let staffContext: BrowserContext;
let staff: Page;
let clientContext: BrowserContext;
let client: Page;
let clientId = "";
let number = "";

/**
 * Every cell of `table` whose text does not show whole: cut by its own box (scrollWidth past
 * clientWidth), or reaching outside the box of `container` or of any element between them that
 * clips what overflows it (an overflow other than visible), or outside the window; and the
 * cells of a row whose texts touch. Each as "text: why".
 */
async function cutCells(table: Locator, container: Locator): Promise<string[]> {
  const box = await container.elementHandle();
  return table.evaluate((element, outer) => {
    const inside = (r: DOMRect, c: { left: number; right: number }) => r.left >= c.left - 0.5 && r.right <= c.right + 0.5;
    const contentBox = (e: Element) => {
      const r = e.getBoundingClientRect();
      const style = getComputedStyle(e);
      const left = r.left + e.clientLeft + parseFloat(style.paddingLeft);
      return { left, right: r.left + e.clientLeft + e.clientWidth - parseFloat(style.paddingRight) };
    };
    const clipping: Element[] = [];
    for (let e = element.parentElement; e && e !== outer; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== "visible") clipping.push(e);
    }
    const found: string[] = [];
    for (const cell of Array.from(element.querySelectorAll("th, td"))) {
      const text = (cell.textContent ?? "").trim();
      if (text === "" || cell.closest(".sr-only, caption")) continue;
      if (cell.scrollWidth > cell.clientWidth) found.push(`${text}: wider than its cell (${cell.scrollWidth} > ${cell.clientWidth})`);
      const range = document.createRange();
      range.selectNodeContents(cell);
      const r = range.getBoundingClientRect();
      if (outer && !inside(r, contentBox(outer))) found.push(`${text}: outside the invoice's box`);
      for (const e of clipping) {
        const clip = e.getBoundingClientRect();
        if (!inside(r, { left: clip.left + e.clientLeft, right: clip.left + e.clientLeft + e.clientWidth })) found.push(`${text}: cut by a box that scrolls or hides`);
        if (e.scrollWidth > e.clientWidth) found.push(`${text}: in a box that scrolls sideways (${e.scrollWidth} > ${e.clientWidth})`);
      }
      if (!inside(r, { left: 0, right: window.innerWidth })) found.push(`${text}: outside the window`);
    }
    // Cells of one row never run together ("1$299.00$299.00"): a gap of at least 8 px between their texts.
    for (const row of Array.from(element.querySelectorAll("tr"))) {
      let previous: { text: string; right: number } | null = null;
      for (const cell of Array.from(row.cells)) {
        const text = (cell.textContent ?? "").trim();
        if (text === "") continue;
        const range = document.createRange();
        range.selectNodeContents(cell);
        const r = range.getBoundingClientRect();
        if (previous && r.left - previous.right < 8) found.push(`${previous.text} and ${text}: run together (${Math.round(r.left - previous.right)} px apart)`);
        previous = { text, right: r.right };
      }
    }
    return found;
  }, box);
}

/** The width that `text`, in the cell of `table` holding exactly it, takes on screen (0 when cut). */
async function shownWidth(table: Locator, text: string): Promise<{ whole: number; shown: number }> {
  const cell = table.locator("th, td").filter({ hasText: new RegExp(`^\\s*${text.replace(/[$.()]/g, "\\$&")}\\s*$`) }).first();
  await expect(cell).toBeVisible();
  return cell.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    // What of it the boxes around it let show.
    let left = r.left;
    let right = r.right;
    for (let a = e.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === "visible") continue;
      const c = a.getBoundingClientRect();
      left = Math.max(left, c.left + a.clientLeft);
      right = Math.min(right, c.left + a.clientLeft + a.clientWidth);
    }
    left = Math.max(left, 0);
    right = Math.min(right, window.innerWidth);
    return { whole: r.width, shown: Math.max(0, right - left) };
  });
}

async function expectWhole(table: Locator, container: Locator, texts: string[]): Promise<void> {
  expect(await cutCells(table, container)).toEqual([]);
  for (const text of texts) {
    const { whole, shown } = await shownWidth(table, text);
    expect(whole, text).toBeGreaterThan(0);
    expect(shown, `${text} shows whole`).toBeGreaterThanOrEqual(whole - 0.5);
  }
  expect(await table.page().evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
}

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  staff = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staff);

  const email = uniqueEmail("narrow-invoice");
  await createVerifiedUser(staff.request, email, PASSWORD, `${sampleTaxpayer.name_as_per_ssn} ${sampleTaxpayer.last_name}`);
  clientContext = await browser.newContext({ viewport: { width: WIDTH, height: 844 } });
  client = await clientContext.newPage();
  await signIn(client, email);
  await expect(client).toHaveURL(/\/dashboard/);
  expect((await client.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  clientId = await clientIdOf(staff.request, email);

  // Staff send an invoice of two price-list lines: the standard filing and rush processing.
  await staff.goto(`/admin/clients/${clientId}/${YEAR}/fee`);
  const form = staff.getByRole("form", { name: "New invoice" });
  if (!(await form.isVisible())) await staff.getByText("New invoice", { exact: true }).click();
  for (const [i, priced] of [STANDARD, RUSH].entries()) {
    await form.getByLabel("Add from the price list").selectOption({ label: `${priced.description}: ${formatUsd(priced.unitCents)}` });
    await form.getByRole("button", { name: "Add item" }).click();
    await expect(form.getByLabel(`Line ${i + 1}: description`)).toHaveValue(priced.description);
  }
  await form.getByRole("button", { name: "Save and send to the client" }).click();
  await expect(staff.getByRole("status").filter({ hasText: FEE_DONE["invoice-sent"] })).toBeVisible();
  const heading = await staff.getByRole("list", { name: "Invoices of this case" }).getByRole("heading", { level: 3 }).first().textContent();
  number = INVOICE_NUMBER.exec(heading ?? "")?.[0] ?? "";
  expect(number).toMatch(INVOICE_NUMBER);
});

test.afterAll(async () => {
  for (const context of [clientContext, staffContext]) await context?.close();
});

test("at 390 px the client's invoice lines show whole: Description, Qty, Amount and every amount", async () => {
  await client.goto(`/my-tax-filing/${YEAR}`);
  const invoice = client.getByRole("region", { name: "Your fee" }).getByRole("article", { name: `Invoice ${number}` });
  const table = invoice.getByRole("table", { name: `Invoice ${number}` });
  await expect(table).toBeVisible();
  const total = formatUsd(STANDARD.unitCents + RUSH.unitCents);
  await keepScreenshot(invoice, "invoice-narrow-client");
  await expectWhole(table, invoice, ["Description", "Qty", "Amount", formatUsd(STANDARD.unitCents), formatUsd(RUSH.unitCents), STANDARD.description, "Total", total]);
});

test("at 390 px the staff's invoice lines show whole: Description, Qty, Unit, Amount and every amount", async () => {
  await staff.setViewportSize({ width: WIDTH, height: 844 });
  await staff.goto(`/admin/clients/${clientId}/${YEAR}/fee`);
  const invoice = staff.getByRole("list", { name: "Invoices of this case" }).getByRole("listitem").filter({ has: staff.getByRole("heading", { name: new RegExp(`^${number}`) }) });
  const table = invoice.getByRole("table", { name: `Lines of ${number}` });
  await expect(table).toBeVisible();
  await keepScreenshot(invoice, "invoice-narrow-staff");
  await expectWhole(table, invoice, ["Description", "Qty", "Unit", "Amount", formatUsd(STANDARD.unitCents), formatUsd(RUSH.unitCents), STANDARD.description]);
});
