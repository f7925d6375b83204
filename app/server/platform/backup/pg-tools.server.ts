import { spawn } from "node:child_process";
import { BackupError } from "./manifest.server";

/**
 * pg_dump and pg_restore (PostgreSQL client tools, version at least the server's). The password is
 * passed in PGPASSWORD, not on the command line, so it never shows in the process list.
 */

function connection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

function run(tool: string, args: string[], databaseUrl: string, baseEnv: NodeJS.ProcessEnv): Promise<void> {
  const { dbname, env } = connection(databaseUrl);
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${dbname}`], { stdio: ["ignore", "ignore", "pipe"], env: { ...baseEnv, ...env } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${tool} was not found: install the PostgreSQL client tools (Debian: apt-get install postgresql-client), version ${"≥"} the server's`
            : `${tool} could not start: ${error.message}`,
        ),
      ),
    );
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** A custom-format dump taken in an exported snapshot, so it matches what the caller read in it. */
export function pgDump(options: { databaseUrl: string; file: string; snapshot: string; env: NodeJS.ProcessEnv }): Promise<void> {
  return run("pg_dump", ["--format=custom", `--snapshot=${options.snapshot}`, `--file=${options.file}`], options.databaseUrl, options.env);
}

/**
 * Into an empty database, all or nothing (--single-transaction). Ownership and grants are left to the
 * target's roles: a restore usually lands on another server with other role names.
 */
export function pgRestore(options: { databaseUrl: string; file: string; env: NodeJS.ProcessEnv }): Promise<void> {
  return run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", options.file], options.databaseUrl, options.env);
}
