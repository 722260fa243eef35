import { describe, expect, it } from "vitest";
import {
  asksToEdit,
  ClientMessagesForm,
  inboxHref,
  inboxShowingText,
  MAX_MESSAGE_LENGTH,
  MESSAGE_TEXTS,
  messageMoment,
  parseInboxQuery,
  StaffMessagesForm,
  waitedText,
} from "~/domain/messages";
import { CONTROL_CHARACTERS_MESSAGE } from "~/domain/validation";

// The pure rules of secure messages: the forms' checks, the inbox's URL state and the words.

const nov2026 = new Date("2026-11-23T12:00:00Z");

describe("the send form", () => {
  it("keeps line breaks as \\n, trims, and refuses empty, too long and control characters", () => {
    const ok = ClientMessagesForm.safeParse({ intent: "send", body: "  Line one\r\nLine two\rLine three  " });
    expect(ok.success && ok.data).toEqual({ intent: "send", body: "Line one\nLine two\nLine three", category: "other-documents" });
    const firstMessage = (raw: Record<string, string>) => {
      const parsed = ClientMessagesForm.safeParse(raw);
      return parsed.success ? null : parsed.error.issues[0]?.message;
    };
    expect(firstMessage({ intent: "send", body: " \n\t " })).toBe(MESSAGE_TEXTS.empty);
    expect(firstMessage({ intent: "send", body: "x".repeat(MAX_MESSAGE_LENGTH + 1) })).toBe(MESSAGE_TEXTS.tooLong);
    expect(firstMessage({ intent: "send", body: "escape \u001b[31m" })).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(firstMessage({ intent: "send" })).toBe(MESSAGE_TEXTS.empty);
    // Tabs stay (pasted from a spreadsheet); a category that is not one reads as null.
    const tab = ClientMessagesForm.safeParse({ intent: "send", body: "a\tb", category: "nope" });
    expect(tab.success && tab.data).toEqual({ intent: "send", body: "a\tb", category: null });
    const w2 = ClientMessagesForm.safeParse({ intent: "send", body: "x", category: "w-2" });
    expect(w2.success && w2.data.category).toBe("w-2");
  });

  it("offers the client Send only, and staff Send and Hide (of a message id's shape)", () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    expect(ClientMessagesForm.safeParse({ intent: "hide", messageId: id }).success).toBe(false);
    expect(StaffMessagesForm.safeParse({ intent: "hide", messageId: id }).success).toBe(true);
    expect(StaffMessagesForm.safeParse({ intent: "hide", messageId: "1; drop table" }).success).toBe(false);
    expect(StaffMessagesForm.safeParse({ intent: ["hide", "send"], messageId: id }).success).toBe(true);
  });

  it("tells a request to change a message from any other unknown one", () => {
    for (const intent of ["edit", "delete", "update-body", "Remove", "unhide"]) expect(asksToEdit(intent), intent).toBe(true);
    for (const intent of ["send", "hide", "", undefined, 3]) expect(asksToEdit(intent)).toBe(false);
  });
});

describe("the inbox's address", () => {
  it("reads the year, the filter and the page, falling back to defaults", () => {
    expect(parseInboxQuery(new URLSearchParams(""), nov2026)).toEqual({ year: 2025, filter: "all", page: 1 });
    expect(parseInboxQuery(new URLSearchParams("year=2023&filter=waiting&page=3"), nov2026)).toEqual({
      year: 2023,
      filter: "waiting",
      page: 3,
    });
    expect(parseInboxQuery(new URLSearchParams("year=1999&filter=spam&page=-1"), nov2026)).toEqual({
      year: 2025,
      filter: "all",
      page: 1,
    });
  });

  it("writes only what differs from the defaults", () => {
    const q = { year: 2025, filter: "all" as const, page: 1 };
    expect(inboxHref(q, {}, nov2026)).toBe("/admin/inbox");
    expect(inboxHref(q, { filter: "waiting" }, nov2026)).toBe("/admin/inbox?filter=waiting");
    expect(inboxHref(q, { year: 2024, filter: "unread", page: 2 }, nov2026)).toBe("/admin/inbox?year=2024&filter=unread&page=2");
  });
});

describe("the words", () => {
  it("count conversations and business days", () => {
    expect(inboxShowingText(1, 0)).toBe("Showing 0 of 0 conversations");
    expect(inboxShowingText(1, 1)).toBe("Showing 1-1 of 1 conversation");
    expect(inboxShowingText(2, 17)).toBe("Showing 11-17 of 17 conversations");
    expect(waitedText(0)).toBe("Under 1 business day");
    expect(waitedText(1)).toBe("1 business day");
    expect(waitedText(4)).toBe("4 business days");
  });

  it("name a message's moment in UTC for the audit trail", () => {
    expect(messageMoment(new Date("2026-03-03T14:05:00Z"))).toBe("Mar 3, 2026, 2:05 PM UTC");
    expect(messageMoment(new Date("2026-12-31T00:09:00Z"))).toBe("Dec 31, 2026, 12:09 AM UTC");
  });

  it("say whether the client was e-mailed", () => {
    expect(MESSAGE_TEXTS.sentByStaff(0, true)).toBe(
      "Message sent. The client will be e-mailed a link to it in a few minutes, unless they read it or it is hidden first.",
    );
    expect(MESSAGE_TEXTS.sentByStaff(2, false)).toBe(
      "Message and 2 files sent; the files are shared with the client. The client already has an e-mail about an unread message from us, so no new one will be sent.",
    );
  });
});
