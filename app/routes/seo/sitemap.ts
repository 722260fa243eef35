import { publicPaths } from "~/content/public-routes";
import { getEnv } from "~/server/platform/env.server";

export function loader() {
  const origin = getEnv().appUrl;
  const urls = publicPaths
    .map((p) => `  <url><loc>${origin}${p}</loc><changefreq>monthly</changefreq></url>`)
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
