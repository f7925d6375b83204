import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "drizzle/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-empty-object-type": "off",
      // Route modules and server modules must not reach into each other's internals through process.env.
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through app/server/platform/config.server.ts" },
      ],
    },
  },
  {
    files: ["server.js", "server/app.ts", "scripts/**", "bench/**", "tests/**", "*.config.ts", "app/server/platform/config.server.ts"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // Components render plain data: their types come from app/domain, never from a server module.
    files: ["app/components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["~/server/*"], message: "Import view types from ~/domain (e.g. ~/domain/views/*)" }] }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
