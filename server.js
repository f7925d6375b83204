// The process entry. `node server.js` serves the production build; `node server.js --dev` serves the
// sources through Vite (hot reload); `node server.js --migrate` applies the migrations and exits (the
// deployment's migrate step). The real server lives in server/app.ts.
const dev = process.argv.includes("--dev");

if (dev) {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const app = await vite.ssrLoadModule("./server/app.ts");
  await app.main({
    devMiddleware: vite.middlewares,
    build: () => vite.ssrLoadModule("virtual:react-router/server-build"),
  });
} else {
  const { existsSync } = await import("node:fs");
  const entry = new URL("./build/server/index.js", import.meta.url);
  if (!existsSync(entry)) {
    console.error("Cannot start: no build found. Run `npm run build` first (npm start does this for you).");
    process.exit(1);
  }
  const app = await import(entry.href);
  if (process.argv.includes("--migrate")) process.exitCode = await app.migrateCommand(process.env);
  else await app.main();
}
