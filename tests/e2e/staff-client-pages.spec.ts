import AxeBuilder from "@axe-core/playwright";
import { expect, test, ADMIN, PASSWORD, createVerifiedUser, linkFromOutbox, signIn, signInAsStaff, uniqueEmail, unusedStep, clientIdOf } from "./support";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { STAGE_KEYS } from "~/domain/workflow";
import { sampleTaxpayer } from "../helpers/taxpayer";

// What a browser pass over the staff and client pages found, at a desktop's width and a phone's:
// the team page fits a phone; staff headers lead to the panel, never to a client's pages; the 403
// page shows who is signed in and the panel's frame; My Tax Filing counts complete cases, names
// stages in the client's words, keeps its counters small on a phone and shows unread messages on
// the phone's menu button; Document Management's back link says where it goes.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const EARLIER = YEAR - 1;
const WIDTHS = [1280, 390] as const;
const HEIGHT = 844;
const SMALL_PHONE_HEIGHT = 667;

let adminContext: BrowserContext;
let admin: Page;
let clientEmail: string;
let clientId: string;
let preparerEmail: string;
const preparerPassword = "Preparer pass phrase 9";
let preparerSecret: string;
// The preparer's codes are single-use: the last step used, and each sign-in waits for a later one.
let preparerStep = 0;

async function axe(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.nodes.length}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(" | ")}`,
  );
  expect(summary, `axe on ${what}`).toEqual([]);
}

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  adminContext = await browser.newContext({ viewport: { width: 1280, height: HEIGHT } });
  admin = await adminContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(admin);

  // A client with two tax years, the taxpayer information sent for both, both at the first stage.
  clientEmail = uniqueEmail("pass");
  await createVerifiedUser(request, clientEmail, PASSWORD, "Priya Pass");
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await signIn(client, clientEmail);
  await expect(client).toHaveURL(/\/dashboard/);
  expect((await client.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);
  await client.request.post("/my-tax-filing", { form: { intent: "start-year", taxYear: String(EARLIER) } });
  expect((await client.request.post(`/dashboard?year=${EARLIER}`, { form: sampleTaxpayer })).status()).toBe(200);
  await clientContext.close();

  clientId = await clientIdOf(admin.request, clientEmail);

  // The firm writes to the client twice: two unread messages.
  for (const body of ["We have your information.", "Please upload your W-2."]) {
    const sent = await admin.request.post(`/admin/clients/${clientId}/${YEAR}/messages`, {
      multipart: { intent: "send", body },
    });
    expect(sent.status()).toBe(200);
  }

  // A preparer, invited by the admin, who chose a password and enrolled an authenticator.
  // A long address: the header's menu button must not widen a phone's page with it.
  preparerEmail = uniqueEmail("preparer.with.a.rather.long.address");
  const invited = await admin.request.post("/admin/team", {
    form: { intent: "invite", fullName: "Pat Preparer", email: preparerEmail, role: "preparer" },
  });
  expect(invited.status()).toBe(200);
  const link = new URL(await linkFromOutbox(preparerEmail, "/reset-password"));
  const chosen = await request.post("/reset-password", {
    form: { token: link.searchParams.get("token") ?? "", password: preparerPassword, confirmPassword: preparerPassword },
    maxRedirects: 0,
  });
  expect(chosen.headers()["location"]).toBe("/login?reset=1");
  const preparerContext = await browser.newContext();
  const preparer = await preparerContext.newPage();
  await signIn(preparer, preparerEmail, preparerPassword);
  await expect(preparer).toHaveURL(/\/admin\/security\/setup/);
  preparerSecret = (await preparer.getByTestId("totp-secret").textContent())!.trim();
  preparerStep = timeStep();
  await preparer.getByLabel(/Authenticator code/).fill(totpAt(preparerSecret, preparerStep));
  await preparer.getByRole("button", { name: "Verify" }).click();
  await expect(preparer).toHaveURL(/\/admin\/dashboard/);
  await preparerContext.close();
});

test.afterAll(async () => {
  await adminContext?.close();
});

/** A fresh signed-in page of the client at `width`. */
async function clientAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: HEIGHT } });
  const page = await context.newPage();
  await signIn(page, clientEmail);
  await expect(page).toHaveURL(/\/dashboard/);
  return page;
}

/** A fresh page of the preparer at `width`, signed in with a code of a step not used yet. */
async function preparerAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: HEIGHT } });
  const page = await context.newPage();
  await signIn(page, preparerEmail, preparerPassword);
  await expect(page).toHaveURL(/\/admin\/security\/verify/);
  preparerStep = await unusedStep(preparerStep);
  await page.getByLabel(/Authenticator code/).fill(totpAt(preparerSecret, preparerStep));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  return page;
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async () => {
      await admin.setViewportSize({ width, height: HEIGHT });
    });

    test("the team page is no wider than the screen", async () => {
      await admin.goto("/admin/team");
      await expect(admin.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
      await expect(admin.getByRole("columnheader", { name: "Actions" })).toHaveCount(1);
      expect(await pageWidth(admin)).toBeLessThanOrEqual(width);
    });

    test("staff headers lead to the panel, and the client's pages send staff there", async () => {
      await admin.goto("/");
      await expect(admin.getByRole("link", { name: "My Tax Filing" })).toHaveCount(0);
      await expect(admin.locator('header a[href="/dashboard"], header a[href="/my-tax-filing"]')).toHaveCount(0);
      if (width >= 1024) {
        await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
      } else {
        await admin.getByRole("button", { name: /^admin\b/ }).click();
        await admin.getByRole("link", { name: "Admin panel" }).click();
      }
      await expect(admin).toHaveURL(/\/admin\/dashboard$/);
      await expect(admin.getByRole("heading", { name: "Client Management", level: 1 })).toBeVisible();

      for (const path of ["/dashboard", "/my-tax-filing", `/dashboard?year=${YEAR}`]) {
        await admin.goto(path);
        await expect(admin, path).toHaveURL(/\/admin\/dashboard$/);
        await expect(admin.getByText("Page not found")).toHaveCount(0);
      }
      // A start of a year posted by staff changes nothing and answers with the panel.
      const posted = await admin.request.post("/my-tax-filing", {
        form: { intent: "start-year", taxYear: String(YEAR) },
        maxRedirects: 0,
      });
      expect(posted.status()).toBe(302);
      expect(posted.headers()["location"]).toBe("/admin/dashboard");
    });

    test("the 403 page shows the signed-in preparer's menu and the panel's frame", async ({ browser }) => {
      test.setTimeout(120_000);
      const preparer = await preparerAt(browser, width);
      const refused = await preparer.goto("/admin/audit");
      expect(refused?.status()).toBe(403);
      await expect(preparer.getByRole("heading", { name: "Not available to you", level: 1 })).toBeVisible();
      await expect(
        preparer.getByText(
          "This part of the panel is for administrators. Ask an administrator if you need it.",
        ),
      ).toBeVisible();
      // Signed in: the user menu, never Sign In or Get Started.
      const local = preparerEmail.split("@")[0]!;
      await expect(preparer.getByRole("button", { name: new RegExp(`^${local.replace(/\./g, "\\.")} Preparer`) })).toBeVisible();
      await expect(preparer.getByRole("link", { name: "Sign In" })).toHaveCount(0);
      await expect(preparer.getByRole("link", { name: "Get Started" })).toHaveCount(0);
      // The panel's frame, with only the parts a preparer may use.
      const sidebar = preparer.getByRole("complementary", { name: "Admin panel" });
      await expect(sidebar).toBeVisible();
      if (width < 1024) await sidebar.getByRole("button", { name: "Sections" }).click();
      await expect(sidebar.getByRole("link", { name: "Client messages" })).toBeVisible();
      await expect(sidebar.getByRole("link", { name: "Audit" })).toHaveCount(0);
      expect(await pageWidth(preparer)).toBeLessThanOrEqual(width);
      await axe(preparer, `the 403 page at ${width} px`);

      // The menu opens and its Sign Out works from here.
      await preparer.getByRole("button", { name: new RegExp(`^${local.replace(/\./g, "\\.")} Preparer`) }).click();
      await preparer.getByRole("button", { name: "Sign Out" }).click();
      await expect(preparer).toHaveURL(/\/$/);
      await expect(preparer.getByRole("button", { name: /Preparer/ })).toHaveCount(0);
      await preparer.context().close();
    });

    test("My Tax Filing counts complete cases, names stages in the client's words and fits a phone", async ({
      browser,
    }) => {
      const client = await clientAt(browser, width);
      await client.goto("/my-tax-filing");
      const summary = client.getByRole("region", { name: "Filing summary" });
      const counter = (label: string) => summary.locator("div").filter({ has: client.locator(`dt:text-is("${label}")`) }).locator("dd");
      await expect(counter("Total Filings")).toHaveText("2");
      await expect(counter("Completed")).toHaveText("0");
      await expect(counter("In Progress")).toHaveText("2");

      const cards = client.getByRole("article");
      await expect(cards).toHaveCount(2);
      for (const card of await cards.all()) {
        await expect(card).toContainText("Getting started");
        await expect(card).not.toContainText("HOME");
        await expect(card).toContainText("Submitted");
      }
      // The first filing starts on the first screen, its year and title in view, a small phone's
      // (667 px high) included.
      const screen = width < 1024 ? SMALL_PHONE_HEIGHT : HEIGHT;
      await client.setViewportSize({ width, height: screen });
      const first = (await cards.first().boundingBox())!;
      const title = (await cards.first().getByRole("heading", { level: 3 }).boundingBox())!;
      expect(first.y).toBeLessThan(screen);
      expect(title.y + title.height).toBeLessThan(screen);
      expect(await pageWidth(client)).toBeLessThanOrEqual(width);

      // The unread messages show without opening any menu.
      if (width < 1024) {
        const toggle = client.getByRole("button", { name: "Open menu (2 unread messages)" });
        await expect(toggle).toBeVisible();
        await expect(toggle).toContainText("2");
        const box = (await toggle.boundingBox())!;
        expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
      } else {
        await expect(client.getByRole("button", { name: /2 unread messages/ })).toBeVisible();
      }
      await axe(client, `My Tax Filing at ${width} px`);
      await client.context().close();
    });

    test("Document Management's back link says where it goes", async () => {
      // Opened from the case's Documents section: back to it.
      await admin.goto(`/admin/clients/${clientId}/${YEAR}/documents`);
      await admin.getByRole("link", { name: "Manage documents" }).click();
      await expect(admin.getByRole("heading", { name: /^Documents of / })).toBeVisible();
      await expect(admin.getByRole("link", { name: "Back to all clients" })).toHaveCount(0);
      // The link behind the dialog and the dialog's Close both return to the case.
      await expect(admin.getByRole("link", { name: "Back to the case" })).toHaveAttribute(
        "href",
        `/admin/clients/${clientId}/${YEAR}/documents`,
      );
      await admin.getByRole("link", { name: "Close", exact: true }).click();
      await expect(admin).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}/documents$`));

      // Opened from the client list: back to all clients.
      await admin.goto(`/admin/dashboard?q=${encodeURIComponent(clientEmail)}`);
      const row = admin.locator("tbody tr[data-client-row]").filter({ hasText: clientEmail });
      await row.getByRole("link", { name: /^Manage \(/ }).click();
      await expect(admin.getByRole("heading", { name: /^Documents of / })).toBeVisible();
      await expect(admin.getByRole("link", { name: "Back to the case" })).toHaveCount(0);
      await expect(admin.getByRole("link", { name: "Back to all clients" })).toHaveAttribute(
        "href",
        `/admin/dashboard?q=${encodeURIComponent(clientEmail)}`,
      );
    });
  });
}

test("a case with every stage complete counts as Completed; its card keeps Submitted", async ({ browser }) => {
  const form = new FormData();
  form.set("intent", "save-workflow");
  form.set("clientId", clientId);
  form.set("taxYear", String(YEAR));
  form.set("assigneeId", "");
  for (const key of STAGE_KEYS) form.append("completed", key);
  expect((await admin.request.post("/admin/dashboard", { form })).status()).toBe(200);

  for (const width of WIDTHS) {
    const client = await clientAt(browser, width);
    await client.goto("/my-tax-filing");
    const summary = client.getByRole("region", { name: "Filing summary" });
    const counter = (label: string) => summary.locator("div").filter({ has: client.locator(`dt:text-is("${label}")`) }).locator("dd");
    await expect(counter("Total Filings")).toHaveText("2");
    await expect(counter("Completed")).toHaveText("1");
    await expect(counter("In Progress")).toHaveText("1");
    const done = client.getByRole("article").filter({ hasText: `${YEAR} tax year` });
    await expect(done).toContainText("Final copies");
    await expect(done).toContainText("Submitted");
    await client.context().close();
  }
});
