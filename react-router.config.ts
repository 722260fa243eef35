import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Public pages are rendered per request: the header shows who is signed in,
  // so no page is free of per-user data. See docs/decisions/0002-rendering.md.
} satisfies Config;
