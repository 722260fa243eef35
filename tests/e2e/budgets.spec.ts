import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "./support";
import type { Page } from "@playwright/test";
import { publicPaths } from "~/content/public-routes";

/**
 * Performance budget (docs/product/performance.md#public-pages): a first visit to a public page
 * downloads at most 100 KB of JavaScript (gzip), and signed-in and admin code never loads there.
 * Public pages load no React at all (docs/decisions/0008-zero-js-public-pages.md), so no file of
 * React Router's manifest may be requested by them.
 */
const BUDGET_BYTES = 100 * 1024;

type ManifestEntry = { module: string; imports?: string[] };
type Manifest = { entry: ManifestEntry; routes: Record<string, ManifestEntry & { id: string; parentId?: string }> };

/** React Router's browser manifest of the build under test (build/client/assets/manifest-*.js). */
function readManifest(): Manifest {
  const dir = "build/client/assets";
  const file = readdirSync(dir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no React Router manifest in ${dir}: build first`);
  const source = readFileSync(`${dir}/${file}`, "utf8");
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return JSON.parse(json) as Manifest;
}

const filesOf = (entry: ManifestEntry) => [entry.module, ...(entry.imports ?? [])];

const manifest = readManifest();
const signedInPrefixes = ["routes/portal/", "routes/admin", "routes/auth/"];
const signedInFiles = new Set(
  Object.values(manifest.routes)
    .filter((route) => signedInPrefixes.some((prefix) => route.id.startsWith(prefix)))
    .flatMap(filesOf),
);
const reactRouterFiles = new Set([
  ...filesOf(manifest.entry),
  ...Object.values(manifest.routes).flatMap(filesOf),
]);

type Download = { path: string; bytes: number };

/** Loads `path` in a fresh page and lists every JavaScript file it downloaded, with its size on the wire. */
async function javaScriptOf(page: Page, path: string): Promise<Download[]> {
  const pending: Promise<Download | null>[] = [];
  page.on("requestfinished", (request) => {
    pending.push(
      (async () => {
        const response = await request.response();
        const type = response?.headers()["content-type"] ?? "";
        if (!response || !/javascript/.test(type)) return null;
        // The encoded body size: what came over the wire (the server gzips with compression()).
        const { responseBodySize } = await request.sizes();
        return { path: new URL(request.url()).pathname, bytes: responseBodySize };
      })(),
    );
  });
  await page.goto(path, { waitUntil: "networkidle" });
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  return (await Promise.all(pending)).filter((d): d is Download => d !== null);
}

test.describe("JavaScript budget of public pages", () => {
  for (const path of [...publicPaths, "/no-such-page"]) {
    test(`${path} downloads at most 100 KB of JavaScript (gzip) and no React Router code`, async ({ page }) => {
      const files = await javaScriptOf(page, path);
      const total = files.reduce((sum, file) => sum + file.bytes, 0);
      console.info(`${path}: ${files.length} JavaScript file(s), ${(total / 1024).toFixed(1)} KB gzip`);

      expect(files.length).toBeGreaterThan(0);
      expect(files.every((file) => file.bytes > 0)).toBe(true);
      expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
      expect(files.map((f) => f.path).filter((p) => signedInFiles.has(p))).toEqual([]);
      expect(files.map((f) => f.path).filter((p) => reactRouterFiles.has(p))).toEqual([]);
    });
  }
});

test("signed-in pages still hydrate with React Router", async ({ page }) => {
  // /my-tax-filing sends a visitor to /login, a hydrated page.
  const files = await javaScriptOf(page, "/my-tax-filing");
  await expect(page).toHaveURL(/\/login/);
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  console.info(`/login: ${files.length} JavaScript file(s), ${(total / 1024).toFixed(1)} KB gzip`);
  const paths = files.map((f) => f.path);
  expect(paths).toContain(manifest.entry.module);
  expect(paths).toContain(manifest.routes["routes/auth/login"]?.module);
});

test("icons are made by the application's light factory in the browser's build and the server's (docs/decisions/0036-light-icons.md)", () => {
  const files = [
    ...readdirSync("build/client/assets").filter((name) => name.endsWith(".js")).map((name) => `build/client/assets/${name}`),
    ...readdirSync("build/server/assets").filter((name) => name.endsWith(".js")).map((name) => `build/server/assets/${name}`),
  ];
  const sources = files.map((file) => readFileSync(file, "utf8"));
  // lucide-react's own factory carries this message; the light one does not.
  expect(files.filter((_, i) => sources[i]!.includes("[lucide]: iconNode is required"))).toEqual([]);
  expect(sources.some((source) => source.includes("lucide-circle-check") || source.includes('"circle-check"'))).toBe(true);
});

test("the browser's icons are one file, and a page asks for its JavaScript in a few dozen files (docs/decisions/0038-icons-in-one-file.md)", () => {
  const names = readdirSync("build/client/assets").filter((name) => name.endsWith(".js"));
  // An icon's data names it ({name:"circle-check",...}); the light factory writes its classes.
  const holding = names.filter((name) => /\{name:"[a-z0-9-]+",size:24,node:|lucide-\$\{/.test(readFileSync(`build/client/assets/${name}`, "utf8")));
  expect(holding).toHaveLength(1);
  expect(holding[0]).toMatch(/^icons-[\w-]+\.js$/);
  // The client's filing page (its route, its layouts and the entry) and /login.
  const filesOfRoute = (id: string): Set<string> => {
    const files = new Set(filesOf(manifest.entry));
    for (let route = manifest.routes[id]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined)
      for (const file of filesOf(route)) files.add(file);
    return files;
  };
  expect(filesOfRoute("routes/portal/filing").size).toBeLessThanOrEqual(55);
  expect(filesOfRoute("routes/auth/login").size).toBeLessThanOrEqual(40);
});
