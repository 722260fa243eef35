import { describe, expect, it } from "vitest";
import { ADMIN_FEE_INTENTS, feeDoneMessage, FEE_DONE, invoiceInputFromFields, isFeeIntent } from "~/domain/fee-section";
import { MAX_INVOICE_LINES } from "~/domain/fees";

// The Fee section's pure rules (docs/product/fees.md): reading the invoice form's repeated
// fields, its intents and what it says after a change.

const fieldsOf = (pairs: Array<[string, string]>) => (name: string) => pairs.filter(([k]) => k === name).map(([, v]) => v);

describe("the invoice form's fields", () => {
  it("reads the lines in order, drops blank lines, and keeps the single fields", () => {
    const input = invoiceInputFromFields(
      fieldsOf([
        ["line-item", "standard-filing"],
        ["line-description", "Standard Filing"],
        ["line-quantity", "1"],
        ["line-unit", "299.00"],
        ["line-item", ""],
        ["line-description", ""],
        ["line-quantity", "1"],
        ["line-unit", ""],
        ["line-item", ""],
        ["line-description", "Free line"],
        ["line-quantity", "3"],
        ["line-unit", "10"],
        ["discount", "5"],
        ["notes", "Hi"],
        ["dueOn", "2030-01-31"],
      ]),
    );
    expect(input).toEqual({
      lines: [
        { description: "Standard Filing", quantity: "1", unitCents: "299.00", priceListId: "standard-filing" },
        { description: "Free line", quantity: "3", unitCents: "10", priceListId: null },
      ],
      discountCents: "5",
      notes: "Hi",
      dueOn: "2030-01-31",
    });
  });

  it("keeps a line with only a price or a quantity (the rules then refuse it), and reads at most one line too many", () => {
    expect(invoiceInputFromFields(fieldsOf([["line-description", ""], ["line-quantity", "2"], ["line-unit", ""]])).lines).toHaveLength(1);
    const many = Array.from({ length: 50 }, (_, i): [string, string] => ["line-description", `Line ${i}`]);
    expect(invoiceInputFromFields(fieldsOf(many)).lines).toHaveLength(MAX_INVOICE_LINES + 1);
    expect(invoiceInputFromFields(fieldsOf([]))).toEqual({ lines: [], discountCents: "", notes: "", dueOn: "" });
  });
});

describe("the section's intents and messages", () => {
  it("keeps voiding and refunding for admins, and says only its own done messages", () => {
    expect([...ADMIN_FEE_INTENTS].sort()).toEqual(["refund-payment", "void-invoice"]);
    expect(isFeeIntent("record-payment")).toBe(true);
    expect(isFeeIntent("toString")).toBe(false);
    expect(feeDoneMessage("invoice-sent")).toBe(FEE_DONE["invoice-sent"]);
    expect(feeDoneMessage("__proto__")).toBeNull();
    expect(feeDoneMessage(null)).toBeNull();
  });
});
