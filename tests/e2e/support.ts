import { expect } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox";

export const e2eDataDir = ".tmp/e2e-data";
export const PASSWORD = "Str0ng pass phrase";

let counter = 0;
/** A fresh address for each test. */
export function uniqueEmail(prefix = "client"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

/** The newest link to `path` e-mailed to `to`. */
export async function linkFromOutbox(to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const mails = readOutbox(e2eDataDir).filter((m) => m.to.includes(to));
      link = mails
        .map((m) => m.text.match(new RegExp(`https?://\\S*${path}\\S*`))?.[0])
        .filter(Boolean)
        .at(-1);
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** Signs up through the form's action and verifies the address through the e-mailed link. */
export async function createVerifiedUser(request: APIRequestContext, email: string, password = PASSWORD): Promise<void> {
  const response = await request.post("/signup", {
    form: {
      intent: "signup",
      fullName: "Test Client",
      email,
      phone: "",
      visaStatus: "F-1",
      password,
      confirmPassword: password,
      acceptTerms: "on",
    },
  });
  expect(response.status()).toBe(200);
  const link = await linkFromOutbox(email, "/api/auth/verify-email");
  const verified = await request.get(new URL(link).pathname + new URL(link).search, { maxRedirects: 0 });
  expect(verified.status()).toBe(302);
}

export async function signIn(page: Page, email: string, password = PASSWORD, remember = false): Promise<void> {
  await page.goto("/login");
  await page.getByRole("textbox", { name: "Email Address" }).fill(email);
  await page.locator('input[name="password"]').fill(password);
  if (remember) await page.getByLabel("Remember me").check();
  await page.getByRole("button", { name: "Sign In" }).click();
}
