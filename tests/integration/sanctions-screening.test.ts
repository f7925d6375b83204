import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSanctionsLists, sanctionsLoadCommand, screenPerson, type OfacFile } from "~/server/sanctions/index.server";
import { openTestDatabase, rowsOf, testTargets, type TestDatabase } from "../helpers/test-db";
import { tempDirMaker } from "../helpers/temp-config";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/sanctions");
const sdnPaths = ["sdn.csv", "add.csv", "alt.csv"].map((name) => path.join(fixtures, "sdn", name));
const consolidatedPaths = ["cons_prim.csv", "cons_add.csv", "cons_alt.csv"].map((name) => path.join(fixtures, "consolidated", name));
const filesAt = (paths: string[]): OfacFile[] => paths.map((file) => ({ name: path.basename(file), content: fs.readFileSync(file) }));

/** The SDN files with one file's text changed. */
function sdnWith(name: string, change: (text: string) => string): OfacFile[] {
  return filesAt(sdnPaths).map((file) => (file.name === name ? { name, content: change(file.content.toString("utf8")) } : file));
}

describe.each(testTargets)("sanctions lists and screening on %s", (target) => {
  let database: TestDatabase;
  const screen = (name: string, more: { dateOfBirth?: string; country?: string } = {}) => screenPerson({ name, ...more }, database.db, { threshold: 0.9 });

  beforeAll(async () => {
    database = await openTestDatabase({ target });
  });
  afterAll(() => database?.cleanup());

  it("before any list is loaded, a screening says it compared against nothing", async () => {
    expect(await screen("Rustam Karimov")).toEqual({ threshold: 0.9, lists: [], matches: [] });
  });

  it("loads both lists with their publication date and finds a listed person, with what helps staff decide", async () => {
    const loaded = await loadSanctionsLists(database.db, filesAt([...sdnPaths, ...consolidatedPaths]), "2026-12-01");
    expect(loaded.map(({ list, entryCount, publishedOn }) => ({ list, entryCount, publishedOn }))).toEqual([
      { list: "SDN", entryCount: 6, publishedOn: "2026-12-01" },
      { list: "Consolidated", entryCount: 2, publishedOn: "2026-12-01" },
    ]);

    const result = await screen("Rustam Karimov", { dateOfBirth: "1968-03-14", country: "United States" });
    expect(result.lists.map(({ list, publishedOn, entryCount }) => ({ list, publishedOn, entryCount }))).toEqual([
      { list: "Consolidated", publishedOn: "2026-12-01", entryCount: 2 },
      { list: "SDN", publishedOn: "2026-12-01", entryCount: 6 },
    ]);
    expect(result.matches).toHaveLength(1);
    expect(result.matches[0]).toMatchObject({
      list: "SDN",
      entityNumber: 1001,
      primaryName: "KARIMOV, Rustam Bakhtiyorovich",
      entityType: "individual",
      programs: ["SDGT", "IRGC"],
      matchedName: "KARIMOV, Rustam",
      matchedAs: "aka",
      score: 1,
      datesOfBirth: ["1968-03-14", "1969"],
      countries: ["Uzbekistan"],
      dateOfBirthAgrees: true,
      countryAgrees: false,
    });
    expect(result.matches[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("matches across the lists, through aliases, diacritics and word order, and not an unlisted name", async () => {
    expect((await screen("Ahmad Hasan")).matches.map((m) => [m.list, m.entityNumber, m.matchedAs])).toEqual([["Consolidated", 2001, "aka"]]);
    expect((await screen("Hans-Jürgen Müller")).matches.map((m) => m.entityNumber)).toEqual([1003]);
    expect((await screen("Emeka Okonkwo")).matches.map((m) => m.entityNumber)).toEqual([1005]);
    expect((await screen("Jane Doe")).matches).toEqual([]);
  });

  it("a new load of a list replaces its entries and leaves the other list alone", async () => {
    const before = (await screen("Ivan Petrov Sergeyevich")).matches[0]!;
    const withoutOkonkwo = sdnWith("sdn.csv", (text) => text.replace(/^1005,.*\r\n/m, "").replace("DOB 02 Feb 1971", "DOB 03 Feb 1971"));
    const altWithout = withoutOkonkwo.map((file) => (file.name === "alt.csv" ? { name: file.name, content: file.content.toString("utf8").replace(/^1005,.*\r\n/m, "") } : file));
    const [sdn] = await loadSanctionsLists(database.db, altWithout, "2026-12-03");
    expect(sdn).toMatchObject({ list: "SDN", entryCount: 5, publishedOn: "2026-12-03" });

    expect((await screen("Emeka Okonkwo")).matches).toEqual([]);
    expect((await screen("Ahmad Hasan")).matches.map((m) => m.entityNumber)).toEqual([2001]);
    const after = (await screen("Ivan Petrov Sergeyevich")).matches[0]!;
    // The changed entry has a new fingerprint; an unchanged one keeps its own.
    expect(after.datesOfBirth).toEqual(["1971-02-03"]);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    const unchangedBefore = (await screen("Rustam Karimov")).matches[0]!.fingerprint;
    await loadSanctionsLists(database.db, altWithout, "2026-12-04");
    expect((await screen("Rustam Karimov")).matches[0]!.fingerprint).toBe(unchangedBefore);

    const loads = await rowsOf<{ list: string; published_on: string; n: string | number }>(
      database,
      sql`select l.list, l.published_on::text, (select count(*) from sanctions_entries e where e.list_load_id = l.id) as n from sanctions_list_loads l order by l.loaded_at, l.list`,
    );
    // Every load is kept as a record; only each list's newest has entries.
    expect(loads.map((row) => [row.list, row.published_on, Number(row.n)])).toEqual([
      ["Consolidated", "2026-12-01", 2],
      ["SDN", "2026-12-01", 0],
      ["SDN", "2026-12-03", 0],
      ["SDN", "2026-12-04", 5],
    ]);
  });

  it("a file in the wrong format is refused with its name and line, and changes nothing", async () => {
    const count = async () => Number((await rowsOf<{ n: string | number }>(database, sql`select count(*) as n from sanctions_list_loads`))[0]!.n);
    const loadsBefore = await count();
    const broken = sdnWith("alt.csv", (text) => text.replace('1002,302,"aka"', '1002,302,"aka'));
    await expect(loadSanctionsLists(database.db, broken, "2026-12-05")).rejects.toThrow("alt.csv, line 2: not a line of comma-separated, double-quoted fields");
    await expect(loadSanctionsLists(database.db, filesAt(sdnPaths), "2026-13-01")).rejects.toThrow("--published: must be the list's publication date as YYYY-MM-DD");
    await expect(loadSanctionsLists(database.db, filesAt(sdnPaths), "2999-01-01")).rejects.toThrow("--published: 2999-01-01 is in the future");
    expect(await count()).toBe(loadsBefore);
    expect((await screen("Rustam Karimov")).lists.find((list) => list.list === "SDN")?.publishedOn).toBe("2026-12-04");
  });
});

describe("npm run sanctions:load", () => {
  const tempDir = tempDirMaker("sanctions-load");
  const run = async (argv: string[], env: Record<string, string> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await sanctionsLoadCommand(argv, { PWNED_PASSWORDS_URL: "off", ...env }, { log: (line) => out.push(line), error: (line) => err.push(line) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("refuses missing arguments with its usage", async () => {
    expect(await run(sdnPaths)).toMatchObject({ code: 2, err: expect.stringContaining("--published is required.") });
    expect(await run(["--published", "2026-12-01"])).toMatchObject({ code: 2, err: expect.stringContaining("Name the list's files.") });
  });

  it("refuses a wrong file before opening the database, naming the file and line", async () => {
    const dir = tempDir();
    const bad = path.join(dir, "sdn.csv");
    fs.writeFileSync(bad, "ent_num,SDN_Name\r\n");
    const result = await run(["--published", "2026-12-01", bad, ...sdnPaths.slice(1)], { DATA_DIR: path.join(dir, "never-created") });
    expect(result).toEqual({ code: 1, out: "", err: 'Cannot load the sanctions lists: sdn.csv, line 1: 2 fields where sdn.csv has 12' });
    expect(fs.existsSync(path.join(dir, "never-created"))).toBe(false);
  });

  it("loads the files into the configured database and says what it loaded", async () => {
    const dir = tempDir();
    const result = await run(["--published", "2026-12-01", ...sdnPaths], { DATA_DIR: dir });
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^Loaded the Specially Designated Nationals \(SDN\) List published 2026-12-01: 6 entries from sdn\.csv, add\.csv, alt\.csv \(database: /);
    // A first open of a new embedded data folder creates the cluster and migrates it: slow on a busy machine.
  }, 180_000);
});
