import { parseArgs } from "node:util";
import { loadConfig, setConfig, type AppConfig } from "~/server/platform/config.server";
import { explainFailure, type CommandIo } from "~/server/platform/db/command.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { createBackup, type BackupTarget } from "./backup.server";
import { BackupError } from "./manifest.server";
import { restoreBackup } from "./restore.server";

/**
 * `npm run backup -- <folder>` and `npm run restore -- <folder> [--force]` on the configured database
 * (DATABASE_URL, else the embedded one in DATA_DIR) and document storage (S3_*, else DATA_DIR/storage).
 * Both return the process exit code: 0 done, 1 refused or failed, 2 bad arguments.
 */

type FolderArgs = { folder: string; force: boolean };

const BACKUP_USAGE = `Usage: npm run backup -- <folder>
Writes the database and every stored document into <folder> (new or empty), with manifest.json
(checksums, migration level, app version). With the embedded database, stop the server first.
The backup holds customer data: keep it encrypted and access-controlled. ENCRYPTION_KEY and
APP_SECRET are not in it; keep them in the secret store, apart from the backups.`;

const RESTORE_USAGE = `Usage: npm run restore -- <folder> [--force]
Restores a backup into the configured database and document storage, which must be empty;
--force replaces their current content. Every checksum is verified before anything is written.
With the embedded database, the server must be stopped.`;

function targetOf(config: AppConfig): BackupTarget {
  return config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir };
}

function parse(argv: string[], usage: string, io: CommandIo, withForce: boolean): FolderArgs | number {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        help: { type: "boolean", short: "h", default: false },
        ...(withForce ? { force: { type: "boolean", default: false } } : {}),
      },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.log(usage);
      return 0;
    }
    if (positionals.length !== 1) throw new Error("Give exactly one folder.");
    return { folder: positionals[0]!, force: Boolean((values as { force?: boolean }).force) };
  } catch (error) {
    io.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
}

/**
 * The shape both commands share: parse the folder argument (exit 2 on bad arguments), load the
 * configuration, run `body` (exit 0), and explain any failure as "Cannot <what>: …" (exit 1).
 */
async function runFolderCommand(
  what: string,
  parsed: FolderArgs | number,
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  body: (args: FolderArgs, config: AppConfig) => Promise<void>,
): Promise<number> {
  if (typeof parsed === "number") return parsed;
  try {
    const config = loadConfig(env);
    setConfig(config);
    await body(parsed, config);
    return 0;
  } catch (error) {
    return explainFailure(what, error, io, {
      lockedHint: "The embedded database can only be copied consistently while no server uses it: stop the server, then run this again.",
      expected: [BackupError],
    });
  }
}

export async function backupCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo = console): Promise<number> {
  return runFolderCommand("back up", parse(argv, BACKUP_USAGE, io, false), env, io, async (args, config) => {
    const manifest = await createBackup({ folder: args.folder, target: targetOf(config), storage: getStorage(), env });
    io.log(
      `Backed up the ${manifest.database.kind === "postgres" ? "PostgreSQL" : "embedded"} database (${manifest.database.migrations.applied} migrations) ` +
        `and ${manifest.storage.objectCount} documents from ${manifest.storage.source} into ${args.folder}.`,
    );
    io.log("ENCRYPTION_KEY and APP_SECRET are not in the backup: keep them in the secret store, apart from it.");
    if (manifest.storage.missing.length > 0) {
      io.error(
        `Warning: ${manifest.storage.missing.length} documents the database names were not in the storage (listed in manifest.json under storage.missing).`,
      );
    }
  });
}

export async function restoreCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo = console): Promise<number> {
  return runFolderCommand("restore", parse(argv, RESTORE_USAGE, io, true), env, io, async (args, config) => {
    const { manifest, warnings } = await restoreBackup({
      folder: args.folder,
      target: targetOf(config),
      storage: getStorage(),
      force: args.force,
      encryptionKeyVersions: config.encryptionKeys.map((k) => k.version),
      env,
    });
    io.log(
      `Restored the backup of ${manifest.createdAt} (version ${manifest.app.version}, ${manifest.database.migrations.applied} migrations) ` +
        `and ${manifest.storage.objectCount} documents, every checksum verified.`,
    );
    for (const warning of warnings) io.error(`Warning: ${warning}`);
  });
}
