import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import type { Plugin } from "vite";
import { fileURLToPath } from "node:url";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * lucide-react's icons, each its own ES module, made by the application's light
 * createLucideIcon (app/components/ui/lucide-light.ts, docs/decisions/0036-light-icons.md).
 */
function lightIcons(): Plugin {
  const light = here("./app/components/ui/lucide-light.ts");
  return {
    name: "taxbridge:light-icons",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "../createLucideIcon.mjs" && importer && /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(importer)) return light;
      return null;
    },
  };
}

/** lucide-react's icon modules and the factory that makes them. */
const ICON_MODULE = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]|[\\/]app[\\/]components[\\/]ui[\\/]lucide-light\.ts$/;

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The browser's icons are one file (docs/decisions/0038-icons-in-one-file.md): left to the
    // bundler, each icon that two routes share is a file of its own, a page's tens of requests.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : { output: { manualChunks: (id: string) => (ICON_MODULE.test(id) ? "icons" : undefined) } },
    assetsInlineLimit: 0,
  },
  resolve: {
    alias: [
      { find: "~", replacement: here("./app") },
      // The icons' ES modules on the server too (Node would load lucide-react's one CommonJS file of every icon).
      { find: /^lucide-react$/, replacement: here("./node_modules/lucide-react/dist/esm/lucide-react.mjs") },
    ],
  },
  // Bundled into the server's build, where the plugin above can reach each icon's module.
  ssr: { noExternal: ["lucide-react"] },
  worker: {
    format: "es",
    rollupOptions: { output: { entryFileNames: "assets/enhance-[hash].js" } },
  },
  plugins: [lightIcons(), tailwindcss(), reactRouter()],
}));
