import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { promisify } from "node:util";

/**
 * A PostgreSQL 15 cluster of a test's own (initdb in a temporary folder, a free port, its unix socket
 * in that folder), so the test may stop and start it without disturbing the machine's shared server.
 * PostgreSQL refuses to run as root: as root, every command runs as the `postgres` OS user.
 */

export const PG_BIN = "/usr/lib/postgresql/15/bin";
export const ownPostgresAvailable = fs.existsSync(`${PG_BIN}/initdb`);

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

async function pg(command: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", `${PG_BIN}/${command}`, ...args]] : [`${PG_BIN}/${command}`, args];
  const { stdout } = await run(file, argv, { timeout: 120_000 });
  return stdout;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type OwnPostgres = {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** pg_ctl stop -m fast: sessions are ended (57P01), new connections refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
};

export async function startOwnPostgres(): Promise<OwnPostgres> {
  // The folder must belong to the user the server runs as.
  const dir = asRoot
    ? (await run("runuser", ["-u", "postgres", "--", "mktemp", "-d", "/tmp/portal-own-pg-XXXXXX"])).stdout.trim()
    : fs.mkdtempSync("/tmp/portal-own-pg-");
  const data = `${dir}/data`;
  await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const start = async () => {
    await pg("pg_ctl", ["start", "-D", data, "-l", `${dir}/server.log`, "-w", "-t", "60", "-o", options]);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop: async () => {
      await pg("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w", "-t", "60"]);
    },
    destroy: async () => {
      await pg("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
