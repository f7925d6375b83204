import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * The entity modules under app/server (decision 0083). Each owns its tables and shows the rest of the
 * code one front door, <module>/index.server.ts; platform/ is the layer under them all.
 */
const MODULES = ["accounts", "applications", "conversation", "loans", "offers", "public-site", "retention", "staff"];
const FRONT_DOOR = "Import another module through its front door, ~/server/<module>/index.server (decision 0083)";

/** A module's files may import platform/, their own module, and other modules' front doors only. */
const moduleBoundaries = MODULES.map((module) => ({
  files: [`app/server/${module}/**`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { regex: `^~/server/(?!platform/|${module}/|[^/]+/index\\.server$)`, message: FRONT_DOOR },
          { regex: "^\\.\\./(?!platform/|\\.\\./domain/|\\.\\./content/)", message: FRONT_DOOR },
        ],
      },
    ],
  },
}));

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
  ...moduleBoundaries,
  {
    // The platform layer serves every module and knows none of them.
    files: ["app/server/platform/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^~/server/(?!platform/)", message: "platform/ imports nothing from the modules above it (decision 0083)" }] },
      ],
    },
  },
  {
    // Routes, the app shell, the server entry and the commands use modules through their front doors.
    files: ["app/routes/**", "app/*.tsx", "app/*.ts", "server/**", "scripts/**", "bench/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^~/server/(?!platform/|[^/]+/index\\.server$)", message: FRONT_DOOR }] }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
