// @react-router/dev 7.18.4 creates its own Vite servers (to read react-router.config.ts and route
// exports) with `envFile: false`, which Vite 8 deprecated in favour of `envDir: false`. That prints the
// same warning about eight times per build and typegen, from code we cannot configure: the first
// server starts before vite.config.ts is read. This drops exactly that message and nothing else, until
// @react-router/dev passes `envDir: false`. `npm run build` preloads it (node --import); vite.config.ts
// imports it too, for `npx react-router build` and `npm run dev`, which then print only the first.
const DEPRECATED_ENV_FILE = "The `envFile` option is deprecated, please use `envDir: false` instead.";

if (!globalThis.__dropsEnvFileWarning) {
  globalThis.__dropsEnvFileWarning = true;
  const warn = console.warn.bind(console);
  console.warn = (...args) => {
    if (typeof args[0] === "string" && args[0].includes(DEPRECATED_ENV_FILE)) return;
    warn(...args);
  };
}
