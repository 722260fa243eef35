import { describe, it, expect } from "vitest";
import { addOns, planButtonHref, planButtonLabel, plans, pricingFaq } from "~/content/plans";

describe("pricing plans", () => {
  it("has the four section-9 plans with exact names, prices and periods", () => {
    expect(plans.map((p) => [p.name, p.price, p.period])).toEqual([
      ["Basic Consultation", "Free", "one-time, 30 minutes"],
      ["Standard Filing", "$299", "per tax year"],
      ["Premium Service", "$599", "per tax year"],
      ["Enterprise", "Custom", "annual contract"],
    ]);
  });

  it("marks exactly one plan popular: Standard Filing", () => {
    const popular = plans.filter((p) => p.popular);
    expect(popular.map((p) => p.name)).toEqual(["Standard Filing"]);
  });

  it("gives every plan a description, features, a notIncluded list and a colour", () => {
    for (const plan of plans) {
      expect(plan.description.trim(), plan.name).not.toBe("");
      expect(plan.features.length, plan.name).toBeGreaterThanOrEqual(3);
      expect(Array.isArray(plan.notIncluded), plan.name).toBe(true);
      expect(plan.colour, plan.name).toMatch(/^(ink|ink-muted|primary-\d{3})$/);
    }
  });

  it("links every plan to /contact", () => {
    expect(planButtonHref).toBe("/contact");
  });
});

describe("planButtonLabel", () => {
  it("reads Book Consultation for Free for the free plan", () => {
    expect(planButtonLabel({ price: "Free" })).toBe("Book Consultation for Free");
  });

  it("reads Contact Us for Custom for the enterprise plan", () => {
    expect(planButtonLabel({ price: "Custom" })).toBe("Contact Us for Custom");
  });

  it("reads Get Started otherwise", () => {
    expect(planButtonLabel({ price: "$299" })).toBe("Get Started");
    expect(planButtonLabel({ price: "$599" })).toBe("Get Started");
  });

  it("gives the four plans their labels", () => {
    expect(plans.map((p) => planButtonLabel(p))).toEqual([
      "Book Consultation for Free",
      "Get Started",
      "Get Started",
      "Contact Us for Custom",
    ]);
  });
});

describe("add-ons", () => {
  it("has the three section-9 add-ons with exact prices", () => {
    expect(addOns.map((a) => [a.name, a.price])).toEqual([
      ["Rush Processing", "+$100"],
      ["Audit Protection", "+$150"],
      ["Prior Year Returns", "+$200"],
    ]);
  });

  it("keeps the add-ons' qualifiers: 48-hour turnaround and per additional year", () => {
    expect(addOns.find((a) => a.name === "Rush Processing")).toMatchObject({ detail: "48-hour turnaround" });
    expect(addOns.find((a) => a.name === "Prior Year Returns")).toMatchObject({ unit: "per additional year" });
  });
});

describe("fees FAQ", () => {
  it("states that the 100% satisfaction guarantee applies to fees", () => {
    const answers = pricingFaq.map((f) => f.answer).join(" ");
    expect(answers).toContain("100% satisfaction guarantee applies to our fees");
  });
});
