import { eq, exists, inArray, sql } from "drizzle-orm";
import type { SanctionsAlias, SanctionsList, ScreenedList, ScreeningResult } from "~/domain/sanctions";
import { buildNameIndex, countryAgrees, dateOfBirthAgrees, findNameMatches, type NameIndex } from "~/domain/sanctions-matching";
import { getConfig } from "~/server/platform/config.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { sanctionsEntries, sanctionsListLoads } from "~/server/platform/db/schema.server";
import type { OfacEntry } from "./ofac-csv.server";

/**
 * Screening a person against the current sanctions lists (decision 0089). The entries of the lists'
 * current loads are read once per load into an in-memory index (a few MB for the whole SDN list);
 * each screening asks the database only which loads are current, so a list loaded on another
 * instance is used from the next screening on. Nothing leaves the process: no network, no service.
 */

export type PersonToScreen = {
  /** The full name as the application gives it. */
  name: string;
  /** yyyy-MM-dd, when known: compared with the list's dates of birth to help staff decide. */
  dateOfBirth?: string;
  /** Country of residence or citizenship, when known: compared with the list's countries. */
  country?: string;
};

/** A list entry as loaded, with the list it is on and the fingerprint a cleared match is kept by. */
type ScreenedEntry = OfacEntry & { list: SanctionsList; fingerprint: string };

type ListsIndex = { key: string; lists: ScreenedList[]; index: NameIndex<ScreenedEntry> };

let cached: ListsIndex | undefined;
let building: { key: string; promise: Promise<ListsIndex | undefined> } | undefined;

type CurrentLoad = ScreenedList & { id: string };

/**
 * The current load of each list: the one whose entries are stored (a load replaces the list's
 * previous entries, and no load is empty), which needs no tie-break between loads of the same instant.
 */
async function currentLoads(db: DbOrTx): Promise<CurrentLoad[]> {
  return db
    .select({
      id: sanctionsListLoads.id,
      list: sanctionsListLoads.list,
      publishedOn: sanctionsListLoads.publishedOn,
      loadedAt: sanctionsListLoads.loadedAt,
      entryCount: sanctionsListLoads.entryCount,
    })
    .from(sanctionsListLoads)
    .where(exists(db.select({ one: sql`1` }).from(sanctionsEntries).where(eq(sanctionsEntries.listLoadId, sanctionsListLoads.id))))
    .orderBy(sanctionsListLoads.list);
}

const keyOf = (loads: CurrentLoad[]) => loads.map((load) => load.id).sort().join(",");

/** The entries of these loads, or undefined when a newer load replaced them between the two reads. */
async function readIndex(db: DbOrTx, loads: CurrentLoad[]): Promise<ListsIndex | undefined> {
  const rows = loads.length
    ? await db
        .select({
          list: sanctionsEntries.list,
          entityNumber: sanctionsEntries.entityNumber,
          primaryName: sanctionsEntries.primaryName,
          entityType: sanctionsEntries.entityType,
          programs: sanctionsEntries.programs,
          aliases: sanctionsEntries.aliases,
          datesOfBirth: sanctionsEntries.datesOfBirth,
          countries: sanctionsEntries.countries,
          fingerprint: sanctionsEntries.fingerprint,
        })
        .from(sanctionsEntries)
        .where(inArray(sanctionsEntries.listLoadId, loads.map((load) => load.id)))
    : [];
  const expected = loads.reduce((sum, load) => sum + load.entryCount, 0);
  if (rows.length !== expected) return undefined;
  const index = buildNameIndex(rows, (entry) => [{ name: entry.primaryName, kind: "primary" }, ...entry.aliases.map((alias) => ({ name: alias.name, kind: alias.kind }))]);
  return { key: keyOf(loads), lists: loads.map(({ id: _id, ...list }) => list), index };
}

/** The index of the current lists, built once per set of loads and shared by concurrent screenings. */
async function currentIndex(db: DbOrTx): Promise<ListsIndex> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const loads = await currentLoads(db);
    const key = keyOf(loads);
    if (cached?.key === key) return cached;
    if (building?.key !== key) {
      const promise = readIndex(db, loads);
      building = { key, promise };
      // A failed or outdated read is not kept: the next screening reads again.
      void promise
        .then((index) => {
          if (index) cached = index;
        }, () => undefined)
        .finally(() => {
          if (building?.promise === promise) building = undefined;
        });
    }
    const index = await building.promise;
    if (index) return index;
  }
  throw new Error("The sanctions lists were replaced during three reads in a row; screen again");
}

/**
 * Compares a person's name with every name and alias on the current lists: the potential matches
 * (similarity ≥ the threshold, SANCTIONS_MATCH_THRESHOLD unless given), best first, each with the
 * list entry, the name that matched, the score, and the entry's dates of birth and countries beside
 * the person's. `lists` says which publications were compared; it is empty when none was ever loaded.
 */
export async function screenPerson(person: PersonToScreen, db: DbOrTx, options: { threshold?: number } = {}): Promise<ScreeningResult> {
  const threshold = options.threshold ?? getConfig().sanctionsMatchThreshold;
  const { lists, index } = await currentIndex(db);
  const matches = findNameMatches(index, person.name, threshold).map(({ entry, name, kind, score }) => ({
    list: entry.list,
    entityNumber: entry.entityNumber,
    fingerprint: entry.fingerprint,
    primaryName: entry.primaryName,
    entityType: entry.entityType,
    programs: entry.programs,
    matchedName: name,
    matchedAs: kind as "primary" | SanctionsAlias["kind"],
    score,
    datesOfBirth: entry.datesOfBirth,
    countries: entry.countries,
    dateOfBirthAgrees: dateOfBirthAgrees(entry.datesOfBirth, person.dateOfBirth),
    countryAgrees: countryAgrees(entry.countries, person.country),
  }));
  return { threshold, lists, matches };
}

/** The publications screenings currently compare against (for the staff screens and the load command's report). */
export async function currentSanctionsLists(db: DbOrTx): Promise<ScreenedList[]> {
  return (await currentLoads(db)).map(({ id: _id, ...list }) => list);
}
