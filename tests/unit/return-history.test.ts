import { describe, expect, it } from "vitest";
import { FEE_TEXTS } from "~/domain/fees";
import { clientReturnHistory } from "~/domain/return-client";

// The client's history line of the released final copies (docs/product/fees.md): it offers the
// download only once the fee no longer holds the copies back.
describe("the client's history of released final copies", () => {
  const events = [{ kind: "final-copies-released", at: "2026-03-02T15:00:00.000Z" }];
  const documents = "/my-tax-filing/2025#documents";

  it("leads to the documents once the fee is paid (or never held them)", () => {
    expect(clientReturnHistory(events, "2026-03-02", documents)).toEqual([
      { at: events[0]!.at, text: "Your final copies are ready", link: { label: "Download them from your documents", to: documents } },
    ]);
  });

  it("says they wait for the fee, and leads to it, while the fee locks them", () => {
    expect(clientReturnHistory(events, "2026-03-02", documents, true)).toEqual([
      { at: events[0]!.at, text: FEE_TEXTS.finalCopiesLocked, link: { label: "Pay the fee", to: "#fee" } },
    ]);
  });
});
