import { expect, test, ADMIN, PASSWORD, createVerifiedUser, linkFromOutbox, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { BrowserContext, Page } from "@playwright/test";
import { CASE_SECTIONS } from "~/domain/case-sections";
import { currentFilingYear } from "~/domain/tax-year";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { sampleTaxpayer } from "../helpers/taxpayer";

// The staff's case page as sections with their own addresses (docs/product/workflow.md#case-page)
// and the client's filing page with its next step first and its finished parts folded
// (docs/product/workflow.md#what-the-client-sees), at desktop and phone widths; the sections'
// addresses as a visitor, a client, another client, a preparer and an admin.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const CLIENT_NAME = "Sana Sections";
const WIDTHS = [1280, 390] as const;
const height = (width: number) => (width > 800 ? 800 : 844);

let adminContext: BrowserContext;
let admin: Page;
let clientContext: BrowserContext;
let client: Page;
let otherContext: BrowserContext;
let other: Page;
let preparerContext: BrowserContext;
let preparer: Page;
let clientId: string;

const sectionUrl = (path: string, search = "") => `/admin/clients/${clientId}/${YEAR}${path ? `/${path}` : ""}${search}`;
const nav = (page: Page) => page.getByRole("navigation", { name: "Sections of this case" });

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  adminContext = await browser.newContext({ timezoneId: "America/New_York" });
  admin = await adminContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(admin);

  const clientEmail = uniqueEmail("sections");
  await createVerifiedUser(request, clientEmail, PASSWORD, CLIENT_NAME);
  clientContext = await browser.newContext();
  client = await clientContext.newPage();
  await signIn(client, clientEmail);
  await expect(client).toHaveURL(/\/dashboard/);
  expect((await client.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer })).status()).toBe(200);

  const otherEmail = uniqueEmail("sections-other");
  await createVerifiedUser(request, otherEmail);
  otherContext = await browser.newContext();
  other = await otherContext.newPage();
  await signIn(other, otherEmail);
  await expect(other).toHaveURL(/\/dashboard/);

  clientId = await clientIdOf(admin.request, clientEmail);

  // A preparer, invited by the admin, enrolled (which passes the second factor on this session).
  const preparerEmail = uniqueEmail("sections-preparer");
  const preparerPassword = "Preparer pass phrase 7";
  expect(
    (await admin.request.post("/admin/team", { form: { intent: "invite", fullName: "Pia Preparer", email: preparerEmail, role: "preparer" } })).status(),
  ).toBe(200);
  const link = new URL(await linkFromOutbox(preparerEmail, "/reset-password"));
  await request.post("/reset-password", {
    form: { token: link.searchParams.get("token") ?? "", password: preparerPassword, confirmPassword: preparerPassword },
    maxRedirects: 0,
  });
  preparerContext = await browser.newContext();
  preparer = await preparerContext.newPage();
  await signIn(preparer, preparerEmail, preparerPassword);
  await expect(preparer).toHaveURL(/\/admin\/security\/setup/);
  const secret = (await preparer.getByTestId("totp-secret").textContent())!.trim();
  await preparer.getByLabel(/Authenticator code/).fill(totpAt(secret, timeStep()));
  await preparer.getByRole("button", { name: "Verify" }).click();
  await expect(preparer).toHaveURL(/\/admin\/dashboard/);

  // Something for the client to do: a requested item.
  const added = await admin.request.post(sectionUrl("requests"), {
    form: { intent: "add-item", title: "Form 1042-S", detail: "", category: "other-documents", enhanced: "1" },
  });
  expect(added.status()).toBe(200);
});

test.afterAll(async () => {
  await Promise.all([adminContext?.close(), clientContext?.close(), otherContext?.close(), preparerContext?.close()]);
});

test("every section's address: visitors sign in, clients (the case's own or another) go home, staff of both roles see it", async ({
  request,
}) => {
  for (const section of CASE_SECTIONS) {
    const url = sectionUrl(section.path);
    const visitor = await request.get(url, { maxRedirects: 0 });
    expect([url, visitor.status(), visitor.headers()["location"]]).toEqual([
      url,
      302,
      `/login?redirectTo=${encodeURIComponent(url)}`,
    ]);
    for (const page of [client, other]) {
      const got = await page.request.get(url, { maxRedirects: 0 });
      expect([url, got.status(), got.headers()["location"]]).toEqual([url, 302, "/dashboard"]);
      const posted = await page.request.post(url, { form: { intent: "add-note", body: "A client's note" }, maxRedirects: 0 });
      expect([url, posted.status()]).toEqual([url, 302]);
    }
    for (const page of [admin, preparer]) {
      const got = await page.request.get(url);
      expect([url, got.status()]).toEqual([url, 200]);
      const html = await got.text();
      expect(html).toContain(CLIENT_NAME);
    }
  }
  // No client's note reached the case.
  const notes = await (await admin.request.get(sectionUrl("notes"))).text();
  expect(notes).toContain("No notes yet.");
  expect(notes).not.toMatch(/A client(&#x27;|')s note/);
});

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test("each section has its own address, the navigation marks it, and Back returns to the section before", async () => {
      await admin.setViewportSize({ width, height: height(width) });
      const back = "/admin/dashboard?q=sections";
      await admin.goto(sectionUrl("", `?back=${encodeURIComponent(back)}`));
      await expect(admin.locator("html[data-hydrated]")).toHaveCount(1);
      await expect(admin.getByRole("heading", { level: 1, name: CLIENT_NAME })).toBeVisible();
      await expect(nav(admin).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
      await expect(nav(admin).locator('[aria-current="page"]')).toHaveCount(1);
      // The overview: the next step and the key facts.
      const overview = admin.getByRole("region", { name: "Overview" });
      await expect(overview).toContainText("Next step");
      await expect(overview).toContainText("1 item: 1 outstanding, 0 to review, 0 received.");

      const visited: string[] = [""];
      for (const section of CASE_SECTIONS.filter((s) => s.key !== "overview")) {
        await nav(admin).getByRole("link", { name: section.label, exact: true }).click();
        await expect(admin).toHaveURL(
          `${sectionUrl(section.path)}?back=${encodeURIComponent(back)}`.replace(/^/, new URL(admin.url()).origin),
        );
        await expect(nav(admin).getByRole("link", { name: section.label, exact: true })).toHaveAttribute("aria-current", "page");
        await expect(nav(admin).locator('[aria-current="page"]')).toHaveCount(1);
        visited.push(section.path);
        expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      // Back walks the sections in reverse, each marked again.
      for (const path of visited.slice(0, -1).reverse().slice(0, 3)) {
        await admin.goBack();
        await expect(admin).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}${path ? `/${path}` : ""}\\?back=`));
        const label = CASE_SECTIONS.find((s) => s.path === path)!.label;
        await expect(nav(admin).getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
      }
      await expect(admin.getByRole("link", { name: "Back to clients" })).toHaveAttribute("href", back);
    });

    test("the client's filing page: the next step within the first screen, the finished taxpayer information folded and openable", async () => {
      await client.setViewportSize({ width, height: height(width) });
      await client.goto(`/my-tax-filing/${YEAR}`);
      await expect(client.locator("html[data-hydrated]")).toHaveCount(1);
      const next = client.getByRole("region", { name: "Your next step" });
      await expect(next).toContainText("Send us the item we still need");
      const box = (await next.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(800);
      // Its button leads to the list.
      await next.getByRole("link", { name: "See what we need" }).click();
      await expect(client).toHaveURL(/#requests$/);

      // Sent: the taxpayer information is folded, with its one-line summary, and opens with a click.
      const info = client.getByRole("region", { name: "Taxpayer information" });
      await expect(info.locator("details")).not.toHaveAttribute("open", "");
      await expect(info.getByTestId("folded-summary")).toHaveText("Sent. You can check or change it at any time.");
      const change = info.getByRole("link", { name: `Your ${YEAR} taxpayer information` });
      await expect(change).toBeHidden();
      await info.locator("summary").click();
      await expect(change).toBeVisible();
      expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  });
}

test("the overview is short: under 2,000 px at 1280 px", async () => {
  // A page of its own: the shared page's history (the Back steps above) cannot move it elsewhere.
  const page = await adminContext.newPage();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(sectionUrl(""));
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1, name: CLIENT_NAME })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
    const tall = await page.evaluate(() => document.documentElement.scrollHeight);
    test.info().annotations.push({ type: "overview height", description: `${tall} px` });
    expect(tall).toBeLessThan(2000);
  } finally {
    await page.close();
  }
});

test("without JavaScript a section's form posts to the section and shows its answer there, and a folded part opens", async ({
  browser,
}) => {
  const page = await (await browser.newContext({ javaScriptEnabled: false, storageState: await adminContext.storageState() })).newPage();
  try {
    await page.goto(sectionUrl("notes"));
    await page.getByLabel("Add a note").fill("Written without JavaScript.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}/notes$`));
    await expect(page.getByText("Note added.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Internal notes" })).toContainText("Written without JavaScript.");
    await expect(nav(page).getByRole("link", { name: "Notes & activity" })).toHaveAttribute("aria-current", "page");
  } finally {
    await page.context().close();
  }
  const plain = await (await browser.newContext({ javaScriptEnabled: false, storageState: await clientContext.storageState() })).newPage();
  try {
    await plain.goto(`/my-tax-filing/${YEAR}`);
    const info = plain.getByRole("region", { name: "Taxpayer information" });
    await info.locator("summary").click();
    await expect(info.getByRole("link", { name: `Your ${YEAR} taxpayer information` })).toBeVisible();
  } finally {
    await plain.context().close();
  }
});
