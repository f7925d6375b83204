import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { withAppDatabase, explainFailure, SCRIPT_FAILURE_WORDING, type CommandIo } from "~/server/platform/db/command.server";
import type { Db } from "~/server/platform/db/client.server";
import { ACH_RETURN_FILE_MAX_BYTES, ACH_RETURN_FILE_MESSAGES, readReturnFile, type ReturnFileLineError } from "./ach-return-file.server";
import { AchReturnFileRefused, importAchReturns } from "./ach-return-import.server";

const USAGE = `Usage: npm run ach:returns -- <file>
  Imports the bank's ACH return file (NACHA return entries with addenda 99): each returned debit,
  prenote and funding credit is matched to the entry we sent and returned, all or nothing. A file with
  any bad line is refused with each line's number and reason, and nothing changes.`;

/**
 * npm run ach:returns: the system imports a return file (its audit row names no person). Returns the
 * exit code: 0 imported, 1 refused or failed (the bad lines printed), 2 wrong arguments.
 */
export async function achReturnsCommand(argv: string[], io: CommandIo = console, options: { db?: Db; today?: string } = {}): Promise<number> {
  let file: string;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h", default: false } }, allowPositionals: true, strict: true });
    if (values.help) {
      io.log(USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new Error("Name one return file.");
    file = positionals[0]!;
  } catch (error) {
    io.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const size = fs.statSync(file).size;
    if (size > ACH_RETURN_FILE_MAX_BYTES) {
      io.error(`Cannot import ${file}: ${ACH_RETURN_FILE_MESSAGES.tooLarge}`);
      return 1;
    }
    const text = fs.readFileSync(file, "latin1");
    const name = path.basename(file);
    // Every record is read before the database is opened: a malformed file is refused at once.
    const read = readReturnFile(text);
    if (!read.ok) return refused(name, new AchReturnFileRefused(read.errors), io);
    const run = async (db: Db) => {
      try {
        const result = await importAchReturns(text, name, { actor: null, request: { userAgent: "npm run ach:returns" } }, db, options.today);
        io.log(`Imported ${name}: ${result.entryCount} returned entr${result.entryCount === 1 ? "y" : "ies"} (${result.debits} debits, ${result.prenotes} prenotes, ${result.credits} funding credits).`);
        return 0;
      } catch (error) {
        if (!(error instanceof AchReturnFileRefused)) throw error;
        return refused(name, error, io);
      }
    };
    return options.db ? await run(options.db) : await withAppDatabase((database) => run(database.db));
  } catch (error) {
    return explainFailure("import the return file", error, io, SCRIPT_FAILURE_WORDING);
  }
}

/** Prints a refusal: its sentence, then each bad line with its number. Exit code 1. */
function refused(name: string, error: AchReturnFileRefused, io: CommandIo): 1 {
  io.error(`Refused ${name}: ${error.message}`);
  const lines: ReturnFileLineError[] = error.lines.length === 1 && error.lines[0]!.line === 0 ? [] : error.lines;
  for (const line of lines) io.error(line.line > 0 ? `  line ${line.line}: ${line.reason}` : `  ${line.reason}`);
  return 1;
}
