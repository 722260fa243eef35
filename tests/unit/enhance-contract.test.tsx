import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { HeroCarousel } from "~/components/home/hero-carousel";
import { PaymentSection } from "~/components/home/payment-section";
import { TestimonialSection } from "~/components/home/testimonial-carousel";
import { Header } from "~/components/layout/header";
import { ServicesAccordion } from "~/components/marketing/services-accordion";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { CONTACT_FIELDS, emptyContactValues } from "~/domain/contact";
import { decideResidency, emptyResidencyValues, taxYearChoices, validateResidency } from "~/domain/residency";
import type { ResidencyField } from "~/domain/residency";
import {
  ACCORDION,
  CAROUSEL,
  CONTACT,
  DIALOG,
  errorId,
  HEADER,
  IDS,
  PAYMENT,
  RESIDENCY,
  residencyErrorId,
  SUBMIT,
  TABS,
} from "~/enhance/contract";
import type { DataAttr, Widget } from "~/enhance/contract";
import Contact from "~/routes/marketing/contact";
import ResidencyCalculator from "~/routes/tools/residency-calculator";

/**
 * The public pages' widgets are server markup that app/enhance binds by name. The names live in
 * one module (app/enhance/contract.ts), so the type check refuses a name that the markup and the
 * binders do not share; it cannot see a part the markup forgets to render, or a name spelled out
 * by hand instead of taken from that module. These tests render the real components and check
 * both.
 */

type Data = { loaderData?: unknown; actionData?: unknown };

/** Server-renders `element` as the page's only route, with the loader and action data given. */
function render(element: ReactElement, { loaderData, actionData }: Data = {}): string {
  const router = createMemoryRouter([{ id: "root", path: "/", element }], {
    hydrationData: {
      loaderData: { root: loaderData ?? null },
      ...(actionData === undefined ? {} : { actionData: { root: actionData } }),
    },
  });
  return renderToString(createElement(RouterProvider, { router }));
}

/** The data attributes present in `html`. */
function attributesIn(html: string): Set<string> {
  return new Set(Array.from(html.matchAll(/\s(data-[a-z-]+)=/g), (m) => m[1]!));
}

/** Every attribute of a widget's part list, but those this instance does not use. */
function expectParts<T extends Record<string, DataAttr>>(html: string, parts: T, unused: (keyof T)[] = []) {
  const present = attributesIn(html);
  const expected = Object.entries(parts)
    .filter(([key]) => !unused.includes(key))
    .map(([, name]) => name);
  expect(expected.filter((name) => !present.has(name))).toEqual([]);
}

const hasWidget = (html: string, name: Widget) => html.includes(`data-enhance="${name}"`);
const hasId = (html: string, id: string) => html.includes(` id="${id}"`);

/** The `id` of the form control named `name`. */
function controlId(html: string, name: string): string | undefined {
  for (const [tag] of html.matchAll(/<(?:input|textarea|select)\b[^>]*>/g)) {
    if (tag.includes(` name="${name}"`)) return /\sid="([^"]+)"/.exec(tag)?.[1];
  }
  return undefined;
}

const currentYear = new Date().getFullYear();
const residencyLoaderData = { defaultYear: currentYear - 1, yearChoices: taxYearChoices(new Date()) };

describe("the public pages' markup carries every part its binder looks for", () => {
  it("the home hero carousel: slides, toggle, arrows, dots, progress and picture fallbacks", () => {
    const html = render(<HeroCarousel />);
    expect(hasWidget(html, "carousel")).toBe(true);
    expectParts(html, CAROUSEL, ["pauseOnHover", "slideAnimation", "counter"]);
    const slides = html.match(/\sdata-carousel-slide=""/g) ?? [];
    expect(slides.length).toBeGreaterThan(1);
    expect(html.match(/\sdata-carousel-dot=""/g) ?? []).toHaveLength(slides.length);
  });

  it("the testimonial carousel: slides, toggle, arrows and counter, paused on hover", () => {
    const html = render(<TestimonialSection />);
    expect(hasWidget(html, "carousel")).toBe(true);
    expectParts(html, CAROUSEL, ["dot", "progress", "tint", "image", "imageShade", "imageFallback"]);
  });

  it("the header: Services menu, mobile menu and, when signed in, the user menu", () => {
    const visitor = render(<Header />, { loaderData: { user: null } });
    expect(hasWidget(visitor, "header")).toBe(true);
    expectParts(visitor, HEADER, ["userMenu"]);
    const client = render(<Header />, { loaderData: { user: { email: "ana@example.com", role: "user" } } });
    expectParts(client, HEADER);
  });

  it("the pay button: its delay, labels, messages and status region", () => {
    const html = render(<PaymentSection />);
    expect(hasWidget(html, "pay-button")).toBe(true);
    expectParts(html, PAYMENT);
  });

  it("the services accordion: items, headers and panels", () => {
    const html = render(<ServicesAccordion />);
    expect(hasWidget(html, "accordion")).toBe(true);
    expectParts(html, ACCORDION);
  });

  it("tabs: the tabs and their panels", () => {
    const html = render(
      <Tabs idPrefix="itin">
        <TabsList>
          <TabsTrigger idPrefix="itin" value="overview" selected>
            Overview
          </TabsTrigger>
        </TabsList>
        <TabsContent idPrefix="itin" value="overview" selected>
          Text
        </TabsContent>
      </Tabs>,
    );
    expect(hasWidget(html, "tabs")).toBe(true);
    expectParts(html, TABS);
  });

  it("the contact form: counter, banner, submit button and an error element for every field", () => {
    const html = render(<Contact />);
    expect(hasWidget(html, "contact-form")).toBe(true);
    expectParts(html, CONTACT);
    expectParts(html, SUBMIT);
    expect(hasId(html, IDS.contactBanner)).toBe(true);
    expect(hasId(html, IDS.main)).toBe(true);
    for (const field of CONTACT_FIELDS) {
      const id = controlId(html, field);
      expect(id, field).toBeDefined();
      expect(hasId(html, errorId(id!)), field).toBe(true);
    }
  });

  it("the contact form's answers: the success dialog, and the form's own error box", () => {
    const sent = render(<Contact />, { actionData: { ok: true } });
    expect(hasWidget(sent, "dialog")).toBe(true);
    expectParts(sent, DIALOG);
    const failed = render(<Contact />, {
      actionData: { ok: false, formError: "Try again.", values: emptyContactValues },
    });
    expect(hasId(failed, IDS.contactFormError)).toBe(true);
  });

  it("the residency calculator: the region, its year labels, send error and submit button", () => {
    const html = render(<ResidencyCalculator />, { loaderData: residencyLoaderData });
    expect(hasWidget(html, "residency")).toBe(true);
    expectParts(html, RESIDENCY, ["errorSummary", "answerFocus", "field"]);
    expectParts(html, SUBMIT);
  });

  it("the residency calculator's errors: the summary lines and each answer's message, by the answer's name", () => {
    const values = { ...emptyResidencyValues, taxYear: String(currentYear - 1), present0: "400" };
    const checked = validateResidency(values, currentYear);
    expect(checked.ok).toBe(false);
    const errors = checked.ok ? {} : checked.errors;
    const html = render(<ResidencyCalculator />, {
      loaderData: residencyLoaderData,
      actionData: { ok: false, values, errors },
    });
    expectParts(html, RESIDENCY);
    const fields = Object.keys(errors) as ResidencyField[];
    expect(fields.length).toBeGreaterThan(1);
    for (const field of fields) {
      expect(html, field).toContain(`${RESIDENCY.field}="${field}"`);
      expect(hasId(html, residencyErrorId(field)), field).toBe(true);
    }
  });

  it("the residency calculator's result: its heading takes the focus", () => {
    const values = {
      ...emptyResidencyValues,
      taxYear: String(currentYear - 1),
      category: "not-exempt",
      present0: "200",
      present1: "0",
      present2: "0",
    };
    const checked = validateResidency(values, currentYear);
    if (!checked.ok) throw new Error(`sample answers refused: ${JSON.stringify(checked.errors)}`);
    const html = render(<ResidencyCalculator />, {
      loaderData: residencyLoaderData,
      actionData: { ok: true, values, result: decideResidency(checked.data) },
    });
    expect(html).toMatch(new RegExp(`<h2[^>]*\\s${RESIDENCY.answerFocus}=""`));
  });

  it("every widget the enhancement module binds is rendered by some component above", () => {
    // A Record over Widget: adding a widget to the contract without a sample here fails the type check.
    const samples: Record<Widget, string> = {
      header: render(<Header />, { loaderData: { user: null } }),
      carousel: render(<HeroCarousel />),
      "pay-button": render(<PaymentSection />),
      accordion: render(<ServicesAccordion />),
      tabs: render(
        <Tabs idPrefix="t">
          <TabsList />
        </Tabs>,
      ),
      "contact-form": render(<Contact />),
      dialog: render(<Contact />, { actionData: { ok: true } }),
      residency: render(<ResidencyCalculator />, { loaderData: residencyLoaderData }),
    };
    for (const [name, html] of Object.entries(samples) as [Widget, string][])
      expect(hasWidget(html, name), name).toBe(true);
  });
});

/** Source files under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Source without its comments (which may name the attributes they describe). */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

describe("the widgets' names are written only in app/enhance/contract.ts", () => {
  const contractNames = [
    ...new Set<string>([
      ...[CAROUSEL, HEADER, PAYMENT, ACCORDION, TABS, CONTACT, DIALOG, RESIDENCY, SUBMIT].flatMap((group) =>
        Object.values(group),
      ),
      "data-enhance",
      "data-on",
      "data-off",
      "data-when",
    ]),
  ];
  const ids = [IDS.contactBanner, IDS.contactFormError];
  const files = sourceFiles("app").filter((path) => !path.endsWith(join("enhance", "contract.ts")));

  it("no component, route or binder spells a widget's data attribute or id by hand", () => {
    const found: string[] = [];
    for (const path of files) {
      const source = withoutComments(readFileSync(path, "utf8"));
      for (const name of contractNames) {
        if (new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(source)) found.push(`${path}: ${name}`);
      }
      for (const id of ids) {
        if (source.includes(`"${id}"`)) found.push(`${path}: ${id}`);
      }
    }
    expect(found).toEqual([]);
  });
});
