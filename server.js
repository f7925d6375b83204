// The process entry. `node server.js` serves the production build (React in production mode whatever
// NODE_ENV says); `node server.js --dev` serves the sources through Vite (hot reload, React's
// development mode); `node server.js --migrate` applies the migrations and exits (the
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
  // react-dom/server picks its build from NODE_ENV when it loads: unset (a bare `npm start`) or
  // "development" gives React's development build, pages 1.4-3x slower. The built server always runs
  // the production one; what the operator declared goes on in APP_ENV, which decides the deployment
  // rules (explicit secrets required, /dev/mailbox off). Set before the build is imported; cluster
  // workers inherit both.
  if (!process.env.APP_ENV) process.env.APP_ENV = process.env.NODE_ENV || "development";
  process.env.NODE_ENV = "production";
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
