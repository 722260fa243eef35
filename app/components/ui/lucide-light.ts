import { createElement, forwardRef } from "react";
import type { ReactNode, SVGProps } from "react";

// Each lucide-react icon module calls its package's createLucideIcon with the icon's data; the
// build points that call here (vite.config.ts, docs/decisions/0036-light-icons.md). lucide's own
// component builds the icon's attributes again on every render (a class set, a dozen object
// spreads, a context read); here they are worked out once per icon, and each render spreads the
// props it was given over them. The markup is lucide's own, attribute for attribute
// (tests/unit/lucide-light.test.tsx), for the props this application uses: className, size,
// color, strokeWidth, aria-* and the SVG element's own attributes.

type IconNode = [tag: string, attrs: Record<string, string>][];
export type IconData = { name: string; size?: number; node: IconNode; aliases?: string[] };
type IconProps = SVGProps<SVGSVGElement> & { size?: number | string; color?: string; strokeWidth?: number | string; children?: ReactNode };

const hasA11yProp = (props: Record<string, unknown>) =>
  Object.keys(props).some((name) => (name.startsWith("aria-") || name === "role" || name === "title") && props[name] != null);

const toPascalCase = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_match, _dash: string, c: string) => c.toUpperCase());

export default function createLucideIcon(data: IconData) {
  const classes = ["lucide", `lucide-${data.name}`, ...(data.aliases ?? []).filter((a) => a.trim() !== "").map((a) => `lucide-${a}`)].join(" ");
  const viewBox = `0 0 ${data.size ?? 24} ${data.size ?? 24}`;
  // The icon's shapes, made once: a React element is a value and may be rendered again and again.
  const shapes = data.node.map(([tag, attrs]) => createElement(tag, attrs));
  const Component = forwardRef<SVGSVGElement, IconProps>(function LucideIcon({ className, size = 24, color = "currentColor", strokeWidth = 2, children, ...rest }, ref) {
    const own = className ? [...new Set(`${classes} ${className}`.split(/\s+/).filter(Boolean))].join(" ") : classes;
    return createElement(
      "svg",
      {
        ref,
        xmlns: "http://www.w3.org/2000/svg",
        width: size,
        height: size,
        viewBox,
        fill: "none",
        stroke: color,
        strokeWidth,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: own,
        ...(children || hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      ...shapes,
      children,
    );
  });
  Component.displayName = toPascalCase(data.name);
  return Component;
}
