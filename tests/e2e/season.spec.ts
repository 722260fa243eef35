import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, keepScreenshot, test } from "./support";
import { currentFilingYear } from "~/domain/tax-year";
import type { SeedFile } from "../../scripts/lib/fixtures";
import { freshSecrets, runFixtureDb } from "../../scripts/lib/server-process";
import type { RunningServer } from "../../scripts/lib/server-process";
import { readOutbox } from "../helpers/outbox";
import { startServerOnFreePort } from "../helpers/server-port";

// The season's start in a real browser (docs/product/engagement.md#the-seasons-start), on a
// server of this file's own, once at 1280 px and once at 390 px (admin, clients and staff alike):
// an admin writes the letter's template and opens the new year for three clients of the year
// before; each gets the year's case, its letter and one e-mail, and starting again sends nothing.
// From the e-mail's link, one client accepts the letter and both consents, one declines the
// letter, one accepts it and refuses both consents. A preparer the admin marks as working outside
// the United States sees only the first client's case, never a full SSN, until that client
// withdraws the consent to disclose. Six seeded clients: three of the year before the filing
// season's (the 1280 px round opens the filing season's year for them), three of the year before
// that (the 390 px round opens the year before the filing season's, which a season's start may).

test.describe.configure({ mode: "serial" });

const Y = currentFilingYear();
const dataDir = path.resolve(`.tmp/e2e-season-${process.pid}`);
const tag = randomBytes(4).toString("hex");

type Round = {
  width: number;
  /** The tax year the round opens, for the clients of the year before. */
  open: number;
  /** The seeded clients of the round (indexes into seeded.clients), in the scenario's order. */
  clients: [number, number, number];
  /** The seeded preparer the admin marks as working outside the United States. */
  preparer: number;
  /** A sentence of the round's own that the admin adds to the template. */
  mark: string;
};

const ROUNDS: Round[] = [
  { width: 1280, open: Y, clients: [0, 1, 2], preparer: 0, mark: `Season ${tag} at 1280: we look forward to working with you.` },
  { width: 390, open: Y - 1, clients: [3, 4, 5], preparer: 1, mark: `Season ${tag} at 390: we look forward to working with you.` },
];

const RUN_DONE = "3 of 3 clients done: 3 opened, each with a letter and an e-mail; 0 left alone (they had the year).";
const RUN_AGAIN = "3 of 3 clients done: 0 opened, each with a letter and an e-mail; 3 left alone (they had the year).";
const DECLINE_REASON = "We file with another firm this year.";

let server: RunningServer;
let seeded: SeedFile;
const contexts: BrowserContext[] = [];

async function contextOf(browser: Browser, cookie: string, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ timezoneId: "America/New_York", viewport: { width, height: 900 } });
  contexts.push(context);
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
    }),
  );
  return context;
}

async function pageOf(browser: Browser, cookie: string, width: number): Promise<Page> {
  return (await contextOf(browser, cookie, width)).newPage();
}

/** axe (WCAG 2.1 A and AA) finds nothing on the page. */
async function axe(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect.soft(summary, `axe on ${what}`).toEqual([]);
}

async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${what} scrolls sideways`).toBe(true);
}

/**
 * The e-mails of kind "engagement-letter" in the server's outbox (to `email` when given): a
 * client's letter to read. (Staff are told of a declined letter by another e-mail, whose subject
 * names the letter too.)
 */
function letterMails(email?: string) {
  return readOutbox(dataDir).filter((m) => /^Your \d{4} engagement letter from TaxBridge$/.test(m.subject) && (email === undefined || m.to.includes(email)));
}

const client = (round: Round, k: 0 | 1 | 2) => seeded.clients[round.clients[k]]!;
const nameOf = (round: Round, k: 0 | 1 | 2) => `Client${round.clients[k]} Fixture`;
/** The name the letter gives: the legal name of the client's taxpayer record of the year before (taxpayerValuesFor, version 0). */
const letterNameOf = (round: Round, k: 0 | 1 | 2) => `Client${round.clients[k]} V0 Fixture0`;
const caseUrl = (round: Round, k: 0 | 1 | 2, section = "") => `${server.url}/admin/clients/${client(round, k).id}/${round.open}${section}`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const base = {
    dataDir,
    databaseUrl: "",
    secrets: freshSecrets(),
    logFile: path.join(dataDir, "server.log"),
    // The outbox sends every second, so that the letters' e-mails are read within the test.
    env: { RATE_LIMIT_SCALE: "20", MAIL_SWEEP_SECONDS: "1" },
  };
  const seedFile = path.join(dataDir, "seed.json");
  const years = ROUNDS.flatMap((r) => r.clients.map(() => r.open - 1)).join(",");
  await runFixtureDb({ ...base, port: 1 }, ["seed", "--out", seedFile, "--signed-in", "6", "--admin", "--preparers", "2", "--case-years", years]);
  seeded = JSON.parse(readFileSync(seedFile, "utf8")) as SeedFile;
  expect(seeded.clients.map((c) => c.taxYear)).toEqual([Y - 1, Y - 1, Y - 1, Y - 2, Y - 2, Y - 2]);
  expect(seeded.preparers).toHaveLength(2);
  ({ server } = await startServerOnFreePort(base));
});

test.afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

for (const [index, round] of ROUNDS.entries()) {
  const { width, open } = round;
  let admin: Page;

  test(`at ${width} px: an admin writes the letter and opens ${open} for three clients of ${open - 1}, each e-mailed once`, async ({ browser }) => {
    test.setTimeout(120_000);
    admin = await pageOf(browser, seeded.admin!.cookie, width);
    const firstClient = await pageOf(browser, client(round, 0).cookie, width);
    // Before the start the clients have no case of the year: their letter's page is not there.
    expect((await firstClient.request.get(`${server.url}/my-tax-filing/${open}/engagement`)).status()).toBe(404);
    expect((await firstClient.request.get(`${server.url}/my-tax-filing/${open - 1}`)).status()).toBe(200);

    // The template of the default service (1040-NR), with the round's own sentence.
    await admin.goto(`${server.url}/admin/engagement`);
    await expect(admin.getByRole("heading", { level: 1, name: "Engagement letter" })).toBeVisible();
    const box = admin.getByRole("textbox", { name: "Template of Federal nonresident return (Form 1040-NR)" });
    // An earlier round's sentence is replaced: its letters must not carry it.
    const body = ROUNDS.reduce((text, r) => text.replace(`\n\n${r.mark}`, ""), await box.inputValue());
    expect(body).not.toContain("Season ");
    await box.fill(`${body}\n\n${round.mark}`);
    await admin.getByRole("region", { name: "Federal nonresident return (Form 1040-NR)" }).getByRole("button", { name: "Save as a new version" }).click();
    await expect(admin.getByText(`Saved: Federal nonresident return (Form 1040-NR), version ${index + 1}.`, { exact: false })).toBeVisible();

    // The season's start: choose, count, confirm the number.
    await admin.goto(`${server.url}/admin/season`);
    await expect(admin.getByRole("heading", { level: 1, name: "Season's start" })).toBeVisible();
    await expect(admin.getByTestId("season-run")).toHaveCount(2 * index);
    await admin.getByLabel("Tax year to open").selectOption(String(open));
    await admin.getByRole("radio", { name: "Every client with a case last year" }).check();
    await admin.getByRole("button", { name: "Count the clients" }).click();
    await expect(admin.getByTestId("season-count").locator("p").first()).toHaveText(`3 clients of ${open - 1} match. 0 already have ${open} and are left alone.`);
    await expect(admin.getByRole("button", { name: /^Open / })).toHaveCount(1);
    const start = admin.getByRole("button", { name: `Open ${open} for 3 clients`, exact: true });
    await noSidewaysScroll(admin, `the season's start at ${width} px`);
    await keepScreenshot(admin, `season-count-${width}`);
    await axe(admin, `the season's start with its count at ${width} px`);
    await start.click();
    await expect(admin).toHaveURL(`${server.url}/admin/season?started=1`);
    await expect(admin.getByText("The season's start is under way.", { exact: false })).toBeVisible();
    // The page reads the progress again by itself until the run is done.
    const run = admin.getByTestId("season-run").first();
    await expect(run).toContainText(`Tax year ${open}: every client with a case last year`);
    await expect(run.getByTestId("season-run-progress")).toHaveText(RUN_DONE, { timeout: 30_000 });
    await expect(run).toContainText("Finished");
    await expect(run.getByRole("progressbar", { name: `Tax year ${open}: 100% done` })).toBeVisible();
    await expect(admin.getByTestId("season-run")).toHaveCount(2 * index + 1);
    await noSidewaysScroll(admin, `the season's start's progress at ${width} px`);
    await keepScreenshot(admin, `season-done-${width}`);
    await axe(admin, `the season's start's progress at ${width} px`);

    // One e-mail each, with the link to the year's letter; nobody else is e-mailed a letter.
    for (const k of [0, 1, 2] as const) {
      await expect.poll(() => letterMails(client(round, k).email).length, { timeout: 20_000 }).toBe(1);
      const [mail] = letterMails(client(round, k).email);
      expect(mail!.subject).toBe(`Your ${open} engagement letter from TaxBridge`);
      expect(mail!.text).toContain(`${server.url}/my-tax-filing/${open}/engagement`);
    }
    expect(letterMails()).toHaveLength(3 * (index + 1));

    // Again: the count says they have the year, and there is nothing to confirm.
    await admin.getByLabel("Tax year to open").selectOption(String(open));
    await admin.getByRole("button", { name: "Count the clients" }).click();
    await expect(admin.getByTestId("season-count").locator("p").first()).toHaveText(`3 clients of ${open - 1} match. 3 already have ${open} and are left alone.`);
    await expect(admin.getByRole("button", { name: /^Open / })).toHaveCount(0);
    // A form sent anyway (a second tab's, an old page's) starts a run that leaves all three alone and e-mails nobody.
    const again = await admin.request.post(`${server.url}/admin/season`, {
      form: { intent: "start", year: String(open), filter: "all", confirmed: "3" },
      maxRedirects: 0,
    });
    expect([again.status(), again.headers()["location"]]).toEqual([302, "/admin/season?started=1"]);
    await admin.goto(`${server.url}/admin/season?started=1`);
    await expect(admin.getByTestId("season-run")).toHaveCount(2 * index + 2);
    await expect(admin.getByTestId("season-run").first().getByTestId("season-run-progress")).toHaveText(RUN_AGAIN, { timeout: 30_000 });
    // The outbox sends every second: give it three to send anything the second run might have queued.
    await admin.waitForTimeout(3_000);
    for (const k of [0, 1, 2] as const) expect(letterMails(client(round, k).email)).toHaveLength(1);
    expect(letterMails()).toHaveLength(3 * (index + 1));
  });

  test(`at ${width} px: from the e-mail, one client accepts the letter and both consents, one declines it, one accepts it and refuses the consents`, async ({ browser }) => {
    test.setTimeout(120_000);
    const earlier = ROUNDS.filter((r) => r !== round).map((r) => r.mark);

    /** The client's letter, opened from the link of their e-mail. */
    const openLetter = async (k: 0 | 1 | 2): Promise<Page> => {
      const page = await pageOf(browser, client(round, k).cookie, width);
      const link = letterMails(client(round, k).email)[0]!.text.match(/https?:\/\/\S*\/my-tax-filing\/\d{4}\/engagement\b/)![0];
      expect(link).toBe(`${server.url}/my-tax-filing/${open}/engagement`);
      await page.goto(link);
      await expect(page.getByRole("heading", { level: 1, name: `Your ${open} engagement letter` })).toBeVisible();
      const letter = page.getByRole("article", { name: "The engagement letter" });
      await expect(letter).toContainText(round.mark);
      await expect(letter).toContainText(`Dear ${letterNameOf(round, k)},`);
      for (const mark of earlier) await expect(letter).not.toContainText(mark);
      await noSidewaysScroll(page, `the letter at ${width} px`);
      return page;
    };
    const accept = async (page: Page, k: 0 | 1 | 2) => {
      await page.getByLabel("I have read this engagement letter and agree to its terms.").check();
      await page.getByLabel("Your full legal name").fill(letterNameOf(round, k));
      await page.getByRole("button", { name: "Accept the letter" }).click();
      await expect(page.getByText("Thank you: you accepted the engagement letter.")).toBeVisible();
      await expect(page.getByText(`Accepted by ${letterNameOf(round, k)} on`)).toBeVisible();
      await noSidewaysScroll(page, `the accepted letter at ${width} px`);
    };
    /** The client answers one consent's page. */
    const consent = async (page: Page, kind: "use" | "disclose", k: 0 | 1 | 2, decision: "given" | "refused") => {
      await page.goto(`${server.url}/my-consents`);
      await page.getByTestId(`consent-${kind}`).getByRole("link", { name: /Read and answer/ }).click();
      await expect(page).toHaveURL(`${server.url}/my-consents/${kind}`);
      await noSidewaysScroll(page, `the consent to ${kind} at ${width} px`);
      if (decision === "given") {
        await page.getByLabel("Your legal name, as your signature").fill(nameOf(round, k));
        await page.getByRole("button", { name: "I consent", exact: true }).click();
      } else {
        await page.getByRole("button", { name: "I do not consent", exact: true }).click();
      }
      await expect(page).toHaveURL(`${server.url}/my-consents?answered=${kind}-${decision}`);
      if (decision === "given") await expect(page.getByTestId(`consent-${kind}`)).toContainText("In force through");
      else await expect(page.getByTestId(`consent-${kind}`)).toContainText("Not in force. You chose not to consent on");
      await noSidewaysScroll(page, `My consents at ${width} px`);
    };

    const first = await openLetter(0);
    await keepScreenshot(first, `season-letter-${width}`);
    await accept(first, 0);
    await consent(first, "disclose", 0, "given");
    await consent(first, "use", 0, "given");
    await keepScreenshot(first, `season-consents-given-${width}`);

    const second = await openLetter(1);
    await second.getByLabel("Why do you decline it?").fill(DECLINE_REASON);
    await second.getByRole("button", { name: "Decline the letter" }).click();
    await expect(second.getByText("We have your answer: you declined the letter.")).toBeVisible();
    await expect(second.getByText(`Reason: ${DECLINE_REASON}`)).toBeVisible();
    await noSidewaysScroll(second, `the declined letter at ${width} px`);

    const third = await openLetter(2);
    await accept(third, 2);
    await consent(third, "disclose", 2, "refused");
    await consent(third, "use", 2, "refused");
    await keepScreenshot(third, `season-consents-refused-${width}`);

    // The admin reads where each letter stands: made by the season's start, the second declined.
    await admin.goto(caseUrl(round, 0, "/engagement"));
    await expect(admin.getByText("by the season's start", { exact: false })).toBeVisible();
    await expect(admin.getByText(`Accepted by ${letterNameOf(round, 0)} on`)).toBeVisible();
    await expect(admin.getByText("Engagement letter:", { exact: false })).toHaveCount(0);
    await admin.goto(caseUrl(round, 1, "/engagement"));
    await expect(admin.getByText("Engagement letter: declined by the client", { exact: true })).toBeVisible();
    await expect(admin.getByText(`Reason: ${DECLINE_REASON}`)).toBeVisible();
    await admin.goto(caseUrl(round, 2, "/engagement"));
    await expect(admin.getByText(`Accepted by ${letterNameOf(round, 2)} on`)).toBeVisible();
  });

  test(`at ${width} px: a preparer outside the US sees only the first client's case, never a full SSN, until the client withdraws`, async ({ browser }) => {
    test.setTimeout(120_000);
    const preparer = seeded.preparers[round.preparer]!;
    // The seed's name for it: "Preparer <tag>", the next ones "Preparer 2 <tag>" (scripts/lib/fixture-db.ts).
    const seedTag = /^preparer\d*\.([0-9a-f]+)@/.exec(preparer.email)![1]!;
    const preparerName = `Preparer${round.preparer > 0 ? ` ${round.preparer + 1}` : ""} ${seedTag}`;
    // The admin marks the preparer as working outside the United States on the Team page.
    await admin.goto(`${server.url}/admin/team`);
    const row = admin.locator(`[data-testid="team-member"][data-email="${preparer.email}"]`);
    await expect(row).toContainText("In the US");
    admin.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: /^Mark as outside the US/ }).click();
    await expect(admin.getByText(`${preparerName} is marked as working outside the United States.`, { exact: false })).toBeVisible();
    await expect(row).toContainText("Outside the US");

    const list = `${server.url}/admin/dashboard?year=${open}`;
    // The admin (in the US) lists all three cases of the year...
    await admin.goto(list);
    for (const k of [0, 1, 2] as const) await expect(admin.locator(`[title="${client(round, k).email}"]`).first()).toBeVisible();
    // ...the preparer only the first client's, the one who consented to disclose.
    const staff = await pageOf(browser, preparer.cookie, width);
    await staff.goto(list);
    await expect(staff.locator(`[title="${client(round, 0).email}"]`).first()).toBeVisible();
    // No other client of the seed: not this round's two others, nor an earlier round's (whose first client withdrew).
    for (const other of seeded.clients.filter((c) => c !== client(round, 0))) await expect(staff.locator(`[title="${other.email}"]`)).toHaveCount(0);
    await keepScreenshot(staff, `season-abroad-list-${width}`);
    for (const k of [1, 2] as const) {
      const refused = await staff.goto(caseUrl(round, k));
      expect(refused?.status(), `the preparer opens ${nameOf(round, k)}'s case`).toBe(403);
      expect((await staff.request.get(caseUrl(round, k, "/taxpayer"))).status()).toBe(403);
    }
    // The first client's case: no Reveal and no full SSN, in the new year or in the year of their record.
    const record = client(round, 0).record!;
    const digits = record.ssn_tin.replace(/\D/g, "");
    await staff.goto(caseUrl(round, 0, "/taxpayer"));
    await expect(staff.getByRole("heading", { name: "Taxpayer information" })).toBeVisible();
    await expect(staff.getByText("Not submitted yet.")).toBeVisible();
    await expect(staff.getByRole("button", { name: /Reveal/ })).toHaveCount(0);
    expect(await staff.content()).not.toContain(digits.slice(0, 5));
    const recordPage = `${server.url}/admin/clients/${client(round, 0).id}/${open - 1}/taxpayer`;
    await staff.goto(recordPage);
    await expect(staff.getByText(`ending in ${digits.slice(-4)}`)).toBeAttached();
    await expect(staff.getByText("Staff who work outside the United States never see a full SSN or ITIN.")).toBeVisible();
    await expect(staff.getByRole("button", { name: /Reveal/ })).toHaveCount(0);
    const html = await staff.content();
    expect(html).not.toContain(record.ssn_tin);
    expect(html).not.toContain(digits);
    const revealed = await staff.request.post(recordPage, { form: { intent: "reveal-ssn" } });
    expect(revealed.status()).toBe(403);
    expect(await revealed.text()).not.toContain(record.ssn_tin);
    await noSidewaysScroll(staff, `the taxpayer section without Reveal at ${width} px`);
    await keepScreenshot(staff, `season-abroad-taxpayer-${width}`);
    // The admin, in the US, has Reveal on the same page.
    await admin.goto(recordPage);
    await expect(admin.getByRole("button", { name: /Reveal/ })).toHaveCount(1);

    // The first client withdraws the consent to disclose: the case leaves the list at the preparer's next request.
    const first = await pageOf(browser, client(round, 0).cookie, width);
    await first.goto(`${server.url}/my-consents`);
    await first.getByTestId("consent-disclose").getByRole("button", { name: /^Withdraw/ }).click();
    await expect(first.getByText("You withdrew your consent to disclose your tax return information. It ended now.")).toBeVisible();
    await expect(first.getByTestId("consent-disclose")).toContainText("Not in force.");
    await expect(first.getByTestId("consent-use")).toContainText("In force through");
    await noSidewaysScroll(first, `My consents after withdrawing at ${width} px`);
    await staff.goto(list);
    await expect(staff.locator(`[title="${client(round, 0).email}"]`)).toHaveCount(0);
    expect((await staff.request.get(caseUrl(round, 0))).status()).toBe(403);
    expect((await staff.request.get(recordPage)).status()).toBe(403);
    // The admin still lists it.
    await admin.goto(list);
    await expect(admin.locator(`[title="${client(round, 0).email}"]`).first()).toBeVisible();
  });
}
