import { createRequire } from "node:module";

/**
 * Which build of react-dom/server this process loaded. It chooses when first loaded, from
 * process.env.NODE_ENV: anything but "production" gives the development build, which renders pages
 * 1.4 to 3 times slower. Read from Node's module cache (what actually ran, not what NODE_ENV says now),
 * for the start-up log; "not loaded yet" under `npm run dev`, whose Vite loads React on first request.
 */
export function loadedReactServerBuild(): "production" | "development" | "not loaded yet" {
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  if (loaded.some((file) => /react-dom-server\.node\.development\.js$/.test(file))) return "development";
  if (loaded.some((file) => /react-dom-server\.node\.production\.js$/.test(file))) return "production";
  return "not loaded yet";
}
