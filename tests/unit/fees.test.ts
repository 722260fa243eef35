import { describe, expect, it } from "vitest";
import { priceList, priceOf } from "~/content/price-list";
import { addOns, plans } from "~/content/plans";
import { services } from "~/content/services";
import { totalDue } from "~/domain/fee-client";
import {
  agingBucketOf,
  amountDue,
  centsToInput,
  feeAddress,
  formatUsd,
  FEE_MESSAGES,
  FEE_TEXTS,
  invoiceFormSchema,
  invoiceNumber,
  invoiceTotals,
  offlinePaymentSchema,
  parseUsd,
  statusFromPayments,
} from "~/domain/fees";

// Money as integer cents (docs/product/fees.md): reading what people type, printing it, the
// invoice's numbers, totals and states, and the one price list the public pages print.

describe("money", () => {
  it("reads dollars as typed into whole cents, never through a float", () => {
    expect(parseUsd("299")).toBe(29_900);
    expect(parseUsd("299.5")).toBe(29_950);
    expect(parseUsd(" $1,299.00 ")).toBe(129_900);
    expect(parseUsd("0.07")).toBe(7);
    // 0.1 + 0.2 is not 0.3 in floating point; in cents it is.
    expect((parseUsd("0.1") ?? 0) + (parseUsd("0.2") ?? 0)).toBe(parseUsd("0.3"));
    for (const bad of ["", "abc", "1.234", "-5", "1e3", "12.", ".5", "1 000"]) expect([bad, parseUsd(bad)]).toEqual([bad, null]);
  });

  it("prints cents as US dollars", () => {
    expect(formatUsd(29_900)).toBe("$299.00");
    expect(formatUsd(123_456_789)).toBe("$1,234,567.89");
    expect(formatUsd(5)).toBe("$0.05");
    expect(formatUsd(-10_000)).toBe("-$100.00");
    expect(centsToInput(29_950)).toBe("299.50");
    expect(FEE_TEXTS.feeDue(29_900)).toBe("Fee due: $299.00");
  });
});

describe("invoices", () => {
  it("are numbered INV-<year>-<five digits>", () => {
    expect(invoiceNumber(2026, 42)).toBe("INV-2026-00042");
    expect(invoiceNumber(2027, 1)).toBe("INV-2027-00001");
  });

  it("add up their lines less the discount", () => {
    const lines = [
      { description: "Standard Filing", quantity: 1, unitCents: 29_900 },
      { description: "Prior Year Returns", quantity: 2, unitCents: 20_000 },
    ];
    expect(invoiceTotals(lines, 5_000)).toEqual({ subtotalCents: 69_900, discountCents: 5_000, totalCents: 64_900 });
  });

  it("follow what was received: sent, partly paid, paid; a draft and a void one keep their state", () => {
    expect(statusFromPayments("sent", 29_900, 0)).toBe("sent");
    expect(statusFromPayments("sent", 29_900, 10_000)).toBe("partly-paid");
    expect(statusFromPayments("partly-paid", 29_900, 29_900)).toBe("paid");
    expect(statusFromPayments("paid", 29_900, 19_900)).toBe("partly-paid");
    expect(statusFromPayments("draft", 29_900, 29_900)).toBe("draft");
    expect(statusFromPayments("void", 29_900, 0)).toBe("void");
    expect(amountDue(29_900, 10_000)).toBe(19_900);
    expect(amountDue(29_900, 40_000)).toBe(0);
    expect(totalDue([{ status: "sent", dueCents: 100 }, { status: "paid", dueCents: 0 }, { status: "partly-paid", dueCents: 50 }])).toBe(150);
  });

  it("refuse a form whose discount passes its lines, whose total is nothing, or whose line is not an amount", () => {
    const form = (over: object) => ({ lines: [{ description: "Standard Filing", quantity: "1", unitCents: "299.00" }], discountCents: "", notes: "", dueOn: "2030-01-01", ...over });
    const ok = invoiceFormSchema.safeParse(form({}));
    expect(ok.success && ok.data).toMatchObject({ lines: [{ quantity: 1, unitCents: 29_900 }], discountCents: 0 });
    const message = (over: object) => {
      const parsed = invoiceFormSchema.safeParse(form(over));
      return parsed.success ? null : parsed.error.issues[0]?.message;
    };
    expect(message({ discountCents: "300" })).toBe(FEE_MESSAGES.discountAmount);
    expect(message({ discountCents: "299" })).toBe(FEE_MESSAGES.totalZero);
    expect(message({ lines: [{ description: "x", quantity: "1", unitCents: "2.999" }] })).toBe(FEE_MESSAGES.lineAmount);
    expect(message({ lines: [{ description: "x", quantity: "0", unitCents: "1" }] })).toBe(FEE_MESSAGES.lineQuantity);
    expect(message({ lines: [] })).toBe(FEE_MESSAGES.noLines);
    expect(offlinePaymentSchema.safeParse({ method: "bitcoin", amountCents: "10", receivedOn: "2026-01-01" }).success).toBe(false);
    expect(offlinePaymentSchema.safeParse({ method: "zelle", amountCents: "0", receivedOn: "2026-01-01" }).success).toBe(false);
  });

  it("are aged 0-30, 31-60 and over 60 days", () => {
    expect([0, 30, 31, 60, 61, 400].map(agingBucketOf)).toEqual(["0-30", "0-30", "31-60", "31-60", "over-60", "over-60"]);
  });

  it("are paid on the filing page's Fee panel", () => {
    expect(feeAddress(2025)).toBe("/my-tax-filing/2025#fee");
    expect(feeAddress(null)).toBe("/my-tax-filing");
  });
});

describe("the price list", () => {
  it("is what /pricing and /services print, in whole dollars", () => {
    expect(plans.map((p) => [p.name, p.price])).toEqual([
      ["Basic Consultation", "Free"],
      ["Standard Filing", "$299"],
      ["Premium Service", "$599"],
      ["Enterprise", "Custom"],
    ]);
    expect(addOns.map((a) => a.price)).toEqual(["+$100", "+$150", "+$200"]);
    expect(services.map((s) => s.price)).toEqual(["$150", "$200", "$250", "$75", "$50", "$500", "$300", "On quote"]);
    expect(priceOf("standard-filing")).toBe(29_900);
    expect(new Set(priceList.map((i) => i.id)).size).toBe(priceList.length);
    for (const item of priceList) expect(Number.isInteger(item.unitCents) && item.unitCents % 100 === 0).toBe(true);
  });
});
