import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { passAdminMfa, signInOverHttp } from "../../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../../helpers/applicants";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { newDataDir } from "../data-template";
import { launchBrowser, startTestServer, testSecrets, type TestServer } from "../harness";
import { openWatchedPage, type WatchedPage, type WatchedPageOptions } from "./pages";
import { dataDirWithStaff, type StaffSeed } from "./seed-staff";

/**
 * What end-to-end files start before their tests: a mail sink, the built server sending to it
 * (breached-password lookups off, since this machine is offline) and a browser; and stop afterwards.
 * Browser files take them from e2eStackForFile (below), which also holds the steps their stories
 * begin with; files that start servers in their own way (several at once, a fixed port, a killed
 * process) use the parts.
 */

export type Stack = { sink: SmtpSink; server: TestServer; browser: Browser };

/** A mail sink and the built server sending to it, for files that need no browser. */
export async function startServerWithMail(
  env: Record<string, string | undefined> = {},
  options: Parameters<typeof startTestServer>[1] = {},
): Promise<Omit<Stack, "browser">> {
  const sink = await startSmtpSink();
  try {
    const server = await startTestServer({ SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", ...env }, options);
    return { sink, server };
  } catch (error) {
    await sink.close();
    throw error;
  }
}

export async function startStack(env: Record<string, string | undefined> = {}): Promise<Stack> {
  const { sink, server } = await startServerWithMail(env);
  try {
    return { sink, server, browser: await launchBrowser() };
  } catch (error) {
    await stopStack({ sink, server });
    throw error;
  }
}

/** Closes what was started (any part may be missing); prints the server's output when it failed on exit. */
export async function stopStack({ sink, server, browser }: Partial<Stack>): Promise<void> {
  await browser?.close();
  const code = await server?.stop();
  await sink?.close();
  if (server && code !== 0 && code !== null) console.error(server.output());
}

export type SharedStack = Stack & {
  /** This process's own connection to the server's database. */
  database: Database;
  /** Stops everything and drops the scratch database. */
  stop: () => Promise<void>;
};

/**
 * A stack on a new scratch PostgreSQL database that this process opens too, configured with the
 * server's secrets and address, so server code a test calls (approveApplication, say) acts as it would
 * in the server, and what it changes reaches the server's pages and live updates. PostgreSQL, because
 * the embedded database belongs to the server process: the usual local server unless CI sets
 * TEST_DATABASE_URL. `prefix` names this process's configuration folder.
 */
export async function startSharedStack(env: Record<string, string | undefined>, prefix: string): Promise<SharedStack> {
  process.env.TEST_DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";
  // Imported once the variable is set: test-db reads it when it loads.
  const { createScratchPostgresDatabase } = await import("../../helpers/test-db");
  const scratch = await createScratchPostgresDatabase();
  const secrets = testSecrets();
  let stack: Stack | undefined;
  let database: Database | undefined;
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const stop = async () => {
    await database?.close();
    await stopStack(stack ?? {});
    await scratch.drop();
    fs.rmSync(configDir, { recursive: true, force: true });
  };
  try {
    stack = await startStack({ ...secrets, DATABASE_URL: scratch.url, ...env });
    setConfig(loadConfig({ NODE_ENV: "production", DATA_DIR: configDir, DATABASE_URL: scratch.url, PUBLIC_URL: stack.server.url, ...secrets }));
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    return { ...stack, database, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A server (no mail) and a browser, for the public pages. */
export async function startServerAndBrowser(env: Record<string, string | undefined> = {}): Promise<{ server: TestServer; browser: Browser }> {
  const [server, browser] = await Promise.all([startTestServer(env), launchBrowser()]);
  return { server, browser };
}

/** Client addresses from the documentation range, one after another, for X-Forwarded-For (throttles count per address). */
export function ipSequence(first: number): () => string {
  let next = first;
  return () => `198.51.100.${next++}`;
}

export type Credentials = { email: string; password: string };

export type E2eStackOptions = {
  /** The server's environment (beyond what the options below set). */
  env?: Record<string, string | undefined>;
  /**
   * The admin the server creates at its first start (ADMIN_EMAIL, ADMIN_PASSWORD), behind a proxy it
   * trusts (TRUST_PROXY), so each sign-in can come from its own address (throttles count per address).
   */
  admin?: Credentials;
  /** Staff written into the data folder before the server starts (the create-admin command). */
  staff?: StaffSeed[];
  /**
   * A scratch PostgreSQL database that this process opens too (startSharedStack), named by this
   * configuration-folder prefix: for files that call server code directly.
   */
  shared?: string;
  /** Data written into the new data folder before the server starts on it (after `staff`). */
  beforeStart?: (dataDir: string) => Promise<void>;
  /** False for the public pages: no mail sink, and the server's own defaults for mail and breached-password lookups. */
  mail?: boolean;
  /** False for files that only speak HTTP to the server: no browser is launched. */
  browser?: boolean;
  /** The last number of this file's first client address (198.51.100.n); other files use other ranges. */
  firstIp?: number;
};

/**
 * What a browser file's tests use, started before them and stopped after them: the server (with a
 * mail sink) and a browser, and the steps every story begins with: an address to come from, an
 * applicant's sign-up, the admin's session past the second factor, a page signed in as someone.
 * Its parts are there once the file's first hook has run: read them in hooks and tests.
 */
export type E2eStack = Stack & {
  /** The server's base URL. */
  readonly url: string;
  /** This process's connection to the server's database (only with `shared`). */
  database: Database;
  /** The next client address of this file's range (sent as X-Forwarded-For). */
  nextIp: () => string;
  /** Signs an applicant up as the browser does (mailed code, solved ALTCHA) from the next address; the session cookie. */
  signUp: (email: string, fullName?: string, password?: string) => Promise<string>;
  /** Signs `who` in over HTTP from the next address; the session cookie. */
  signIn: (who: Credentials) => Promise<string>;
  /**
   * The admin's session past the second factor: one for the file, since a TOTP code works once per
   * 30-second step.
   */
  adminSession: () => Promise<string>;
  /** A fresh browser page, signed in with `cookie` when given; it collects the page's errors. */
  open: (cookie?: string, options?: Omit<WatchedPageOptions, "cookies">) => Promise<WatchedPage>;
  /** Runs `run` on a page `open` makes, then closes the page's browser context whatever happened. */
  withPage: <T>(cookie: string | undefined, options: Omit<WatchedPageOptions, "cookies">, run: (watched: WatchedPage) => Promise<T>) => Promise<T>;
  /**
   * Stops the server, runs `change` on its embedded database (what only time or the bank would do:
   * a day passing, a credit settling), and starts it again on the same data folder, secrets and mail
   * sink. Sessions live in the database, so cookies stay valid; the address (port) may change: read
   * `url` again. Not with `shared` or `mail: false`.
   */
  restart: (change?: (db: Database["db"]) => Promise<void>) => Promise<void>;
};

type StartedStack = Stack & { database?: Database; stop: () => Promise<void>; restart?: E2eStack["restart"] };

async function startE2eStack(options: E2eStackOptions): Promise<StartedStack> {
  // The secrets are fixed for the file, so a restarted server reads what the first one encrypted.
  const env = { ...testSecrets(), ...(options.admin ? { TRUST_PROXY: "true", ADMIN_EMAIL: options.admin.email, ADMIN_PASSWORD: options.admin.password } : {}), ...options.env };
  if (options.shared !== undefined) return startSharedStack(env, options.shared);
  if (options.mail === false) {
    const { server, browser } = await startServerAndBrowser(env);
    const stack = { server, browser, sink: undefined as unknown as SmtpSink };
    return { ...stack, stop: () => stopStack({ server, browser }) };
  }
  const dataDir = options.staff || options.beforeStart ? (options.staff ? await dataDirWithStaff(options.staff) : newDataDir("portal-e2e-")) : undefined;
  if (dataDir && options.beforeStart) await options.beforeStart(dataDir);
  const { sink, server } = await startServerWithMail(env, dataDir ? { dataDir } : {});
  try {
    const browser = options.browser === false ? (undefined as unknown as Browser) : await launchBrowser();
    const stack = { sink, server, browser };
    const restart = async (change?: (db: Database["db"]) => Promise<void>) => {
      await stack.server.stop();
      if (change) {
        const database = await openDatabase({ dataDir: stack.server.dataDir });
        try {
          await change(database.db);
        } finally {
          await database.close();
        }
      }
      stack.server = await startTestServer({ SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", ...env }, { dataDir: stack.server.dataDir });
    };
    return { ...stack, get server() { return stack.server; }, stop: () => stopStack(stack), restart };
  } catch (error) {
    await stopStack({ sink, server });
    throw error;
  }
}

export function e2eStackForFile(options: E2eStackOptions = {}): E2eStack {
  const nextIp = ipSequence(options.firstIp ?? 10);
  let stop: (() => Promise<void>) | undefined;
  let adminCookie: Promise<string> | undefined;
  const stack = {
    get url() {
      return stack.server.url;
    },
    nextIp,
    signUp: (email: string, fullName?: string, password?: string) => signUpOverHttp(stack.url, stack.sink, email, nextIp(), fullName, password),
    signIn: (who: Credentials) => signInOverHttp(stack.url, who.email, who.password, nextIp()),
    adminSession: () => {
      const admin = options.admin;
      if (!admin) throw new Error("e2eStackForFile: no admin was given");
      adminCookie ??= (async () => {
        const cookie = await stack.signIn(admin);
        await passAdminMfa(stack.url, cookie);
        return cookie;
      })();
      return adminCookie;
    },
    open: (cookie?: string, pageOptions: Omit<WatchedPageOptions, "cookies"> = {}) =>
      openWatchedPage(stack.browser, { ...pageOptions, ...(cookie ? { cookies: toBrowserCookies(cookie, stack.url) } : {}) }),
    async withPage<T>(cookie: string | undefined, pageOptions: Omit<WatchedPageOptions, "cookies">, run: (watched: WatchedPage) => Promise<T>) {
      const watched = await stack.open(cookie, pageOptions);
      try {
        return await run(watched);
      } finally {
        await watched.context.close();
      }
    },
  } as E2eStack;
  beforeAll(async () => {
    const started = await startE2eStack(options);
    stop = started.stop;
    Object.assign(stack, { sink: started.sink, server: started.server, browser: started.browser, ...(started.database ? { database: started.database } : {}) });
    stack.restart = async (change) => {
      if (!started.restart) throw new Error("e2eStackForFile: restart needs the embedded database and the mail sink");
      await started.restart(change);
      stack.server = started.server;
    };
  });
  afterAll(() => stop?.());
  return stack;
}
