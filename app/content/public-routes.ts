import { residencyTool } from "./tools";
import { servicePages } from "./service-pages";

/** Every public page's path: the sitemap and the end-to-end tests read this list. */
export const publicPaths: readonly string[] = [
  "/",
  "/about",
  "/services",
  "/pricing",
  "/contact",
  "/privacy",
  "/terms",
  ...servicePages.map((s) => s.path),
  residencyTool.path,
];
