import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const ioModules = ["node:*", "fs", "path", "pg", "@electric-sql/*", "drizzle-orm*", "nodemailer", "express", "better-auth*"];

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", ".tmp/", "test-results/", "playwright-report/", "db/migrations/", "bench/results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks, "import-x": importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Menus close on navigation by resetting state in an effect keyed on the path.
      "react-hooks/set-state-in-effect": "off",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            // Pure layers: no server code flows into domain/ or content/.
            { target: "./app/domain", from: ["./app/server", "./app/routes", "./app/components"] },
            { target: "./app/content", from: ["./app/server", "./app/routes", "./app/components"] },
            { target: "./app/components", from: "./app/server" },
            // The public pages' enhancement module runs in the browser without React.
            {
              target: "./app/enhance",
              from: ["./app/server", "./app/routes", "./app/components", "./app/root.tsx", "./server"],
              message: "app/enhance runs without React and server code (docs/decisions/0008).",
            },
          ],
        },
      ],
    },
    settings: {
      // What import-x needs to follow TypeScript imports: without the extensions and the parser it
      // reads no .ts file, and import-x/no-cycle then finds nothing (docs/decisions/0025).
      "import-x/extensions": [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/external-module-folders": ["node_modules", "node_modules/@types"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
  },
  {
    // The public pages' one script stays small and dependency-free: its own files and the pure
    // rules it shares with the server (docs/decisions/0008).
    files: ["app/enhance/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!\\./|~/domain/)",
              message: "app/enhance imports only its own files and ~/domain: no React, router, server code or packages.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/domain/**", "app/content/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ioModules, message: "domain/ and content/ hold pure code: no I/O." }] }],
    },
  },
);
