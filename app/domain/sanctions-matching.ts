/**
 * Name matching for sanctions screening (decision 0089). Pure: no I/O, so the same rules run in the
 * tests, the bench and the server, and nothing about a person ever leaves the process.
 *
 * A name is normalised (transliterated to ASCII, lower case, punctuation gone, spaces collapsed) and
 * compared twice with Jaro-Winkler: as written and with its words sorted, so "SMITH, John" and
 * "John Smith" are the same name. The score is the better of the two; every alias counts as a name.
 */
import anyAscii from "any-ascii";
// The path with its extension: Node resolves a package subpath without an exports map only so.
import talismanJaroWinkler from "talisman/metrics/jaro-winkler.js";

/** Input past this many characters is not read: no real name is longer, and the cost stays bounded. */
const MAX_INPUT_LENGTH = 300;
/** Normalised names are compared on at most this many characters. */
const MAX_KEY_LENGTH = 120;

/**
 * Lower-case ASCII words separated by single spaces. Symbols are dropped before transliterating
 * (any-ascii spells an emoji out as ":smile:", which is not part of a name); apostrophes join
 * ("O'Brien" is "obrien"), every other punctuation mark separates words ("AL-QAIDA" is "al qaida").
 */
export function normalizeName(value: string): string {
  const letters = value
    .slice(0, MAX_INPUT_LENGTH)
    .normalize("NFC")
    .replace(/[^\p{L}\p{M}\p{N}\s'’ʼ`.,;:()/&-]/gu, " ");
  return anyAscii(letters)
    .toLowerCase()
    .replace(/['’ʼ`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .slice(0, MAX_KEY_LENGTH)
    .trim();
}

/** The two forms a name is compared in: as written, and its words in alphabetical order. */
export type NameKey = { full: string; sorted: string };

export function nameKey(value: string): NameKey {
  const full = normalizeName(value);
  return { full, sorted: full.split(" ").sort().join(" ") };
}

/**
 * Jaro-Winkler similarity, 0 to 1 (talisman's: Winkler's prefix step of up to 4 common leading
 * characters, 0.1 each, from a Jaro of 0.7).
 */
export const jaroWinkler: (a: string, b: string) => number = talismanJaroWinkler;

/** What the prefix step can add at most: 4 characters × 0.1 of what Jaro leaves (used to skip names, below). */
const WINKLER_MAX_BOOST = 0.4;

/** How similar two names are, 0 to 1: the better of the names as written and with their words sorted. */
export function keySimilarity(a: NameKey, b: NameKey): number {
  if (!a.full || !b.full) return 0;
  if (a.full === b.full || a.sorted === b.sorted) return 1;
  return Math.max(talismanJaroWinkler(a.full, b.full), talismanJaroWinkler(a.sorted, b.sorted));
}

export function nameSimilarity(a: string, b: string): number {
  return keySimilarity(nameKey(a), nameKey(b));
}

// --- An index of many names, for screening one name against a whole list ------------------------

/**
 * Slots of the character counts: a-z, 0-9 and the space (the only characters a normalised name has).
 * A count never passes 255: keys are at most MAX_KEY_LENGTH characters.
 */
const SLOTS = 37;
const slotOf = (code: number) => (code === 32 ? 36 : code <= 57 ? 26 + code - 48 : code - 97);

function countInto(target: Uint8Array, offset: number, key: string): void {
  for (let i = 0; i < key.length; i++) {
    const slot = offset + slotOf(key.charCodeAt(i));
    target[slot] = Math.min(255, target[slot]! + 1);
  }
}

/**
 * The highest Jaro-Winkler two strings of these lengths sharing at most `common` characters can
 * reach: Jaro is at most (m/|a| + m/|b| + 1) / 3 with m matching characters (none transposed), and
 * the prefix step adds at most 0.4 of what is left. Both forms of a name have the same characters,
 * so one bound covers both comparisons.
 */
function upperBound(common: number, lengthA: number, lengthB: number): number {
  if (common === 0) return 0;
  const jaroMax = (common / lengthA + common / lengthB + 1) / 3;
  return jaroMax + WINKLER_MAX_BOOST * (1 - jaroMax);
}

/**
 * Every name of every entry, normalised once, with its character counts: a screening skips, by the
 * bound above, every name that cannot reach the threshold, and compares only the rest.
 */
export type NameIndex<T> = {
  entries: readonly T[];
  /** Per name: its entry's position, the name as the list writes it and what it is. */
  owner: Int32Array;
  names: string[];
  kinds: string[];
  keys: NameKey[];
  counts: Uint8Array;
};

export function buildNameIndex<T>(entries: readonly T[], namesOf: (entry: T) => readonly { name: string; kind: string }[]): NameIndex<T> {
  const owner: number[] = [];
  const names: string[] = [];
  const kinds: string[] = [];
  const keys: NameKey[] = [];
  entries.forEach((entry, position) => {
    for (const { name, kind } of namesOf(entry)) {
      const key = nameKey(name);
      if (!key.full) continue;
      owner.push(position);
      names.push(name);
      kinds.push(kind);
      keys.push(key);
    }
  });
  const counts = new Uint8Array(keys.length * SLOTS);
  keys.forEach((key, i) => countInto(counts, i * SLOTS, key.full));
  return { entries, owner: Int32Array.from(owner), names, kinds, keys, counts };
}

export type NameMatch<T> = { entry: T; name: string; kind: string; score: number };

/**
 * The entries with a name at least `threshold` similar to `name` (score ≥ threshold), each with its
 * best-matching name, best score first. An empty or unreadable name matches nothing.
 */
export function findNameMatches<T>(index: NameIndex<T>, name: string, threshold: number): NameMatch<T>[] {
  const key = nameKey(name);
  if (!key.full) return [];
  const queryCounts = new Uint8Array(SLOTS);
  countInto(queryCounts, 0, key.full);
  // Only the slots the name uses can share characters.
  const used = [...queryCounts.keys()].filter((slot) => queryCounts[slot]! > 0);
  const length = key.full.length;
  const best = new Map<number, NameMatch<T>>();
  const { owner, keys, counts } = index;
  for (let i = 0; i < keys.length; i++) {
    const other = keys[i]!;
    const otherLength = other.full.length;
    if (upperBound(Math.min(length, otherLength), length, otherLength) < threshold) continue;
    let common = 0;
    const base = i * SLOTS;
    for (const slot of used) common += Math.min(queryCounts[slot]!, counts[base + slot]!);
    if (upperBound(common, length, otherLength) < threshold) continue;
    const score = keySimilarity(key, other);
    if (score < threshold) continue;
    const position = owner[i]!;
    const previous = best.get(position);
    if (!previous || score > previous.score) {
      best.set(position, { entry: index.entries[position]!, name: index.names[i]!, kind: index.kinds[i]!, score });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

// --- What helps staff decide ---------------------------------------------------------------------

/**
 * Whether a date of birth (yyyy-MM-dd) agrees with the list's: a list date is a year, a month or a
 * day, and agrees when the person's date falls in it. null when either side has none.
 */
export function dateOfBirthAgrees(listDates: readonly string[], dateOfBirth: string | undefined): boolean | null {
  if (!dateOfBirth || listDates.length === 0) return null;
  return listDates.some((listDate) => dateOfBirth.startsWith(listDate));
}

/** Whether the person's country is one the list names for the entry (compared as normalised names). null when either has none. */
export function countryAgrees(listCountries: readonly string[], country: string | undefined): boolean | null {
  const wanted = country ? normalizeName(country) : "";
  if (!wanted || listCountries.length === 0) return null;
  return listCountries.some((listCountry) => normalizeName(listCountry) === wanted);
}
