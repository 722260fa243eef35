import { readFileSync } from "node:fs";
import { expect, test, ADMIN, PASSWORD, createVerifiedUser, signIn, signInAsStaff, uniqueEmail } from "./support";
import type { Browser, BrowserContext, Dialog, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";

// The staff panel's client list, one tax year at a time: the year selector (list, counters,
// sections and CSV follow it), every column at 1280 px and cards at 390 px, the documents modal
// and the case page coming back to the same list, unsaved workflow changes never lost without a
// question, and a client's upload marked new until the staff member opens the case.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
// The year before the season's: staff open it for two of this spec's clients.
const EARLIER = YEAR - 1;
// Every client of this spec carries the tag in their name, so a search finds them and no others.
const TAG = `Tbl${Date.now().toString(36)}`;
const NAMES = Array.from({ length: 12 }, (_, i) => `${TAG} ${String.fromCharCode(65 + i)}client`);
const UPLOADER = `${TAG} Uploader`;
const DISCARD = "You have workflow changes that are not saved. Leave them and lose the changes?";

let staffContext: BrowserContext;
let staffPage: Page;
let uploaderEmail: string;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(240_000);
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  for (const name of NAMES) await createVerifiedUser(request, uniqueEmail("table"), PASSWORD, name);
  uploaderEmail = uniqueEmail("uploader");
  await createVerifiedUser(request, uploaderEmail, PASSWORD, UPLOADER);
  await signInAsStaff(staffPage);
});

test.afterAll(async () => {
  await staffContext?.close();
});

const list = (search: string) => `/admin/dashboard${search}`;

/** The Total Clients counter on screen. */
async function totalClients(page: Page): Promise<number> {
  const card = page.locator("dl > div").filter({ has: page.getByText("Total Clients", { exact: true }) });
  return Number(await card.locator("dd").innerText());
}

/** The client's account id, read from their name's link to the case page. */
async function clientId(page: Page, name: string): Promise<string> {
  await page.goto(list(`?q=${encodeURIComponent(name)}`));
  const href = await page.getByRole("link", { name, exact: true }).getAttribute("href");
  const id = /^\/admin\/clients\/([^/]+)\/\d{4}\?back=/.exec(href ?? "")?.[1];
  expect(id, `case link of ${name}: ${href}`).toBeTruthy();
  return decodeURIComponent(id!);
}

/** Answers every dialog with `accept` and records it (a confirm's question, or "beforeunload"). */
function answerDialogs(page: Page, accept: () => boolean): { seen: string[]; stop: () => void } {
  const seen: string[] = [];
  const handler = (dialog: Dialog) => {
    seen.push(dialog.type() === "beforeunload" ? "beforeunload" : dialog.message());
    void (accept() ? dialog.accept() : dialog.dismiss());
  };
  page.on("dialog", handler);
  return { seen, stop: () => page.off("dialog", handler) };
}

test("the year selector switches the list, its counters, the sections and the export", async () => {
  test.setTimeout(120_000);
  const page = staffPage;
  await page.goto(list(`?year=${EARLIER}`));
  const earlierBefore = await totalClients(page);

  // Staff open the year before for two clients, from the case page.
  for (const name of NAMES.slice(0, 2)) {
    const id = await clientId(page, name);
    const opened = await page.request.post(`/admin/clients/${encodeURIComponent(id)}/${YEAR}`, {
      form: { intent: "open-year", taxYear: String(EARLIER) },
      maxRedirects: 0,
    });
    expect(opened.status(), await opened.text()).toBe(302);
  }

  await page.goto(list(`?q=${TAG}`));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByRole("heading", { name: `Clients for tax year ${YEAR}` })).toBeVisible();
  await expect(page.getByText(`Showing 1-10 of ${NAMES.length + 1} clients`)).toBeVisible();
  const yearNow = await totalClients(page);

  const yearSelect = page.getByRole("combobox", { name: "Tax year" });
  await expect(yearSelect).toHaveValue(String(YEAR));
  await yearSelect.selectOption(String(EARLIER));
  // The search stays; the page starts again at 1.
  await expect(page).toHaveURL(new RegExp(`year=${EARLIER}.*q=${TAG}|q=${TAG}.*year=${EARLIER}`));
  await expect(page.getByRole("heading", { name: `Clients for tax year ${EARLIER}` })).toBeVisible();
  await expect(page.getByText(`Tax year ${EARLIER}: every client`)).toBeVisible();
  await expect(page.getByText("Showing 1-2 of 2 clients")).toBeVisible();
  for (const name of NAMES.slice(0, 2))
    await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
  expect(await totalClients(page)).toBe(earlierBefore + 2);

  // The sections keep the year.
  await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link", { name: "TAX INFO" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/dashboard\\?year=${EARLIER}&section=taxinfo$`));
  await expect(page.getByRole("heading", { name: "TAX INFO", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: `Clients for tax year ${EARLIER}` })).toBeVisible();
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "HOME" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/dashboard\\?year=${EARLIER}$`));

  // The export is of the year on screen, with its search.
  await page.goto(list(`?year=${EARLIER}&q=${TAG}`));
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export Data" }).click();
  const rows = readFileSync((await (await download).path())!, "utf8")
    .trim()
    .split("\r\n")
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!));
  expect(rows[0]!.slice(-4)).toEqual(["Tax Year", "Tax Info", "Tax Info Last Changed", "Residency"]);
  expect(rows[0]!.slice(0, 7)).toEqual([
    "No.",
    "Client ID",
    "Name",
    "Email",
    "Assigned To",
    "Status",
    "Documents",
  ]);
  expect(
    rows
      .slice(1)
      .map((r) => [r[2], r.at(-4), r.at(-3)])
      .sort(),
  ).toEqual(NAMES.slice(0, 2).map((name) => [name, String(EARLIER), "Not submitted"]));

  // And back to the season's year: its own list and counters.
  await page.goto(list(`?year=${EARLIER}&q=${TAG}`));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("combobox", { name: "Tax year" }).selectOption(String(YEAR));
  await expect(page.getByText(`Showing 1-10 of ${NAMES.length + 1} clients`)).toBeVisible();
  expect(await totalClients(page)).toBe(yearNow);
});

test("at 1280 px every column shows without scrolling sideways; at 390 px each client is a card", async () => {
  const page = staffPage;
  const region = page.getByRole("region", { name: /^Clients, tax year/ });
  for (const search of ["", `?q=${TAG}`, `?q=${TAG}&page=2`]) {
    await page.goto(list(search));
    const fit = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(fit.scroll, `table region at 1280 px (${search || "all clients"})`).toBeLessThanOrEqual(
      fit.client,
    );
    const actions = await page.getByRole("columnheader", { name: "Actions" }).boundingBox();
    expect(actions!.x + actions!.width).toBeLessThanOrEqual(1280);
    for (const column of ["Tax Info", "Documents", "Email"])
      await expect(page.getByRole("columnheader", { name: column })).toBeVisible();
  }
  // With a workflow open too.
  await page.goto(list(`?q=${TAG}`));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "View Workflow" }).first().click();
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();
  const open = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(open).toBeLessThanOrEqual(0);
  await page.getByRole("button", { name: "Hide Workflow" }).click();

  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const search of ["", `?q=${TAG}`]) {
      await page.goto(list(search));
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expect(page.locator("thead")).toBeHidden();
      const cards = page.locator("tbody tr[data-client-row]");
      expect(await cards.count()).toBeGreaterThan(0);
      for (const card of await cards.all()) {
        expect(await card.evaluate((el) => getComputedStyle(el).display)).toBe("grid");
        const box = (await card.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        await expect(card.getByRole("button", { name: "View Workflow" })).toBeVisible();
        await expect(card.getByRole("link", { name: /^Manage \(\d+\)/ })).toBeVisible();
        for (const label of ["Status", "Assigned To", "Tax Info", "Documents"])
          await expect(card.getByText(label, { exact: true })).toBeVisible();
      }
    }
    // A card's workflow opens under it, and the page still does not scroll sideways.
    await page.getByRole("button", { name: "View Workflow" }).first().click();
    await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole("button", { name: "Hide Workflow" }).click();
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test("closing the documents returns to the same search, filter, page and year", async () => {
  const page = staffPage;
  const here = list(`?q=${TAG}&stage=home&page=2`);
  await page.goto(here);
  await expect(page.getByText(`Showing 11-${NAMES.length + 1} of ${NAMES.length + 1} clients`)).toBeVisible();
  await page
    .getByRole("link", { name: /^Manage \(0\)/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin\/clients\/[^/]+\/documents\?year=\d{4}&back=/);
  await expect(page.getByRole("heading", { name: "Document Management" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(new RegExp(`${here.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByText(`Showing 11-${NAMES.length + 1} of ${NAMES.length + 1} clients`)).toBeVisible();
  await expect(page.getByLabel("Search clients")).toHaveValue(TAG);
  await expect(page.getByLabel("Filter by stage")).toHaveValue("home");

  // Escape closes it the same way, and the year before comes back as the year before.
  const earlier = list(`?year=${EARLIER}&q=${TAG}`);
  await page.goto(earlier);
  await page
    .getByRole("link", { name: /^Manage \(0\)/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Document Management" });
  await expect(dialog.getByText(`tax year ${EARLIER}.`, { exact: false })).toBeVisible();
  await expect.poll(() => dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`${earlier.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByRole("heading", { name: `Clients for tax year ${EARLIER}` })).toBeVisible();

  // A `back` that is not the client list is not followed.
  await page.goto(
    `${await page
      .getByRole("link", { name: /^Manage \(0\)/ })
      .first()
      .getAttribute("href")}`.replace(/back=[^&]*/, "back=%2F%2Fevil.example%2Fadmin%2Fdashboard"),
  );
  await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("unsaved workflow changes are never lost without a question", async () => {
  test.setTimeout(90_000);
  const page = staffPage;
  await page.goto(list(`?q=${TAG}`));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  let accept = false;
  const dialogs = answerDialogs(page, () => accept);
  try {
    const home = page.getByRole("checkbox", { name: /: HOME / });
    const tick = () => page.locator("label").filter({ has: home }).click();

    await page.getByRole("button", { name: "View Workflow" }).first().click();
    await tick();
    await expect(home).toBeChecked();
    await expect(page.getByText("Changes not saved yet.")).toBeVisible();

    // Dismissed: closing the panel, another page and another filter all stay as they were. Each
    // question is answered before the next action, so none can be lost behind another.
    const asks = async (action: () => Promise<unknown>) => {
      const before = dialogs.seen.length;
      await action();
      await expect.poll(() => dialogs.seen.length).toBe(before + 1);
    };
    await asks(() => page.getByRole("button", { name: "Hide Workflow" }).click());
    await asks(() => page.getByRole("button", { name: "Close", exact: true }).click());
    await asks(() => page.getByRole("link", { name: "Next" }).click());
    await asks(() => page.getByLabel("Filter by stage").selectOption("draft"));
    await asks(() => page.getByRole("combobox", { name: "Tax year" }).selectOption(String(EARLIER)));
    await asks(() =>
      page
        .getByRole("navigation", { name: "Admin sections" })
        .getByRole("link", { name: "DOCUMENTS" })
        .click(),
    );
    expect(dialogs.seen).toHaveLength(6);
    expect(new Set(dialogs.seen)).toEqual(new Set([DISCARD]));
    await expect(page).toHaveURL(new RegExp(`/admin/dashboard\\?q=${TAG}$`));
    await expect(home).toBeChecked();
    await expect(page.getByLabel("Filter by stage")).toHaveValue("all");
    await expect(page.getByRole("combobox", { name: "Tax year" })).toHaveValue(String(YEAR));

    // Accepted: closing discards the ticks.
    accept = true;
    await page.getByRole("button", { name: "Hide Workflow" }).click();
    await expect(page.getByRole("button", { name: "Save Changes" })).toHaveCount(0);
    await page.getByRole("button", { name: "View Workflow" }).first().click();
    await expect(home).not.toBeChecked();

    // Accepted: another page goes, and its panels start closed.
    await tick();
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole("button", { name: "Hide Workflow" })).toHaveCount(0);
    expect(dialogs.seen).toHaveLength(8);

    // Reloading with unsaved changes: the browser asks first.
    // The tick must have landed before the reload, or there is nothing for the browser to ask.
    await page.getByRole("button", { name: "View Workflow" }).first().click();
    await tick();
    await expect(home).toBeChecked();
    await expect(page.getByText("Changes not saved yet.")).toBeVisible();
    const beforeReload = dialogs.seen.length;
    await page.reload();
    await expect.poll(() => dialogs.seen.length).toBe(beforeReload + 1);
    expect(dialogs.seen.at(-1)).toBe("beforeunload");
    await expect(page.getByRole("button", { name: "Hide Workflow" })).toHaveCount(0);

    // Saved: the panel shows what was saved, and nothing asks any more.
    const asked = dialogs.seen.length;
    await page.getByRole("button", { name: "View Workflow" }).first().click();
    await tick();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Workflow saved.")).toBeVisible();
    await expect(home).toBeChecked();
    await expect(page.getByText("Changes not saved yet.")).toHaveCount(0);
    await page.getByRole("button", { name: "Hide Workflow" }).click();
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page).not.toHaveURL(/page=2/);
    expect(dialogs.seen).toHaveLength(asked);
  } finally {
    dialogs.stop();
  }
});

/** Runs `fn` in a new browser signed in as the uploading client. */
async function asUploader(browser: Browser, fn: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signIn(page, uploaderEmail);
    await expect(page).toHaveURL(/\/dashboard/);
    await fn(page);
  } finally {
    await context.close();
  }
}

test("a client's upload is new to staff until they open the case's documents", async ({ browser }) => {
  const page = staffPage;
  await asUploader(browser, async (client) => {
    const sent = await client.request.post(`/my-tax-filing/${YEAR}/documents`, {
      headers: { Accept: "application/json" },
      multipart: {
        category: "w-2",
        files: {
          name: "w2-employer.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"),
        },
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  });

  await page.goto(list(`?q=${encodeURIComponent(UPLOADER)}`));
  const row = page.locator("tbody tr[data-client-row]").filter({ hasText: UPLOADER });
  await expect(row.getByText("1 new", { exact: true })).toBeVisible();
  await expect(row.getByText("1 new upload from the client since you last opened this case's documents")).toHaveCount(1);
  await expect(row.getByRole("link", { name: /^Manage \(1\)/ })).toBeVisible();

  // The case's overview counts it without making it seen; its Documents section is what makes
  // it seen (the section's own loader records the visit).
  await row.getByRole("link", { name: UPLOADER, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/clients/[^/]+/${YEAR}\\?back=`));
  await page.goto(list(`?q=${encodeURIComponent(UPLOADER)}`));
  await expect(row.getByText("1 new", { exact: true })).toBeVisible();
  await row.getByRole("link", { name: UPLOADER, exact: true }).click();
  await page.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Documents" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/clients/[^/]+/${YEAR}/documents`));
  await page.goto(list(`?q=${encodeURIComponent(UPLOADER)}`));
  await expect(row.getByRole("link", { name: /^Manage \(1\)/ })).toBeVisible();
  await expect(row.getByText("1 new", { exact: true })).toHaveCount(0);
});
