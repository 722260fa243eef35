import AxeBuilder from "@axe-core/playwright";
import { expect, test, ADMIN, PASSWORD, createVerifiedUser, e2eDataDir, keepScreenshot, signIn, signInAsStaff, uniqueEmail, clientIdOf } from "./support";
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { currentFilingYear } from "~/domain/tax-year";
import { readOutbox } from "../helpers/outbox";

// Secure messages in a real browser, at a desktop's width and a phone's: the client writes from
// their filing page with a file; staff see the unread count in the sidebar and the inbox, open the
// conversation (which reads it) and reply; the client sees the count in the header's menu and on
// My Tax Filing, and reads the reply. Both e-mails are in the outbox with a link and without the
// text. Staff hide a message and the client no longer sees it. axe checks the new pages.

test.describe.configure({ mode: "serial" });

const YEAR = currentFilingYear();
const PDF = (label: string) => Buffer.from(`%PDF-1.4\n% ${label}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);

let staffContext: BrowserContext;
let staffPage: Page;

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  staffContext = await browser.newContext({ timezoneId: "America/New_York" });
  staffPage = await staffContext.newPage();
  await createVerifiedUser(request, ADMIN);
  await signInAsStaff(staffPage);
});

test.afterAll(async () => {
  await staffContext?.close();
});

async function axe(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.nodes.length}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(" | ")}`,
  );
  expect.soft(summary, `axe on ${what}`).toEqual([]);
}

/** Tap targets under 44 × 44 px in the page's main content; links inside sentences are exempt. */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const control of Array.from(
      document.querySelectorAll("main a[href], main button, main select, main summary, main input[type=file]"),
    )) {
      const style = getComputedStyle(control);
      const box = control.getBoundingClientRect();
      if (style.visibility === "hidden" || style.display === "none" || box.width <= 1 || box.height <= 1) continue;
      if (control.tagName === "A" && style.display === "inline") {
        const own = (control.textContent ?? "").trim().length;
        const around = (control.parentElement?.textContent ?? "").trim().length;
        if (around > own + 10) continue;
      }
      if (box.height < 44 || box.width < 44)
        small.push(`${control.tagName.toLowerCase()} "${(control.textContent ?? "").trim().slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return small;
  });
}

/** On a phone: every tap target of the page's content is at least 44 px, and nothing scrolls sideways. */
async function phoneChecks(page: Page, width: number, what: string): Promise<void> {
  await noSidewaysScroll(page, width);
  if (width < 800) expect.soft(await smallTapTargets(page), `tap targets under 44 px on ${what}`).toEqual([]);
  await keepScreenshot(page, `messages-${what.replace(/\W+/g, "-")}-${width}`);
}

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function hydrated(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/** The sidebar's Client messages link (on a phone, behind the Sections button). */
async function sidebarLink(page: Page, width: number): Promise<Locator> {
  if (width < 1024) {
    const sections = page.getByRole("button", { name: "Sections" });
    if ((await sections.getAttribute("aria-expanded")) !== "true") await sections.click();
  }
  const link = page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: /^Client messages/ });
  await expect(link).toBeVisible();
  return link;
}

/** The unread count beside Client messages (0 when it shows none). */
async function sidebarUnread(page: Page, width: number): Promise<number> {
  const text = (await (await sidebarLink(page, width)).textContent()) ?? "";
  return Number(/(\d+)\s*unread/.exec(text)?.[1] ?? 0);
}

/** The header's user menu, opened (on a phone, inside the mobile menu). */
async function openUserMenu(page: Page, width: number): Promise<Locator> {
  const header = page.locator("header").first();
  if (width < 1024) await header.getByRole("button", { name: "Open menu" }).click();
  const scope = width < 1024 ? header.getByRole("navigation", { name: "Mobile" }) : header;
  const button = scope.getByRole("button", { name: /^client\./ });
  await button.click();
  return scope;
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    const height = width > 800 ? 800 : 844;
    const clientName = `Meera Messages ${width}`;
    const email = uniqueEmail("client");
    const QUESTION = `Question ${width}: my employer sent a corrected W-2. Which one do you need?`;
    const REPLY = `Reply ${width}: the corrected one (W-2c). Thank you for attaching it.`;
    const WRONG = `Wrong note ${width}: meant for another client`;
    let clientContext: BrowserContext;
    let clientPage: Page;
    let clientId = "";

    test.beforeAll(async ({ browser, request }: { browser: Browser; request: APIRequestContext }) => {
      test.setTimeout(120_000);
      await createVerifiedUser(request, email, PASSWORD, clientName);
      clientContext = await browser.newContext({ viewport: { width, height }, timezoneId: "America/New_York" });
      clientPage = await clientContext.newPage();
      await signIn(clientPage, email);
      await expect(clientPage).toHaveURL(/\/dashboard/);
      clientId = await clientIdOf(staffPage.request, email);
    });

    test.afterAll(async () => {
      await clientContext?.close();
    });

    test("the client writes with a file; staff see it unread, open it and reply; the client sees the count and reads the reply; both e-mails carry a link, never the text", async () => {
      test.setTimeout(180_000);
      await staffPage.setViewportSize({ width, height });
      await staffPage.goto("/admin/dashboard");
      await hydrated(staffPage);
      const unreadBefore = await sidebarUnread(staffPage, width);

      // The client, from the year's filing page.
      await clientPage.goto(`/my-tax-filing/${YEAR}`);
      await hydrated(clientPage);
      const panel = clientPage.getByRole("region", { name: "Messages" });
      await panel.getByRole("link", { name: "Open messages" }).click();
      await expect(clientPage).toHaveURL(new RegExp(`/my-tax-filing/${YEAR}/messages$`));
      await expect(clientPage.getByRole("heading", { level: 1 })).toHaveText(`Messages about your ${YEAR} tax filing`);
      await expect(clientPage.getByText("No messages yet.")).toBeVisible();
      await axe(clientPage, `the client's empty conversation at ${width} px`);

      await clientPage.getByLabel("Your message").fill(QUESTION);
      await clientPage.getByLabel("Attach files (optional)").setInputFiles([
        { name: `w2c-${width}.pdf`, mimeType: "application/pdf", buffer: PDF("w2c") },
      ]);
      await clientPage.getByLabel("File the attached files under").selectOption({ label: "W-2" });
      await clientPage.getByRole("button", { name: "Send message" }).click();
      await expect(clientPage.getByRole("status")).toHaveText(
        "Your message and 1 file were sent. We will reply here, and e-mail you when we do.",
      );
      const mine = clientPage.getByRole("article").filter({ hasText: QUESTION });
      await expect(mine).toContainText("You");
      await expect(mine.getByRole("link", { name: new RegExp(`w2c-${width}\\.pdf`) })).toBeVisible();
      await expect(mine).toContainText("Sent");
      await expect(clientPage.getByLabel("Your message")).toHaveValue("");
      await phoneChecks(clientPage, width, "client conversation");
      await axe(clientPage, `the client's conversation at ${width} px`);
      // The file is one of the year's documents, under the category chosen.
      await clientPage.goto(`/my-tax-filing/${YEAR}`);
      await expect(
        clientPage.getByRole("region", { name: "W-2", exact: true }).getByRole("link", { name: `Download w2c-${width}.pdf` }),
      ).toBeVisible();

      // Staff: the sidebar counts it; the inbox lists it as unread.
      await staffPage.reload();
      await hydrated(staffPage);
      expect(await sidebarUnread(staffPage, width)).toBe(unreadBefore + 1);
      await (await sidebarLink(staffPage, width)).click();
      await expect(staffPage).toHaveURL(/\/admin\/inbox/);
      await expect(staffPage.getByRole("heading", { level: 1, name: "Client messages" })).toBeVisible();
      await staffPage.getByRole("link", { name: /^Unread/ }).click();
      await expect(staffPage).toHaveURL(/\/admin\/inbox\?filter=unread/);
      const row = staffPage.getByRole("article", { name: new RegExp(clientName) });
      await expect(row).toContainText("1 unread");
      await expect(row).toContainText("From the client");
      await expect(row).toContainText("Under 1 business day");
      await phoneChecks(staffPage, width, "inbox");
      await axe(staffPage, `the inbox at ${width} px`);
      await staffPage.getByRole("link", { name: /^Waiting more than 2 business days/ }).click();
      await expect(staffPage).toHaveURL(/\/admin\/inbox\?filter=waiting/);
      await expect(staffPage.getByRole("article", { name: new RegExp(clientName) })).toHaveCount(0);
      await axe(staffPage, `the inbox's waiting filter at ${width} px`);

      // Staff open the conversation: the message is new, then read.
      await staffPage.goto(`/admin/clients/${clientId}/${YEAR}`);
      await hydrated(staffPage);
      const caseLink = staffPage.getByRole("region", { name: "Messages with the client" });
      await expect(caseLink).toContainText("1 message, 1 unread.");
      await caseLink.getByRole("link", { name: "Client messages (1 unread)" }).click();
      await expect(staffPage).toHaveURL(new RegExp(`/admin/clients/${clientId}/${YEAR}/messages$`));
      await expect(staffPage.getByRole("heading", { level: 1 })).toHaveText(clientName);
      await expect(staffPage.getByRole("heading", { level: 2, name: `Messages with ${clientName}` })).toBeVisible();
      await expect(
        staffPage.getByRole("navigation", { name: "Sections of this case" }).getByRole("link", { name: "Messages" }),
      ).toHaveAttribute("aria-current", "page");
      const question = staffPage.getByRole("article").filter({ hasText: QUESTION });
      await expect(question).toContainText(`${clientName} (client)`);
      await expect(question).toContainText("New");
      await expect(question.getByRole("link", { name: new RegExp(`w2c-${width}\\.pdf`) })).toBeVisible();
      // Local time (New York), not the server's UTC.
      await expect(question.locator("time").first()).toHaveText(/\d{1,2}:\d\d [AP]M E[SD]T$/);
      expect(await sidebarUnread(staffPage, width)).toBe(unreadBefore);
      await phoneChecks(staffPage, width, "staff conversation");
      await axe(staffPage, `the staff's conversation at ${width} px`);

      await staffPage.getByLabel("Message to the client").fill(REPLY);
      await staffPage.getByRole("button", { name: "Send message" }).click();
      await expect(staffPage.getByRole("status").filter({ hasText: "Message sent." })).toHaveText(
        "Message sent. The client will be e-mailed a link to it in a few minutes, unless they read it or it is hidden first.",
      );
      const reply = staffPage.getByRole("article").filter({ hasText: REPLY });
      await expect(reply).toContainText("Not read by the client yet");
      await noSidewaysScroll(staffPage, width);

      // The outbox: one notice each way, a link and no text.
      const code = /TB-\d{5}/.exec((await staffPage.locator("main").textContent()) ?? "")?.[0] ?? "";
      expect(code).not.toBe("");
      const toStaff = () =>
        readOutbox(e2eDataDir).filter((m) => m.subject === `${code} ${clientName} sent a message (${YEAR})`);
      await expect.poll(() => toStaff().length).toBe(1);
      expect(toStaff()[0]!.to).toBe("staff@taxbridge.test");
      expect(toStaff()[0]!.text).toContain(`/admin/clients/${clientId}/${YEAR}/messages`);
      expect(toStaff()[0]!.raw).not.toContain("corrected W-2");
      const toClient = () =>
        readOutbox(e2eDataDir).filter((m) => m.to === email && !m.subject.startsWith("Verify your e-mail"));
      await expect.poll(() => toClient().length).toBe(1);
      expect(toClient()[0]!.subject).toBe(`You have a new message about your ${YEAR} tax filing`);
      expect(toClient()[0]!.text).toMatch(new RegExp(`https?://\\S+/my-tax-filing/${YEAR}/messages`));
      expect(toClient()[0]!.raw).not.toContain("W-2c");
      expect(toClient()[0]!.raw).not.toContain("Thank you for attaching");

      // The client: the header's menu and My Tax Filing count it.
      await clientPage.goto("/my-tax-filing");
      await hydrated(clientPage);
      const menu = await openUserMenu(clientPage, width);
      const unreadLink = menu.getByRole("link", { name: "1 unread message" });
      await expect(unreadLink).toBeVisible();
      await expect(unreadLink).toHaveAttribute("href", `/my-tax-filing/${YEAR}/messages`);
      await clientPage.reload();
      await hydrated(clientPage);
      const card = clientPage.getByRole("link", { name: `Messages about ${YEAR} (1 unread)` });
      await expect(card).toBeVisible();
      await phoneChecks(clientPage, width, "my tax filing unread");
      await axe(clientPage, `My Tax Filing with an unread message at ${width} px`);
      await card.click();
      await expect(clientPage).toHaveURL(new RegExp(`/my-tax-filing/${YEAR}/messages$`));
      const answer = clientPage.getByRole("article").filter({ hasText: REPLY });
      await expect(answer).toContainText(", TaxBridge");
      await expect(answer).toContainText("New");
      await expect(clientPage.getByRole("article").filter({ hasText: QUESTION })).toContainText("Read by TaxBridge");

      // Read: no count on the menu or the card any more.
      await clientPage.goto("/my-tax-filing");
      await hydrated(clientPage);
      await expect(clientPage.getByRole("link", { name: `Messages about ${YEAR}`, exact: true })).toBeVisible();
      await openUserMenu(clientPage, width);
      await expect(clientPage.getByRole("link", { name: /unread message/ })).toHaveCount(0);
      await staffPage.reload();
      await expect(staffPage.getByRole("article").filter({ hasText: REPLY })).toContainText("Read by the client");
    });

    test("staff hide a message and the client no longer sees it", async () => {
      test.setTimeout(120_000);
      await staffPage.setViewportSize({ width, height });
      await staffPage.goto(`/admin/clients/${clientId}/${YEAR}/messages`);
      await hydrated(staffPage);
      await staffPage.getByLabel("Message to the client").fill(WRONG);
      await staffPage.getByRole("button", { name: "Send message" }).click();
      const wrong = staffPage.getByRole("article").filter({ hasText: WRONG });
      await expect(wrong).toBeVisible();

      await clientPage.goto(`/my-tax-filing/${YEAR}/messages`);
      await expect(clientPage.getByRole("article").filter({ hasText: WRONG })).toBeVisible();

      await wrong.locator("summary").filter({ hasText: "Hide" }).click();
      await expect(wrong).toContainText("Hide this message from the client?");
      await wrong.getByRole("button", { name: "Hide from the client" }).click();
      await expect(staffPage.getByRole("status").filter({ hasText: "hidden" })).toHaveText(
        "The message is now hidden from the client.",
      );
      await expect(wrong).toContainText("Hidden from the client");
      await expect(wrong).toContainText("Hidden by");
      await expect(wrong.locator("summary")).toHaveCount(0);
      await phoneChecks(staffPage, width, "staff conversation hidden");
      await axe(staffPage, `the staff's conversation with a hidden message at ${width} px`);

      await clientPage.reload();
      await hydrated(clientPage);
      await expect(clientPage.getByRole("article").filter({ hasText: REPLY })).toBeVisible();
      await expect(clientPage.getByText(WRONG)).toHaveCount(0);
      await expect(clientPage.getByRole("article")).toHaveCount(2);
      // The case's activity names the hide, without the text.
      await staffPage.goto(`/admin/clients/${clientId}/${YEAR}/notes`);
      const activity = staffPage.getByRole("region", { name: "Activity", exact: true });
      await expect(activity).toContainText("Hid a message from the client: a message from staff of");
      await expect(activity).not.toContainText(WRONG);
    });

    test("without JavaScript, the client sends a message with a file as a plain form, and staff hide one", async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const plain = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
      try {
        const page = await plain.newPage();
        await signIn(page, email);
        await expect(page).toHaveURL(/\/dashboard/);
        await page.goto(`/my-tax-filing/${YEAR}/messages`);
        const text = `Sent without JavaScript at ${width}`;
        await page.getByLabel("Your message").fill(text);
        await page.getByLabel("Attach files (optional)").setInputFiles([
          { name: `plain-${width}.pdf`, mimeType: "application/pdf", buffer: PDF("plain") },
        ]);
        await page.getByRole("button", { name: "Send message" }).click();
        await expect(page.getByRole("status")).toHaveText(
          "Your message and 1 file were sent. We will reply here, and e-mail you when we do.",
        );
        const sent = page.getByRole("article").filter({ hasText: text });
        await expect(sent.getByRole("link", { name: new RegExp(`plain-${width}\\.pdf`) })).toBeVisible();
        // A message that is refused keeps its text and says why.
        await page.getByLabel("Your message").fill("A file that is not one");
        await page.getByLabel("Attach files (optional)").setInputFiles([
          { name: "fake.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf") },
        ]);
        await page.getByRole("button", { name: "Send message" }).click();
        await expect(page.getByRole("alert").first()).toContainText("Nothing was sent");
        await expect(page.getByText("fake.pdf: the file's content is not a real PDF.")).toBeVisible();
        await expect(page.getByLabel("Your message")).toHaveValue("A file that is not one");
        await expect(page.getByRole("article").filter({ hasText: "A file that is not one" })).toHaveCount(0);
      } finally {
        await plain.close();
      }

      // Staff, without JavaScript: Hide opens its question as a disclosure and posts a plain form.
      const staffPlain = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: false });
      try {
        await staffPlain.addCookies(await staffContext.cookies());
        const page = await staffPlain.newPage();
        await page.goto(`/admin/clients/${clientId}/${YEAR}/messages`);
        const mine = page.getByRole("article").filter({ hasText: `Sent without JavaScript at ${width}` });
        await mine.locator("summary").filter({ hasText: "Hide" }).click();
        await mine.getByRole("button", { name: "Hide from the client" }).click();
        await expect(page.getByRole("status").filter({ hasText: "hidden" })).toHaveText(
          "The message is now hidden from the client.",
        );
        await expect(page.getByRole("article").filter({ hasText: `Sent without JavaScript at ${width}` })).toContainText(
          "Hidden from the client",
        );
      } finally {
        await staffPlain.close();
      }
      await clientPage.goto(`/my-tax-filing/${YEAR}/messages`);
      await expect(clientPage.getByText(`Sent without JavaScript at ${width}`)).toHaveCount(0);
    });
  });
}
