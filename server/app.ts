import compression from "compression";
import cluster from "node:cluster";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { LoadContext } from "~/load-context";
import { ensureAdmin } from "~/server/accounts/index.server";
import { countAdmins } from "~/server/staff/index.server";
import { ConfigError, loadConfig, setConfig, type AppConfig } from "~/server/platform/config.server";
import { openDatabase, setDatabase, type Database } from "~/server/platform/db/client.server";
import { DataDirLockedError } from "~/server/platform/db/data-dir-lock.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { migrateCommand as migrateWith } from "~/server/platform/db/migrate-command.server";
import { migrateData } from "./data-migrations";
import { getEventBus } from "~/server/platform/events/bus.server";
import { closeAllStreams } from "~/server/platform/events/stream.server";
import { captchaCspSources } from "~/server/platform/security/captcha.server";
import { startConfiguredMailWorker } from "~/server/platform/mail/index.server";
import { referencedStorageKeys, startRetentionJob } from "~/server/retention/index.server";
import { startOfferExpiryJob } from "~/server/offers/index.server";
import { startDataExportJob } from "~/server/accounts/index.server";
import { startServicingJob } from "~/server/loans/index.server";
import { startOrphanSweeper } from "~/server/platform/storage/orphan-sweep.server";
import { SPOOL_FOLDER, startSpoolCleaner } from "~/server/platform/uploads/upload-spool.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { declaredTooLarge, requestUrl, sendFetchResponse, sendRefusal, toFetchRequest } from "./fetch-bridge";
import { createNonce, securityHeaders } from "./security-headers";
import { createCachedPageSender } from "./cached-page-response";
import { PublicPageCache, setPublicPageCache } from "~/server/platform/http/public-page-cache.server";
import { PUBLIC_PAGES } from "~/content/seo";
import { getConfig } from "~/server/platform/config.server";
import { createStaticHandler } from "./static-files";
import { clientIp, isSecure } from "./request-info";
import { superviseWorkers } from "./cluster";
import { createHttpsRedirectServer } from "./https-redirect";
import { sendUnavailable } from "./unavailable-response";
import { loadedReactServerBuild } from "./react-build";

// `node server.js --migrate` runs the deployment's migrate step from the build (no tsx in a container).
export function migrateCommand(env: NodeJS.ProcessEnv): Promise<number> {
  return migrateWith(env, console, migrateData);
}

/**
 * The Node HTTP entry, bundled by Vite together with the React Router build (see vite.config.ts),
 * so the app and this entry share one configuration and one database handle.
 */

export type RunningServer = {
  server: http.Server;
  /** The plain-HTTP listener that only redirects to https:// (HTTP_REDIRECT_PORT), when configured. */
  redirectServer: http.Server | undefined;
  config: AppConfig;
  database: Database;
  url: string;
  close: () => Promise<void>;
};

export type StartOptions = {
  env?: NodeJS.ProcessEnv;
  build?: ServerBuild | (() => Promise<ServerBuild>);
  /** Vite's connect middleware in development; replaces static file serving. */
  devMiddleware?: (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
  log?: (line: string) => void;
};

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function loadBuild(): Promise<ServerBuild> {
  // Resolved by the React Router Vite plugin at build time (and by Vite's SSR loader in development).
  return (await import("virtual:react-router/server-build")) as unknown as ServerBuild;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const config = loadConfig(options.env ?? process.env);
  setConfig(config);
  for (const notice of config.notices) log(`[config] ${notice}`);

  const database = config.databaseUrl
    ? await openDatabase({ databaseUrl: config.databaseUrl })
    : await openDatabase({ dataDir: config.dataDir });
  try {
    await runMigrations(database);
    for (const line of await migrateData(database)) log(`[migrate] ${line}`);
  } catch (error) {
    await database.close();
    throw error;
  }
  setDatabase(database);
  if (config.bootstrapAdmin && (await countAdmins(database)) === 0) {
    const admin = await ensureAdmin(database, config.bootstrapAdmin);
    log(`[auth] ${admin.created ? "Created" : "Promoted"} the first admin ${config.bootstrapAdmin.email} (ADMIN_EMAIL).`);
  }
  const mailWorker = startConfiguredMailWorker({ db: database.db, config, log });
  const retentionJob = startRetentionJob({ db: database.db, storage: getStorage(), log });
  const offerExpiryJob = startOfferExpiryJob({ db: database.db, log });
  const dataExportJob = startDataExportJob({
    db: database.db,
    storage: getStorage(),
    baseUrl: config.publicUrl,
    log,
    intervalMs: config.dataExportPollMs,
    capBytes: config.personStorageCapBytes,
  });
  const servicingJob = startServicingJob({ db: database.db, log });
  const eventBus = getEventBus();
  await eventBus.start(database, config.databaseUrl);
  const orphanSweeper = startOrphanSweeper({
    db: database.db,
    storage: getStorage(),
    referenced: referencedStorageKeys,
    graceSeconds: config.orphanGraceSeconds,
    // The data-folder lock: no other process can be writing to an embedded database's documents.
    singleProcess: database.kind === "pglite",
    log,
  });

  const spoolCleaner = startSpoolCleaner({ root: path.join(config.dataDir, SPOOL_FOLDER), singleProcess: database.kind === "pglite", log });

  // A function makes React Router rebuild its route table (every path compiled again) on each request:
  // right for development, where the build changes under it; production loads it once.
  const build = options.build ?? (await loadBuild());
  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const staticFiles = options.devMiddleware ?? createStaticHandler(clientDir);
  const compress = compression();

  const dev = Boolean(options.devMiddleware);
  // React Router's development mode puts error messages and stack traces (with SQL and its parameters)
  // into pages and data answers. Only `npm run dev` (--dev, on a developer's machine) gets them, never
  // a server that was merely started without NODE_ENV=production.
  const handleRequest = createRequestHandler(build, dev ? "development" : "production");
  const reactRouter = async (req: http.IncomingMessage, res: http.ServerResponse, context: LoadContext, url: URL) => {
    try {
      const response = await handleRequest(toFetchRequest(req, res, url), context);
      if (context.outcome?.databaseUnavailable && response.status >= 500) {
        await response.body?.cancel().catch(() => undefined);
        sendUnavailable(req, res);
        return;
      }
      await sendFetchResponse(req, res, response);
    } catch (error) {
      if (dev) console.error("[http] unhandled error", error);
      else logFailure("http", "unhandled error", error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("Unexpected Application Error!");
      } else {
        res.destroy();
      }
    }
  };

  const extraCsp = captchaCspSources();
  // Development re-renders every request (edits show at once); see public-page-cache.server.ts.
  const pageCache =
    !dev && config.pageCacheSeconds > 0
      ? new PublicPageCache({
          paths: PUBLIC_PAGES.map((page) => page.path),
          ttlMs: config.pageCacheSeconds * 1000,
          log,
          render: (pagePath, nonce) => {
            const publicUrl = getConfig().publicUrl;
            const request = new Request(new URL(pagePath, publicUrl), { headers: { Accept: "text/html" } });
            return handleRequest(request, { cspNonce: nonce, clientIp: "127.0.0.1", secure: publicUrl.startsWith("https:") });
          },
        })
      : undefined;
  setPublicPageCache(pageCache);

  const sendCachedPage = createCachedPageSender((page, secure) =>
    securityHeaders({ hashes: page.scriptHashes, secure, dev, extra: extraCsp }),
  );

  let draining = false;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const secure = isSecure(req, config.trustProxy);
    const cachedPath = pageCache?.match(req);
    if (pageCache && cachedPath) {
      const held = pageCache.peek(cachedPath);
      if (held) return sendCachedPage(req, res, held, { secure, closing: draining });
      pageCache.get(cachedPath).then(
        (page) => (page ? sendCachedPage(req, res, page, { secure, closing: draining }) : handleDynamic(req, res, secure)),
        () => handleDynamic(req, res, secure),
      );
      return;
    }
    handleDynamic(req, res, secure);
  };
  const server = config.tls ? https.createServer({ cert: config.tls.cert, key: config.tls.key }, onRequest) : http.createServer(onRequest);
  server.keepAliveTimeout = 5000;

  function handleDynamic(req: http.IncomingMessage, res: http.ServerResponse, secure: boolean) {
    const nonce = createNonce();
    for (const [name, value] of Object.entries(securityHeaders({ nonce, secure, dev, extra: extraCsp }))) {
      res.setHeader(name, value);
    }
    if (draining) res.setHeader("Connection", "close");
    // Odd request lines (`GET //`, `OPTIONS *`, absolute-form, bad percent-encoding) are answered here,
    // before anything builds a URL from them, and bodies declared past the ceiling before anything reads.
    const target = requestUrl(req, secure);
    if (!(target instanceof URL)) return sendRefusal(req, res, target);
    const tooLarge = declaredTooLarge(req, target);
    if (tooLarge) return sendRefusal(req, res, tooLarge);
    const context: LoadContext = { cspNonce: nonce, clientIp: clientIp(req, config.trustProxy), secure, outcome: { databaseUnavailable: false } };
    compress(req as never, res as never, () => {
      const url = req.url ?? "/";
      if (url === "/healthz" || url.startsWith("/healthz?")) {
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        database
          .ping(2000)
          .then(() => {
            res.statusCode = draining ? 503 : 200;
            res.end(JSON.stringify({ status: draining ? "shutting-down" : "ok", database: database.kind }));
          })
          .catch(() => {
            // The driver's message names internal addresses: probes need the status, not the cause.
            res.statusCode = 503;
            res.end(JSON.stringify({ status: "unavailable", database: database.kind, message: "The database is not answering." }));
          });
        return;
      }
      staticFiles(req, res, () => {
        // Pages and data may carry personal data: nothing is cached unless a route says otherwise.
        if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", "no-store");
        void reactRouter(req, res, context, target);
      });
    });
  }

  log(`[security] error details: ${dev ? "shown (npm run dev)" : "hidden (shown only under npm run dev)"}`);
  log(`[react] server rendering: ${loadedReactServerBuild()} build (NODE_ENV=${process.env.NODE_ENV ?? "unset"})`);
  log(
    config.isProduction
      ? "[mail] /dev/mailbox: off (NODE_ENV=production)"
      : !config.localRun
        ? "[mail] /dev/mailbox: off (APP_SECRET or ENCRYPTION_KEY set: a deployment)"
        : `[mail] /dev/mailbox: answers loopback clients only${config.trustProxy ? " (the client address from TRUST_PROXY's X-Forwarded-For)" : ", never a request a proxy forwarded"}; off with NODE_ENV=production or explicit secrets`,
  );

  await listen(server, config.port, config.host);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const scheme = config.tls ? "https" : "http";
  const url = `${scheme}://localhost:${port}`;
  // PORT=0 (tests) picks a port only now: links in e-mails must name the real one.
  if (config.port === 0 && config.publicUrl === `${scheme}://localhost:0`) setConfig(Object.freeze({ ...config, publicUrl: url }));

  let redirectServer: http.Server | undefined;
  if (config.tls && config.httpRedirectPort !== undefined) {
    const listener = createHttpsRedirectServer(getConfig().publicUrl);
    await listen(listener, config.httpRedirectPort, config.host);
    redirectServer = listener;
    const redirectAddress = listener.address();
    const redirectPort = typeof redirectAddress === "object" && redirectAddress ? redirectAddress.port : config.httpRedirectPort;
    log(`[https] http://localhost:${redirectPort} redirects to ${getConfig().publicUrl}`);
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      draining = true;
      redirectServer?.close();
      redirectServer?.closeAllConnections();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Event streams never finish by themselves: end them so browsers reconnect elsewhere.
      closeAllStreams();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
      // Requests are done: send what they queued (the batch in flight), then let go of the database.
      await mailWorker.stop();
      await retentionJob.stop();
      await offerExpiryJob.stop();
      await dataExportJob.stop();
      await servicingJob.stop();
      await orphanSweeper.stop();
      spoolCleaner.stop();
      await eventBus.stop();
      await database.close();
      setDatabase(undefined);
      setPublicPageCache(undefined);
    })();
    return closing;
  };

  return { server, redirectServer, config, database, url, close };
}

/** Runs the server as a process: logs, signals, exit codes. */
export async function main(options: StartOptions = {}): Promise<void> {
  // Only a request for several processes reads the configuration here: loading it has effects (a
  // first start generates secrets and says so), which belong to the process that serves.
  const requested = String((options.env ?? process.env).WEB_CONCURRENCY ?? "").trim();
  if (!options.devMiddleware && cluster.isPrimary && requested !== "" && requested !== "1") {
    let config: AppConfig;
    try {
      config = loadConfig(options.env ?? process.env);
    } catch (error) {
      console.error(error instanceof ConfigError ? `Cannot start: ${error.message}` : error);
      process.exit(1);
    }
    for (const notice of config.notices) console.log(`[config] ${notice}`);
    if (config.webConcurrency > 1) return superviseWorkers(config.webConcurrency);
  }

  // Signals are handled from the very start: a SIGTERM during start-up (migrations, a first PGlite
  // open) waits for start-up to finish, then shuts down cleanly instead of killing the database.
  let running: RunningServer | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then closing the database`);
    if (!running) return; // start-up sees `stopping` and shuts down when it is done
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("Shutdown failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  try {
    running = await startServer(options);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(`Cannot start: ${error.message}`);
    } else {
      console.error("Cannot start:", error);
    }
    process.exit(1);
  }
  console.log(`Private Loans portal listening on ${running.url} (database: ${running.database.describe})`);
  if (stopping) {
    stopping = false;
    shutdown("SIGTERM (during start-up)");
  }
}
