import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
    assetsInlineLimit: 0,
  },
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  worker: {
    format: "es",
    rollupOptions: { output: { entryFileNames: "assets/enhance-[hash].js" } },
  },
  plugins: [tailwindcss(), reactRouter()],
}));
