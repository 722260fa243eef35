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

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
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
