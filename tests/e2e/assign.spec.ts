import { expect, test, ADMIN, PASSWORD, createVerifiedUser, e2eDataDir, signInAsStaff, uniqueEmail } from "./support";
import type { BrowserContext, Dialog, Locator, Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox";

// Assigning from the staff panel's client list (docs/product/workflow.md#client-list): a row's own
// "Assigned To" select, ticking rows and "Assign selected", at 1280 px (the table still fits beside
// the sidebar) and at 390 px (cards), with and without JavaScript; and "Send invitation again" on a
// case page.

test.describe.configure({ mode: "serial" });

const TAG = `Asg${Date.now().toString(36)}`;
const NAMES = Array.from({ length: 5 }, (_, i) => `${TAG} ${String.fromCharCode(65 + i)}client`);
// Sorted after the other staff (other specs take the first name of the staff list as their own).
const PREPARER = `Zeta ${TAG} Preparer`;
const DISCARD = "You have workflow changes that are not saved. Leave them and lose the changes?";

let staffContext: BrowserContext;
let staffPage: Page;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  for (const name of NAMES) await createVerifiedUser(request, uniqueEmail("assign"), PASSWORD, name);
  await signInAsStaff(staffPage);
  // A preparer to assign to (invited: on the staff from the start).
  const invited = await staffPage.request.post("/admin/team", {
    form: { intent: "invite", fullName: PREPARER, email: uniqueEmail("preparer"), role: "preparer" },
  });
  expect(invited.status(), await invited.text()).toBe(200);
});

test.afterAll(async () => {
  await staffContext?.close();
});

const list = `/admin/dashboard?q=${TAG}`;
const rowOf = (page: Page, name: string) =>
  page.locator("tbody tr[data-client-row]").filter({ hasText: name });
const assigneeSelect = (row: Locator, name: string) =>
  row.getByRole("combobox", { name: new RegExp(`^Assigned To: TB-\\d{5} ${name}$`) });
const chosen = (select: Locator) => select.locator("option:checked");

async function open(page: Page, url = list) {
  await page.goto(url);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** The list's table at 1280 px: no sideways scroll, the last column inside the window. */
async function expectTableFits(page: Page) {
  const region = page.getByRole("region", { name: /^Clients, tax year/ });
  const fit = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  const actions = await page.getByRole("columnheader", { name: "Actions" }).boundingBox();
  expect(actions!.x + actions!.width).toBeLessThanOrEqual(1280);
}

test("a row's Assigned To saves the staff member chosen, and asks first when its workflow has unsaved changes", async () => {
  const page = staffPage;
  await open(page);
  await expectTableFits(page);
  const row = rowOf(page, NAMES[0]!);
  const select = assigneeSelect(row, NAMES[0]!);
  await expect(chosen(select)).toHaveText("Unassigned");

  await select.selectOption({ label: PREPARER });
  await expect(row.getByText("Saved", { exact: true })).toBeVisible();
  await expect(row.getByRole("status")).toContainText(`${NAMES[0]} (TB-`);
  await expect(row.getByRole("status")).toContainText(`is now assigned to ${PREPARER}.`);
  // Stored: after a reload the row and the workflow panel say so.
  await open(page);
  await expect(chosen(select)).toHaveText(PREPARER);
  await row.getByRole("button", { name: "View Workflow" }).click();
  await expect(page.locator(`select[name="assigneeId"][id$="-workflow-assignee"] option:checked`)).toHaveText(
    PREPARER,
  );
  await expectTableFits(page);

  // With unsaved ticks in the panel, changing the row's assignee asks first; "stay" keeps both.
  const dialogs: string[] = [];
  let accept = false;
  const answer = (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (accept ? dialog.accept() : dialog.dismiss());
  };
  page.on("dialog", answer);
  try {
    const home = page.getByRole("checkbox", { name: /: HOME / });
    await page.locator("label").filter({ has: home }).click();
    await expect(page.getByText("Changes not saved yet.")).toBeVisible();
    await select.selectOption({ label: "Unassigned" });
    await expect.poll(() => dialogs).toEqual([DISCARD]);
    await expect(chosen(select)).toHaveText(PREPARER);
    await expect(home).toBeChecked();
    // Accepted: the assignment is saved; the panel shows the saved workflow.
    accept = true;
    await select.selectOption({ label: "Unassigned" });
    await expect(row.getByText("Saved", { exact: true })).toBeVisible();
    await expect(chosen(select)).toHaveText("Unassigned");
    await expect(home).not.toBeChecked();
    expect(dialogs).toEqual([DISCARD, DISCARD]);
  } finally {
    page.off("dialog", answer);
  }
});

test("ticking rows and Assign selected assigns them all at once; the count is announced", async () => {
  const page = staffPage;
  await open(page);
  const bar = page.getByRole("form", { name: "Assign selected clients" });
  const count = bar.getByRole("status").first();
  await expect(count).toHaveText("No clients selected");
  await expect(count).toHaveAttribute("aria-live", "polite");

  // Nothing ticked: refused, nothing changes.
  await bar.getByLabel("Assign to").selectOption({ label: PREPARER });
  await bar.getByRole("button", { name: "Assign selected" }).click();
  await expect(bar.getByText("Select at least one client to assign.")).toBeVisible();

  for (const name of NAMES.slice(1, 4))
    await page.getByRole("checkbox", { name: new RegExp(`^Select TB-\\d{5} ${name}$`) }).check();
  await expect(count).toHaveText("3 selected");
  await bar.getByRole("button", { name: "Assign selected" }).click();
  await expect(bar.getByText(`3 clients assigned to ${PREPARER}.`)).toBeVisible();
  await expect(count).toHaveText("No clients selected");
  for (const name of NAMES.slice(1, 4))
    await expect(chosen(assigneeSelect(rowOf(page, name), name))).toHaveText(PREPARER);
  await expect(chosen(assigneeSelect(rowOf(page, NAMES[4]!), NAMES[4]!))).toHaveText("Unassigned");
  await expectTableFits(page);

  // Select all on this page, then none.
  const all = bar.getByRole("checkbox", { name: "Select all on this page" });
  await all.check();
  await expect(count).toHaveText(`${NAMES.length} selected`);
  await page.getByRole("checkbox", { name: new RegExp(`^Select TB-\\d{5} ${NAMES[0]}$`) }).uncheck();
  await expect(count).toHaveText(`${NAMES.length - 1} selected`);
  expect(await all.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(true);
  await all.check();
  await all.uncheck();
  await expect(count).toHaveText("No clients selected");

  // The search found these rows by the assignee's name too.
  await open(page, `/admin/dashboard?q=${encodeURIComponent(PREPARER)}`);
  await expect(page.getByText("Showing 1-3 of 3 clients")).toBeVisible();
});

test("on a phone each card has its check box and select, with room to tap, and nothing scrolls sideways", async () => {
  const page = staffPage;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await open(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const bar = page.getByRole("form", { name: "Assign selected clients" });
    for (const name of NAMES.slice(1, 3)) {
      const box = page.getByRole("checkbox", { name: new RegExp(`^Select TB-\\d{5} ${name}$`) });
      const target = (await rowOf(page, name).locator("label").filter({ has: box }).boundingBox())!;
      expect(target.height).toBeGreaterThanOrEqual(44);
      await rowOf(page, name).getByText("Select", { exact: true }).click();
      await expect(box).toBeChecked();
    }
    await expect(bar.getByRole("status").first()).toHaveText("2 selected");
    await bar.getByLabel("Assign to").selectOption({ label: "Unassigned" });
    const button = bar.getByRole("button", { name: "Assign selected" });
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await button.click();
    await expect(bar.getByText("2 clients now unassigned.")).toBeVisible();
    for (const name of NAMES.slice(1, 3))
      await expect(chosen(assigneeSelect(rowOf(page, name), name))).toHaveText("Unassigned");

    // A card's own select.
    const select = assigneeSelect(rowOf(page, NAMES[4]!), NAMES[4]!);
    expect((await select.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await select.selectOption({ label: PREPARER });
    await expect(rowOf(page, NAMES[4]!).getByText("Saved", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test("without JavaScript a row's Assign button and Assign selected still work", async ({ browser }) => {
  const context = await browser.newContext({
    storageState: await staffContext.storageState(),
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = await context.newPage();
    await page.goto(list);
    const row = rowOf(page, NAMES[0]!);
    await assigneeSelect(row, NAMES[0]!).selectOption({ label: PREPARER });
    await row.getByRole("button", { name: "Assign" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `is now assigned to ${PREPARER}.` }),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`\\?q=${TAG}$`));
    await expect(chosen(assigneeSelect(rowOf(page, NAMES[0]!), NAMES[0]!))).toHaveText(PREPARER);

    const bar = page.getByRole("form", { name: "Assign selected clients" });
    await expect(
      bar.getByText("Tick the clients to assign, choose a staff member, then Assign selected."),
    ).toBeVisible();
    for (const name of NAMES.slice(0, 2))
      await page.getByRole("checkbox", { name: new RegExp(`^Select TB-\\d{5} ${name}$`) }).check();
    await bar.getByLabel("Assign to").selectOption({ label: "Unassigned" });
    await bar.getByRole("button", { name: "Assign selected" }).click();
    await expect(page.getByText("2 clients now unassigned.")).toBeVisible();
    for (const name of NAMES.slice(0, 2))
      await expect(chosen(assigneeSelect(rowOf(page, name), name))).toHaveText("Unassigned");
  } finally {
    await context.close();
  }
});

test("a client who has not chosen a password yet can be sent the invitation again from the case page", async () => {
  const page = staffPage;
  const invitee = uniqueEmail("reinvite");
  const added = await page.request.post("/admin/dashboard", {
    form: { intent: "add-client", name: `${TAG} Invitee`, email: invitee, phone: "", visaStatus: "H-1B" },
  });
  expect(added.status(), await added.text()).toBe(200);
  await expect.poll(() => readOutbox(e2eDataDir).filter((m) => m.to === invitee).length).toBe(1);

  await open(page, `/admin/dashboard?q=${encodeURIComponent(invitee)}`);
  await page.getByRole("link", { name: `${TAG} Invitee`, exact: true }).click();
  await expect(page.getByRole("heading", { name: `${TAG} Invitee`, level: 1 })).toBeVisible();
  await expect(page.getByText("This client has not chosen a password yet")).toBeVisible();
  await page.getByRole("button", { name: "Send invitation again" }).click();
  await expect(page.getByText(`A new invitation is being e-mailed to ${invitee}.`)).toBeVisible();
  await expect.poll(() => readOutbox(e2eDataDir).filter((m) => m.to === invitee).length).toBe(2);
  const newest = readOutbox(e2eDataDir)
    .filter((m) => m.to === invitee)
    .at(-1)!;
  expect(newest.text).toMatch(/\/reset-password\?token=/);

  // A client who signed up with a password has no such button.
  await open(page, list);
  await page.getByRole("link", { name: NAMES[0]!, exact: true }).click();
  await expect(page.getByRole("heading", { name: NAMES[0]!, level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send invitation again" })).toHaveCount(0);
});
