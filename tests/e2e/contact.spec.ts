import { expect, test, e2eDataDir as dataDir } from "./support";
import { readOutbox } from "../helpers/outbox";

test.describe("contact form", () => {
  test("checks the fields, sends, shows the modal for 5 seconds and clears the form", async ({ page }) => {
    await page.clock.install();
    await page.goto("/contact");
    const send = page.getByRole("button", { name: "Send Message" });
    await send.click();

    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Email is required")).toBeVisible();
    await expect(page.getByText("Subject is required")).toBeVisible();
    await expect(page.getByText("Message is required")).toBeVisible();
    await expect(page.getByText("Please fix the errors above.")).toBeVisible();

    // Editing a field clears its own error.
    await page.getByRole("textbox", { name: "Full Name" }).fill("Mei Chen");
    await expect(page.getByText("Name is required")).toBeHidden();
    await expect(page.getByText("Email is required")).toBeVisible();

    await page.getByRole("textbox", { name: "Email Address" }).fill("mei@example");
    await page.getByRole("textbox", { name: "Subject" }).fill("Form 1040-NR for 2025");
    await page.getByRole("textbox", { name: "Message", exact: true }).fill("Too short");
    await send.click();
    await expect(page.getByText("Please enter a valid email")).toBeVisible();
    await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();

    const message = "I was on F-1 OPT for all of 2025 and need help with my 1040-NR and Form 8843.";
    await page.getByRole("textbox", { name: "Email Address" }).fill("mei@example.com");
    await page.getByRole("textbox", { name: "Message", exact: true }).fill(message);
    await expect(page.getByText(`${message.length}/500`)).toBeVisible();
    await expect(page.getByText("Please fix the errors above.")).toBeHidden();

    // Hold the request long enough to see the sending state.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The form is a plain POST: hold the browser's request for the next page.
    await page.route("**/contact", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    // Stop the page's clock so the modal's 5 seconds run only when the test says.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await send.click();
    const sending = page.getByRole("button", { name: "Sending your message..." });
    await expect(sending).toBeVisible();
    await expect(sending).toBeDisabled();
    release();

    const dialog = page.getByRole("dialog", { name: "Message Sent!" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("We'll get back to you within 24 hours");
    await expect(page.getByRole("textbox", { name: "Full Name" })).toHaveValue("");
    await expect(page.getByRole("textbox", { name: "Message", exact: true })).toHaveValue("");

    await page.clock.runFor(4_900);
    await expect(dialog).toBeVisible();
    await page.clock.runFor(200);
    await expect(dialog).toBeHidden();

    // E-mails go out once the answer has been sent.
    await expect.poll(() => readOutbox(dataDir).some((m) => m.text.includes(message))).toBe(true);
    const mail = readOutbox(dataDir).find((m) => m.text.includes(message));
    expect(mail?.to).toBe("staff@taxbridge.test");
    expect(mail?.subject).toContain("Form 1040-NR for 2025");
  });

  test("the counter stops at 500 characters", async ({ page }) => {
    await page.goto("/contact");
    await page.getByRole("textbox", { name: "Message", exact: true }).fill("a".repeat(600));
    await expect(page.getByRole("textbox", { name: "Message", exact: true })).toHaveValue("a".repeat(500));
    await expect(page.getByText("500/500")).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the server checks the form and sends the message", async ({ page }) => {
      await page.goto("/contact");
      await page.getByRole("textbox", { name: "Full Name" }).fill("Tomas Silva");
      await page.getByRole("textbox", { name: "Message", exact: true }).fill("short");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByText("Email is required")).toBeVisible();
      await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
      await expect(page.getByText("Please fix the errors above.")).toBeVisible();
      await expect(page.getByRole("textbox", { name: "Full Name" })).toHaveValue("Tomas Silva");

      await page.getByRole("textbox", { name: "Email Address" }).fill("tomas@example.com");
      await page.getByRole("textbox", { name: "Subject" }).fill("J-1 scholar taxes");
      await page.getByRole("textbox", { name: "Message", exact: true }).fill("I am a J-1 researcher from Brazil. Which forms do I file?");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByText("Message Sent!")).toBeVisible();
      await expect(page.getByText("We'll get back to you within 24 hours")).toBeVisible();
      await expect.poll(() => readOutbox(dataDir).some((m) => m.subject.includes("J-1 scholar taxes"))).toBe(true);
    });
  });
});
