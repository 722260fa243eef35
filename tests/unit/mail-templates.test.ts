import { readFileSync } from "node:fs";
import { createElement } from "react";
import { toPlainText } from "@react-email/render";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { business } from "~/content/business";
import type { ContactInput } from "~/domain/contact";
import {
  clientMessageMail,
  contactMessageMail,
  documentsSharedMail,
  draftReadyMail,
  existingAccountMail,
  invitationMail,
  passwordResetMail,
  requestReturnedMail,
  requestsAddedMail,
  requestsReminderMail,
  returnStaffNoticeMail,
  staffCaseNoticeMail,
  staffInvitationMail,
  stageChangedMail,
  verificationMail,
} from "~/server/mail/mail-templates.server";
import type { Mail } from "~/server/mail/mail.server";
import { MAIL_DOCTYPE, renderMailHtml } from "~/server/mail/templates/render.server";
import { mailColors } from "~/server/mail/templates/theme.server";

const URL_ = "http://localhost:3000/my-tax-filing/2025?token=abc&next=%2Fx";
const HOSTILE = `<script>alert(1)</script> "&' Zoë`;
const FOOTER = [
  business.address.lines.join(", "),
  `${business.phone.display} · ${business.hoursLong} · ${business.email}`,
];

/** Every href in the HTML but the footer's mailto, decoded as a browser reads it. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)]
    .map((m) => m[1]!.replace(/&amp;/g, "&"))
    .filter((h) => !h.startsWith("mailto:"));
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** What a reader of the HTML part sees, line by line (the same conversion react-email uses). */
function htmlLines(html: string): string[] {
  return toPlainText(html).split("\n").map(squash).filter(Boolean);
}

type Case = {
  name: string;
  make: () => Mail;
  subject: string;
  link?: { line: string; url: string };
  lines: string[];
};

const contact: ContactInput = {
  name: HOSTILE,
  email: "visitor@example.com",
  phone: "+1 555 010 9999",
  subject: "ITIN for my spouse",
  description: `First line about <b>my</b> taxes.\nSecond line & more.`,
};

const cases: Case[] = [
  {
    name: "verification",
    make: () => verificationMail("lee@example.com", URL_, false),
    subject: "Verify your e-mail for TaxBridge",
    link: { line: "Verify my e-mail address", url: URL_ },
    lines: ["Welcome to TaxBridge. Please confirm that this is your e-mail address."],
  },
  {
    name: "verification of a contested sign-up",
    make: () => verificationMail("lee@example.com", URL_, true),
    subject: "Verify your e-mail for TaxBridge",
    link: { line: "Verify my e-mail address", url: URL_ },
    lines: ["you will then choose your password (for your safety, no password typed at sign-up is kept)."],
  },
  {
    name: "password reset",
    make: () => passwordResetMail("lee@example.com", URL_),
    subject: "Reset your TaxBridge password",
    link: { line: "Choose a new password", url: URL_ },
    lines: ["The link works once, for one hour."],
  },
  {
    name: "existing account",
    make: () => existingAccountMail("lee@example.com", URL_),
    subject: "Someone tried to create a TaxBridge account with your e-mail",
    link: { line: "Sign in", url: URL_ },
    lines: ["which already has an account."],
  },
  {
    name: "client invitation",
    make: () => invitationMail("lee@example.com", HOSTILE, URL_, 72),
    subject: "Your TaxBridge client account",
    link: { line: "Choose your password here (the link works once, for 72 hours)", url: URL_ },
    lines: [
      `Hello ${HOSTILE},`,
      "Questions? Reply to this e-mail or call +1 (555) 010-2030, Monday to Friday, 9 AM to 6 PM EST.",
    ],
  },
  {
    name: "staff invitation",
    make: () => staffInvitationMail("nina@example.com", HOSTILE, "preparer", URL_, 48),
    subject: "Your TaxBridge staff account",
    link: { line: "Choose your password here (the link works once, for 48 hours)", url: URL_ },
    lines: [`Hello ${HOSTILE},`, "You have been invited to the TaxBridge staff panel as preparer."],
  },
  {
    name: "contact message",
    make: () => contactMessageMail("staff@example.com", contact, new Date("2026-03-01T10:00:00.000Z")),
    subject: "[TaxBridge contact] ITIN for my spouse",
    lines: [
      `Name: ${HOSTILE}`,
      "Email: visitor@example.com",
      "Phone: +1 555 010 9999",
      "Received: 2026-03-01T10:00:00.000Z",
      "First line about <b>my</b> taxes.\nSecond line & more.",
      `Reply to this e-mail to answer ${HOSTILE} directly.`,
    ],
  },
  {
    name: "stage changed",
    make: () => stageChangedMail("lee@example.com", HOSTILE, 2025, URL_),
    subject: "An update on your 2025 tax filing",
    link: { line: "See where your filing stands", url: URL_ },
    lines: [`Hello ${HOSTILE}, your 2025 tax filing with TaxBridge has moved to its next stage.`],
  },
  {
    name: "documents shared",
    make: () => documentsSharedMail("lee@example.com", HOSTILE, 2025, 3, URL_),
    subject: "New documents for your 2025 tax filing",
    link: { line: "See your documents", url: URL_ },
    lines: [`Hello ${HOSTILE}, TaxBridge has shared 3 documents of your 2025 tax filing with you.`],
  },
  {
    name: "staff case notice",
    make: () =>
      staffCaseNoticeMail(
        "nina@example.com",
        HOSTILE,
        2025,
        { "documents-uploaded": 3, "message-received": 2 },
        URL_,
      ),
    subject: `${HOSTILE} uploaded 3 documents and sent 2 messages (2025)`,
    link: { line: "Open the case", url: URL_ },
    lines: [
      `${HOSTILE} uploaded 3 documents and sent 2 messages for tax year 2025.`,
      "This notice holds no tax details; they are in the panel.",
    ],
  },
  {
    name: "requests reminder",
    make: () => requestsReminderMail("lee@example.com", HOSTILE, 2025, 2, URL_),
    subject: "Reminder: we still need 2 items for your 2025 tax filing",
    link: { line: "See what we still need", url: URL_ },
    lines: [
      `Hello ${HOSTILE}, TaxBridge is still waiting for 2 items we asked you for, for your 2025 tax filing.`,
    ],
  },
  {
    name: "client message",
    make: () => clientMessageMail("lee@example.com", HOSTILE, 2025, URL_),
    subject: "You have a new message about your 2025 tax filing",
    link: { line: "Read the message", url: URL_ },
    lines: ["For your security the message is not in this e-mail: sign in to read it and reply."],
  },
  {
    name: "requests added",
    make: () => requestsAddedMail("lee@example.com", HOSTILE, 2025, 1, URL_),
    subject: "We need something from you for your 2025 tax filing",
    link: { line: "See what we need", url: URL_ },
    lines: [`Hello ${HOSTILE}, TaxBridge has asked you for an item for your 2025 tax filing.`],
  },
  {
    name: "request returned",
    make: () => requestReturnedMail("lee@example.com", HOSTILE, 2025, URL_),
    subject: "Please look again at an item for your 2025 tax filing",
    link: { line: "See what we need", url: URL_ },
    lines: [`Hello ${HOSTILE}, TaxBridge has sent back an item of your 2025 tax filing and said why.`],
  },
  {
    name: "draft ready",
    make: () => draftReadyMail("lee@example.com", HOSTILE, 2025, URL_),
    subject: "Your 2025 tax return is ready for your review",
    link: { line: "Review your draft return", url: URL_ },
    lines: [
      `Hello ${HOSTILE}, TaxBridge has prepared a draft of your 2025 tax return for you to review.`,
      "Sign in to read it, then approve it or tell us what to change. For your security the return is not in this e-mail.",
    ],
  },
  {
    name: "draft approved, to staff",
    make: () => returnStaffNoticeMail("nina@example.com", HOSTILE, 2025, "approved", URL_),
    subject: `${HOSTILE} approved the draft return (2025)`,
    link: { line: "Open the return", url: URL_ },
    lines: [
      `${HOSTILE} approved the draft return for tax year 2025.`,
      "You can now request the signatures of the e-file authorisation. This notice holds no tax details; they are in the panel.",
    ],
  },
  {
    name: "changes asked, to staff",
    make: () => returnStaffNoticeMail("nina@example.com", HOSTILE, 2025, "changes-requested", URL_),
    subject: `${HOSTILE} asked for changes to the draft return (2025)`,
    link: { line: "Open the return", url: URL_ },
    lines: [`${HOSTILE} asked for changes to the draft return for tax year 2025.`, "Their comments are in the case's conversation."],
  },
  {
    name: "hand-signed form, to staff",
    make: () => returnStaffNoticeMail("nina@example.com", HOSTILE, 2025, "signed-form-uploaded", URL_),
    subject: `${HOSTILE} uploaded a hand-signed e-file authorisation (2025)`,
    link: { line: "Open the return", url: URL_ },
    lines: [`${HOSTILE} uploaded a hand-signed e-file authorisation for tax year 2025.`, "Check it, then accept it or send it back with a reason."],
  },
  {
    name: "the spouse's hand-signed form, to staff",
    make: () => returnStaffNoticeMail("nina@example.com", HOSTILE, 2025, "spouse-signed-form-uploaded", URL_),
    subject: `The spouse of ${HOSTILE} uploaded a hand-signed e-file authorisation (2025)`,
    link: { line: "Open the return", url: URL_ },
    lines: [`The spouse of ${HOSTILE} uploaded a hand-signed e-file authorisation for tax year 2025.`],
  },
];

describe("rendering", () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
  afterEach(() => {
    errors.mockClear();
    warnings.mockClear();
  });
  afterAll(() => {
    errors.mockRestore();
    warnings.mockRestore();
  });

  it("would catch a React warning (a list without keys)", () => {
    renderMailHtml(
      createElement("ul", null, [createElement("li", null, "a"), createElement("li", null, "b")]),
    );
    expect(errors).toHaveBeenCalled();
  });

  it("renders every e-mail without a React warning", () => {
    const rendered = [
      ...cases.map((c) => c.make().html),
      contactMessageMail(
        "staff@example.com",
        { ...contact, description: "one\ntwo\nthree\nfour" },
        new Date(0),
      ).html,
      invitationMail("lee@example.com", "Lee", URL_, 72).html,
      staffCaseNoticeMail("nina@example.com", "Lee", 2025, { "tax-info-submitted": 1 }, URL_).html,
    ];
    expect(rendered.every((html) => html.length > 0)).toBe(true);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it("the e-mails' colours are the site's theme tokens", () => {
    const css = readFileSync("app/app.css", "utf8");
    const token = (name: string) => new RegExp(`--color-${name}:\\s*([^;]+);`).exec(css)?.[1]?.trim();
    expect({
      ink: token("ink"),
      inkSoft: token("ink-soft"),
      inkMuted: token("ink-muted"),
      primary: token("primary-600"),
      primaryDark: token("primary-700"),
      surface: token("surface"),
      line: token("line"),
    }).toEqual({
      ink: mailColors.ink,
      inkSoft: mailColors.inkSoft,
      inkMuted: mailColors.inkMuted,
      primary: mailColors.primary,
      primaryDark: mailColors.primaryDark,
      surface: mailColors.surface,
      line: mailColors.line,
    });
  });
});

describe.each(cases)("the $name e-mail", ({ make, subject, link, lines }) => {
  it("has its subject and a plain-text part with its words", () => {
    const mail = make();
    expect(mail.subject).toBe(subject);
    for (const line of lines) expect(mail.text).toContain(line);
  });

  it("has an HTML part: one XHTML document in the firm's frame", () => {
    const mail = make();
    expect(mail.html.startsWith(MAIL_DOCTYPE)).toBe(true);
    expect(mail.html.match(/<html/g)).toHaveLength(1);
    expect(mail.html.endsWith("</html>")).toBe(true);
    const seen = htmlLines(mail.html);
    expect(seen[0]).toBe(business.name);
    expect(seen.slice(-4)).toEqual(["-".repeat(40), business.name, ...FOOTER]);
  });

  it("carries its one link in both parts, and no other", () => {
    const mail = make();
    if (!link) {
      expect(mail.text).not.toMatch(/https?:\/\//);
      expect(hrefs(mail.html)).toEqual([]);
      return;
    }
    expect(mail.text).toContain(`${link.line}: ${link.url}`);
    // The button and the address written out under it.
    expect(hrefs(mail.html)).toEqual([link.url, link.url]);
    expect(mail.text.match(/https?:\/\/\S+/g)).toEqual([link.url]);
  });

  it("says in HTML what the text says, and nothing more than the frame and the link", () => {
    const mail = make();
    const seen = htmlLines(mail.html);
    const visible = squash(seen.join(" "));
    for (const paragraph of mail.text.split("\n\n")) {
      const linkLine = /^(.*): (https?:\/\/\S+)$/s.exec(paragraph);
      expect(visible).toContain(squash(linkLine ? linkLine[1]! : paragraph));
    }
    const frame = new Set([business.name, "-".repeat(40), ...FOOTER]); // the header, the footer's rule and lines
    const extra = seen.filter(
      (line) => !frame.has(line) && !(link && line.includes(link.url)) && !mail.text.includes(line),
    );
    expect(extra).toEqual([]);
  });

  it("stays small", () => {
    const mail = make();
    expect(Buffer.byteLength(mail.html)).toBeLessThan(8_000);
  });
});

describe("escaping", () => {
  it("a client's name with markup is escaped in the HTML and kept as typed in the text", () => {
    const mail = invitationMail("lee@example.com", HOSTILE, URL_, 72);
    expect(mail.text).toContain(`Hello ${HOSTILE},`);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("Hello &lt;script&gt;alert(1)&lt;/script&gt; &quot;&amp;&#x27; Zoë,");
  });

  it("a contact message's name, subject and text are escaped in the HTML and kept in the text", () => {
    const mail = contactMessageMail(
      "staff@example.com",
      { ...contact, subject: `Tax "<img src=x onerror=alert(1)>"` },
      new Date(0),
    );
    expect(mail.text).toContain(`Name: ${HOSTILE}\n`);
    expect(mail.text).toContain(`Subject: Tax "<img src=x onerror=alert(1)>"\n`);
    expect(mail.text).toContain("First line about <b>my</b> taxes.\nSecond line & more.");
    expect(mail.html).not.toMatch(/<script|<img|<b>/);
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &quot;&amp;&#x27; Zoë");
    expect(mail.html).toContain("Tax &quot;&lt;img src=x onerror=alert(1)&gt;&quot;");
    expect(mail.html).toContain("First line about &lt;b&gt;my&lt;/b&gt; taxes.<br/>Second line &amp; more.");
  });

  it("a link with quotes or markup cannot leave its attribute", () => {
    const mail = stageChangedMail("lee@example.com", "Lee", 2025, `http://localhost:3000/x?a="><script>`);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain('href="http://localhost:3000/x?a=&quot;&gt;&lt;script&gt;"');
  });
});

describe("the plain-text part keeps its wording", () => {
  it("a link notice: introduction, link line, closing line, the firm's name", () => {
    expect(verificationMail("lee@example.com", URL_, false).text).toBe(
      [
        "Welcome to TaxBridge. Please confirm that this is your e-mail address.",
        "",
        `Verify my e-mail address: ${URL_}`,
        "",
        "The link works for 24 hours. If you did not create an account, ignore this e-mail.",
        "",
        "TaxBridge",
      ].join("\n"),
    );
  });

  it("an invitation: greeting, what the account is, the link and how long it works", () => {
    expect(invitationMail("lee@example.com", "Lee Invitee", URL_, 72).text).toBe(
      [
        "Hello Lee Invitee,",
        "",
        "TaxBridge has opened a client account for you, so you can send us your tax details securely and follow your filing.",
        "",
        `Choose your password here (the link works once, for 72 hours): ${URL_}`,
        "",
        "Questions? Reply to this e-mail or call +1 (555) 010-2030, Monday to Friday, 9 AM to 6 PM EST.",
        "",
        "TaxBridge",
      ].join("\n"),
    );
  });

  it("a contact message: who, how to reach them, when, what they wrote", () => {
    const mail = contactMessageMail(
      "staff@example.com",
      { ...contact, name: "Vi", phone: null },
      new Date("2026-03-01T10:00:00.000Z"),
    );
    expect(mail.replyTo).toBe("visitor@example.com");
    expect(mail.text).toBe(
      [
        "A visitor sent a message through the contact form.",
        "",
        "Name: Vi",
        "Email: visitor@example.com",
        "Phone: not given",
        "Subject: ITIN for my spouse",
        "Received: 2026-03-01T10:00:00.000Z",
        "",
        "First line about <b>my</b> taxes.\nSecond line & more.",
        "",
        "Reply to this e-mail to answer Vi directly.",
      ].join("\n"),
    );
  });
});

describe("the return's notices keep their wording", () => {
  it("the draft's e-mail to the client: greeting and what to do, the link, the firm's name", () => {
    expect(draftReadyMail("lee@example.com", "Lee Client", 2025, URL_).text).toBe(
      [
        "Hello Lee Client, TaxBridge has prepared a draft of your 2025 tax return for you to review.",
        "",
        `Review your draft return: ${URL_}`,
        "",
        "Sign in to read it, then approve it or tell us what to change. For your security the return is not in this e-mail.",
        "",
        "TaxBridge",
      ].join("\n"),
    );
  });

  it("staff's notice: who did what, the link to the case's return, what to do next", () => {
    expect(returnStaffNoticeMail("nina@example.com", "TB-00042 Lee Client", 2025, "approved", URL_).text).toBe(
      [
        "TB-00042 Lee Client approved the draft return for tax year 2025.",
        "",
        `Open the return: ${URL_}`,
        "",
        "You can now request the signatures of the e-file authorisation. This notice holds no tax details; they are in the panel.",
        "",
        "TaxBridge",
      ].join("\n"),
    );
  });
});
