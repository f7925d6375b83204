import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildNameIndex,
  countryAgrees,
  dateOfBirthAgrees,
  findNameMatches,
  jaroWinkler,
  keySimilarity,
  nameKey,
  nameSimilarity,
  normalizeName,
} from "~/domain/sanctions-matching";

/** Entries shaped like the list's: a primary name and aliases. */
type Entry = { id: number; primaryName: string; aliases: string[] };
const namesOf = (entry: Entry) => [{ name: entry.primaryName, kind: "primary" }, ...entry.aliases.map((name) => ({ name, kind: "aka" }))];

const entries: Entry[] = [
  { id: 1, primaryName: "KARIMOV, Rustam Bakhtiyorovich", aliases: ["KARIMOV, Rustam"] },
  { id: 2, primaryName: "AL-NOURI TRADING COMPANY", aliases: ["NOURI TRADING CO."] },
  { id: 3, primaryName: "MULLER, Hans-Jurgen", aliases: [] },
  { id: 4, primaryName: "OKONKWO, Chidi Emmanuel", aliases: ["OKONKWO, Emeka"] },
  { id: 5, primaryName: "O'BRIEN, Sean", aliases: [] },
];
const index = buildNameIndex(entries, namesOf);
const matchedIds = (name: string, threshold = 0.9) => findNameMatches(index, name, threshold).map((m) => m.entry.id);

describe("normalising a name", () => {
  it("transliterates diacritics and other scripts, lower-cases, and drops punctuation and symbols", () => {
    expect(normalizeName("Hans-Jürgen Müller")).toBe("hans jurgen muller");
    expect(normalizeName("  SMITH,   John  ")).toBe("smith john");
    expect(normalizeName("Иван Петров")).toBe("ivan petrov");
    expect(normalizeName("O’Brien")).toBe("obrien");
    expect(normalizeName("John 😀 Smith")).toBe("john smith");
    expect(normalizeName("J.P. de la Cruz")).toBe("j p de la cruz");
    expect(normalizeName("😀 ✓ ★")).toBe("");
  });

  it("sorts the words for the word-order comparison", () => {
    expect(nameKey("SMITH, John")).toEqual({ full: "smith john", sorted: "john smith" });
  });
});

describe("Jaro-Winkler", () => {
  it("gives Winkler's published figures", () => {
    expect(jaroWinkler("martha", "marhta")).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler("dwayne", "duane")).toBeCloseTo(0.84, 4);
    expect(jaroWinkler("dixon", "dicksonx")).toBeCloseTo(0.8133, 4);
  });

  it("counts at most four prefix characters, so a long shared beginning never scores above 1 (the index's skipping bound relies on it)", () => {
    // Jaro 0.9583; four prefix characters lift it by 0.4 of the rest, not 1.5 of it.
    expect(jaroWinkler("abcdefghijklmnop", "abcdefghijklmnoq")).toBeCloseTo(0.975, 10);
  });

  it("is 1 for equal names and 0 when nothing is shared", () => {
    expect(jaroWinkler("a", "a")).toBe(1);
    expect(jaroWinkler("abc", "xyz")).toBe(0);
    expect(nameSimilarity("", "")).toBe(0);
  });
});

describe("name similarity", () => {
  it("ignores word order", () => {
    expect(nameSimilarity("Rustam Karimov", "KARIMOV, Rustam")).toBe(1);
    expect(nameSimilarity("Jurgen Hans Muller", "MULLER, Hans-Jurgen")).toBe(1);
  });

  it("ignores diacritics and case", () => {
    expect(nameSimilarity("Hans-Jürgen Müller", "MULLER, Hans-Jurgen")).toBe(1);
  });

  it("ignores punctuation", () => {
    expect(nameSimilarity("Al Nouri Trading Company", "AL-NOURI TRADING COMPANY")).toBe(1);
    expect(nameSimilarity("Sean OBrien", "O'BRIEN, Sean")).toBe(1);
  });

  it("scores a near spelling high and a different name low", () => {
    expect(nameSimilarity("Rustam Karimow", "KARIMOV, Rustam")).toBeGreaterThan(0.9);
    expect(nameSimilarity("Jane Doe", "KARIMOV, Rustam")).toBeLessThan(0.6);
  });
});

describe("screening against an index", () => {
  it("finds a listed person whatever the word order, diacritics or punctuation", () => {
    expect(matchedIds("Rustam Karimov")).toEqual([1]);
    expect(matchedIds("Hans Jürgen Müller")).toEqual([3]);
    expect(matchedIds("Sean O'Brien")).toEqual([5]);
  });

  it("finds a person by an alias and says which name matched", () => {
    const [match] = findNameMatches(index, "Emeka Okonkwo", 0.9);
    expect(match).toMatchObject({ entry: { id: 4 }, name: "OKONKWO, Emeka", kind: "aka", score: 1 });
  });

  it("gives one match per entry, its best name", () => {
    const matches = findNameMatches(index, "Karimov Rustam", 0.5);
    expect(matches.filter((m) => m.entry.id === 1)).toHaveLength(1);
    expect(matches[0]).toMatchObject({ entry: { id: 1 }, name: "KARIMOV, Rustam", score: 1 });
    expect(matches.map((m) => m.score)).toEqual([...matches.map((m) => m.score)].sort((a, b) => b - a));
  });

  it("matches at the threshold and not above the score", () => {
    const score = nameSimilarity("Rustam Karimow", "KARIMOV, Rustam");
    expect(score).toBeLessThan(1);
    expect(matchedIds("Rustam Karimow", score)).toContain(1);
    expect(matchedIds("Rustam Karimow", score + 1e-9)).not.toContain(1);
  });

  it("finds nothing for a name not on the list, an empty name or a name of symbols", () => {
    expect(matchedIds("Jane Doe")).toEqual([]);
    expect(matchedIds("")).toEqual([]);
    expect(matchedIds("😀😀")).toEqual([]);
  });

  it("skips only names that cannot reach the threshold: the index finds what comparing every name finds", () => {
    // Names from a small alphabet, so near matches are common and the skipping bound is tested near its edge.
    const word = fc.string({ unit: fc.constantFrom("a", "b", "e", "n", "r", "s", "o", "-", " ", "é"), minLength: 1, maxLength: 14 });
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 25 }), word, fc.double({ min: 0, max: 1, noNaN: true }), (lists, query, threshold) => {
        const many = lists.map((names, id) => ({ id, primaryName: names[0]!, aliases: names.slice(1) }));
        const found = findNameMatches(buildNameIndex(many, namesOf), query, threshold);
        const expected = many.filter((entry) => namesOf(entry).some(({ name }) => nameKey(name).full && keySimilarity(nameKey(query), nameKey(name)) >= threshold));
        expect(found.map((m) => m.entry.id).sort((a, b) => a - b)).toEqual(nameKey(query).full ? expected.map((e) => e.id) : []);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on any Unicode name, and scores stay between 0 and 1", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.array(fc.string({ unit: "binary", maxLength: 60 }), { maxLength: 5 }), (query, names) => {
        const many = names.map((name, id) => ({ id, primaryName: name, aliases: [] }));
        for (const match of findNameMatches(buildNameIndex(many, namesOf), query, 0)) {
          expect(match.score).toBeGreaterThanOrEqual(0);
          expect(match.score).toBeLessThanOrEqual(1);
        }
        const score = nameSimilarity(query, names[0] ?? "");
        expect(score >= 0 && score <= 1).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("what helps staff decide", () => {
  it("compares a date of birth with the list's day, month or year", () => {
    expect(dateOfBirthAgrees(["1968-03-14", "1969"], "1968-03-14")).toBe(true);
    expect(dateOfBirthAgrees(["1968-03-14", "1969"], "1969-07-01")).toBe(true);
    expect(dateOfBirthAgrees(["1959-06"], "1959-06-30")).toBe(true);
    expect(dateOfBirthAgrees(["1968-03-14"], "1968-03-15")).toBe(false);
    expect(dateOfBirthAgrees([], "1968-03-14")).toBeNull();
    expect(dateOfBirthAgrees(["1968"], undefined)).toBeNull();
  });

  it("compares a country by its normalised name", () => {
    expect(countryAgrees(["Russia"], "RUSSIA")).toBe(true);
    expect(countryAgrees(["United Arab Emirates"], "United States")).toBe(false);
    expect(countryAgrees([], "Russia")).toBeNull();
    expect(countryAgrees(["Russia"], "")).toBeNull();
  });
});
