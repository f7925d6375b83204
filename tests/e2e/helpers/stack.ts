import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { launchBrowser, startTestServer, testSecrets, type TestServer } from "../harness";

/**
 * What most end-to-end files start before their tests: a mail sink, the built server sending to it
 * (breached-password lookups off, since this machine is offline) and a browser; and stop afterwards.
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

/**
 * startSharedStack before the file's tests and its stop after them. Its parts are there once the
 * file's first hook has run: read them in hooks and tests, not at the top of the file.
 */
export function sharedStackForFile(env: Record<string, string | undefined>, prefix: string): SharedStack {
  const stack = {} as SharedStack;
  beforeAll(async () => {
    Object.assign(stack, await startSharedStack(env, prefix));
  });
  afterAll(() => stack.stop?.());
  return stack;
}

/** A server (no mail) and a browser, for the public pages. */
export async function startServerAndBrowser(env: Record<string, string | undefined> = {}): Promise<{ server: TestServer; browser: Browser }> {
  const [server, browser] = await Promise.all([startTestServer(env), launchBrowser()]);
  return { server, browser };
}

/**
 * A stack started before the file's tests and stopped after them. Its parts are there once the file's
 * first hook has run: read them in hooks and tests, not at the top of the file.
 */
export function stackForFile(env: Record<string, string | undefined> = {}): Stack {
  const stack = {} as Stack;
  beforeAll(async () => {
    Object.assign(stack, await startStack(env));
  });
  afterAll(() => stopStack(stack));
  return stack;
}

/** Client addresses from the documentation range, one after another, for X-Forwarded-For (throttles count per address). */
export function ipSequence(first: number): () => string {
  let next = first;
  return () => `198.51.100.${next++}`;
}
