import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Layouts' middleware decides who may reach the routes under them (docs/decisions/0015-layout-middleware.md).
  future: { v8_middleware: true },
  // Every page is rendered by the server when asked for; nothing is prerendered at build time.
  // A public page asked for without a cookie or a query string is kept for a minute
  // (docs/decisions/0010-public-page-cache.md); signed-in pages are rendered every time.
} satisfies Config;
