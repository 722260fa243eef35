import { expect, test, e2eDataDir, signIn, uniqueEmail } from "./support";
import type { Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox";

// Someone signs up first with a client's address and their own password; the client signs up
// later and opens the first verification e-mail. The client must end up with the only working
// password, and the other party signed out for good.

const ATTACKER_PASSWORD = "Attacker pass 1";
const OWNER_SIGNUP_PASSWORD = "Owner signup pass 2";
const OWNER_CHOSEN_PASSWORD = "Owner chosen pass 3";

async function signUp(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/signup");
  await page.getByRole("textbox", { name: "Full Name" }).fill("Pat Example");
  await page.getByRole("textbox", { name: "Email Address" }).fill(email);
  await page.getByRole("combobox", { name: "Visa/Status" }).selectOption("H-1B");
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="confirmPassword"]').fill(password);
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(
    page.getByText("Account created successfully! Please check your email to verify your account."),
  ).toBeVisible();
}

/** The verification links e-mailed to `to`, oldest first, once `count` have arrived. */
async function verificationLinks(to: string, count: number): Promise<string[]> {
  const links = () =>
    readOutbox(e2eDataDir)
      .filter((m) => m.to.includes(to) && m.subject.startsWith("Verify"))
      .map((m) => m.text.match(/https?:\/\/\S*\/api\/auth\/verify-email\S*/)?.[0] ?? "");
  await expect.poll(() => links().length).toBe(count);
  return links();
}

test("a pre-registered address: the owner who opens the e-mailed link chooses the only password", async ({
  browser,
}) => {
  const email = uniqueEmail("takeover");
  const attackerContext = await browser.newContext();
  const ownerContext = await browser.newContext();
  const attacker = await attackerContext.newPage();
  const owner = await ownerContext.newPage();

  await signUp(attacker, email, ATTACKER_PASSWORD);
  await signUp(owner, email, OWNER_SIGNUP_PASSWORD);
  // The attacker cannot get in before the address is verified.
  await signIn(attacker, email, ATTACKER_PASSWORD);
  await expect(
    attacker.getByText("Please verify your email address before signing in.", { exact: false }),
  ).toBeVisible();

  const [first] = await verificationLinks(email, 2);
  await owner.goto(first!);
  await expect(owner).toHaveURL(/\/reset-password\?token=[\w-]+&verified=1$/);
  await expect(owner.getByRole("heading", { name: "Choose your password" })).toBeVisible();
  await expect(owner.getByText("Your email address is verified.", { exact: false })).toBeVisible();

  // Until the owner chooses, neither sign-up password opens the account.
  await signIn(attacker, email, ATTACKER_PASSWORD);
  await expect(attacker.getByRole("alert")).toHaveText("Invalid email or password");

  await owner.locator('input[name="password"]').fill(OWNER_CHOSEN_PASSWORD);
  await owner.locator('input[name="confirmPassword"]').fill(OWNER_CHOSEN_PASSWORD);
  await owner.getByRole("button", { name: "Save new password" }).click();
  await expect(owner).toHaveURL(/\/login\?reset=1$/);

  await signIn(owner, email, OWNER_SIGNUP_PASSWORD);
  await expect(owner.getByRole("alert")).toHaveText("Invalid email or password");
  await signIn(owner, email, OWNER_CHOSEN_PASSWORD);
  await expect(owner).toHaveURL(/\/dashboard$/);
  await expect(owner.getByText(`Welcome, ${email}`)).toBeVisible();

  await signIn(attacker, email, ATTACKER_PASSWORD);
  await expect(attacker.getByRole("alert")).toHaveText("Invalid email or password");
  expect((await attackerContext.cookies()).filter((c) => c.name.endsWith("session_token"))).toEqual([]);
  await attacker.goto("/dashboard");
  await expect(attacker).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);

  await Promise.all([attackerContext.close(), ownerContext.close()]);
});
