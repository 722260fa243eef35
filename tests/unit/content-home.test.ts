import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { figures } from "~/content/business";
import {
  HERO_INTERVAL_MS,
  TESTIMONIAL_INTERVAL_MS,
  heroSlides,
  highlights,
  paymentPricingGrid,
  paymentSection,
  showcaseServices,
  showcaseStats,
  testimonialStats,
  testimonials,
  valueProposition,
} from "~/content/home";
import { servicePages } from "~/content/service-pages";

describe("home page timings (docs/product/public-site.md#home)", () => {
  it("rotates the hero every 30 seconds and testimonials every 5 seconds", () => {
    expect(HERO_INTERVAL_MS).toBe(30000);
    expect(TESTIMONIAL_INTERVAL_MS).toBe(5000);
  });
});

describe("hero slides", () => {
  it("has 3 slides, each with title, subtitle, accent colour and a feature list", () => {
    expect(heroSlides).toHaveLength(3);
    for (const slide of heroSlides) {
      expect(slide.title.trim()).not.toBe("");
      expect(slide.subtitle.trim()).not.toBe("");
      expect(slide.accent.base).toMatch(/^#[0-9a-f]{6}$/i);
      expect(slide.accent.tint).toMatch(/^#[0-9a-f]{6}$/i);
      expect(slide.features.length).toBeGreaterThanOrEqual(2);
      for (const feature of slide.features) expect(feature.trim()).not.toBe("");
    }
  });

  it("gives every slide its own id, title and accent colour", () => {
    expect(new Set(heroSlides.map((s) => s.id)).size).toBe(3);
    expect(new Set(heroSlides.map((s) => s.title)).size).toBe(3);
    expect(new Set(heroSlides.map((s) => s.accent.base)).size).toBe(3);
  });

  it("gives every slide its own background picture, a self-contained SVG in public/", () => {
    expect(new Set(heroSlides.map((s) => s.image)).size).toBe(3);
    for (const slide of heroSlides) {
      expect(slide.image).toMatch(/^\/hero\/[a-z0-9-]+\.svg$/);
      const svg = readFileSync(path.join("public", slide.image), "utf8");
      // An intrinsic size, so the browser knows the picture's shape before it is drawn.
      expect(svg).toMatch(/^<svg [^>]*width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
      // Nothing fetched from elsewhere (the CSP allows same-origin images only) and no script.
      expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg")|<script|href=/i);
      // Drawn in the slide's own colours, so it matches the gradient it falls back to.
      expect(svg).toContain(slide.accent.base);
      expect(svg).toContain(slide.accent.tint);
    }
  });
});

describe("testimonials", () => {
  it("has 4 entries with name, text, avatar and a verified flag", () => {
    expect(testimonials).toHaveLength(4);
    for (const t of testimonials) {
      expect(t.name.trim()).not.toBe("");
      expect(t.text.trim()).not.toBe("");
      expect(t.avatar).toMatch(/^[A-Z]{1,3}$/);
      expect(typeof t.verified).toBe("boolean");
    }
  });

  it("rates each between 0 and 5 in half steps", () => {
    for (const t of testimonials) {
      expect(t.rating).toBeGreaterThanOrEqual(0);
      expect(t.rating).toBeLessThanOrEqual(5);
      expect(Number.isInteger(t.rating * 2)).toBe(true);
    }
  });

  it("never quotes a refund amount", () => {
    for (const t of testimonials) expect(t.text).not.toMatch(/\$\s?\d/);
  });

  it("shows the testimonial stats from the shared figures", () => {
    expect(testimonialStats.map((s) => s.value)).toEqual([
      figures.satisfaction,
      figures.totalRefunds,
      figures.clientsServed,
      figures.support,
    ]);
    expect(testimonialStats.map((s) => s.value)).toEqual(["97.5%", "$1.2M+", "50+", "24/7"]);
  });
});

describe("services showcase", () => {
  it("has one card per service page, linking to its path", () => {
    expect(showcaseServices).toHaveLength(6);
    expect(showcaseServices.map((s) => s.path)).toEqual(servicePages.map((s) => s.path));
  });

  it("shows 50 clients, 5 years and 97.5% satisfaction from the shared figures", () => {
    expect(showcaseStats.map((s) => s.value)).toEqual([
      figures.clientsServed,
      figures.yearsInBusiness,
      figures.satisfaction,
    ]);
  });
});

describe("other home blocks", () => {
  it("has four highlight cards", () => {
    expect(highlights).toHaveLength(4);
  });

  it("never promises outcomes in the value proposition", () => {
    for (const point of valueProposition.points) {
      expect(point.text).not.toMatch(/guarantee(d)? (a |your )?refund|maximum refund|\$\s?\d/i);
    }
  });
});

describe("payment section (docs/product/public-site.md#payment-offer)", () => {
  it("offers ₹299 struck from ₹499 with the documented labels and button texts", () => {
    expect(paymentSection.price).toBe("₹299");
    expect(paymentSection.originalPrice).toBe("₹499");
    expect(paymentSection.saveLabel).toBe("Save ₹200");
    expect(paymentSection.offerLabel).toBe("LIMITED TIME - 40% OFF");
    expect(paymentSection.buttonLabel).toBe("PAY SECURELY NOW");
    expect(paymentSection.busyLabel).toBe("PROCESSING...");
    expect(paymentSection.failureMessage).toBe("Payment failed. Please try again.");
    expect(paymentSection.action).toBe("/pay");
  });

  it("accepts Visa, Mastercard, American Express and RuPay", () => {
    expect(paymentSection.acceptedCards.map((c) => c.name)).toEqual([
      "Visa",
      "Mastercard",
      "American Express",
      "RuPay",
    ]);
  });

  it("lists the five fees of the pricing grid, exactly", () => {
    expect(paymentPricingGrid.map(({ name, price }) => ({ name, price }))).toEqual([
      { name: "Standard Filing", price: "$85" },
      { name: "Itemized Filing", price: "$150" },
      { name: "Business Filing", price: "$150-$400" },
      { name: "FICA Taxes", price: "$100" },
      { name: "Business Incorporation", price: "$600" },
    ]);
  });
});
