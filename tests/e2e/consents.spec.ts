import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { expect, test, ADMIN, createVerifiedUser, keepScreenshot, linkFromOutbox, PASSWORD, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import { timeStep, totpAt } from "~/server/auth/totp.server";
import { currentFilingYear } from "~/domain/tax-year";
import { sampleTaxpayer } from "../helpers/taxpayer";

// The consents under section 7216 (docs/product/engagement.md#consents-under-section-7216): a
// client consents to disclose and to use, each on its own page; a preparer the admin marked as
// working outside the United States sees only that client's case, and never a full SSN; when the
// client withdraws the consent to disclose, the case leaves the preparer's list at once.

const YEAR = currentFilingYear();

/** axe (WCAG 2.1 A and AA) finds nothing on the page. */
async function axe(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect.soft(summary, `axe on ${what}`).toEqual([]);
}

/** A new preparer, invited by the admin, with their password and second factor: signed in on the panel. */
async function newPreparer(browser: Browser, admin: Page, name: string): Promise<{ page: Page; email: string }> {
  const email = uniqueEmail("abroad");
  const invited = await admin.request.post("/admin/team", { form: { intent: "invite", fullName: name, email, role: "preparer" } });
  expect(invited.status()).toBe(200);
  const link = new URL(await linkFromOutbox(email, "/reset-password"));
  const context = await browser.newContext({ viewport: admin.viewportSize() ?? undefined });
  const page = await context.newPage();
  const password = "Preparer pass phrase 1";
  const chosen = await page.request.post("/reset-password", {
    form: { token: link.searchParams.get("token") ?? "", password, confirmPassword: password },
    maxRedirects: 0,
  });
  expect(chosen.headers()["location"]).toBe("/login?reset=1");
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/admin\/security\/setup/);
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await page.getByLabel(/Authenticator code/).fill(totpAt(secret, timeStep()));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  return { page, email };
}

/** A client with the year's taxpayer information sent, signed in on their own context. */
async function newClient(browser: Browser, width: number, name: string): Promise<{ page: Page; email: string }> {
  const email = uniqueEmail("consent");
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await createVerifiedUser(page.request, email, PASSWORD, name);
  await signIn(page, email);
  await expect(page).not.toHaveURL(/\/login/);
  const saved = await page.request.post(`/dashboard?year=${YEAR}`, { form: sampleTaxpayer });
  expect(saved.status()).toBe(200);
  return { page, email };
}

/** The client answers one consent's page: only the consent and its two equal buttons. */
async function consent(page: Page, kind: "use" | "disclose", name: string, width: number) {
  await page.goto("/my-consents");
  await page.getByTestId(`consent-${kind}`).getByRole("link", { name: /Read and answer/ }).click();
  await expect(page).toHaveURL(`/my-consents/${kind}`);
  // Nothing else on the page: no site header, menu or footer.
  await expect(page.getByRole("banner")).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.getByTestId("consent-text")).toContainText("Federal law requires this consent form be provided to you.");
  await expect(page.getByTestId("consent-text")).toContainText("Treasury Inspector General for Tax Administration (TIGTA)");
  const yes = page.getByRole("button", { name: "I consent", exact: true });
  const no = page.getByRole("button", { name: "I do not consent", exact: true });
  const [a, b] = [await yes.boundingBox(), await no.boundingBox()];
  expect(a && b && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await keepScreenshot(page, `consent-${kind}-${width}`);
  await axe(page, `the consent to ${kind} at ${width} px`);
  // No name: refused with a clear message, nothing recorded.
  await yes.click();
  await expect(page.getByText("Type your legal name to consent.")).toBeVisible();
  await page.getByLabel("Your legal name, as your signature").fill(name);
  await yes.click();
  await expect(page).toHaveURL(`/my-consents?answered=${kind}-given`);
  await expect(page.getByTestId(`consent-${kind}`)).toContainText("In force through");
}

for (const width of [1280, 390]) {
  test(`at ${width} px: a client consents; staff outside the US see only that case, never a full SSN, until the client withdraws`, async ({ browser, request }) => {
    test.setTimeout(240_000);
    await createVerifiedUser(request, ADMIN);
    const adminContext = await browser.newContext({ viewport: { width, height: 900 } });
    const admin = await adminContext.newPage();
    await signInAsStaff(admin);

    const abroad = await newPreparer(browser, admin, "Omar Abroad");
    // The admin marks them as working outside the United States on the Team page.
    await admin.goto("/admin/team");
    const row = admin.locator(`[data-testid="team-member"][data-email="${abroad.email}"]`);
    await expect(row).toContainText("In the US");
    admin.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: /^Mark as outside the US/ }).click();
    await expect(admin.getByText("Omar Abroad is marked as working outside the United States.", { exact: false })).toBeVisible();
    await expect(row).toContainText("Outside the US");
    await axe(admin, `the Team page at ${width} px`);

    const aliceName = "Alice Consenting";
    const alice = await newClient(browser, width, aliceName);
    const bob = await newClient(browser, width, "Bob Silent");
    const aliceId = await clientIdOf(admin.request, alice.email);
    const bobId = await clientIdOf(admin.request, bob.email);

    // Alice consents to disclose and to use, each on its own page.
    await consent(alice.page, "disclose", aliceName, width);
    await consent(alice.page, "use", aliceName, width);
    await keepScreenshot(alice.page, `my-consents-${width}`);
    await axe(alice.page, `My consents at ${width} px`);

    // The preparer abroad: only Alice's case in the list, her taxpayer page without Reveal or the full SSN; Bob's case 403.
    const staff = abroad.page;
    await staff.goto(`/admin/dashboard?year=${YEAR}`);
    await expect(staff.locator(`[title="${alice.email}"]`).first()).toBeVisible();
    await expect(staff.locator(`[title="${bob.email}"]`)).toHaveCount(0);
    await staff.goto(`/admin/clients/${aliceId}/${YEAR}/taxpayer`);
    await expect(staff.getByText("Staff who work outside the United States never see a full SSN or ITIN.")).toBeVisible();
    await expect(staff.getByRole("button", { name: /Reveal/ })).toHaveCount(0);
    expect(await staff.content()).not.toContain(sampleTaxpayer.ssn_tin);
    await axe(staff, `the taxpayer section without Reveal at ${width} px`);
    const revealed = await staff.request.post(`/admin/clients/${aliceId}/${YEAR}/taxpayer`, { form: { intent: "reveal-ssn" } });
    expect(revealed.status()).toBe(403);
    expect(await revealed.text()).not.toContain(sampleTaxpayer.ssn_tin);
    const refused = await staff.goto(`/admin/clients/${bobId}/${YEAR}`);
    expect(refused?.status()).toBe(403);
    await keepScreenshot(staff, `abroad-refused-${width}`);

    // Alice withdraws the consent to disclose: the case leaves the preparer's list at the next request.
    await alice.page.goto("/my-consents");
    await alice.page.getByTestId("consent-disclose").getByRole("button", { name: /^Withdraw/ }).click();
    await expect(alice.page.getByText("You withdrew your consent to disclose your tax return information. It ended now.")).toBeVisible();
    await expect(alice.page.getByTestId("consent-disclose")).toContainText("Not in force.");
    await expect(alice.page.getByTestId("consent-use")).toContainText("In force through");
    await staff.goto(`/admin/dashboard?year=${YEAR}`);
    await expect(staff.locator(`[title="${alice.email}"]`)).toHaveCount(0);
    expect((await staff.request.get(`/admin/clients/${aliceId}/${YEAR}`)).status()).toBe(403);

    for (const page of [admin, staff, alice.page, bob.page]) await page.context().close();
  });
}
