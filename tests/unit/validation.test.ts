import { describe, expect, it } from "vitest";
import { isDocumentId } from "~/domain/documents";
import { HideMessageForm } from "~/domain/messages";
import { MarkHandledForm } from "~/domain/admin";
import { requestIdOf } from "~/domain/requests";
import { isUuid, refused, UUIDS_IN_TEXT } from "~/domain/validation";

// One check of the ids the database keeps (UUIDs), for every id a form or an address sends.

const ID = "3f2b8c4e-9a1d-4c6b-8e2f-0a1b2c3d4e5f";
const NOT_IDS = ["", "3f2b8c4e9a1d4c6b8e2f0a1b2c3d4e5f", `${ID}0`, ` ${ID}`, `${ID}\n`, "3f2b8c4e-9a1d-4c6b-8e2f-0a1b2c3d4e5g", "'; drop table invoices; --", "constructor"];

describe("ids as the database keeps them", () => {
  it("are UUIDs, in either case, and nothing else", () => {
    for (const id of [ID, ID.toUpperCase()]) {
      expect(isUuid(id), id).toBe(true);
      expect(isDocumentId(id), id).toBe(true);
    }
    expect(requestIdOf(ID.toUpperCase())).toBe(ID);
    for (const bad of [...NOT_IDS, 42, null, undefined, { id: ID }]) {
      expect(isUuid(bad), String(bad)).toBe(false);
      expect(isDocumentId(bad), String(bad)).toBe(false);
      expect(requestIdOf(bad), String(bad)).toBeNull();
    }
  });

  it("are checked the same way by the forms that name a message", () => {
    expect(HideMessageForm.safeParse({ intent: "hide", messageId: ID }).success).toBe(true);
    expect(MarkHandledForm.safeParse({ intent: "mark-handled", messageId: ID }).success).toBe(true);
    for (const bad of NOT_IDS) {
      expect(HideMessageForm.safeParse({ intent: "hide", messageId: bad }).success, bad).toBe(false);
      expect(MarkHandledForm.safeParse({ intent: "mark-handled", messageId: bad }).success, bad).toBe(false);
    }
  });

  it("are found within a text, every one of them", () => {
    expect(`request ${ID} and ${ID.toUpperCase()}.`.replace(UUIDS_IN_TEXT, "…")).toBe("request … and ….");
    expect(`twice: ${ID}`.replace(UUIDS_IN_TEXT, "…")).toBe("twice: …");
  });
});

describe("a refusal", () => {
  it("says what the person is told, with a status only when it is not the input's fault", () => {
    expect(refused("Enter a real date, not in the future.")).toEqual({ ok: false, error: "Enter a real date, not in the future." });
    expect(refused("Only administrators may do this.", 403)).toEqual({ ok: false, error: "Only administrators may do this.", status: 403 });
    expect(refused("There is no such invoice.", 404)).toEqual({ ok: false, error: "There is no such invoice.", status: 404 });
  });
});
