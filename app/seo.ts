import type { MetaDescriptor } from "react-router";
import { business } from "~/content/business";

type MetaArgsLike = {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
};

/** The public origin (APP_URL) that the root loader hands to every page. */
export function originFrom(matches: MetaArgsLike["matches"]): string {
  const root = matches.find((m) => m?.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin ?? "";
}

/** Title, description, canonical link and Open Graph tags for one page. */
export function seo(
  args: MetaArgsLike,
  page: { title: string; description: string; noindex?: boolean },
): MetaDescriptor[] {
  const origin = originFrom(args.matches);
  const url = `${origin}${args.location.pathname === "/" ? "/" : args.location.pathname.replace(/\/+$/, "")}`;
  const title = page.title.includes(business.name) ? page.title : `${page.title} | ${business.name}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: business.name },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: `${origin}/og-image.png` },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
