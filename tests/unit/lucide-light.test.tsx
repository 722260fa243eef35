import { renderToStaticMarkup } from "react-dom/server";
import { CircleCheck, Download, Globe2, Menu } from "lucide-react";
import * as circleCheckModule from "lucide-react/icons/circle-check";
import * as downloadModule from "lucide-react/icons/download";
import * as earthModule from "lucide-react/icons/earth";
import * as menuModule from "lucide-react/icons/menu";
import { describe, expect, it } from "vitest";
import createLucideIcon from "~/components/ui/lucide-light";
import type { IconData } from "~/components/ui/lucide-light";

// Each icon's module exports its data beside the component; lucide's types name only the component.
const dataOf = (module: object) => (module as { __iconData: IconData }).__iconData;
const [circleCheck, download, globe, menu] = [circleCheckModule, downloadModule, earthModule, menuModule].map(dataOf) as [IconData, IconData, IconData, IconData];

// The build makes every lucide-react icon with app/components/ui/lucide-light.ts
// (vite.config.ts); the markup must stay lucide's own, attribute for attribute.

const pairs = [
  ["circle-check (with an alias)", CircleCheck, createLucideIcon(circleCheck)],
  ["download", Download, createLucideIcon(download)],
  ["earth (as Globe2)", Globe2, createLucideIcon(globe)],
  ["menu", Menu, createLucideIcon(menu)],
] as const;

const propsCases: [string, Record<string, unknown>][] = [
  ["no props", {}],
  ["a class", { className: "size-4 text-primary-700" }],
  ["a class repeating its own tokens", { className: "lucide size-4  size-4 shrink-0" }],
  ["a size, colour and stroke", { size: 16, color: "red", strokeWidth: 3 }],
  ["aria-hidden as given", { "aria-hidden": "true", className: "size-5" }],
  ["a label (not hidden)", { "aria-label": "Done", role: "img" }],
  ["width and height of its own", { width: 20, height: 18 }],
  ["other attributes", { "data-icon": "x", style: { verticalAlign: "middle" }, id: "icon-1" }],
];

describe("light icons", () => {
  for (const [name, Lucide, Light] of pairs)
    for (const [what, props] of propsCases)
      it(`${name}, ${what}: the same markup as lucide-react's`, () => {
        const light = renderToStaticMarkup(<Light {...props} />);
        expect(light).toBe(renderToStaticMarkup(<Lucide {...props} />));
        expect(light).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      });

  it("a title given as children: shown, and the icon is then not hidden", () => {
    const Light = createLucideIcon(download);
    const light = renderToStaticMarkup(
      <Light>
        <title>Download</title>
      </Light>,
    );
    expect(light).toBe(
      renderToStaticMarkup(
        <Download>
          <title>Download</title>
        </Download>,
      ),
    );
    expect(light).toContain("<title>Download</title>");
    expect(light).not.toContain("aria-hidden");
  });

  it("the icon's name for React's tools", () => {
    expect(createLucideIcon(circleCheck).displayName).toBe("CircleCheck");
  });
});
