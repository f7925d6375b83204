import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { normalizeName } from "~/domain/sanctions-matching";
import type { SanctionsList } from "~/domain/sanctions";
import type { Db } from "~/server/platform/db/client.server";
import { sanctionsEntries, sanctionsListLoads } from "~/server/platform/db/schema.server";
import { parseOfacFiles, SanctionsFileError, type OfacEntry, type OfacFile, type ParsedList } from "./ofac-csv.server";

/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters at 11 columns a row. */
const INSERT_CHUNK = 1000;

export type LoadedList = { list: SanctionsList; publishedOn: string; fileNames: string[]; entryCount: number; loadId: string };

/** What a later screening compares to decide whether an entry changed since staff cleared a match on it. */
export function entryFingerprint(entry: OfacEntry): string {
  const shown = [entry.primaryName, entry.entityType, entry.programs, entry.aliases, entry.datesOfBirth, entry.countries];
  return createHash("sha256").update(JSON.stringify(shown)).digest("hex");
}

/** A real calendar date, yyyy-MM-dd, not after today (a future publication is a typing mistake). */
function checkPublishedOn(publishedOn: string, today: Date): void {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(publishedOn) ? new Date(`${publishedOn}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== publishedOn) {
    throw new SanctionsFileError("--published", undefined, `must be the list's publication date as YYYY-MM-DD (found "${publishedOn.slice(0, 40)}")`);
  }
  if (publishedOn > today.toISOString().slice(0, 10)) throw new SanctionsFileError("--published", undefined, `${publishedOn} is in the future`);
}

/** The lists a set of OFAC files makes up, read and checked whole, to be stored with storeSanctionsLists. */
export type SanctionsPublication = { publishedOn: string; lists: ParsedList[] };

/** Reads and checks the files and the publication date; throws SanctionsFileError, touching nothing. */
export function readSanctionsFiles(files: readonly OfacFile[], publishedOn: string, now = new Date()): SanctionsPublication {
  checkPublishedOn(publishedOn, now);
  return { publishedOn, lists: parseOfacFiles(files) };
}

/**
 * Loads OFAC's CSV files (see ofac-csv.server.ts) as the current publication of each list they make
 * up. Every file is read and checked before anything is written; then, in one transaction, each
 * list's previous entries are replaced by the new ones, so a screening sees the old list or the new
 * one, never part of either. Loads run one at a time (an advisory lock), whichever instance starts them.
 */
export async function loadSanctionsLists(db: Db, files: readonly OfacFile[], publishedOn: string, now = new Date()): Promise<LoadedList[]> {
  return storeSanctionsLists(db, readSanctionsFiles(files, publishedOn, now), now);
}

/** Replaces each list of the publication, all in one transaction. */
export async function storeSanctionsLists(db: Db, { publishedOn, lists }: SanctionsPublication, now = new Date()): Promise<LoadedList[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sanctions_lists.load'))`);
    const loaded: LoadedList[] = [];
    for (const parsed of lists) {
      const [load] = await tx
        .insert(sanctionsListLoads)
        .values({ list: parsed.list, publishedOn, fileNames: parsed.fileNames, entryCount: parsed.entries.length, loadedAt: now })
        .returning({ id: sanctionsListLoads.id });
      await tx.delete(sanctionsEntries).where(eq(sanctionsEntries.list, parsed.list));
      for (let start = 0; start < parsed.entries.length; start += INSERT_CHUNK) {
        const chunk = parsed.entries.slice(start, start + INSERT_CHUNK);
        await tx.insert(sanctionsEntries).values(
          chunk.map((entry) => ({
            listLoadId: load!.id,
            list: parsed.list,
            entityNumber: entry.entityNumber,
            primaryName: entry.primaryName,
            entityType: entry.entityType,
            programs: entry.programs,
            aliases: entry.aliases,
            datesOfBirth: entry.datesOfBirth,
            countries: entry.countries,
            nameKeys: [...new Set([entry.primaryName, ...entry.aliases.map((alias) => alias.name)].map(normalizeName).filter(Boolean))],
            fingerprint: entryFingerprint(entry),
          })),
        );
      }
      loaded.push({ list: parsed.list, publishedOn, fileNames: parsed.fileNames, entryCount: parsed.entries.length, loadId: load!.id });
    }
    return loaded;
  });
}
