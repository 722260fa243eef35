import { expect, test, ADMIN, createVerifiedUser, linkFromOutbox, signIn, signInAsStaff, uniqueEmail } from "./support";
import { timeStep, totpAt } from "~/server/auth/totp.server";

// The team page (docs/product/accounts.md#team): an admin invites a preparer, who chooses a
// password from the e-mailed link, enrols a second factor and works on cases only; deactivation
// ends their session at once.

test.use({ viewport: { width: 1280, height: 900 } });

test("an admin invites a preparer, who enrols and works without the admin parts, until deactivated", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await createVerifiedUser(request, ADMIN);
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsStaff(admin);

  // The admin invites a preparer.
  const email = uniqueEmail("preparer");
  await admin.goto("/admin/team");
  await expect(admin.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await admin.getByLabel("Full name").fill("Pat Preparer");
  await admin.getByLabel("E-mail").fill(email);
  await admin.getByLabel("Role").selectOption("preparer");
  await admin.getByRole("button", { name: "Send invitation" }).click();
  await expect(admin.getByText("The invitation is being e-mailed.", { exact: false })).toBeVisible();
  const row = admin.locator(`[data-testid="team-member"][data-email="${email}"]`);
  await expect(row).toContainText("Preparer");
  await expect(row).toContainText("Not enrolled yet");
  await expect(row).toContainText("Never");
  await expect(row).toContainText("Invitation pending");

  // The preparer follows the e-mailed link and chooses a password.
  const link = await linkFromOutbox(email, "/reset-password");
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  const url = new URL(link);
  await member.goto(url.pathname + url.search);
  const password = "Preparer pass phrase 1";
  await member.locator('input[name="password"]').fill(password);
  await member.locator('input[name="confirmPassword"]').fill(password);
  await member.getByRole("button", { name: "Save new password" }).click();
  await expect(member).toHaveURL(/\/login\?reset=1/);

  // Signs in and enrols the second factor: their own authenticator, not the admin's.
  await signIn(member, email, password);
  await expect(member).toHaveURL(/\/admin\/security\/setup/);
  const secret = (await member.getByTestId("totp-secret").textContent())!.trim();
  await member.getByLabel(/Authenticator code/).fill(totpAt(secret, timeStep()));
  await member.getByRole("button", { name: "Verify" }).click();
  await expect(member).toHaveURL(/\/admin\/dashboard/);

  // A preparer: no Team, Contact form, Audit, Undelivered e-mails or Payments links, no export, and 403 on those pages.
  const nav = member.getByRole("navigation").first();
  await expect(nav).toBeVisible();
  for (const name of ["Team", "Contact form", "Audit", "Undelivered e-mails", "Payments"])
    await expect(member.getByRole("link", { name, exact: true })).toHaveCount(0);
  await expect(member.getByRole("link", { name: "Export Data" })).toHaveCount(0);
  await expect(member.getByRole("button", { name: "Export Data" })).toHaveCount(0);
  for (const path of ["/admin/team", "/admin/clients.csv", "/admin/notices", "/admin/payments", "/admin/PAYMENTS", "/admin/payments.csv"]) {
    const response = await member.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(403);
  }
  const refused = await member.goto("/admin/team");
  expect(refused?.status()).toBe(403);
  await expect(member.getByText("This part of the panel is for administrators.")).toBeVisible();

  // The admin sees them enrolled, then deactivates them; their next page load goes to /login.
  await admin.goto("/admin/team");
  await expect(row).toContainText("Enrolled");
  await expect(row).not.toContainText("Never");
  admin.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: /^Deactivate/ }).click();
  await expect(admin.getByText("Deactivated. Their sessions have ended", { exact: false })).toBeVisible();
  await expect(row).toContainText("Deactivated on");

  await member.goto("/admin/dashboard");
  await expect(member).toHaveURL(/\/login/);
  await signIn(member, email, password);
  await expect(member.getByText("This account has been deactivated.")).toBeVisible();

  await memberContext.close();
  await adminContext.close();
});
