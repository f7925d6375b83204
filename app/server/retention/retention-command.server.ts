import { parseArgs } from "node:util";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { explainFailure, withMigratedDatabase, type CommandIo } from "~/server/platform/db/command.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { describeDisposal, disposeExpiredRecords } from "./disposal.server";

const USAGE = `Usage: npm run retention -- [--dry-run]
Deletes every record past its retention period (app/server/retention/policy.server.ts) and the
documents' files, and writes one audit row. --dry-run counts what would go and changes nothing.
With the embedded database, stop the server first (the running server does this once a day itself).`;

/** `npm run retention`: one disposal run on the configured database and storage; returns the exit code. */
export async function retentionCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo = console): Promise<number> {
  let dryRun: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { "dry-run": { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
      strict: true,
    });
    if (values.help) {
      io.log(USAGE);
      return 0;
    }
    dryRun = values["dry-run"];
  } catch (error) {
    io.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const config = loadConfig(env);
    setConfig(config);
    return await withMigratedDatabase(config, async (database) => {
      const result = await disposeExpiredRecords({ db: database.db, storage: getStorage(), dryRun, log: io.error });
      io.log(describeDisposal(result));
      return result.filesFailed.length > 0 ? 1 : 0;
    });
  } catch (error) {
    return explainFailure("run the disposal", error, io, {
      lockedHint: "The running server disposes of expired records once a day by itself; stop it first to run this by hand.",
    });
  }
}
