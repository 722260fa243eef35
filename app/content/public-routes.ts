import { residencyTool } from "./tools";
import { servicePages } from "./service-pages";

/** A public page: its path, the route module that draws it and, for a module that draws several, the route's id. */
export type PublicPage = { path: string; file: string; id?: string };

/** Every public page: app/routes.ts builds their routes from this list; the sitemap and the end-to-end tests read it. */
export const publicPages: readonly PublicPage[] = [
  { path: "/", file: "routes/marketing/home.tsx" },
  { path: "/about", file: "routes/marketing/about.tsx" },
  { path: "/services", file: "routes/marketing/services.tsx" },
  { path: "/pricing", file: "routes/marketing/pricing.tsx" },
  { path: "/contact", file: "routes/marketing/contact.tsx" },
  { path: "/privacy", file: "routes/marketing/privacy.tsx" },
  { path: "/terms", file: "routes/marketing/terms.tsx" },
  // The six service pages: one module draws each page of the service list.
  ...servicePages.map((s) => ({
    path: s.path,
    file: "routes/marketing/service.tsx",
    id: `service-${s.slug}`,
  })),
  { path: residencyTool.path, file: "routes/tools/residency-calculator.tsx" },
];

/** Every public page's path. */
export const publicPaths: readonly string[] = publicPages.map((p) => p.path);
