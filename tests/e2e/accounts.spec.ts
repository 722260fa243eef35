import { expect, test, createVerifiedUser, linkFromOutbox, PASSWORD, signIn, uniqueEmail, GOOGLE_MOCK_URL } from "./support";

test.describe("sign-up", () => {
  test("creates the account, verifies it from the e-mail, signs in and lands on /dashboard", async ({ page, baseURL }) => {
    const email = uniqueEmail("signup");
    await page.goto("/signup");
    await expect(page.locator("header")).toHaveCount(0);
    await expect(page.locator("footer")).toHaveCount(0);

    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Full name is required")).toBeVisible();
    await expect(page.getByText("Email is required")).toBeHidden();

    await page.getByRole("textbox", { name: "Full Name" }).fill("Lucía Fernández");
    await page.getByRole("textbox", { name: "Email Address" }).fill(email);
    await page.getByRole("combobox", { name: "Visa/Status" }).selectOption("F-1");
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirmPassword"]').fill("something else");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Passwords do not match")).toBeVisible();

    await page.locator('input[name="confirmPassword"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("You must accept the terms and conditions")).toBeVisible();
    await expect(page.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
    await expect(page.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");

    await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Account created successfully! Please check your email to verify your account.")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Full Name" })).toHaveValue("");
    await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });

    const link = await linkFromOutbox(email, "/api/auth/verify-email");
    expect(link.startsWith(`${baseURL}/api/auth/verify-email?token=`)).toBe(true);

    await signIn(page, email);
    await expect(page.getByText("Please verify your email address before signing in.", { exact: false })).toBeVisible();
    await expect(page.getByRole("button", { name: "Resend verification e-mail" })).toBeVisible();

    await page.goto(link);
    await expect(page).toHaveURL(/\/login\?verified=1$/);
    await expect(page.getByText("Your email address is verified. You can sign in now.")).toBeVisible();

    await signIn(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });
});

test.describe("sign-in", () => {
  test("remember me off gives a browser-session cookie; on gives a long one", async ({ page, request, context }) => {
    const email = uniqueEmail("remember");
    await createVerifiedUser(request, email);

    await signIn(page, email, PASSWORD, false);
    await expect(page).toHaveURL(/\/dashboard$/);
    const short = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
    expect(short?.expires).toBe(-1);
    expect(short?.httpOnly).toBe(true);
    expect(short?.sameSite).toBe("Lax");

    await context.clearCookies();
    await signIn(page, email, PASSWORD, true);
    await expect(page).toHaveURL(/\/dashboard$/);
    const long = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
    expect(long!.expires * 1000 - Date.now()).toBeGreaterThan(20 * 24 * 60 * 60 * 1000);
  });

  test("a wrong password shows the red box, and the Sign up link goes to /signup", async ({ page }) => {
    await signIn(page, "nobody@example.com", "not the password");
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await page.getByRole("link", { name: "Sign up" }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("forgot password and reset", async ({ page, request }) => {
    const email = uniqueEmail("reset");
    await createVerifiedUser(request, email);
    await page.goto("/login");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await expect(page.getByText("Please enter your email address first.")).toBeVisible();
    await page.getByRole("textbox", { name: "Email Address" }).fill(email);
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await expect(page.getByText("Password reset email sent! Check your inbox.")).toBeVisible();

    const link = await linkFromOutbox(email, "/reset-password");
    await page.goto(link);
    await page.locator('input[name="password"]').fill("short");
    await page.locator('input[name="confirmPassword"]').fill("short");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await page.locator('input[name="password"]').fill("A brand new pass 9");
    await page.locator('input[name="confirmPassword"]').fill("A brand new pass 9");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page).toHaveURL(/\/login\?reset=1$/);
    await expect(page.getByText("Your password has been changed.", { exact: false })).toBeVisible();

    await page.goto(link);
    await page.locator('input[name="password"]').fill("Another pass 10");
    await page.locator('input[name="confirmPassword"]').fill("Another pass 10");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page.getByText("This password reset link is invalid or has expired.", { exact: false })).toBeVisible();

    await signIn(page, email, "A brand new pass 9");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("Continue with Google signs a new client in through the OpenID provider and back", async ({ page }) => {
    const email = uniqueEmail("google");
    await page.route("https://accounts.google.com/**", async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set("test_email", email);
      url.searchParams.set("test_name", "Grace Google");
      await route.fulfill({ status: 302, headers: { location: `${GOOGLE_MOCK_URL}/authorize${url.search}` } });
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test("Google never links onto an unverified password account with the same e-mail", async ({ page, request }) => {
    const email = uniqueEmail("squatter");
    // Someone registers the address with a password but never verifies it.
    await request.post("/signup", {
      form: { intent: "signup", fullName: "Not The Owner", email, phone: "", visaStatus: "Other", password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: "on" },
    });
    await page.route("https://accounts.google.com/**", async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set("test_email", email);
      url.searchParams.set("test_name", "Real Owner");
      await route.fulfill({ status: 302, headers: { location: `${GOOGLE_MOCK_URL}/authorize${url.search}` } });
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/login\?error=/);
    await expect(page.getByText("Google login failed. Please try again.")).toBeVisible();
    expect((await page.context().cookies()).some((c) => c.name.endsWith("session_token"))).toBe(false);
  });
});

test.describe("guards and header", () => {
  test("protected pages send visitors to /login and back after sign-in", async ({ page, request }) => {
    const email = uniqueEmail("guard");
    await createVerifiedUser(request, email);
    const response = await page.goto("/my-tax-filing");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmy-tax-filing$/);
    expect(response?.status()).toBe(200);
    await page.getByRole("textbox", { name: "Email Address" }).fill(email);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/my-tax-filing$/);

    const filing = await page.request.get("/my-tax-filing");
    expect(filing.headers()["cache-control"]).toBe("no-store");
    await page.goto("/my-tax-filings");
    await expect(page).toHaveURL(/\/my-tax-filing$/);
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a client's header: portal links, user menu, sign out", async ({ page, request, baseURL }) => {
    const email = uniqueEmail("menu");
    await createVerifiedUser(request, email);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(header.getByRole("link", { name: "My Tax Filing" })).toBeVisible();
    await expect(header.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home", exact: true })).toBeVisible();
    const menuButton = header.getByRole("button", { name: new RegExp(email.split("@")[0]!) });
    await expect(menuButton).toContainText("User");
    await menuButton.click();
    await expect(header.getByText(email).filter({ visible: true })).toBeVisible();
    await header.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login/);
  });

  test("an admin's header hides the main links and the mobile menu", async ({ page, request }) => {
    await createVerifiedUser(request, "admin@taxbridge.test");
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "admin@taxbridge.test");
    // Staff enrol a second factor (or give their code, once enrolled) before any admin page answers.
    await expect(page).toHaveURL(/\/admin\/security\/(setup|verify)/);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "Home", exact: true })).toHaveCount(0);
    await expect(header.getByRole("button", { name: "Services" })).toHaveCount(0);
    const menuButton = header.getByRole("button", { name: /admin/ });
    await expect(menuButton).toContainText("Admin");
    await menuButton.click();
    await expect(header.getByText("Administrator Account")).toBeVisible();
    await page.setViewportSize({ width: 360, height: 800 });
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveCount(0);
  });
});

test("a cross-origin POST is refused", async ({ request }) => {
  const response = await request.post("/contact", {
    headers: { Origin: "https://evil.example" },
    form: { name: "x", email: "x@example.com", subject: "x", description: "cross-site attempt" },
  });
  expect(response.status()).toBe(403);
  const login = await request.post("/login", { headers: { Origin: "https://evil.example" }, form: { email: "a@b.co", password: "x" } });
  expect(login.status()).toBe(403);
});
