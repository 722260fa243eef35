import { describe, it, expect } from "vitest";
import { servicePages } from "~/content/service-pages";
import { services } from "~/content/services";

/** The services page's prices (docs/product/public-site.md#services-page), word for word. */
const specPrices: ReadonlyArray<[name: string, price: string]> = [
  ["ITIN Processing", "$150"],
  ["FBAR & FATCA Filing", "$200"],
  ["1040 & 1040-NR Returns", "$250"],
  ["W-4 Assistance", "$75"],
  ["Form 4868 Extension", "$50"],
  ["Professional Tax Planning", "$500"],
  ["FICA Refund Assistance", "$300"],
  ["International Forms", "On quote"],
];

describe("services accordion content", () => {
  it("has exactly 8 services", () => {
    expect(services).toHaveLength(8);
  });

  it("lists the section-9 services with their exact prices, in order", () => {
    expect(services.map((s) => [s.name, s.price])).toEqual(specPrices);
  });

  it("gives every service a description and included features", () => {
    for (const service of services) {
      expect(service.description.length, service.name).toBeGreaterThan(80);
      expect(service.features.length, service.name).toBeGreaterThanOrEqual(3);
      for (const feature of service.features) expect(feature.trim()).not.toBe("");
    }
  });

  it("uses unique ids", () => {
    expect(new Set(services.map((s) => s.id)).size).toBe(services.length);
  });

  it("links every service that has its own page, and only to existing pages", () => {
    const paths = new Set<string>(servicePages.map((p) => p.path));
    const linked = services.flatMap((s) => ("page" in s ? [s.page] : []));
    expect(new Set(linked)).toEqual(paths);
  });

  it("states the Form 4868 dates correctly (file by October 15, pay by April 15)", () => {
    const extension = services.find((s) => s.name === "Form 4868 Extension");
    expect(extension?.description).toContain("October 15");
    expect(extension?.description).toContain("April 15");
  });
});

describe("How It Works on /about", () => {
  it("walks through the eight workflow stages in order", async () => {
    const { howItWorks } = await import("~/content/about");
    const { STAGES } = await import("~/domain/workflow");
    expect(howItWorks.map((s) => s.stage)).toEqual(STAGES.map((s) => s.label));
  });
});
