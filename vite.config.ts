import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
// Drops @react-router/dev's repeated envFile deprecation warning, and nothing else (see the file).
import "./scripts/build-warnings.mjs";

type ModuleGraph = { getModuleInfo: (id: string) => { importedIds: readonly string[] } | null };

/**
 * The root route's own modules (header, footer, toaster, content...) in one client chunk, with the
 * libraries they import (the bundler adds a group's dependencies to it). Every page loads all of it
 * anyway, but left to itself the bundler cuts it into a chunk per set of routes sharing a module — a
 * file per icon: 42 files on the home page, now 24, and 3.7 KB less gzip (each file repeats its import
 * and export glue). Only modules under app/ are followed: following a library's index (radix-ui,
 * lucide-react) would pull in every component it re-exports, needed or not.
 */
function rootChunk() {
  const appDir = path.resolve("app") + path.sep;
  const root = path.resolve("app/root.tsx");
  let members: Set<string> | null = null;
  return (id: string, graph: ModuleGraph): string | null => {
    if (!members) {
      members = new Set();
      const queue = (graph.getModuleInfo(root)?.importedIds ?? []).filter((dep) => dep.startsWith(appDir));
      while (queue.length) {
        const next = queue.pop()!;
        if (members.has(next)) continue;
        members.add(next);
        queue.push(...(graph.getModuleInfo(next)?.importedIds ?? []).filter((dep) => dep.startsWith(appDir)));
      }
    }
    return members.has(id) ? "root-deps" : null;
  };
}

/**
 * The Lucide icon modules the home page draws (its sections import them one by one, for inlineIcon):
 * left to itself the bundler gives each its own file, and each file repeats its import and export glue.
 * One chunk for those the home route reaches; other pages' icons are split as before.
 */
function homeIconsChunk() {
  const appDir = path.resolve("app") + path.sep;
  const home = path.resolve("app/routes/_site/home.tsx");
  const isIcon = (id: string) => /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(id);
  let icons: Set<string> | null = null;
  return (id: string, graph: ModuleGraph): string | null => {
    if (!icons) {
      icons = new Set();
      const seen = new Set<string>();
      const queue = [home];
      while (queue.length) {
        const next = queue.pop()!;
        if (seen.has(next)) continue;
        seen.add(next);
        for (const dep of graph.getModuleInfo(next)?.importedIds ?? []) {
          if (isIcon(dep)) icons.add(dep);
          else if (dep.startsWith(appDir)) queue.push(dep);
        }
      }
    }
    return icons.has(id) ? "home-icons" : null;
  };
}

/**
 * The labelled field and the amount input travel together: the home page's calculator needs both, and
 * pages that use only the field (the account page's forms) would otherwise split them into two chunks,
 * each with its own import glue (about 200 bytes gzip more on the home page, which sits at its budget).
 */
const FIELD_KIT = /[\\/]app[\\/]components[\\/]ui[\\/](field|amount-input)\.tsx$/;

// The SSR bundle's entry is our own server/app.ts, so the database client, the config and the
// React Router build live in one module graph (one PGlite instance, one set of secrets).
export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    // One set of bundler options per build (Vite 8 reads rollupOptions as an alias of these: never both).
    rolldownOptions: isSsrBuild
      ? {
          input: "./server/app.ts",
          // The browser loads some form schemas on demand (decision 0052) while the server modules that
          // check the same forms import them directly. In the server bundle nothing is split anyway
          // (it is all loaded at start), so "dynamic import will not move module into another chunk"
          // is true and harmless there; the browser build, where the split matters, warns as usual.
          checks: { ineffectiveDynamicImport: false, bundlerTimings: false },
        }
      : {
          // bundlerTimings: how long plugins took on this (busy, shared) machine is not a problem with the build.
          checks: { bundlerTimings: false },
          output: {
            codeSplitting: {
              groups: [
                { name: rootChunk(), debugName: "root-deps" },
                { name: homeIconsChunk(), debugName: "home-icons" },
                { name: "field", test: FIELD_KIT },
              ],
            },
          },
        },
  },
  ssr: {
    // Native/wasm database drivers stay external: Node loads them from node_modules.
    external: ["@electric-sql/pglite", "pg"],
  },
  plugins: [tailwindcss(), reactRouter()],
}));
