import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The SSR bundle's entry is our own server/app.ts, so the database client, the config and the
// React Router build live in one module graph (one PGlite instance, one set of secrets).
export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  ssr: {
    // Native/wasm database drivers stay external: Node loads them from node_modules.
    external: ["@electric-sql/pglite", "pg"],
  },
  plugins: [tailwindcss(), reactRouter()],
}));
