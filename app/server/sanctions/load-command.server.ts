import fs from "node:fs";
import { parseArgs } from "node:util";
import { SANCTIONS_LIST_LABELS } from "~/domain/sanctions";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { explainFailure, withMigratedDatabase, type CommandIo } from "~/server/platform/db/command.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { rescreenAll, type ScreeningSubjectsPage } from "./application-screening.server";
import { readSanctionsFiles, storeSanctionsLists } from "./list-load.server";
import { SanctionsFileError, type OfacFile } from "./ofac-csv.server";

const USAGE = `Usage: npm run sanctions:load -- --published YYYY-MM-DD <files>
  Loads OFAC's CSV files as the current sanctions lists: sdn.csv, add.csv and alt.csv (the SDN list)
  and/or cons_prim.csv, cons_add.csv and cons_alt.csv (the Consolidated list), each with its optional
  sdn_comments.csv / cons_comments.csv. --published is the
  list's publication date as OFAC states it (its CSV files carry none).`;

/** Larger than any list OFAC publishes (sdn.csv is a few MB), small enough to read whole. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;

/**
 * Who is screened again after a load, on the command's database: the applications module's
 * screeningSubjectsPage (this module does not read its tables, so the command is given it).
 */
export type LoadCommandOptions = { subjects?: (db: DbOrTx) => ScreeningSubjectsPage };

/**
 * npm run sanctions:load: reads and checks every file, then replaces the lists they make up in one
 * transaction. A file in the wrong format is refused with its name and line, and nothing changes.
 * Then every application `subjects` names (open applications and active borrowers) is screened
 * against the new lists, and the count of new potential matches printed.
 * Returns the exit code: 0 loaded, 1 refused or failed, 2 wrong arguments.
 */
export async function sanctionsLoadCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo = console, options: LoadCommandOptions = {}): Promise<number> {
  let publishedOn: string;
  let paths: string[];
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { published: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.log(USAGE);
      return 0;
    }
    if (!values.published || positionals.length === 0) throw new Error(values.published ? "Name the list's files." : "--published is required.");
    publishedOn = values.published;
    paths = positionals;
  } catch (error) {
    io.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const files: OfacFile[] = paths.map((file) => {
      const size = fs.statSync(file).size;
      if (size > MAX_FILE_BYTES) throw new SanctionsFileError(file, undefined, `${size} bytes is more than an OFAC list file holds`);
      return { name: file, content: fs.readFileSync(file) };
    });
    // Every file is checked before the database is opened: a wrong file changes nothing.
    const publication = readSanctionsFiles(files, publishedOn);
    const config = loadConfig(env);
    setConfig(config);
    return await withMigratedDatabase(config, async (database) => {
      const loaded = await storeSanctionsLists(database.db, publication);
      for (const list of loaded) {
        io.log(`Loaded the ${SANCTIONS_LIST_LABELS[list.list]} published ${list.publishedOn}: ${list.entryCount} entries from ${list.fileNames.join(", ")} (database: ${database.describe}).`);
      }
      if (options.subjects) {
        const rescreened = await rescreenAll(database.db, options.subjects(database.db));
        io.log(`Re-screened ${rescreened.screened} application${rescreened.screened === 1 ? "" : "s"}: ${rescreened.newMatches} potential match${rescreened.newMatches === 1 ? "" : "es"}.`);
      }
      return 0;
    });
  } catch (error) {
    return explainFailure("load the sanctions lists", error, io, {
      lockedHint: "Stop the server first (the embedded database serves one process at a time), then run this again.",
      expected: [SanctionsFileError],
      driverCause: false,
    });
  }
}
