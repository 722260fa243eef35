import { describe, expect, it } from "vitest";
import {
  POLICIES_LAST_UPDATED,
  policies,
  policyText,
  privacyPolicy,
  termsOfService,
} from "~/content/policies";
import {
  itinDetail,
  serviceDetails,
  serviceDetailText,
  serviceQuestions,
  type StandardServiceDetail,
} from "~/content/service-details";
import { servicePages } from "~/content/service-pages";
import { fatcaFacts, fbarFacts, returnDates, TAX_YEAR } from "~/content/tax-facts";

const standardDetails = Object.values(serviceDetails).filter(
  (d): d is StandardServiceDetail => d.kind === "standard",
);

describe("service page content", () => {
  it("has details for each of the six service pages, named and addressed as in service-pages.ts", () => {
    expect(servicePages).toHaveLength(6);
    for (const page of servicePages) {
      const detail = serviceDetails[page.slug];
      expect(detail, page.slug).toBeDefined();
      expect(detail.name).toBe(page.name);
      expect(detail.path).toBe(page.path);
      expect(detail.seo.title.length).toBeGreaterThan(5);
      expect(detail.seo.description.length).toBeGreaterThan(50);
    }
    expect(Object.keys(serviceDetails).sort()).toEqual(servicePages.map((p) => p.slug).sort());
  });

  it("ITIN pricing: Standard $199 in 6-10 weeks, Expedited $299 in 2-4 weeks and Most Popular, per application", () => {
    expect(itinDetail.plans.map((p) => [p.name, p.price, p.time, p.unit, p.popular])).toEqual([
      ["Standard Processing", 199, "6-10 weeks", "per application", false],
      ["Expedited Processing", 299, "2-4 weeks", "per application", true],
    ]);
  });

  it("ITIN process has the four steps in order", () => {
    expect(itinDetail.steps.map((s) => s.title)).toEqual([
      "Document Review",
      "Application Preparation",
      "IRS Submission",
      "Status Tracking",
    ]);
  });

  it("ITIN explains the number in one line and is accurate about documents", () => {
    expect(itinDetail.oneLine).toBe("ITIN: the tax number for people who cannot get an SSN.");
    const text = serviceDetailText(itinDetail);
    expect(text).toContain("Form W-7");
    expect(text).toMatch(/passport/i);
    expect(text).toMatch(/certified by the agency that issued them/);
    expect(text).toMatch(/Notarized copies .* not accepted/);
  });

  it("every other page answers the six questions and offers a prefilled chat naming the service", () => {
    expect(standardDetails).toHaveLength(5);
    for (const d of standardDetails) {
      expect(d.who.title).toBe(serviceQuestions.who);
      expect(d.whatWeDo.title).toBe(serviceQuestions.whatWeDo);
      expect(d.provide.title).toBe(serviceQuestions.provide);
      expect(d.timing.title).toBe(serviceQuestions.timing);
      expect(d.cost.from).toBeGreaterThan(0);
      expect(d.next.length).toBeGreaterThanOrEqual(3);
      expect(d.whatsappText.length).toBeGreaterThan(10);
      expect(d.keyFacts.appliesTo).toMatch(/\d{4}/);
    }
  });

  it("uses the services page prices (docs/product/public-site.md#services-page) as starting prices", () => {
    expect(serviceDetails["fbar-filing"].cost.from).toBe(200);
    expect(serviceDetails["1040-returns"].cost.from).toBe(250);
    expect(serviceDetails["w4-assistance"].cost.from).toBe(75);
    expect(serviceDetails["form-4868-extension"].cost.from).toBe(50);
    expect(serviceDetails["professional-tax-planning"].cost.from).toBe(500);
  });

  it("FBAR states the $10,000 aggregate threshold and current penalties, never the outdated $12,921 per account", () => {
    const text = serviceDetailText(serviceDetails["fbar-filing"]);
    expect(text).not.toContain("12,921");
    expect(text).not.toMatch(/penalty of up to/i);
    expect(fbarFacts.threshold).toBe(10_000);
    expect(text).toContain("$10,000");
    expect(text).toContain("Bittner v. United States");
    expect(text).toContain("per report, not per account");
    expect(text).toContain("50% of the account balance");
    expect(text).toContain(fbarFacts.dueDate);
    expect(text).toContain(fbarFacts.extendedDueDate);
    expect(fbarFacts.dueDate).toMatch(/^April 15, /);
    expect(fbarFacts.extendedDueDate).toMatch(/^October 15, /);
  });

  it("FATCA thresholds are stated with their tax year", () => {
    const unmarriedUs = fatcaFacts.thresholds.find((t) => t.filer === "Unmarried, living in the US");
    expect(unmarriedUs).toEqual({ filer: "Unmarried, living in the US", lastDay: 50_000, anyTime: 75_000 });
    const text = serviceDetailText(serviceDetails["fbar-filing"]);
    expect(text).toContain(`tax year ${fatcaFacts.taxYear}`);
    expect(text).toContain("$50,000");
    expect(text).toContain("$75,000");
  });

  it("Form 4868 extends the time to file to October 15, while tax owed stays due April 15", () => {
    const text = serviceDetailText(serviceDetails["form-4868-extension"]);
    expect(text).toContain("October 15");
    expect(text).toContain("April 15");
    expect(text).toMatch(/not (give you )?more time to pay/);
    expect(returnDates.extendedDueDate).toMatch(/^October 15, \d{4}$/);
    expect(returnDates.dueDate).toMatch(/^April 15, \d{4}$/);
  });

  it("tax planning says decisions are needed before December 31", () => {
    const text = serviceDetailText(serviceDetails["professional-tax-planning"]);
    expect(text).toContain(`before December 31, ${TAX_YEAR}`);
  });

  it("1040 distinguishes residents (1040) from nonresidents (1040-NR) and links to /contact", () => {
    const detail = serviceDetails["1040-returns"];
    const text = serviceDetailText(detail);
    expect(text).toMatch(/Residents for tax purposes file Form 1040/);
    expect(text).toMatch(/Nonresidents file Form 1040-NR/);
    expect(text).toContain("/contact");
  });

  it("W-4 is the certificate for the employer, with Notice 1392 for nonresident aliens", () => {
    const text = serviceDetailText(serviceDetails["w4-assistance"]);
    expect(text).toContain("give it to your employer");
    expect(text).toContain("Notice 1392");
  });

  it("never promises outcomes", () => {
    for (const detail of Object.values(serviceDetails)) {
      const text = serviceDetailText(detail);
      expect(text, detail.slug).not.toMatch(/guarantee(d)? (your )?(refund|approval)/i);
      expect(text, detail.slug).not.toMatch(/\bwe (will )?get you\b/i);
      expect(text, detail.slug).not.toMatch(/maximum refund/i);
    }
  });
});

describe("policies", () => {
  it("are both last updated January 1, 2025", () => {
    expect(POLICIES_LAST_UPDATED).toBe("January 1, 2025");
    expect(policies.lastUpdated).toBe("January 1, 2025");
    expect(privacyPolicy.lastUpdated).toBe("January 1, 2025");
    expect(termsOfService.lastUpdated).toBe("January 1, 2025");
  });

  it("privacy covers records of at least seven years, §7216, sharing, security and rights", () => {
    const text = policyText(privacyPolicy);
    expect(text).toContain("at least seven years");
    expect(text).toContain("7216");
    expect(text).toMatch(/never sell/i);
    expect(text).toMatch(/Multi-factor authentication/);
    expect(text).toMatch(/passport/i);
    expect(text).toMatch(/FBAR/);
  });

  it("terms cover the consultation, fee guarantee, New York law, arbitration, hours and response time", () => {
    const text = policyText(termsOfService);
    expect(text).toContain("30 minutes");
    expect(text).toContain("100% satisfaction guarantee");
    expect(text).toMatch(/guarantee applies to our fees/);
    expect(text).toContain("New York");
    expect(text).toMatch(/arbitration/);
    expect(text).toContain("Monday to Friday, 9 AM to 6 PM EST");
    expect(text).toContain("within 24 hours");
    expect(text).toContain("at least seven years");
  });

  it("section anchors are unique within each policy", () => {
    for (const policy of [privacyPolicy, termsOfService]) {
      const ids = policy.sections.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
