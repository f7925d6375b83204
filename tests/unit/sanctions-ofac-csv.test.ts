import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listDates, parseOfacFiles, remarksFacts, splitCsvLine, type OfacFile } from "~/server/sanctions/ofac-csv.server";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/sanctions");
const read = (folder: string, name: string): OfacFile => ({ name, content: fs.readFileSync(path.join(fixtures, folder, name)) });
const sdnFiles = () => ["sdn.csv", "add.csv", "alt.csv"].map((name) => read("sdn", name));
const consolidatedFiles = () => ["cons_prim.csv", "cons_add.csv", "cons_alt.csv"].map((name) => read("consolidated", name));

/** The SDN files with one file's text changed. */
function withChanged(name: string, change: (text: string) => string): OfacFile[] {
  return sdnFiles().map((file) => (file.name === name ? { name, content: change(file.content.toString("utf8")) } : file));
}
const refusal = (files: OfacFile[]) => {
  try {
    parseOfacFiles(files);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the files were accepted");
};

describe("OFAC's CSV files", () => {
  it("reads the SDN list: names, types, programs, aliases, dates of birth and countries", () => {
    const [sdn] = parseOfacFiles(sdnFiles());
    expect(sdn!.list).toBe("SDN");
    expect(sdn!.fileNames).toEqual(["sdn.csv", "add.csv", "alt.csv"]);
    expect(sdn!.entries).toHaveLength(6);
    const byNumber = new Map(sdn!.entries.map((entry) => [entry.entityNumber, entry]));
    expect(byNumber.get(1001)).toEqual({
      entityNumber: 1001,
      primaryName: "KARIMOV, Rustam Bakhtiyorovich",
      entityType: "individual",
      programs: ["SDGT", "IRGC"],
      aliases: [{ kind: "aka", name: "KARIMOV, Rustam" }],
      datesOfBirth: ["1968-03-14", "1969"],
      countries: ["Uzbekistan"],
    });
    expect(byNumber.get(1002)).toMatchObject({
      entityType: "entity",
      programs: ["SYRIA"],
      aliases: [{ kind: "aka", name: "NOURI TRADING CO." }, { kind: "fka", name: "AL NURI GENERAL TRADING" }],
      datesOfBirth: [],
      countries: ["Syria"],
    });
    expect(byNumber.get(1003)).toMatchObject({ datesOfBirth: ["1959-06"], countries: ["Germany"] });
    expect(byNumber.get(1004)).toMatchObject({ entityType: "vessel", primaryName: "SEA FALCON" });
    expect(byNumber.get(1005)).toMatchObject({ datesOfBirth: ["1975"], countries: ["Nigeria"] });
    // A quoted field with commas and doubled quotes inside; two programs; nationality and citizenship once.
    expect(byNumber.get(1006)).toMatchObject({ programs: ["UKRAINE-EO13660", "RUSSIA-EO14024"], datesOfBirth: ["1971-02-02"], countries: ["Russia"] });
  });

  it("reads the Consolidated list beside the SDN list", () => {
    const lists = parseOfacFiles([...sdnFiles(), ...consolidatedFiles()]);
    expect(lists.map((list) => [list.list, list.entries.length])).toEqual([
      ["SDN", 6],
      ["Consolidated", 2],
    ]);
    expect(lists[1]!.entries[0]).toMatchObject({ primaryName: "HASSAN, Ahmed Mahmoud", datesOfBirth: ["1960", "1961", "1962"], countries: ["Egypt"] });
  });

  it("reads the end of a long Remarks from the comments file when it is given", () => {
    const [sdn] = parseOfacFiles([...sdnFiles(), read("sdn", "sdn_comments.csv")]);
    expect(sdn!.fileNames).toEqual(["sdn.csv", "add.csv", "alt.csv", "sdn_comments.csv"]);
    expect(sdn!.entries.find((entry) => entry.entityNumber === 1003)).toMatchObject({ datesOfBirth: ["1959-06", "1960-06-12"], countries: ["Germany", "Austria"] });
  });

  it("splits quoted and bare fields", () => {
    expect(splitCsvLine('36,"AERO, ""X"" LTD","-0- ",1')).toEqual(["36", 'AERO, "X" LTD', "-0- ", "1"]);
    expect(splitCsvLine('36,"open')).toBeNull();
    expect(splitCsvLine('36,"a"b')).toBeNull();
  });

  it("reads the list's ways of writing a date of birth", () => {
    expect(listDates("01 Jan 1970")).toEqual(["1970-01-01"]);
    expect(listDates("Jan 1970")).toEqual(["1970-01"]);
    expect(listDates("circa 1970")).toEqual(["1970"]);
    expect(listDates("1966 to 1968")).toEqual(["1966", "1967", "1968"]);
    expect(listDates("unknown")).toEqual([]);
    expect(remarksFacts("DOB 14 Mar 1968; alt. DOB 1969; POB Tashkent; nationality Uzbekistan; citizen Uzbekistan.")).toEqual({
      datesOfBirth: ["1968-03-14", "1969"],
      countries: ["Uzbekistan", "Uzbekistan"],
    });
  });
});

describe("a file in the wrong format is refused with its name and line", () => {
  it("a header row", () => {
    expect(refusal(withChanged("sdn.csv", (text) => `ent_num,SDN_Name,SDN_Type,Program,Title,Call_Sign,Vess_type,Tonnage,GRT,Vess_flag,Vess_owner,Remarks\r\n${text}`))).toBe(
      'sdn.csv, line 1: ent_num must be a number (found "ent_num")',
    );
  });

  it("a line with fields missing", () => {
    expect(refusal(withChanged("add.csv", (text) => text.replace('1002,202,"12 Example Street",', "1002,202,")))).toBe("add.csv, line 2: 5 fields where add.csv has 6");
  });

  it("a quote left open", () => {
    expect(refusal(withChanged("alt.csv", (text) => text.replace('"NOURI TRADING CO."', '"NOURI TRADING CO.')))).toBe(
      "alt.csv, line 2: not a line of comma-separated, double-quoted fields",
    );
  });

  it("an alias of an entry the list does not have", () => {
    expect(refusal(withChanged("alt.csv", (text) => text.replace("1005,304,", "9999,304,")))).toBe("alt.csv, line 4: ent_num 9999 is not in sdn.csv");
  });

  it("an unknown alias type, an unknown SDN_Type, an entity number twice", () => {
    expect(refusal(withChanged("alt.csv", (text) => text.replace('"fka"', '"xyz"')))).toBe('alt.csv, line 3: alt_type must be aka, fka or nka (found "xyz")');
    expect(refusal(withChanged("sdn.csv", (text) => text.replace('"vessel"', '"spaceship"')))).toBe('sdn.csv, line 4: SDN_Type must be individual, vessel, aircraft or -0- (found "spaceship")');
    expect(refusal(withChanged("sdn.csv", (text) => text.replace("1003,", "1001,")))).toBe("sdn.csv, line 3: ent_num 1001 appears twice");
  });

  it("text after the end-of-file mark, and control characters", () => {
    expect(refusal(withChanged("add.csv", (text) => `${text}1001,299,"x","y","z","-0- "\r\n`))).toBe("add.csv, line 5: text after the end-of-file mark");
    expect(refusal(withChanged("sdn.csv", (text) => text.replace("SEA FALCON", "SEA\u0007FALCON")))).toBe("sdn.csv, line 4: control characters in the line");
  });

  it("a file that is not one of the list's, or a list without all its files", () => {
    expect(refusal([...sdnFiles(), { name: "/downloads/sdn.xml", content: "" }])).toMatch(/^sdn\.xml: not one of OFAC's CSV files/);
    expect(refusal(sdnFiles().filter((file) => file.name !== "alt.csv"))).toBe("alt.csv: missing: the SDN list is loaded from sdn.csv, add.csv, alt.csv together");
    expect(refusal([...sdnFiles(), read("sdn", "sdn.csv")])).toBe("sdn.csv: given twice");
  });
});
